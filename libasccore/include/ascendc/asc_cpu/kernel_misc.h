// kernel_misc.h: the rest of the kernel API that samples use around the vector instructions:
// atomic copies to global memory (SetAtomicAdd/Max/Min/None), workspaces (GetUserWorkspace,
// SetSysWorkspace, GetSysWorkspacePtr), Axpy, and debugging (printf/PRINTF, DumpTensor, ASSERT).
#pragma once

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "asc/ascendc/kernel_context.h"
#include "asc_cpu/kernel_vec.h"

namespace AscendC {
/// Copies to global memory after this add their values to what is there (T: the elements'
/// type, as CANN spells it), until SetAtomicNone.
template <typename T>
void SetAtomicAdd() {
  asc::ascendc::detail::setAtomicMode(1);
}
template <typename T>
void SetAtomicMax() {
  asc::ascendc::detail::setAtomicMode(2);
}
template <typename T>
void SetAtomicMin() {
  asc::ascendc::detail::setAtomicMode(3);
}
inline void SetAtomicNone() { asc::ascendc::detail::setAtomicMode(0); }

/// The user part of the workspace the host sized (TilingContext::GetWorkspaceSizes). The CPU
/// layer's library APIs need no system workspace, so the user part starts at the workspace
/// itself (platform_ascendc's GetLibApiWorkSpaceSize is 0 here).
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
inline void SetSysWorkspace(GM_ADDR workspace) { asc::ascendc::detail::setSysWorkspace(workspace); }
inline GM_ADDR GetSysWorkspacePtr() {
  return static_cast<GM_ADDR>(asc::ascendc::detail::sysWorkspace());
}

/// Sets `size` elements of global memory, from gmWorkspaceAddr's start, to `value` (the NPU does
/// it from every block that calls it; the values are the same).
template <typename T>
void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value = 0) {
  T* d = gmWorkspaceAddr.ascData("InitGlobalMemory", 0, size);
  for (uint64_t i = 0; i < size; ++i) d[i] = value;
}

/// The system counter: 50 MHz on Atlas A2/A3 (CANN's documents: time in us = cycles / 50), here
/// the host's steady clock at that rate.
inline int64_t GetSystemCycle() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
             .count() /
         20;
}

/// The data cache's lines DataCacheCleanAndInvalid acts on, and which memory it writes back to.
enum class CacheLine { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

/// Writes back and drops the scalar unit's cached copy of global memory, so that what one block
/// wrote with SetValue is seen by other blocks and by the DMA. The CPU's caches are coherent:
/// there is nothing to do, and every write is already visible.
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
  (void)dst;
}
template <typename T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
}

/// dst = src * scalar + dst, `count` elements (dst may be float with a half src).
template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const typename detail_cpu::Same<U>::type& scalar, const int32_t& count) {
  detail_cpu::checkCount("Axpy", count);
  T* d = dst.ascData("Axpy", "dst", count);
  const U* s = src.ascData("Axpy", "src", count);
  using C = detail_cpu::CalcT<T>;
  const C k = C(detail_cpu::CalcT<U>(scalar));
  for (int32_t i = 0; i < count; ++i) d[i] = T(C(detail_cpu::CalcT<U>(s[i])) * k + C(d[i]));
}

/// Kernel printf: the block's line on stdout, prefixed with its index ("[block 3] ..."). A
/// template, as CANN's is, so that an unqualified printf in a kernel with `using namespace
/// AscendC` picks it over C's without ambiguity.
template <typename... Args>
void printf(const char* fmt, Args... args) {
  char buf[1024];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if constexpr (sizeof...(Args) == 0)
    std::snprintf(buf, sizeof buf, "%s", fmt);
  else
    std::snprintf(buf, sizeof buf, fmt, args...);
#pragma GCC diagnostic pop
  std::printf("[block %" PRId64 "] %s", asc::ascendc::detail::blockIdx(), buf);
  std::fflush(stdout);
}

/// Prints `dumpSize` elements of a tensor with a description number, on stdout.
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  const T* p = tensor.ascData("DumpTensor", "tensor", dumpSize);
  std::printf("[block %" PRId64 "] DumpTensor desc=%u size=%u:", asc::ascendc::detail::blockIdx(),
              desc, dumpSize);
  for (uint32_t i = 0; i < dumpSize; ++i) std::printf(" %g", double(detail_cpu::CalcT<T>(p[i])));
  std::printf("\n");
  std::fflush(stdout);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  const T* p = tensor.ascData("DumpTensor", 0, dumpSize);
  std::printf("[block %" PRId64 "] DumpTensor desc=%u size=%u:", asc::ascendc::detail::blockIdx(),
              desc, dumpSize);
  for (uint32_t i = 0; i < dumpSize; ++i) std::printf(" %g", double(detail_cpu::CalcT<T>(p[i])));
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace AscendC

#define PRINTF AscendC::printf
#if defined(ASC_OPC_KERNEL)
// A kernel opc compiles (an operator project's binary) is CANN's NPU build, where ASSERT(x)
// expands to nothing (impl/basic_api/kernel_macros.h): its condition is not evaluated, and
// kernels written for that (`x = y ASSERT(y != 0);`) compile.
#define ASSERT(cond)
#else
/// ASSERT(cond): a false condition stops the launch, naming the kernel, the block and the
/// condition's text, file and line (CANN's CPU debug build: assert(x)).
// The condition is evaluated where AscendC's names are visible unqualified (a kernel may write
// ASSERT(GetBlockNum() != 0) without the namespace, as the NPU compiler takes it).
#define ASSERT(cond)                                                                               \
  do {                                                                                             \
    if (![&]() -> bool {                                                                           \
          using namespace AscendC;                                                                 \
          return static_cast<bool>(cond);                                                          \
        }())                                                                                       \
      ::asc::ascendc::detail::fail(                                                                \
          "ASSERT", std::string(#cond) + " is false at " __FILE__ ":" + std::to_string(__LINE__)); \
  } while (0)
#endif
