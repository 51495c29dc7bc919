// checksum_test.cpp: the OM's integrity record (om/checksum.h): the writer's streaming hash equals
// the reader's parallel one for any piece sizes, every flipped byte changes it, and the record's
// layout is the documented one.
#include "om/checksum.h"

#include <catch2/catch.hpp>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

using namespace asc;

namespace {
// The record's partition hash from its definition (checksum.h), written out independently of the
// library: XXH3-64 of the little-endian XXH3-64s of the 4 MiB chunks.
uint64_t partitionHash(const uint8_t* data, uint64_t size) {
  std::vector<uint64_t> chunks;
  for (uint64_t at = 0; at < size; at += uint64_t(1) << 22)
    chunks.push_back(XXH3_64bits(data + at, std::min<uint64_t>(uint64_t(1) << 22, size - at)));
  return XXH3_64bits(chunks.data(), chunks.size() * 8);
}
// The writer's hash of one partition fed in one piece.
uint64_t streamed(const uint8_t* data, size_t size) {
  om::PartitionHasher h;
  h.update(data, size);
  return h.finish();
}
}  // namespace

TEST_CASE("the streamed partition hash equals the parallel one at any piece size",
          "[om][checksum]") {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> data(3 * om::kChunk + 12345);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  for (size_t size : {size_t(0), size_t(1), size_t(63), om::kChunk - 1, om::kChunk, om::kChunk + 1,
                      2 * om::kChunk, data.size()}) {
    INFO("size " << size);
    const uint64_t want = partitionHash(data.data(), size);
    for (size_t piece : {size_t(1) << 20, size_t(4099), om::kChunk, om::kChunk + 7}) {
      om::PartitionHasher h;
      for (size_t at = 0; at < size; at += piece)
        h.update(data.data() + at, std::min(piece, size - at));
      CHECK(h.finish() == want);
    }
  }
  // The hasher starts over after finish(): two partitions in a row hash as each alone.
  om::PartitionHasher h;
  h.update(data.data(), 100);
  CHECK(h.finish() == partitionHash(data.data(), 100));
  h.update(data.data() + 100, 200);
  CHECK(h.finish() == partitionHash(data.data() + 100, 200));
  // An empty partition is the hash of no chunks, and differs from a partition of one zero byte.
  const uint8_t zero = 0;
  CHECK(streamed(nullptr, 0) == partitionHash(nullptr, 0));
  CHECK(streamed(&zero, 1) != streamed(nullptr, 0));
}

TEST_CASE("a flipped bit anywhere changes the partition hash", "[om][checksum]") {
  std::vector<uint8_t> data(om::kChunk + 999, 0xA5);
  const uint64_t want = streamed(data.data(), data.size());
  for (size_t pos : {size_t(0), size_t(1), om::kChunk - 1, om::kChunk, data.size() - 1}) {
    for (int bit = 0; bit < 8; bit += 3) {
      data[pos] ^= uint8_t(1 << bit);
      CHECK(streamed(data.data(), data.size()) != want);
      data[pos] ^= uint8_t(1 << bit);
    }
  }
  CHECK(streamed(data.data(), data.size()) == want);
  // Moving bytes between chunks (the same bytes, other chunk boundaries) changes it too.
  std::vector<uint8_t> a(2 * om::kChunk, 0), b(2 * om::kChunk, 0);
  a[0] = 1;
  b[om::kChunk] = 1;
  CHECK(streamed(a.data(), a.size()) != streamed(b.data(), b.size()));
}

TEST_CASE("the record's layout in checksum[64]", "[om][checksum]") {
  uint8_t c[64];
  std::memset(c, 0xEE, sizeof c);
  om::storeTreeChecksum(c, 0x1122334455667788ull, {1, 2, 3});
  CHECK(std::memcmp(c, "ASCX", 4) == 0);
  CHECK(c[4] == 1);
  CHECK(c[5] == 22);
  CHECK(c[6] == 3);
  CHECK(c[7] == 0);
  uint64_t v;
  std::memcpy(&v, c + 8, 8);
  CHECK(v == 0x1122334455667788ull);
  std::memcpy(&v, c + 32, 8);
  CHECK(v == 3);
  for (size_t i = 40; i < 64; ++i) CHECK(c[i] == 0);
  // The header's hash ignores the checksum field itself, and nothing else.
  std::vector<uint8_t> hdr(256, 7), table(40, 9);
  const uint64_t h = om::headerHash(hdr.data(), table.data(), table.size());
  std::memset(hdr.data() + 12, 0x55, 64);
  CHECK(om::headerHash(hdr.data(), table.data(), table.size()) == h);
  hdr[84] ^= 1;
  CHECK(om::headerHash(hdr.data(), table.data(), table.size()) != h);
  hdr[84] ^= 1;
  table[0] ^= 1;
  CHECK(om::headerHash(hdr.data(), table.data(), table.size()) != h);
}
