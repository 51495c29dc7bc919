// launch.h: runs an Ascend C kernel on the CPU, one call of a body per block, the way an NPU runs
// it on blockDim AI Cores. ICPU_RUN_KF (tikicpulib.h) is a thin macro over launchKernel; other
// code (a plugin's glue) calls it directly. The kernel side (kernel_operator.h, include dir
// include/ascendc, CMake target asccore::ascendc) checks what an NPU would reject; a broken rule
// stops the block and comes back here as a Status naming the kernel, the block and the call.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc::ascendc {

/// The chip launchKernel assumes when LaunchOptions::soc is empty: its unified-buffer size bounds
/// each block's TPipe. Ascend910B1 is the chip the CANN Ascend C samples target by default.
inline constexpr const char* kDefaultSoc = "Ascend910B1";

struct LaunchOptions {
  /// --soc_version spelling of the chip (soc table); empty means kDefaultSoc.
  std::string soc;
  /// true: blocks run on a pool of threads (at most one per hardware thread, blocks taken in
  /// index order); false: one after another on the calling thread, stopping at the first
  /// failed block.
  bool parallel = false;
  /// What TILING_KEY_IS(k) compares against inside the kernel.
  uint64_t tiling_key = 0;
  /// Vector sub-blocks per block: 2 for a mixed (cube + vector) kernel on a chip whose AI Cores
  /// pair one cube core with two vector cores, where the kernel runs on each vector core
  /// (GetBlockIdx() = block * 2 + GetSubBlockIdx(), GetBlockNum() = blocks * 2); else 1.
  uint32_t sub_blocks = 1;
  /// The blocks run as cube cores (an AIC kernel): g_coreType is AscendC::AIC in them.
  bool cube = false;
};

/// Runs `block_body` once per block, 0 .. block_dim-1, with GetBlockIdx()/GetBlockNum() and the
/// chip's unified-buffer size set for the thread running it. Returns OK when every block ran;
/// otherwise the error of the lowest-numbered failed block, e.g. "kernel 'add_custom' block 3:
/// DataCopy: length 30 bytes is not a multiple of 32 bytes ...": EZ9999 for a broken Ascend C
/// rule (or any exception the body threw), E10001 for an unknown chip or a block_dim outside
/// 1..65535. Never throws; the result is also kept for lastLaunchStatus().
ASC_API Status launchKernel(const char* kernel_name, uint32_t block_dim,
                            const std::function<void()>& block_body, const LaunchOptions& opt = {});

/// LaunchOptions::sub_blocks for a kernel on `soc` (empty: kDefaultSoc): 2 when the kernel is
/// mixed (it uses the cube: the Matmul API) and the chip's AI Cores pair one cube core with two
/// vector cores (the Ascend910B family), else 1.
ASC_API uint32_t subBlocksFor(const std::string& soc, bool mixed);

/// What the last launchKernel (so the last ICPU_RUN_KF) on this thread returned; OK before any.
ASC_API const Status& lastLaunchStatus();

/// The options ICPU_RUN_KF launches with (process-wide; the tiling key is the one
/// ICPU_SET_TILING_KEY set). Default: kDefaultSoc, sequential.
ASC_API LaunchOptions icpuLaunchOptions();
/// Replaces the options ICPU_RUN_KF launches with (thread-safe).
ASC_API void setIcpuLaunchOptions(const LaunchOptions& opt);

}  // namespace asc::ascendc
