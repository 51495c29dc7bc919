// slice_softmax_test.cpp: DataCopy's slice form (SliceInfo), the bitwise And/Or, and the SoftMax
// high-level API with its host tiling, each against a naive loop written here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <cstdint>
#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

/// Runs `body` as one block; the error message, "" when it ran.
std::string inBlock(const std::function<void()>& body) {
  asc::Status st = asc::ascendc::launchKernel("k", 1, body);
  return st.isOk() ? "" : st.toString();
}

}  // namespace

TEST_CASE("DataCopy with SliceInfo takes pieces of rows out of global memory and back",
          "[ascendc]") {
  // A [3, 87] float tensor; the slice takes rows 0 and 2 (every second row), and from each the
  // pieces [16, 40) and [47, 71) (24 elements: 3 blocks of 32 bytes, 7 skipped between), into a
  // dense [2, 48] one.
  std::vector<float> gm(3 * 87), back(2 * 48, -1.0f);
  for (size_t i = 0; i < gm.size(); ++i) gm[i] = float(i);
  std::vector<float> want;
  for (int r : {0, 2})
    for (int lo : {16, 47})
      for (int j = lo; j < lo + 24; ++j) want.push_back(float(r * 87 + j));
  std::vector<float> got;
  REQUIRE(inBlock([&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 96 * sizeof(float));
            LocalTensor<float> ub = buf.Get<float>();
            GlobalTensor<float> src, dst;
            src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm.data()), gm.size());
            dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(back.data()), back.size());
            SliceInfo srcInfo[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
            SliceInfo dstInfo[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
            DataCopy(ub, src, dstInfo, srcInfo, 2);
            for (int i = 0; i < 96; ++i) got.push_back(ub.GetValue(i));
            DataCopy(dst, ub, dstInfo, dstInfo, 2);
          }) == "");
  CHECK(got == want);
  CHECK(back == want);
}

TEST_CASE("DataCopy with SliceInfo refuses slices that leave their tensor or do not match",
          "[ascendc]") {
  std::vector<float> gm(3 * 87, 0.0f);
  auto attempt = [&](SliceInfo s0, SliceInfo s1, SliceInfo d0, SliceInfo d1) {
    return inBlock([&] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 96 * sizeof(float));
      LocalTensor<float> ub = buf.Get<float>();
      GlobalTensor<float> src;
      src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm.data()), gm.size());
      SliceInfo srcInfo[] = {s0, s1}, dstInfo[] = {d0, d1};
      DataCopy(ub, src, dstInfo, srcInfo, 2);
    });
  };
  // A piece past the tensor's end (row 2's last piece runs 9 elements beyond it).
  CHECK_THAT(attempt({80, 80, 0, 2, 87}, {2, 2, 0, 1, 3}, {0, 15, 0, 2, 16}, {0, 0, 0, 1, 1}),
             Catch::Contains("[254, 270) of a GlobalTensor whose memory holds 261 elements"));
  // A row index past the tensor's 3 rows.
  CHECK_THAT(attempt({0, 23, 0, 3, 87}, {0, 3, 2, 1, 3}, {0, 47, 0, 3, 48}, {0, 0, 0, 1, 1}),
             Catch::Contains("index 3 is outside the dimension's 3 elements"));
  // burstLen beyond dimension 0.
  CHECK_THAT(attempt({0, 23, 0, 3, 87}, {0, 0, 0, 2, 3}, {0, 23, 0, 3, 24}, {0, 0, 0, 1, 1}),
             Catch::Contains("burstLen is 2; beyond dimension 0 it must be 1"));
  // 24 elements taken, 48 to fill.
  CHECK_THAT(attempt({0, 23, 0, 3, 87}, {0, 0, 0, 1, 3}, {0, 47, 0, 3, 48}, {0, 0, 0, 1, 1}),
             Catch::Contains("the source slice holds 24 elements and the destination slice 48"));
}

TEST_CASE("And and Or on 16-bit integers, count and repeat forms", "[ascendc]") {
  std::vector<uint16_t> a(128), b(128), land, lor, rand_;
  for (int i = 0; i < 128; ++i) {
    a[i] = uint16_t(i * 2654435761u >> 7);
    b[i] = uint16_t(i * 40503u + 17);
  }
  REQUIRE(inBlock([&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b0, b1, b2;
            pipe.InitBuffer(b0, 128 * 2);
            pipe.InitBuffer(b1, 128 * 2);
            pipe.InitBuffer(b2, 128 * 2);
            LocalTensor<uint16_t> x = b0.Get<uint16_t>(), y = b1.Get<uint16_t>(),
                                  z = b2.Get<uint16_t>();
            for (int i = 0; i < 128; ++i) {
              x.SetValue(i, a[i]);
              y.SetValue(i, b[i]);
            }
            And(z, x, y, 100);
            for (int i = 0; i < 100; ++i) land.push_back(z.GetValue(i));
            Or(z, x, y, 100);
            for (int i = 0; i < 100; ++i) lor.push_back(z.GetValue(i));
            // Two repeats of the 128 elements' first 64 (8 blocks each, contiguous).
            And(z, x, y, uint64_t(64), 2, {1, 1, 1, 4, 4, 4});
            for (int i = 0; i < 128; ++i) rand_.push_back(z.GetValue(i));
          }) == "");
  for (int i = 0; i < 100; ++i) {
    CHECK(land[i] == uint16_t(a[i] & b[i]));
    CHECK(lor[i] == uint16_t(a[i] | b[i]));
  }
  for (int i = 0; i < 128; ++i) CHECK(rand_[i] == uint16_t(a[i] & b[i]));
}

