// matmul_cann7.cpp: C = A * B in the shape of CANN 7's Matmul kernels: the cube-side MatmulImpl
// (lib/matrix/matmul/matmul.h) set up with Init(&tiling, &pipe), the vector cores returning at
// g_coreType == AIV, the tiling copied word by word from global memory, each block taking its
// [singleCoreM, singleCoreN] part (offsets through Ceil). A [M, K] and B [K, N] half, C float.
#include "kernel_operator.h"
#include "lib/matrix/matmul/matmul.h"

using namespace AscendC;
using namespace matmul;

namespace {

__aicore__ inline void ReadTiling(TCubeTiling* tiling, GM_ADDR tilingGM) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGM);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

}  // namespace

extern "C" __global__ __aicore__ void matmul_cann7(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                   GM_ADDR tilingGM) {
  if (g_coreType == AIV) return;  // the cube core computes; the vector cores have nothing to do
  TPipe pipe;
  TCubeTiling tiling;
  ReadTiling(&tiling, tilingGM);
  if (GetBlockIdx() >= tiling.usedCoreNum) return;

  const int32_t mBlocks = Ceil(tiling.M, tiling.singleCoreM);
  const int32_t mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
  const int32_t tailM = tiling.M - mIdx * tiling.singleCoreM;
  const int32_t tailN = tiling.N - nIdx * tiling.singleCoreN;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);

  using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  MatmulImpl<AType, BType, CType, CType> mm;
  mm.SetSubBlockIdx(0);
  mm.Init(&tiling, &pipe);
  mm.SetTail(tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM,
             tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN);
  mm.SetTensorA(aGm[mIdx * tiling.singleCoreM * tiling.Ka]);
  mm.SetTensorB(bGm[nIdx * tiling.singleCoreN]);
  mm.IterateAll(cGm[mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN]);
}
