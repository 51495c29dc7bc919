// launch_internal.h: the state launchKernel sets up for each block it runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "asc/ascendc/kernel_context.h"
#include "asc/ascendc/launch.h"

namespace asc::ascendc::detail {

struct BlockContext {
  int64_t block_idx = 0;
  int64_t block_num = 1;
  int64_t sub_block_num = 1;  // LaunchOptions::sub_blocks
  bool cube = false;          // LaunchOptions::cube
  std::string soc;
  uint64_t ub_bytes = 0;
  uint64_t tiling_key = 0;
  int atomic_mode = 0;  // SetAtomicAdd/Max/Min (0: none)
  // The vector mask register: counter mode (SetMaskCount) or normal, and its two words
  // (SetVectorMask); every element of a repeat at the start of each block.
  int mask_counter = 0;
  uint64_t mask_hi = ~uint64_t(0), mask_lo = ~uint64_t(0);
  void* sys_workspace = nullptr;  // SetSysWorkspace
  // Shared by the launch's blocks: a TILING_KEY_IS ran, and one was true.
  std::atomic<bool>* key_tested = nullptr;
  std::atomic<bool>* key_taken = nullptr;
  // The launch's blocks and their SyncAll barrier (launch.cpp).
  struct Launch* launch = nullptr;
  bool helper = false;  // a cube core startCubeCore runs, not one of the launch's blocks
  const char* kernel_name = "";
};

/// SyncAll's barrier (launch.cpp).
void syncAll(BlockContext& ctx);
/// pollUntil, startCubeCore and claimInLaunch within the launch of `ctx` (launch.cpp).
void pollIn(BlockContext& ctx, const char* call, const char* what, bool (*ready)(void*), void* arg);
void startHelper(BlockContext& ctx, int64_t aic_idx, void (*body)(void*), void* arg,
                 void (*destroy)(void*));
bool claimIn(BlockContext& ctx, const void* key);
void noteProgressIn(BlockContext& ctx);
/// warnOnce within the launch of `ctx`: whether `call` has not warned in it yet (and now has).
bool firstWarningIn(BlockContext& ctx, const char* call);
/// Thrown out of SyncAll in a block that waited when another block failed: that block's error
/// is the launch's, this one has none of its own.
struct SyncAbandoned {};

/// The context of the block this thread runs, or nullptr outside a launch.
BlockContext* currentContext();
/// Makes `ctx` this thread's context for its lifetime.
class ScopedBlockContext {
 public:
  explicit ScopedBlockContext(BlockContext* ctx);
  ~ScopedBlockContext();
  ScopedBlockContext(const ScopedBlockContext&) = delete;
  ScopedBlockContext& operator=(const ScopedBlockContext&) = delete;

 private:
  BlockContext* saved_;
};

/// The unified-buffer bytes of chip `soc`; 0 when the chip is unknown.
uint64_t ubBytesOf(const char* soc);
/// ICPU_SET_TILING_KEY's current value.
uint64_t icpuTilingKey();

}  // namespace asc::ascendc::detail
