// file_test.cpp: atomic outputs and mapped inputs.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "asc/support/file.h"
#include "asc/support/fp16.h"

using namespace asc;

namespace {
// The resident kB of the mapping that holds `p`, from /proc/self/smaps.
long residentKb(const void* p) {
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inside = false;
  const auto at = reinterpret_cast<uintptr_t>(p);
  while (std::getline(in, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find('-')) {
      inside = at >= lo && at < hi;
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      return std::stol(line.substr(4));
    }
  }
  return -1;
}
}  // namespace

TEST_CASE("OutputFile is invisible until keep()", "[support]") {
  REQUIRE(makeDirs(ASC_TEST_TMP "/file").isOk());
  std::string path = ASC_TEST_TMP "/file/out.bin";
  std::remove(path.c_str());
  {
    auto f = OutputFile::create(path);
    REQUIRE(f.isOk());
    REQUIRE((*f)->write("abc", 3).isOk());
    CHECK_FALSE(fileExists(path));
  }  // dropped without keep(): nothing appears
  CHECK_FALSE(fileExists(path));
  auto f = OutputFile::create(path);
  REQUIRE(f.isOk());
  REQUIRE((*f)->write("abcdef", 6).isOk());
  REQUIRE((*f)->writeAt(0, "X", 1).isOk());
  REQUIRE((*f)->keep().isOk());
  auto m = MappedFile::open(path);
  REQUIRE(m.isOk());
  CHECK(std::string(reinterpret_cast<const char*>((*m)->data()), (*m)->size()) == "Xbcdef");
}

TEST_CASE("keep() replaces an existing file whole and leaves nothing beside it", "[support]") {
  const std::string dir = ASC_TEST_TMP "/file-replace";
  REQUIRE(makeDirs(dir).isOk());
  const std::string path = dir + "/out.bin", sub = dir + "/sub";
  std::remove(sub.c_str());  // from an earlier run
  REQUIRE(writeFileAtomic(path, "old contents", 12).isOk());
  // A reader holding the old file keeps reading the old bytes (the exchange unlinks, never
  // rewrites, it), and the path then holds the new ones.
  auto old_map = MappedFile::open(path);
  REQUIRE(old_map.isOk());
  REQUIRE(writeFileAtomic(path, "new", 3).isOk());
  CHECK(std::string(reinterpret_cast<const char*>((*old_map)->data()), 12) == "old contents");
  auto m = MappedFile::open(path);
  REQUIRE(m.isOk());
  CHECK(std::string(reinterpret_cast<const char*>((*m)->data()), (*m)->size()) == "new");
  auto names = listDir(dir, true);
  REQUIRE(names.isOk());
  CHECK(names->size() == 1);  // no temporary file and no old copy left behind
  // A directory in the way is never swapped out: the write fails and the directory stays.
  REQUIRE(makeDirs(sub).isOk());
  CHECK_FALSE(writeFileAtomic(sub, "x", 1).isOk());
  CHECK(isDirectory(sub));
}

TEST_CASE("errors name the file", "[support]") {
  auto m = MappedFile::open("/no/such/file");
  REQUIRE_FALSE(m.isOk());
  CHECK(m.status().code() == ErrorCode::FileOpenFailed);
  CHECK(m.status().message().find("/no/such/file") != std::string::npos);
  auto f = OutputFile::create("/no/such/dir/out");
  REQUIRE_FALSE(f.isOk());
  CHECK(f.status().code() == ErrorCode::FileWriteFailed);
}

TEST_CASE("path helpers", "[support]") {
  CHECK(dirName("a/b/c.om") == "a/b");
  CHECK(dirName("c.om") == ".");
  CHECK(fileStem("a/b/m.onnx") == "m");
  CHECK(fileStem("a/b/m") == "m");
}

TEST_CASE("fp16 conversions round to nearest even", "[support]") {
  for (float f : {0.f, 1.f, -2.5f, 65504.f, 6.1035156e-05f, 5.9604645e-08f, 0.33325195f})
    CHECK(halfToFloat(floatToHalf(f)) == f);
  CHECK(floatToHalf(1e6f) == 0x7c00);                // overflow to +inf
  CHECK(floatToHalf(1.0f + 1.0f / 2048) == 0x3c00);  // tie to even
  CHECK(halfToFloat(0x0001) == 5.9604645e-08f);      // smallest subnormal
  CHECK(bf16ToFloat(floatToBf16(1.5f)) == 1.5f);
}

TEST_CASE("release() gives a mapping's pages back and they read the same again", "[support]") {
  REQUIRE(makeDirs(ASC_TEST_TMP "/file").isOk());
  const std::string path = ASC_TEST_TMP "/file/release.bin";
  const size_t n = size_t(16) << 20;
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), n);
  auto m = MappedFile::open(path);
  REQUIRE(m.isOk());
  const MappedFile& f = **m;
  volatile uint8_t sink = 0;
  for (size_t i = 0; i < n; i += 4096) sink = sink + f.data()[i];  // every page read once
  CHECK(residentKb(f.data()) >= long(n / 1024));
  // An unaligned range gives back the pages wholly inside it (and, where the kernel maps the
  // file in 2 MiB pieces, the pieces they lie in: those come back from the file just the same).
  f.release(100, n - 200);
  CHECK(residentKb(f.data()) < long(n / 1024));
  CHECK(std::memcmp(f.data(), bytes.data(), n) == 0);  // read again from the file, unchanged
  f.release(n + 5, 10);                                // past the end: nothing
  CHECK(residentKb(f.data()) >= long(n / 1024));
  f.release(0, ~uint64_t(0));  // to the end: everything
  CHECK(residentKb(f.data()) == 0);
}