TEST_CASE("SoftMax rows against a naive softmax, float and half with float sum and max",
          "[ascendc]") {
  constexpr uint32_t m = 3, k = 40;
  // The host tiling of a [3, 40] source.
  optiling::SoftMaxTiling host;
  const uint32_t tmp = GetSoftMaxMinTmpSize(ge::Shape({m, k}), 4, false);
  CHECK(tmp > 0);
  CHECK(GetSoftMaxMaxTmpSize(ge::Shape({m, k}), 4, false) >= tmp);
  SoftMaxTilingFunc(ge::Shape({m, k}), 4, tmp, host);
  CHECK(host.srcM == m);
  CHECK(host.srcK == k);
  std::vector<uint8_t> bytes(host.GetDataSize());
  host.SaveToBuffer(bytes.data(), bytes.size());
  SoftMaxTiling kernelTiling;
  std::memcpy(&kernelTiling, bytes.data(), std::min(sizeof kernelTiling, bytes.size()));

  std::vector<float> x(m * k);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 37 % 23) - 11) / 4.0f;
  std::vector<float> y(m * k), sum(m), mx(m);
  for (uint32_t r = 0; r < m; ++r) {
    float hi = -INFINITY, total = 0;
    for (uint32_t j = 0; j < k; ++j) hi = std::max(hi, x[r * k + j]);
    for (uint32_t j = 0; j < k; ++j) total += std::exp(x[r * k + j] - hi);
    for (uint32_t j = 0; j < k; ++j) y[r * k + j] = std::exp(x[r * k + j] - hi) / total;
    sum[r] = total;
    mx[r] = hi;
  }

  std::vector<float> fy, fsum, fmax, hy, hsum, oy;
  REQUIRE(inBlock([&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> bx, by, bs, bm, hx, hyb, tmpb;
            pipe.InitBuffer(bx, m * k * 4);
            pipe.InitBuffer(by, m * k * 4);
            pipe.InitBuffer(bs, m * 32);
            pipe.InitBuffer(bm, m * 32);
            pipe.InitBuffer(hx, m * k * 2);
            pipe.InitBuffer(hyb, m * k * 2);
            pipe.InitBuffer(tmpb, tmp);
            LocalTensor<float> xs = bx.Get<float>(), ys = by.Get<float>(), ss = bs.Get<float>(),
                               ms = bm.Get<float>();
            LocalTensor<half> xh = hx.Get<half>(), yh = hyb.Get<half>();
            for (uint32_t i = 0; i < m * k; ++i) {
              xs.SetValue(i, x[i]);
              xh.SetValue(i, half(x[i]));
            }
            SoftMax<float>(ys, ss, ms, xs, kernelTiling, {m, k, m, k});
            for (uint32_t i = 0; i < m * k; ++i) fy.push_back(ys.GetValue(i));
            for (uint32_t i = 0; i < m * 8; ++i) {
              fsum.push_back(ss.GetValue(i));
              fmax.push_back(ms.GetValue(i));
            }
            // half data, float sum and max; the shape from the tiling.
            SoftMax<half>(yh, ss, ms, xh, tmpb.Get<uint8_t>(), kernelTiling);
            for (uint32_t i = 0; i < m * k; ++i) hy.push_back(float(yh.GetValue(i)));
            for (uint32_t i = 0; i < m * 8; ++i) hsum.push_back(ss.GetValue(i));
            // Only the first 33 of each row's 40 elements are data.
            SoftMax<float>(ys, xs, kernelTiling, {m, k, m, 33});
            for (uint32_t i = 0; i < m * k; ++i) oy.push_back(ys.GetValue(i));
          }) == "");
  for (uint32_t i = 0; i < m * k; ++i) {
    CHECK(fy[i] == Approx(y[i]).epsilon(1e-6));
    CHECK(hy[i] == Approx(y[i]).margin(1e-3));
  }
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t j = 0; j < 8; ++j) {
      CHECK(fsum[r * 8 + j] == Approx(sum[r]).epsilon(1e-6));
      CHECK(fmax[r * 8 + j] == mx[r]);
      CHECK(hsum[r * 8 + j] == Approx(sum[r]).epsilon(1e-2));
    }
  for (uint32_t r = 0; r < m; ++r) {
    float hi = -INFINITY, total = 0;
    for (uint32_t j = 0; j < 33; ++j) hi = std::max(hi, x[r * k + j]);
    for (uint32_t j = 0; j < 33; ++j) total += std::exp(x[r * k + j] - hi);
    for (uint32_t j = 0; j < 33; ++j)
      CHECK(oy[r * k + j] == Approx(std::exp(x[r * k + j] - hi) / total).epsilon(1e-6));
    for (uint32_t j = 33; j < k; ++j) CHECK(oy[r * k + j] == 0.0f);
  }
}

TEST_CASE("SoftMax refuses an empty shape and oriSrcK past srcK", "[ascendc]") {
  SoftMaxTiling none{};
  auto attempt = [&](SoftMaxShapeInfo info) {
    return inBlock([&] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> b;
      pipe.InitBuffer(b, 256);
      LocalTensor<float> t = b.Get<float>();
      SoftMax<float>(t, t, none, info);
    });
  };
  CHECK_THAT(attempt({}), Catch::Contains("the shape is 0 x 0"));
  CHECK_THAT(attempt({1, 8, 1, 9}), Catch::Contains("oriSrcK 9 exceeds srcK 8"));
}
