// matmul_test.cpp: the Matmul high-level API (lib/matmul_intf.h) with its host tiling
// (tiling/tiling_api.h): a multi-core split of C = A * B + bias computed block by block as the
// public samples do (per-core offsets from singleCoreM/N, SetTail at the edges), transposed
// operands, tile-by-tile Iterate/GetTensorC, int8, against a naive matmul.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

std::vector<float> naive(const std::vector<float>& a, const std::vector<float>& b,
                         const std::vector<float>* bias, int M, int N, int K, bool ta, bool tb) {
  std::vector<float> c(size_t(M) * N, 0.f);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = bias ? (*bias)[j] : 0.0;
      for (int k = 0; k < K; ++k)
        s += double(ta ? a[size_t(k) * M + i] : a[size_t(i) * K + k]) *
             double(tb ? b[size_t(j) * K + k] : b[size_t(k) * N + j]);
      c[size_t(i) * N + j] = float(s);
    }
  return c;
}

using MmHalf = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
                      MatmulType<TPosition::GM, CubeFormat::ND, half>,
                      MatmulType<TPosition::GM, CubeFormat::ND, float>,
                      MatmulType<TPosition::GM, CubeFormat::ND, float>>;

}  // namespace

TEST_CASE("Matmul over a multi-core tiling matches a naive matmul", "[ascendc][matmul]") {
  for (auto [M, N, K, ta, tb] : std::vector<std::tuple<int, int, int, bool, bool>>{
           {100, 70, 33, false, false}, {64, 48, 40, true, false}, {37, 90, 16, false, true}}) {
    INFO(M << "x" << N << "x" << K << " transA " << ta << " transB " << tb);
    // Values exact in half, so the float accumulation is the only rounding.
    std::vector<float> a(size_t(M) * K), b(size_t(K) * N), bias(N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6) / 4.f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 11) - 5) / 8.f;
    for (int j = 0; j < N; ++j) bias[j] = float(j % 7) - 3.f;
    std::vector<half> ah(a.begin(), a.end()), bh(b.begin(), b.end());
    const auto want = naive(a, b, &bias, M, N, K, ta, tb);

    matmul_tiling::MultiCoreMatmulTiling tiling(platform_ascendc::PlatformAscendC("Ascend910B1"));
    tiling.SetDim(6);
    tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                    matmul_tiling::DataType::DT_FLOAT16, ta);
    tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                    matmul_tiling::DataType::DT_FLOAT16, tb);
    tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                    matmul_tiling::DataType::DT_FLOAT);
    tiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                       matmul_tiling::DataType::DT_FLOAT);
    tiling.SetShape(M, N, K);
    tiling.SetOrgShape(M, N, K);
    tiling.SetBias(true);
    tiling.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling t;
    REQUIRE(tiling.GetTiling(t) == 0);
    CHECK(t.usedCoreNum >= 2);
    CHECK(t.usedCoreNum <= 6);
    CHECK(t.usedCoreNum ==
          ((M + t.singleCoreM - 1) / t.singleCoreM) * ((N + t.singleCoreN - 1) / t.singleCoreN));

    std::vector<float> c(size_t(M) * N, -99.f);
    auto st = asc::ascendc::launchKernel(
        "matmul_custom", uint32_t(t.usedCoreNum),
        [&] {
          TPipe pipe;
          MmHalf mm;
          REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
          // The samples' per-core offsets.
          const int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
          const int mi = int(GetBlockIdx()) % mBlocks, ni = int(GetBlockIdx()) / mBlocks;
          const uint64_t offA =
              ta ? uint64_t(mi) * t.singleCoreM : uint64_t(mi) * t.Ka * t.singleCoreM;
          const uint64_t offB =
              tb ? uint64_t(ni) * t.Kb * t.singleCoreN : uint64_t(ni) * t.singleCoreN;
          const uint64_t offC = uint64_t(mi) * t.N * t.singleCoreM + uint64_t(ni) * t.singleCoreN;
          GlobalTensor<half> ga, gb;
          GlobalTensor<float> gbias, gc;
          ga.SetGlobalBuffer(ah.data() + offA, ah.size() - offA);
          gb.SetGlobalBuffer(bh.data() + offB, bh.size() - offB);
          gbias.SetGlobalBuffer(bias.data() + uint64_t(ni) * t.singleCoreN,
                                bias.size() - uint64_t(ni) * t.singleCoreN);
          gc.SetGlobalBuffer(c.data() + offC, c.size() - offC);
          const int tailM = std::min(t.singleCoreM, t.M - mi * t.singleCoreM);
          const int tailN = std::min(t.singleCoreN, t.N - ni * t.singleCoreN);
          mm.SetTail(tailM, tailN);
          mm.SetTensorA(ga, ta);
          mm.SetTensorB(gb, tb);
          mm.SetBias(gbias);
          mm.IterateAll(gc);
          mm.End();
        },
        {});
    REQUIRE(st.isOk());
    for (size_t i = 0; i < c.size(); ++i) {
      INFO(i);
      REQUIRE(c[i] == Approx(want[i]).margin(1e-4));
    }
  }
}

