// main.cpp: the host program. The tiling comes from the Matmul API's host tiling
// (tiling/tiling_api.h) for the chip; in CPU mode (ASCENDC_CPU_DEBUG, set by the tikicpulib
// target) global memory comes from GmAlloc and the launch from ICPU_RUN_KF, one block per core
// the tiling uses.
#include <cstring>

#include "data_utils.h"
#include "matmul_custom_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char* argv[]) {
  const char* soc = argc > 1 ? argv[1] : "Ascend910B1";
  constexpr int32_t M = 200, N = 136, K = 96;
  platform_ascendc::PlatformAscendC platform(soc);
  matmul_tiling::MultiCoreMatmulTiling cubeTiling(platform);
  cubeTiling.SetDim(static_cast<int32_t>(platform.GetCoreNumAic()));
  cubeTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
  cubeTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                         matmul_tiling::DataType::DT_FLOAT);
  cubeTiling.SetShape(M, N, K);
  cubeTiling.SetOrgShape(M, N, K);
  cubeTiling.SetBias(true);
  cubeTiling.SetBufferSpace(-1, -1, -1);
  MatmulCustomTilingData tiling;
  if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) return 1;
  const uint32_t blockDim = static_cast<uint32_t>(tiling.cubeTilingData.usedCoreNum);
  const size_t aBytes = M * K * sizeof(uint16_t), bBytes = K * N * sizeof(uint16_t);
  const size_t biasBytes = N * sizeof(float), cBytes = M * N * sizeof(float);
#ifdef ASCENDC_CPU_DEBUG
  uint8_t* a = (uint8_t*)AscendC::GmAlloc(aBytes);
  uint8_t* b = (uint8_t*)AscendC::GmAlloc(bBytes);
  uint8_t* bias = (uint8_t*)AscendC::GmAlloc(biasBytes);
  uint8_t* c = (uint8_t*)AscendC::GmAlloc(cBytes);
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(16 * 1024 * 1024);
  uint8_t* tilingBuf = (uint8_t*)AscendC::GmAlloc(sizeof(tiling));
  std::memcpy(tilingBuf, &tiling, sizeof(tiling));
  if (!ReadFile("./input/x1_gm.bin", aBytes, a) || !ReadFile("./input/x2_gm.bin", bBytes, b) ||
      !ReadFile("./input/bias.bin", biasBytes, bias))
    return 1;
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_custom, blockDim, a, b, bias, c, workspace, tilingBuf);
  if (!asc::ascendc::lastLaunchStatus().isOk()) return 1;
  WriteFile("./output/output_c.bin", c, cBytes);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(bias);
  AscendC::GmFree(c);
  AscendC::GmFree(workspace);
  AscendC::GmFree(tilingBuf);
#else
  (void)blockDim;
  return 1;  // the NPU side is not part of this test project
#endif
  return 0;
}
