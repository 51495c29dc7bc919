// kernel_tensor.h: GlobalTensor (a view of global memory) and LocalTensor (a view of one
// unified-buffer block that a TQue or TBuf handed out). A LocalTensor remembers the generation
// of the block it came from: FreeTensor bumps the block's generation, so every later use of a
// stale copy is caught ("used after FreeTensor"), even when the block was allocated again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <utility>

#include "asc/ascendc/kernel_context.h"
#include "asc_cpu/kernel_types.h"

namespace asc::ascendc::detail {

/// "a" + 3 + "b": the message of a failed check.
template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  return s.str();
}

template <typename... Parts>
[[noreturn]] void failf(const char* call, const Parts&... parts) {
  fail(call, cat(parts...));
}

/// One unified-buffer block: a queue buffer or a TBuf. A queue's buffers lie one after another
/// in one region, as TPipe places them in an NPU's UB; the region starts on a cache line (the
/// NPU aligns UB addresses to 32 bytes; a line keeps DataCopy's copies from splitting lines).
struct UbBlock {
  enum class State : uint8_t { Free, Allocated, Enqueued };
  std::shared_ptr<uint8_t> region;  // the queue's buffers (ubAlloc'd), shared by its blocks
  uint8_t* data = nullptr;          // this block's bytes, within region
  uint32_t bytes = 0;
  uint32_t region_left = 0;  // bytes from data to the region's end (this and the later buffers)
  uint32_t generation = 1;
  State state = State::Free;
  const void* owner = nullptr;  // the TQue or TBuf
  const char* kind = "TQue";
  uint32_t refs = 0;  // BlockRefs to this block
};

/// A counted reference to a UbBlock, like a shared_ptr whose count is not atomic: an AI core's
/// blocks are made, used and released on the one thread that runs it, and the atomic count
/// cost 8 % of an elementwise kernel's time (every AllocTensor, EnQue, DeQue and tensor copy
/// takes a reference).
class BlockRef {
 public:
  BlockRef() = default;
  explicit BlockRef(UbBlock* block) : block_(block) {
    if (block_) ++block_->refs;
  }
  BlockRef(const BlockRef& other) : BlockRef(other.block_) {}
  BlockRef(BlockRef&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  BlockRef& operator=(BlockRef other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  ~BlockRef() { reset(); }
  void reset() {
    if (block_ && --block_->refs == 0) delete block_;
    block_ = nullptr;
  }
  UbBlock* get() const { return block_; }
  UbBlock* operator->() const { return block_; }
  explicit operator bool() const { return block_ != nullptr; }

 private:
  UbBlock* block_ = nullptr;
};

/// The type-free part of a LocalTensor.
struct TensorRef {
  BlockRef block;
  uint32_t generation = 0;
  uint32_t offset = 0;  // bytes from the block's start
  uint32_t bytes = 0;   // bytes visible from offset

  /// Why this tensor may not be used, or nullptr.
  const char* problem() const {
    if (!block) return "was never allocated (AllocTensor, DeQue or TBuf::Get gives one)";
    if (block->generation != generation || block->state == UbBlock::State::Free)
      return "was already released by FreeTensor";
    return nullptr;
  }
  /// Checks that `call` may touch `elems` elements of `elem_bytes` through argument `what`.
  uint8_t* access(const char* call, const char* what, uint64_t elems, size_t elem_bytes) const {
    if (const char* p = problem()) failf(call, "LocalTensor '", what, "' ", p);
    if (elems * elem_bytes > bytes)
      failf(call, "count ", elems, " exceeds LocalTensor '", what, "' (", bytes / elem_bytes,
            " elements of ", elem_bytes, " bytes from its offset)");
    return block->data + offset;
  }
  /// As access, for a copy that reads: a read may run past the tensor into the later buffers of
  /// its queue, as an NPU's DMA reads on through the UB (the kernel then copies whatever those
  /// buffers hold); it is reported once per kernel (warnOnce). Past the queue's buffers it fails.
  const uint8_t* readAccess(const char* call, const char* what, uint64_t elems,
                            size_t elem_bytes) const {
    if (elems * elem_bytes <= bytes || problem()) return access(call, what, elems, elem_bytes);
    if (elems * elem_bytes > uint64_t(block->region_left) - offset)
      return access(call, what, elems, elem_bytes);  // fails, as before
    warnOnce(call, cat(call, " reads ", elems, " elements of ", elem_bytes,
                       " bytes from LocalTensor '", what, "', which holds ", bytes / elem_bytes,
                       ": the rest come from the next buffer(s) of its ", block->kind,
                       ", as an NPU reads on through its unified buffer; the result is right only "
                       "if the kernel later overwrites what they carried")
                       .c_str());
    return block->data + offset;
  }
};

}  // namespace asc::ascendc::detail

namespace AscendC {

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;

