// matmul_custom.cpp: the MatmulCustom kernel. Each block computes its [singleCoreM, singleCoreN]
// part of c (smaller at the edges) with the Matmul high-level API.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  const TCubeTiling& t = tilingData.cubeTilingData;
  if (GetBlockIdx() >= t.usedCoreNum) {
    return;
  }
  const int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
  const int32_t mIdx = GetBlockIdx() % mBlocks;
  const int32_t nIdx = GetBlockIdx() / mBlocks;
  GlobalTensor<half> aGlobal;
  GlobalTensor<half> bGlobal;
  GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
  const int32_t tailM =
      t.M - mIdx * t.singleCoreM < t.singleCoreM ? t.M - mIdx * t.singleCoreM : t.singleCoreM;
  const int32_t tailN =
      t.N - nIdx * t.singleCoreN < t.singleCoreN ? t.N - nIdx * t.singleCoreN : t.singleCoreN;

  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTilingData);
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(aGlobal[mIdx * t.singleCoreM * t.Ka]);
  mm.SetTensorB(bGlobal[nIdx * t.singleCoreN]);
  mm.IterateAll(cGlobal[mIdx * t.singleCoreM * t.N + nIdx * t.singleCoreN]);
  mm.End();
  (void)workspace;
}
