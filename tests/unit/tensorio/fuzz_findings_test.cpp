// fuzz_findings_test.cpp: what the fuzzers (tests/fuzz) found in tensorio and ir, fixed and
// kept fixed in the normal build.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>

#include "asc/ir/tensor.h"
#include "asc/tensorio/tensor_file.h"

using namespace asc;

namespace {
Result<ir::Tensor> txt(const std::string& s, ir::DType t) {
  return tensorio::parseTxt(s.data(), s.size(), t, "t.txt");
}
template <typename T>
T at(const ir::Tensor& t, size_t i) {
  T v;
  std::memcpy(&v, t.data->data() + i * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

TEST_CASE("parseTxt rejects a value outside the integer type's range (fuzz_bin)", "[tensorio]") {
  for (const char* s : {"300", "-129", "1e30", "nan", "inf", "-3.4452e+18"}) {
    auto r = txt(s, ir::DType::I8);
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::ModelParseFailed);
    CHECK(r.status().message().find("is not a number that fits") != std::string::npos);
  }
  CHECK_FALSE(txt("-1", ir::DType::U64).isOk());
  CHECK_FALSE(txt("18446744073709551616", ir::DType::U64).isOk());
  CHECK_FALSE(txt("9223372036854775808", ir::DType::I64).isOk());
  CHECK_FALSE(txt("65536", ir::DType::U16).isOk());
}

TEST_CASE("parseTxt reads 64-bit integers exactly and truncates decimals", "[tensorio]") {
  auto u = txt("18446744073709551615 0\n", ir::DType::U64);
  REQUIRE(u.isOk());
  CHECK(at<uint64_t>(*u, 0) == UINT64_MAX);
  auto i = txt("-9223372036854775808 9223372036854775807 -2.7 1e3", ir::DType::I64);
  REQUIRE(i.isOk());
  CHECK(at<int64_t>(*i, 0) == INT64_MIN);
  CHECK(at<int64_t>(*i, 1) == INT64_MAX);
  CHECK(at<int64_t>(*i, 2) == -2);
  CHECK(at<int64_t>(*i, 3) == 1000);
  auto b = txt("-128 127 255", ir::DType::I16);
  REQUIRE(b.isOk());
  CHECK(at<int16_t>(*b, 0) == -128);
}

TEST_CASE("parseTxt reads a float out of range as infinity", "[tensorio]") {
  auto f = txt("1e40 -1e40 2.5", ir::DType::F32);
  REQUIRE(f.isOk());
  CHECK(std::isinf(at<float>(*f, 0)));
  CHECK(at<float>(*f, 1) < 0);
  CHECK(at<float>(*f, 2) == 2.5f);
}

TEST_CASE("formatTxt prints unsigned 64-bit values, and parseTxt reads them back", "[tensorio]") {
  ir::Tensor t;
  t.dtype = ir::DType::U64;
  t.shape = {2};
  const uint64_t v[2] = {UINT64_MAX, 5};
  t.data = ir::Blob::copyOf(v, sizeof v);
  const std::string s = tensorio::formatTxt(t);
  CHECK(s == "18446744073709551615 5 \n");
  auto back = txt(s, ir::DType::U64);
  REQUIRE(back.isOk());
  CHECK(*back == t);
  CHECK(t.floatAt(0) > 1.8e19);
}

TEST_CASE("empty tensors compare equal without touching their null data (fuzz_npy)", "[ir]") {
  ir::Tensor a, b;
  a.dtype = b.dtype = ir::DType::I32;
  a.shape = b.shape = {0, 3};
  a.data = std::make_shared<ir::Blob>(nullptr, 0, nullptr);
  b.data = std::make_shared<ir::Blob>(nullptr, 0, nullptr);
  CHECK(a == b);
  const std::string npy = tensorio::encodeNpy(a);
  auto r = tensorio::parseNpy(npy.data(), npy.size(), "empty.npy");
  REQUIRE(r.isOk());
  CHECK(*r == a);
}

TEST_CASE("intAt saturates a float that does not fit int64", "[ir]") {
  ir::Tensor t;
  t.dtype = ir::DType::F32;
  t.shape = {3};
  const float v[3] = {NAN, 1e30f, -1e30f};
  t.data = ir::Blob::copyOf(v, sizeof v);
  CHECK(t.intAt(0) == 0);
  CHECK(t.intAt(1) == INT64_MAX);
  CHECK(t.intAt(2) == INT64_MIN);
}