namespace {
/// An int8 x int8 -> int32 tiling of one core for M x N x K.
matmul_tiling::MatmulApiTiling int8Tiling(int M, int N, int K) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                  matmul_tiling::DataType::DT_INT8);
  tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                  matmul_tiling::DataType::DT_INT8);
  tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                  matmul_tiling::DataType::DT_INT32);
  tiling.SetShape(M, N, K);
  return tiling;
}
}  // namespace

TEST_CASE("Matmul tile by tile: Iterate and GetTensorC, atomic add, int8", "[ascendc][matmul]") {
  const int M = 40, N = 36, K = 24;
  std::vector<float> a(size_t(M) * K), b(size_t(K) * N);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 9) - 4);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 7) - 3);
  const auto want = naive(a, b, nullptr, M, N, K, false, false);
  matmul_tiling::MatmulApiTiling tiling = int8Tiling(M, N, K);
  tiling.SetFixSplit(16, 16, -1);  // 3 x 3 tiles, the last ones partial
  optiling::TCubeTiling t;
  REQUIRE(tiling.GetTiling(t) == 0);
  CHECK(t.baseM == 16);
  std::vector<int8_t> a8(a.begin(), a.end()), b8(b.begin(), b.end());
  std::vector<int32_t> c(size_t(M) * N, 1), dense;
  int tiles = 0;
  auto st = asc::ascendc::launchKernel("mm_tiles", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 16 * sizeof(int32_t));
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int32_t>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
    GlobalTensor<int8_t> ga, gb;
    GlobalTensor<int32_t> gc;
    ga.SetGlobalBuffer(a8.data(), a8.size());
    gb.SetGlobalBuffer(b8.data(), b8.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    LocalTensor<int32_t> tile = buf.Get<int32_t>();
    while (mm.template Iterate<true>()) {
      mm.template GetTensorC<true>(gc, 1);  // atomic add onto the 1s already there
      if (tiles++ == 0) {
        mm.template GetTensorC<true>(tile, 0, true);
        for (int i = 0; i < 256; ++i) dense.push_back(tile.GetValue(i));
      }
    }
    mm.End();
  });
  REQUIRE(st.isOk());
  CHECK(tiles == 9);
  for (size_t i = 0; i < c.size(); ++i) REQUIRE(c[i] == int32_t(want[i]) + 1);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) CHECK(dense[i * 16 + j] == int32_t(want[size_t(i) * N + j]));
  // GetTensorC before Iterate, and a tiling with no shape, fail naming the cause.
  auto early = asc::ascendc::launchKernel("mm_bad", 1, [&] {
    MmHalf mm;
    optiling::TCubeTiling empty;
    mm.Init(&empty);
  });
  CHECK(early.message().find("the tiling holds no shape") != std::string::npos);
  matmul_tiling::MatmulApiTiling unset;
  optiling::TCubeTiling u;
  CHECK(unset.GetTiling(u) == -1);
  // SetOrgShape to fewer rows than the tiling's block (a grouped matmul reusing one object):
  // the block would run past the shape, so it stops naming SetTail; with SetTail it computes.
  const int rows = 16;
  std::vector<int32_t> c16(size_t(rows) * N, 0);
  auto runGroup = [&](bool tail) {
    return asc::ascendc::launchKernel("mm_group", 1, [&] {
      TPipe pipe;
      Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
             MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
             MatmulType<TPosition::GM, CubeFormat::ND, int32_t>>
          mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      GlobalTensor<int8_t> ga, gb;
      GlobalTensor<int32_t> gc;
      ga.SetGlobalBuffer(a8.data(), size_t(rows) * K);
      gb.SetGlobalBuffer(b8.data(), b8.size());
      gc.SetGlobalBuffer(c16.data(), c16.size());
      mm.SetOrgShape(rows, N, K);
      if (tail) mm.SetTail(rows, N, K);
      mm.SetTensorA(ga);
      mm.SetTensorB(gb);
      mm.IterateAll(gc);
      mm.End();
    });
  };
  auto past = runGroup(false);
  CHECK(past.message().find("is larger than the original shape 16x36x24") != std::string::npos);
  CHECK(past.message().find("call SetTail(m, n, k)") != std::string::npos);
  REQUIRE(runGroup(true).isOk());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < N; ++j) REQUIRE(c16[size_t(i) * N + j] == int32_t(want[size_t(i) * N + j]));
}

