// main.cpp: the host program. On the NPU it would launch through AscendCL; in CPU mode
// (ASCENDC_CPU_DEBUG, set by the tikicpulib target) it allocates global memory with GmAlloc and
// launches with ICPU_RUN_KF. The tiling key is 1 when the length splits into whole tiles on every
// core, else 2; a first argument overrides it.
#include <cstdlib>
#include <cstring>

#include "data_utils.h"
#include "leaky_relu_custom_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char* argv[]) {
  constexpr uint32_t blockDim = 8;
  LeakyReluCustomTilingData tiling;
  tiling.totalLength = 8 * 2048;
  tiling.tileLength = 256;
  tiling.alpha = 0.1f;
  uint64_t key = tiling.totalLength % (blockDim * tiling.tileLength) == 0 ? 1 : 2;
  if (argc > 1) key = std::strtoull(argv[1], nullptr, 10);
  const size_t bytes = tiling.totalLength * sizeof(float);
#ifdef ASCENDC_CPU_DEBUG
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(32);
  uint8_t* tilingBuf = (uint8_t*)AscendC::GmAlloc(sizeof(tiling));
  std::memcpy(tilingBuf, &tiling, sizeof(tiling));
  if (!ReadFile("./input/input_x.bin", bytes, x)) return 1;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(key);
  ICPU_RUN_KF(leaky_relu_custom, blockDim, x, y, workspace, tilingBuf);
  if (!asc::ascendc::lastLaunchStatus().isOk()) return 1;
  WriteFile("./output/output_y.bin", y, bytes);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(workspace);
  AscendC::GmFree(tilingBuf);
#else
  (void)key;
  (void)bytes;
  return 1;  // the NPU side is not part of this test project
#endif
  return 0;
}
