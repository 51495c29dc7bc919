// matmul_custom.cpp: C = A * B + bias with the Matmul high-level API, A [M, K] and B [K, N] in
// half, bias [N] and C [M, N] in float, split over the cores by the host's tiling: each block
// computes its [singleCoreM, singleCoreN] part, smaller at the edges.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_custom_tiling.h"

using namespace AscendC;
using namespace matmul;

namespace {

__aicore__ inline uint32_t Ceiling(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__aicore__ inline void CopyTiling(MatmulCustomTilingData* tiling, GM_ADDR tilingGM) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGM);
  for (uint32_t i = 0; i < sizeof(MatmulCustomTilingData) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

}  // namespace

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tilingGM) {
  MatmulCustomTilingData tilingData;
  CopyTiling(&tilingData, tilingGM);
  const TCubeTiling& t = tilingData.cubeTilingData;
  if (GetBlockIdx() >= int64_t(t.usedCoreNum)) return;
  // This block's part: offsets from its row and column of the split.
  const uint32_t mBlocks = Ceiling(t.M, t.singleCoreM);
  const uint32_t mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
  const uint32_t offsetA = mIdx * t.Ka * t.singleCoreM;
  const uint32_t offsetB = nIdx * t.singleCoreN;
  const uint32_t offsetC = mIdx * t.N * t.singleCoreM + nIdx * t.singleCoreN;
  const uint32_t offsetBias = nIdx * t.singleCoreN;
  GlobalTensor<half> aGlobal, bGlobal;
  GlobalTensor<float> biasGlobal, cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
  biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
  int32_t tailM = t.M - mIdx * t.singleCoreM;
  tailM = tailM < t.singleCoreM ? tailM : t.singleCoreM;
  int32_t tailN = t.N - nIdx * t.singleCoreN;
  tailN = tailN < t.singleCoreN ? tailN : t.singleCoreN;

  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      matmulObj;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), matmulObj, &tilingData.cubeTilingData);
  matmulObj.SetTail(tailM, tailN);
  matmulObj.SetTensorA(aGlobal[offsetA]);
  matmulObj.SetTensorB(bGlobal[offsetB]);
  matmulObj.SetBias(biasGlobal[offsetBias]);
  matmulObj.IterateAll(cGlobal[offsetC]);
  matmulObj.End();
  (void)workspace;
}