TEST_CASE("Matmul's asynchronous form: Iterate<false> once, then one tile per GetTensorC<false>",
          "[ascendc][matmul]") {
  const int M = 40, N = 36, K = 24;
  std::vector<float> a(size_t(M) * K), b(size_t(K) * N);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 9) - 4);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 7) - 3);
  const auto want = naive(a, b, nullptr, M, N, K, false, false);
  matmul_tiling::MatmulApiTiling tiling = int8Tiling(M, N, K);
  tiling.SetFixSplit(16, 16, -1);  // 3 x 3 tiles, M first
  optiling::TCubeTiling t;
  REQUIRE(tiling.GetTiling(t) == 0);
  std::vector<int8_t> a8(a.begin(), a.end()), b8(b.begin(), b.end());
  std::vector<std::vector<int32_t>> tiles;
  auto st = asc::ascendc::launchKernel("mm_async", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 16 * sizeof(int32_t));
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, int32_t>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
    GlobalTensor<int8_t> ga, gb;
    ga.SetGlobalBuffer(a8.data(), a8.size());
    gb.SetGlobalBuffer(b8.data(), b8.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    CHECK(mm.template Iterate<false>());
    LocalTensor<int32_t> tile = buf.Get<int32_t>();
    for (int i = 0; i < 9; ++i) {
      mm.template GetTensorC<false>(tile, 0, true);
      tiles.emplace_back();
      for (int e = 0; e < 256; ++e) tiles.back().push_back(tile.GetValue(e));
    }
    mm.template GetTensorC<false>(tile, 0, true);  // a tenth: none is left
  });
  CHECK(st.message().find("every tile of the asynchronous Iterate<false> was fetched already") !=
        std::string::npos);
  REQUIRE(tiles.size() == 9);
  for (int k = 0; k < 9; ++k) {  // tile k is row tile k % 3, column tile k / 3
    const int m0 = (k % 3) * 16, n0 = (k / 3) * 16;
    for (int i = 0; i < 16 && m0 + i < M; ++i)
      for (int j = 0; j < 16 && n0 + j < N; ++j)
        REQUIRE(tiles[k][size_t(i) * 16 + j] == int32_t(want[size_t(m0 + i) * N + n0 + j]));
  }
}
