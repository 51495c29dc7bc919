// kernel_context.h: what the Ascend C CPU headers (include/ascendc) ask the library: the block a
// thread runs, the chip's unified-buffer size, the tiling key, global-memory allocations, and
// the one way a broken rule is reported. Kernel code does not call these directly; it uses
// GetBlockIdx(), TPipe, DataCopy and the rest of kernel_operator.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "asc/asc.h"

namespace asc::ascendc {

/// A broken Ascend C rule (freed tensor, empty queue, unified buffer overflow, unaligned copy,
/// out-of-range access). Thrown by the kernel layer and caught by launchKernel, which turns it
/// into a Status; it escapes only when a kernel function is called outside launchKernel.
class ASC_API KernelError : public std::runtime_error {
 public:
  KernelError(std::string call, const std::string& message);
  /// The Ascend C call that failed, e.g. "DataCopy".
  const std::string& call() const { return call_; }

 private:
  std::string call_;
};

namespace detail {

/// Throws KernelError(call, message). The library's kernel-facing functions take and return
/// only C types, so kernels and host programs built with either C++ ABI
/// (-D_GLIBCXX_USE_CXX11_ABI=0, as CANN's samples build, or 1) link against the one libasccore.
[[noreturn]] ASC_API void failMessage(const char* call, const char* message);
/// failMessage for a std::string message (inline: the string never crosses the library's ABI).
[[noreturn]] inline void fail(const char* call, const std::string& message) {
  failMessage(call, message.c_str());
}

/// The block this thread runs (0 outside a launch) and the launch's block count (1 outside);
/// for a mixed kernel on a split chip these count vector sub-blocks (LaunchOptions::sub_blocks).
ASC_API int64_t blockIdx();
ASC_API int64_t blockNum();
/// The vector sub-block of its AI Core this block is (0 or 1) and their number (1 or 2).
ASC_API int64_t subBlockIdx();
ASC_API int64_t subBlockNum();
/// The chip of the current launch (kDefaultSoc outside one) and its unified-buffer bytes.
ASC_API const char* socName();
ASC_API uint64_t ubBytes();
/// The tiling key of the current launch (ICPU_SET_TILING_KEY's value outside one).
ASC_API uint64_t tilingKey();
/// TILING_KEY_IS(key): whether the launch's tiling key is `key`, noting that the kernel tested
/// it and, when true, that a branch took the key. A launch whose kernel tested the key and took
/// no branch fails (launchKernel), as an NPU has no kernel binary for a key none names.
ASC_API bool tilingKeyIs(uint64_t key);
/// ICPU_SET_TILING_KEY: the key the next ICPU_RUN_KF launches with.
ASC_API void setIcpuTilingKey(uint64_t key);
/// SetKernelMode (0 AIC, 1 AIV, 2 MIX); -1 until a program sets it. ICPU_RUN_KF runs a MIX
/// kernel on a split chip as two vector sub-blocks per block and an AIC kernel's blocks as cube
/// cores; without SetKernelMode a program whose kernels use CANN 7's cube-side Matmul
/// (noteCubeOnlyApi) launches as AIC, one that uses the Matmul API (lib/matmul_intf.h:
/// noteCubeApi) as MIX, others as AIV.
ASC_API void setKernelMode(int mode);
ASC_API int kernelMode();
/// Called when a translation unit that includes the Matmul API starts (see kernelMode).
ASC_API void noteCubeApi();
ASC_API bool cubeApiNoted();
/// Called when a translation unit that includes CANN 7's cube-side Matmul
/// (lib/matrix/matmul/matmul.h) starts: without SetKernelMode, its program's kernels launch as
/// AIC, one cube core per block (their vector cores return at `g_coreType == AIV`).
ASC_API void noteCubeOnlyApi();
ASC_API bool cubeOnlyApiNoted();
/// Whether this thread runs a block of a cube (AIC) launch: g_coreType, ASCEND_IS_AIC.
ASC_API bool onCubeCore();

/// SyncAll: waits until every block of the launch has reached its SyncAll (a barrier across
/// blocks; all of them run at once when a kernel uses it). A block that returns while others
/// wait, or a failed block, makes the waiting ones fail with the reason.
ASC_API void syncAllBlocks();

/// Waits, in a block or a cube core startCubeCore started, until `ready(arg)` holds: memory
/// another block writes (CubeResGroupHandle's message states). While every running block waits
/// here or at SyncAll, the launch starts one more of its blocks, as SyncAll does, so the block
/// that will write can run on any pool. Fails (KernelError of `call`, with `what`) when the
/// launch can no longer change the memory: every block finished, or no block or cube core made
/// progress (noteProgress) for 5 s while all of them waited. Another block's failure ends the
/// wait (that failure is the launch's).
ASC_API void pollUntil(const char* call, const char* what, bool (*ready)(void*), void* arg);
/// Reports `message` as a warning naming the kernel and block, once per launch for `call` (once
/// per process outside a launch): what the NPU does too but is likely a mistake.
ASC_API void warnOnce(const char* call, const char* message);
/// Marks progress for pollUntil: a message posted or freed.
ASC_API void noteProgress();
/// Runs `body(arg)` on a thread of its own as cube core (AIC) `aic_idx` of the current launch
/// (g_coreType AIC, GetBlockIdx() aic_idx), beside the launch's vector blocks; the launch ends
/// after it, and its failure is the launch's, named "AIC <aic_idx>". `destroy(arg)` runs after
/// body, on that thread. Outside a launch: fails.
ASC_API void startCubeCore(int64_t aic_idx, void (*body)(void*), void* arg, void (*destroy)(void*));
/// True for the first call with `key` in the current launch (false after; true outside one):
/// what makes one vector block, of all that build a CubeResGroupHandle, start its cube cores.
ASC_API bool claimInLaunch(const void* key);
/// The cube cores (AIC) of the current launch: its block count over the vector sub-blocks.
ASC_API int64_t cubeCoreNum();

/// SetAtomicAdd/Max/Min/None: how this block's copies to global memory combine with what is
/// there (0 none: overwrite; 1 add; 2 max; 3 min). Every block starts with none.
ASC_API void setAtomicMode(int mode);
ASC_API int atomicMode();
/// Serialises the read-modify-write of atomic copies to global memory across blocks running on
/// different threads (an NPU's atomic unit does this in hardware).
/// The vector mask register of the block: counter mode (1, SetMaskCount) or normal (0,
/// SetMaskNorm), and its two words (SetVectorMask: in normal mode the bits of a repeat's
/// elements, in counter mode the low word is the number of elements over all repeats). Each block
/// starts in normal mode with every bit set.
ASC_API void setVectorMaskMode(int counter);
ASC_API int vectorMaskMode();
ASC_API void setVectorMaskBits(uint64_t hi, uint64_t lo);
ASC_API void vectorMaskBits(uint64_t* hi, uint64_t* lo);
ASC_API void gmAtomicLock();
ASC_API void gmAtomicUnlock();
/// SetSysWorkspace/GetSysWorkspacePtr: the block's system workspace pointer (null until set).
ASC_API void setSysWorkspace(void* ptr);
ASC_API void* sysWorkspace();

/// DataCopy's moves between global memory and the unified buffer: `n` bytes, in 512-bit loads
/// and stores where the runtime's AVX-512 paths run (cpu::avx512Isa(), so ONEDNN_MAX_CPU_ISA=AVX2
/// takes it back to memcpy). glibc's memcpy moves such blocks with `rep movsb`, a fifth slower
/// on an elementwise kernel's 8 KiB tiles read from L3 (AMD Zen 5).
ASC_API void copyBytes(void* dst, const void* src, size_t n);
/// Whether the vector instructions' loops (kernel_vec.h) may run in 512-bit registers: the same
/// test as copyBytes'. The kernels themselves are compiled for AVX2 (asccore::ascendc's flags),
/// so a kernel built on one machine runs on another.
ASC_API bool wideVectors();

/// A unified-buffer block's bytes (TPipe::InitBuffer): `bytes` zeroed bytes on a cache line.
/// The calling thread keeps the blocks it frees (up to 1 MiB) for its next kernel launches:
/// an elementwise kernel allocates its queues' blocks in every block it runs.
ASC_API void* ubAlloc(size_t bytes);
/// Gives back what ubAlloc returned (any thread; nullptr does nothing).
ASC_API void ubFree(void* ptr);

/// GmAlloc/GmFree: zeroed, 64-byte aligned global memory, remembered so that a GlobalTensor set
/// without a size is still bounded by its allocation.
ASC_API void* gmAlloc(size_t bytes);
ASC_API void gmFree(void* ptr);
/// Bytes from `ptr` to the end of the GmAlloc allocation holding it; 0 when none does.
ASC_API size_t gmExtent(const void* ptr);
/// Global memory allocated elsewhere (AscendCL's aclrtMalloc) made known to gmExtent, so that a
/// kernel's GlobalTensor checks are bounded by the allocation, as an NPU's are, not by the size
/// the kernel gives SetGlobalBuffer; gmUnregister forgets it before it is freed.
ASC_API void gmRegister(const void* ptr, size_t bytes);
ASC_API void gmUnregister(const void* ptr);

/// ICPU_RUN_KF's end: launches with icpuLaunchOptions(), prints a failure to stderr and keeps
/// it for lastLaunchStatus().
ASC_API void icpuRun(const char* kernel_name, uint32_t block_dim, void (*body)(void*),
                     void* body_arg);
/// icpuRun on chip `soc` (its unified-buffer size bounds the kernel's TPipe): what ICPU_RUN_KF
/// calls when the program was built against a chip's tikicpulib target (tikicpulib::<soc>
/// defines ASC_TIKICPU_SOC). An unknown chip fails the launch, naming it.
ASC_API void icpuRunOn(const char* soc, const char* kernel_name, uint32_t block_dim,
                       void (*body)(void*), void* body_arg);

}  // namespace detail
}  // namespace asc::ascendc