  /// The view starting `offset` elements in.
  LocalTensor operator[](uint32_t offset) const {
    ref_.access("LocalTensor::operator[]", "tensor", 0, sizeof(T));
    if (uint64_t(offset) * sizeof(T) > ref_.bytes)
      asc::ascendc::detail::failf("LocalTensor::operator[]", "offset ", offset,
                                  " is outside the tensor (", GetSize(), " elements)");
    LocalTensor v = *this;
    v.ref_.offset += offset * sizeof(T);
    v.ref_.bytes -= offset * sizeof(T);
    return v;
  }
  T GetValue(uint32_t index) const {
    T v;
    std::memcpy(&v, element("GetValue", index), sizeof(T));
    return v;
  }
  void SetValue(uint32_t index, const T& value) const {
    std::memcpy(element("SetValue", index), &value, sizeof(T));
  }
  T& operator()(uint32_t index) const {
    return *reinterpret_cast<T*>(element("LocalTensor::operator()", index));
  }
  /// dst = src0 + src1 and the other expression forms (kernel_vec.h: detail_cpu::TensorExpr).
  template <typename E, typename = decltype(std::declval<const E&>().assignTo(
                            std::declval<const LocalTensor&>()))>
  LocalTensor& operator=(const E& expr) {
    expr.assignTo(*this);
    return *this;
  }
  LocalTensor& operator=(const LocalTensor&) = default;
  LocalTensor(const LocalTensor&) = default;

  /// Elements from this view's start to the end of its block.
  uint32_t GetSize() const { return ref_.bytes / sizeof(T); }
  uint32_t GetLength() const { return ref_.bytes; }
  T* GetPhyAddr() const {
    return reinterpret_cast<T*>(ref_.access("GetPhyAddr", "tensor", 0, sizeof(T)));
  }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> u;
    u.ascRef() = ref_;
    return u;
  }

  // The CPU layer's own access, used by DataCopy and the vector operations.
  const asc::ascendc::detail::TensorRef& ascRef() const { return ref_; }
  asc::ascendc::detail::TensorRef& ascRef() { return ref_; }
  T* ascData(const char* call, const char* what, uint64_t count) const {
    return reinterpret_cast<T*>(ref_.access(call, what, count, sizeof(T)));
  }
  /// ascData for a copy that only reads (TensorRef::readAccess).
  const T* ascReadData(const char* call, const char* what, uint64_t count) const {
    return reinterpret_cast<const T*>(ref_.readAccess(call, what, count, sizeof(T)));
  }

 private:
  uint8_t* element(const char* call, uint32_t index) const {
    uint8_t* p = ref_.access(call, "tensor", 0, sizeof(T));
    if ((uint64_t(index) + 1) * sizeof(T) > ref_.bytes)
      asc::ascendc::detail::failf(call, "index ", index, " is outside the tensor (", GetSize(),
                                  " elements)");
    return p + size_t(index) * sizeof(T);
  }
  asc::ascendc::detail::TensorRef ref_;
};

/// Global memory: `SetGlobalBuffer(ptr, size)` bounds every access to `size` elements; without a
/// size, the GmAlloc allocation holding `ptr` bounds them (no bound for other memory).
template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;

  // An NPU bounds an access to global memory by the memory itself, not by the size given here
  // (samples read a 32-byte unit past a shorter tensor's end on purpose). So where the buffer is
  // GmAlloc's, the checks use the end of its allocation; elsewhere (the runtime's buffers), the
  // size given.
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    address_ = buffer;
    size_ = bufferSize;
    const uint64_t allocated = asc::ascendc::detail::gmExtent(buffer) / sizeof(T);
    limit_ = allocated > bufferSize ? allocated : bufferSize;
    sized_ = true;
  }
  void SetGlobalBuffer(__gm__ T* buffer) {
    address_ = buffer;
    size_t extent = asc::ascendc::detail::gmExtent(buffer);
    sized_ = extent != 0;
    size_ = limit_ = extent / sizeof(T);
  }
  GlobalTensor operator[](uint64_t offset) const {
    if (sized_ && offset > limit_)
      asc::ascendc::detail::failf("GlobalTensor::operator[]", "offset ", offset,
                                  " is past the end of the global buffer (", limit_, " elements)");
    GlobalTensor v = *this;
    v.address_ += offset;
    if (sized_) {
      v.size_ = offset < size_ ? size_ - offset : 0;
      v.limit_ -= offset;
    }
    return v;
  }
  T GetValue(uint64_t offset) const {
    T v;
    std::memcpy(&v, ascData("GetValue", offset, 1), sizeof(T));
    return v;
  }
  void SetValue(uint64_t offset, const T& value) const {
    std::memcpy(ascData("SetValue", offset, 1), &value, sizeof(T));
  }
  T& operator()(uint64_t offset) const { return *ascData("GlobalTensor::operator()", offset, 1); }
  __gm__ T* GetPhyAddr() const { return address_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return address_ + offset; }
  /// The element count given to SetGlobalBuffer (0 when none was given and none is known).
  uint64_t GetSize() const { return size_; }

  // The CPU layer's own access: elements [offset, offset + count), checked.
  T* ascData(const char* call, uint64_t offset, uint64_t count) const {
    if (!address_) asc::ascendc::detail::failf(call, "GlobalTensor used before SetGlobalBuffer");
    if (sized_ && (offset > limit_ || count > limit_ - offset))
      asc::ascendc::detail::failf(call, "accesses global elements [", offset, ", ", offset + count,
                                  ") of a GlobalTensor whose memory holds ", limit_, " elements");
    return address_ + offset;
  }

  /// The start of the tensor (CANN's member, which some kernels use directly; unchecked).
  __gm__ T* address_ = nullptr;

 private:
  uint64_t size_ = 0;
  uint64_t limit_ = 0;  // elements that may be accessed: the allocation's or the size given
  bool sized_ = false;
};

}  // namespace AscendC
