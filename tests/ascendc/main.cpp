/**
 * main.cpp: the host side of the vector-add sample in CANN's CPU debugging mode: global memory
 * from GmAlloc, the tiling saved into a GM buffer, the kernel launched on 8 blocks with
 * ICPU_RUN_KF, and the result checked element by element against a plain loop. Exit status 0
 * when every element matches (also with the blocks run in parallel), 1 otherwise.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "add_custom_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#error "this sample is the CPU side; build it with -DASCENDC_CPU_DEBUG"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling);
#endif

namespace {
int check(const char* what, const half* x, const half* y, const half* z, uint32_t n) {
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; ++i) {
    half want = half(float(x[i]) + float(y[i]));
    if (want.bits != z[i].bits) {
      if (bad < 5)
        std::printf("%s: z[%u] = %g, expected %g\n", what, i, double(float(z[i])),
                    double(float(want)));
      ++bad;
    }
  }
  if (bad) std::printf("%s: %u of %u elements differ\n", what, bad, n);
  return bad ? 1 : 0;
}
}  // namespace

int32_t main(int32_t argc, char* argv[]) {
  (void)argc;
  (void)argv;
  constexpr uint32_t blockDim = 8;
  constexpr uint32_t totalLength = 8 * 2048;
  constexpr uint32_t tileNum = 8;
  size_t inputByteSize = totalLength * sizeof(half);
  size_t outputByteSize = totalLength * sizeof(half);

  optiling::TilingData tilingHost;
  tilingHost.set_totalLength(totalLength);
  tilingHost.set_tileNum(tileNum);

  uint8_t* x = (uint8_t*)AscendC::GmAlloc(inputByteSize);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(inputByteSize);
  uint8_t* z = (uint8_t*)AscendC::GmAlloc(outputByteSize);
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(16 * 1024 * 1024);
  uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(tilingHost.GetDataSize());
  if (!tilingHost.SaveToBuffer(tiling, tilingHost.GetDataSize())) return 1;

  half* xs = reinterpret_cast<half*>(x);
  half* ys = reinterpret_cast<half*>(y);
  uint32_t seed = 12345;
  for (uint32_t i = 0; i < totalLength; ++i) {
    seed = seed * 1664525u + 1013904223u;
    xs[i] = half(float(int32_t(seed >> 8) % 20000) / 997.0f - 10.0f);
    seed = seed * 1664525u + 1013904223u;
    ys[i] = half(float(int32_t(seed >> 8) % 20000) / 113.0f);
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, blockDim, x, y, z, workspace, tiling);
  int rc = asc::ascendc::lastLaunchStatus().isOk() ? 0 : 1;
  rc |= check("sequential", xs, ys, reinterpret_cast<half*>(z), totalLength);

  // The same launch with the blocks on threads; a lambda forwarding to the kernel, as UT files do.
  std::memset(z, 0, outputByteSize);
  asc::ascendc::LaunchOptions options = asc::ascendc::icpuLaunchOptions();
  options.parallel = true;
  asc::ascendc::setIcpuLaunchOptions(options);
  auto kernel = [](GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR w, GM_ADDR t) {
    add_custom(a, b, c, w, t);
  };
  ICPU_RUN_KF(kernel, blockDim, x, y, z, workspace, tiling);
  rc |= asc::ascendc::lastLaunchStatus().isOk() ? 0 : 1;
  rc |= check("parallel", xs, ys, reinterpret_cast<half*>(z), totalLength);

  AscendC::GmFree((void*)x);
  AscendC::GmFree((void*)y);
  AscendC::GmFree((void*)z);
  AscendC::GmFree((void*)workspace);
  AscendC::GmFree((void*)tiling);
  if (rc == 0) std::printf("add_custom: %u elements on %u blocks match\n", totalLength, blockDim);
  return rc;
}
