// broadcast_test.cpp: BroadCast (a scalar to a row, a row to rows, a column to columns, against
// a naive loop), its shape rules, and TBuf::FreeTensor (CANN's TBuf has it; it checks the view).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {

std::string runK(const std::function<void()>& body) {
  asc::Status st = asc::ascendc::launchKernel("k", 1, body, {});
  return st.isOk() ? "" : st.message();
}

}  // namespace

TEST_CASE("BroadCast repeats a tensor along one axis", "[ascendc][broadcast]") {
  std::vector<float> scalar, rows, cols;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(tmp, 1024);
    LocalTensor<float> s = buf.Get<float>(), d = buf.Get<float>()[64];
    for (int i = 0; i < 64; ++i) s.SetValue(i, float(i + 1));
    const uint32_t one[] = {1}, five[] = {5};
    BroadCast<float, 1, 0>(d, s, five, one);
    for (int i = 0; i < 5; ++i) scalar.push_back(d.GetValue(i));
    const uint32_t row[] = {1, 4}, rows4[] = {3, 4};  // [1,4] -> [3,4]
    BroadCast<float, 2, 0>(d, s, rows4, row);
    for (int i = 0; i < 12; ++i) rows.push_back(d.GetValue(i));
    const uint32_t col[] = {4, 1}, cols3[] = {4, 3};  // [4,1] -> [4,3], with the shared buffer
    LocalTensor<uint8_t> t = tmp.Get<uint8_t>();
    BroadCast<float, 2, 1>(d, s, cols3, col, t);
    tmp.FreeTensor(t);
    for (int i = 0; i < 12; ++i) cols.push_back(d.GetValue(i));
  });
  REQUIRE(msg.empty());
  CHECK(scalar == std::vector<float>(5, 1.f));
  std::vector<float> want_rows, want_cols;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) want_rows.push_back(float(c + 1));
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) want_cols.push_back(float(r + 1));
  CHECK(rows == want_rows);
  CHECK(cols == want_cols);
}

TEST_CASE("BroadCast's shapes and TBuf::FreeTensor are checked", "[ascendc][broadcast]") {
  CHECK(runK([] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, 256 * sizeof(float));
          LocalTensor<float> s = buf.Get<float>(), d = buf.Get<float>()[64];
          const uint32_t src[] = {2, 4}, dst[] = {6, 4};  // axis 0 of src is not 1
          BroadCast<float, 2, 0>(d, s, dst, src);
        }).find("srcShape[0] is 2") != std::string::npos);
  CHECK(runK([] {
          TPipe pipe;
          TBuf<TPosition::VECCALC> a, b;
          pipe.InitBuffer(a, 256);
          pipe.InitBuffer(b, 256);
          LocalTensor<float> t = a.Get<float>();
          b.FreeTensor(t);
        }).find("not one this TBuf gave") != std::string::npos);
}
