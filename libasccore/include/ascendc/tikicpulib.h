// tikicpulib.h: the host side of CANN's CPU debugging mode. A host program allocates global
// memory, launches the kernel on blockDim CPU "cores" and checks the result:
//
//   uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
//   AscendC::SetKernelMode(KernelMode::AIV_MODE);
//   ICPU_SET_TILING_KEY(1);                       // optional; TILING_KEY_IS(1) in the kernel
//   ICPU_RUN_KF(add_custom, 8, x, y, z, workspace, tiling);
//   AscendC::GmFree(x);
//
// ICPU_RUN_KF's kernel may be a function or a lambda (the name printed is the expression
// written). A broken Ascend C rule stops the launch; the error, naming the kernel, the block and
// the call, is printed to stderr and kept: asc::ascendc::lastLaunchStatus() returns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "asc/ascendc/kernel_context.h"
#include "asc/ascendc/launch.h"
#include "kernel_operator.h"
#include "securec.h"  // memcpy_s & co., which the samples' host programs call

namespace AscendC {

/// `size` bytes of zeroed global memory, 64-byte aligned; nullptr when out of memory.
inline void* GmAlloc(size_t size) { return asc::ascendc::detail::gmAlloc(size); }
/// Releases GmAlloc memory (nullptr is ignored).
inline void GmFree(void* ptr) { asc::ascendc::detail::gmFree(ptr); }
/// Recorded for source compatibility; the CPU layer runs every block as a vector core.
inline void SetKernelMode(KernelMode mode) { asc::ascendc::detail::setKernelMode(int(mode)); }

namespace detail_cpu {
template <typename F, typename... Args>
void icpuRun(const char* name, F&& kernel, uint32_t block_dim, Args&&... args) {
  auto body = [&]() { kernel(args...); };
#ifdef ASC_TIKICPU_SOC  // the chip of the tikicpulib::<soc> target the program links
  asc::ascendc::detail::icpuRunOn(
      ASC_TIKICPU_SOC, name, block_dim, [](void* p) { (*static_cast<decltype(body)*>(p))(); },
      &body);
#else
  asc::ascendc::detail::icpuRun(
      name, block_dim, [](void* p) { (*static_cast<decltype(body)*>(p))(); }, &body);
#endif
}
}  // namespace detail_cpu

}  // namespace AscendC

// KernelMode is also used unqualified, as in CANN samples (SetKernelMode(KernelMode::AIV_MODE)).
using AscendC::KernelMode;

#define ICPU_SET_TILING_KEY(key) ::asc::ascendc::detail::setIcpuTilingKey(uint64_t(key))
#define ICPU_RUN_KF(kernel, ...) ::AscendC::detail_cpu::icpuRun(#kernel, kernel, __VA_ARGS__)
