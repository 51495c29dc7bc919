// main.cpp: the host program. In CPU mode (ASCENDC_CPU_DEBUG, set by the tikicpulib target) it
// allocates global memory with GmAlloc and launches with ICPU_RUN_KF: 8 blocks of 512 values,
// the top 32 of each.
#include <cstring>

#include "data_utils.h"
#include "topk_custom_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void topk_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices,
                                                  GM_ADDR workspace, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char* argv[]) {
  (void)argc;
  (void)argv;
  constexpr uint32_t blockDim = 8;
  TopkCustomTilingData tiling;
  tiling.lengthPerBlock = 512;
  tiling.k = 32;
  const size_t xBytes = blockDim * tiling.lengthPerBlock * sizeof(float);
  const size_t outBytes = blockDim * tiling.k * sizeof(float);
#ifdef ASCENDC_CPU_DEBUG
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(xBytes);
  uint8_t* values = (uint8_t*)AscendC::GmAlloc(outBytes);
  uint8_t* indices = (uint8_t*)AscendC::GmAlloc(outBytes);
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(32);
  uint8_t* tilingBuf = (uint8_t*)AscendC::GmAlloc(sizeof(tiling));
  std::memcpy(tilingBuf, &tiling, sizeof(tiling));
  if (!ReadFile("./input/input_x.bin", xBytes, x)) return 1;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(topk_custom, blockDim, x, values, indices, workspace, tilingBuf);
  if (!asc::ascendc::lastLaunchStatus().isOk()) return 1;
  WriteFile("./output/output_values.bin", values, outBytes);
  WriteFile("./output/output_indices.bin", indices, outBytes);
  AscendC::GmFree(x);
  AscendC::GmFree(values);
  AscendC::GmFree(indices);
  AscendC::GmFree(workspace);
  AscendC::GmFree(tilingBuf);
#else
  (void)xBytes;
  (void)outBytes;
  return 1;  // the NPU side is not part of this test project
#endif
  return 0;
}
