// kernel_pipe.h: TPipe, TQue and TBuf, the unified-buffer (UB) side of an Ascend C kernel.
// TPipe::InitBuffer carves 32-byte-aligned blocks for a queue or a TBuf and counts them against
// the chip's UB size; TQue hands its blocks out (AllocTensor), passes them between stages
// (EnQue/DeQue) and takes them back (FreeTensor). Each misuse the NPU would hang or corrupt on is
// a KernelError naming the call.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "asc_cpu/kernel_tensor.h"

namespace AscendC {

/// The block this core runs, 0 .. GetBlockNum()-1.
inline int64_t GetBlockIdx() { return asc::ascendc::detail::blockIdx(); }
/// The launch's block count (blockDim).
inline int64_t GetBlockNum() { return asc::ascendc::detail::blockNum(); }
/// The vector core of its AI Core this block runs on (0 or 1: a mixed kernel on a split chip).
inline int64_t GetSubBlockIdx() { return asc::ascendc::detail::subBlockIdx(); }
inline int64_t GetSubBlockNum() { return asc::ascendc::detail::subBlockNum(); }
inline int64_t GetTaskRation() { return 1; }

// Synchronisation: on the CPU every call has finished before the next starts.
template <pipe_t pipe>
inline void PipeBarrier() {}
template <HardEvent event>
inline void SetFlag(int32_t /*eventID*/) {}
template <HardEvent event>
inline void WaitFlag(int32_t /*eventID*/) {}
/// A barrier across every block of the launch (all of them run at once when a kernel calls it).
template <bool isAIVOnly = true>
inline void SyncAll() {
  asc::ascendc::detail::syncAllBlocks();
}
/// The software form: the NPU's blocks spin on flags in the two workspaces, which must exist;
/// usedCores 0 means every block (a subset is refused).
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace,
                    const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
  const int64_t n = asc::ascendc::detail::blockNum();
  if (usedCores != 0 && usedCores != n)
    asc::ascendc::detail::failf("SyncAll", "usedCores ", usedCores,
                                " is not supported: give 0 or the launch's block count ", n);
  (void)gmWorkspace.ascData("SyncAll", 0, 1);
  (void)ubWorkspace.ascData("SyncAll", "ubWorkspace", 1);
  asc::ascendc::detail::syncAllBlocks();
}
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
inline void DataSyncBarrier() {}
using TEventID = int8_t;
/// Flags between two pipes (src != dst), the queue-free form of SetFlag/WaitFlag.
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  static_assert(src != dst, "TQueSync: the two pipes must differ");
  void SetFlag(TEventID /*id*/) {}
  void WaitFlag(TEventID /*id*/) {}
};

namespace detail_cpu {
inline uint32_t alignUp32(uint64_t bytes) { return uint32_t((bytes + 31) / 32 * 32); }

/// `num` blocks of `bytes` each, one after another in one region (a queue's buffers).
inline std::vector<asc::ascendc::detail::BlockRef> newBlocks(uint32_t num, uint32_t bytes,
                                                             const void* owner, const char* kind) {
  const uint64_t total = uint64_t(num) * bytes;
  std::shared_ptr<uint8_t> region(
      static_cast<uint8_t*>(asc::ascendc::detail::ubAlloc(total ? total : 1)),
      [](uint8_t* p) { asc::ascendc::detail::ubFree(p); });
  std::vector<asc::ascendc::detail::BlockRef> blocks;
  for (uint32_t i = 0; i < num; ++i) {
    asc::ascendc::detail::BlockRef b(new asc::ascendc::detail::UbBlock);
    b->region = region;
    b->data = region.get() + uint64_t(i) * bytes;
    b->bytes = bytes;
    b->region_left = uint32_t(total - uint64_t(i) * bytes);
    b->owner = owner;
    b->kind = kind;
    blocks.push_back(std::move(b));
  }
  return blocks;
}
}  // namespace detail_cpu

/// A queue of `num` UB blocks between two stages (CopyIn -> Compute -> CopyOut). `depth` is
/// accepted for source compatibility; the CPU layer bounds a queue by its buffer count.
template <TPosition pos, int32_t depth = 1>
class TQue {
 public:
  TQue() = default;
  TQue(const TQue&) = delete;
  TQue& operator=(const TQue&) = delete;

  template <typename T>
  LocalTensor<T> AllocTensor() {
    using asc::ascendc::detail::UbBlock;
    if (blocks_.empty())
      asc::ascendc::detail::failf("AllocTensor",
                                  "the queue has no buffers (TPipe::InitBuffer "
                                  "was not called for it)");
    for (auto& b : blocks_) {
      if (b->state != UbBlock::State::Free) continue;
      b->state = UbBlock::State::Allocated;
      ++b->generation;
      LocalTensor<T> t;
      t.ascRef() = {b, b->generation, 0, b->bytes};
      return t;
    }
    asc::ascendc::detail::failf("AllocTensor", "all ", blocks_.size(),
                                " buffers of the queue are in use (allocated or enqueued and "
                                "not yet released by FreeTensor); InitBuffer gave it ",
                                blocks_.size());
  }

  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor) {
    using asc::ascendc::detail::UbBlock;
    const auto& ref = tensor.ascRef();
    ref.access("EnQue", "tensor", 0, 1);
    if (ref.block->state == UbBlock::State::Enqueued)
      asc::ascendc::detail::failf("EnQue", "the tensor is already in a queue (DeQue it first)");
    ref.block->state = UbBlock::State::Enqueued;
    if (count_ == fifo_.size()) {  // full (tensors of other queues enqueued here): grow
      std::vector<asc::ascendc::detail::TensorRef> bigger(fifo_.size() * 2 + 2);
      for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(fifo_[(head_ + i) % fifo_.size()]);
      fifo_.swap(bigger);
      head_ = 0;
    }
    fifo_[(head_ + count_) % fifo_.size()] = ref;
    ++count_;
    return true;
  }

  template <typename T>
  LocalTensor<T> DeQue() {
    using asc::ascendc::detail::UbBlock;
    if (count_ == 0)
      asc::ascendc::detail::failf("DeQue",
                                  "the queue is empty (no EnQue since the last DeQue); "
                                  "on the NPU this waits forever");
    LocalTensor<T> t;
    t.ascRef() = std::move(fifo_[head_]);
    fifo_[head_] = asc::ascendc::detail::TensorRef();
    head_ = (head_ + 1) % fifo_.size();
    --count_;
    t.ascRef().access("DeQue", "tensor", 0, 1);  // freed while queued
    t.ascRef().block->state = UbBlock::State::Allocated;
    return t;
  }

  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) {
    using asc::ascendc::detail::UbBlock;
    const auto& ref = tensor.ascRef();
    ref.access("FreeTensor", "tensor", 0, 1);
    if (ref.block->owner != this)
      asc::ascendc::detail::failf("FreeTensor", "the tensor belongs to another ", ref.block->kind,
                                  ", not to this queue");
    if (ref.block->state == UbBlock::State::Enqueued)
      asc::ascendc::detail::failf("FreeTensor", "the tensor is still in a queue (DeQue it first)");
    ref.block->state = UbBlock::State::Free;
    ++ref.block->generation;
  }

  bool VacantInQue() const { return count_ < blocks_.size(); }
  bool HasTensorInQue() const { return count_ != 0; }
  int32_t GetTensorCountInQue() const { return int32_t(count_); }

  // TPipe::InitBuffer's part.
  void ascInit(uint8_t num, uint32_t bytes) {
    if (!blocks_.empty())
      asc::ascendc::detail::failf("InitBuffer", "the queue already has its buffers");
    blocks_ = detail_cpu::newBlocks(num, bytes, this, "TQue");
    fifo_.assign(num, asc::ascendc::detail::TensorRef());
  }
  void ascReset() {
    blocks_.clear();
    fifo_.clear();
    head_ = count_ = 0;
  }

 private:
  std::vector<asc::ascendc::detail::BlockRef> blocks_;
  // The enqueued tensors, oldest at head_: a ring as large as the queue's buffers, which is as
  // many as can be enqueued unless tensors of other queues are (then it grows).
  std::vector<asc::ascendc::detail::TensorRef> fifo_;
  size_t head_ = 0, count_ = 0;
};

/// A queue bound between two positions; the CPU layer treats it as a TQue.
template <TPosition src, TPosition dst, int32_t depth = 1>
class TQueBind : public TQue<src, depth> {};

namespace detail_cpu {
/// The unified buffer a kernel's vector side may take, as a value read when it is used: the
/// launch's chip decides it here (CANN's is a constant of each chip's build: the UB less 8 KiB
/// for the system, 184 KiB on Ascend910B and 248 KiB on Ascend310P; UNCONFIRMED).
struct VecLocalSize {
  operator uint32_t() const { return uint32_t(asc::ascendc::detail::ubBytes() - 8 * 1024); }
};
}  // namespace detail_cpu
static constexpr detail_cpu::VecLocalSize TOTAL_VEC_LOCAL_SIZE{};

/// One UB block for scratch data (VECCALC): Get<T>() views it whole, Get<T>(n) its first n.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  TBuf() = default;
  TBuf(const TBuf&) = delete;
  TBuf& operator=(const TBuf&) = delete;

  template <typename T>
  LocalTensor<T> Get() {
    if (!block_)
      asc::ascendc::detail::failf("TBuf::Get",
                                  "the TBuf has no buffer (TPipe::InitBuffer was "
                                  "not called for it)");
    LocalTensor<T> t;
    t.ascRef() = {block_, block_->generation, 0, block_->bytes};
    return t;
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len) {
    LocalTensor<T> t = Get<T>();
    if (uint64_t(len) * sizeof(T) > block_->bytes)
      asc::ascendc::detail::failf("TBuf::Get", "length ", len, " exceeds the TBuf (",
                                  block_->bytes / sizeof(T), " elements)");
    t.ascRef().bytes = len * sizeof(T);
    return t;
  }
  /// AllocTensor, from CANN's TBuf's queue base: the whole buffer, as Get() gives it (a TBuf has
  /// one buffer, so an allocation is a view of it).
  template <typename T>
  LocalTensor<T> AllocTensor() {
    return Get<T>();
  }
  /// A TBuf's buffer stays its own: FreeTensor (as CANN's TBuf has it, from its queue base)
  /// only checks that the tensor is a view of this TBuf.
  template <typename T>
  void FreeTensor(LocalTensor<T>& tensor) {
    if (!block_ || tensor.ascRef().block.get() != block_.get())
      asc::ascendc::detail::failf("TBuf::FreeTensor", "the tensor is not one this TBuf gave");
  }

  void ascInit(uint32_t bytes) {
    if (block_) asc::ascendc::detail::failf("InitBuffer", "the TBuf already has its buffer");
    block_ = detail_cpu::newBlocks(1, bytes, this, "TBuf").front();
    block_->state = asc::ascendc::detail::UbBlock::State::Allocated;
  }
  void ascReset() { block_.reset(); }

 private:
  asc::ascendc::detail::BlockRef block_;
};

/// Owns a kernel's UB: every InitBuffer is counted, rounded up to 32 bytes per buffer, against
/// the chip's unified buffer (LaunchOptions::soc).
class TPipe {
 public:
  TPipe() { current() = this; }
  ~TPipe() {
    if (current() == this) current() = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition pos, int32_t depth>
  bool InitBuffer(TQue<pos, depth>& que, uint8_t num, uint32_t len) {
    uint32_t bytes = detail_cpu::alignUp32(len);
    if (num == 0) asc::ascendc::detail::failf("InitBuffer", "buffer count is 0");
    checkCoreHas(pos, "queue");
    reserve(uint64_t(num) * bytes, num, len);
    que.ascInit(num, bytes);
    return true;
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    uint32_t bytes = detail_cpu::alignUp32(len);
    checkCoreHas(pos, "TBuf");
    reserve(bytes, 1, len);
    buf.ascInit(bytes);
    return true;
  }
  /// The queue form on a TBuf (CANN's TBuf is a queue of one buffer, so its generic InitBuffer
  /// takes one): a count of 1 is the two-argument form; another count stops, naming it.
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint8_t num, uint32_t len) {
    if (num != 1)
      asc::ascendc::detail::failf("InitBuffer", "a TBuf holds one buffer; ", int(num),
                                  " were asked for");
    return InitBuffer(buf, len);
  }
  /// Releases the pipe's UB accounting (its queues keep their blocks until reset).
  void Destroy() { used_ = 0; }
  void Reset() { used_ = 0; }
  /// Event ids for SetFlag/WaitFlag.
  template <HardEvent event>
  int32_t FetchEventID() {
    return 0;
  }
  int32_t FetchEventID(HardEvent) { return 0; }
  template <HardEvent event>
  int32_t AllocEventID() {
    return 0;
  }
  template <HardEvent event>
  void ReleaseEventID(int32_t) {}
  /// Bytes of UB the pipe's buffers take.
  uint64_t ascUsedBytes() const { return used_; }
  /// A cube core (AIC) has no unified buffer, and so no vector work: a VECIN, VECOUT or VECCALC
  /// buffer in a block running as AIC stops the kernel (on the NPU that code cannot run there).
  static void checkCoreHas(TPosition pos, const char* what) {
    if ((pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC) &&
        asc::ascendc::detail::onCubeCore())
      asc::ascendc::detail::failf(
          "InitBuffer", "a ", what,
          " in the unified buffer (VECIN, VECOUT or VECCALC) in a block that runs on a cube core "
          "(AIC), which has no unified buffer and no vector unit: keep vector work to the vector "
          "cores (return early when g_coreType == AIC, or test ASCEND_IS_AIV), or launch the "
          "kernel as AIV or MIX (SetKernelMode)");
  }
  static TPipe*& current() {
    static thread_local TPipe* pipe = nullptr;
    return pipe;
  }

 private:
  void reserve(uint64_t bytes, uint32_t num, uint32_t len) {
    uint64_t ub = asc::ascendc::detail::ubBytes();
    if (used_ + bytes > ub)
      asc::ascendc::detail::failf("InitBuffer", num, " buffer(s) of ", len, " bytes (", bytes,
                                  " bytes aligned) take the pipe's buffers to ", used_ + bytes,
                                  " bytes, more than the ", ub, "-byte unified buffer of ",
                                  asc::ascendc::detail::socName());
    used_ += bytes;
  }
  uint64_t used_ = 0;
};

/// The TPipe most recently built on this thread.
inline TPipe* GetTPipePtr() { return TPipe::current(); }

}  // namespace AscendC

// CANN declares GetTPipePtr outside the namespace too: kernels call it unqualified.
using AscendC::GetTPipePtr;

// The compiler's own synchronisation intrinsics (global names, as bisheng declares them): like
// SetFlag/WaitFlag/PipeBarrier, complete on the CPU, where each call finishes before the next.
inline void set_flag(pipe_t /*src*/, pipe_t /*dst*/, event_t /*id*/) {}
inline void wait_flag(pipe_t /*src*/, pipe_t /*dst*/, event_t /*id*/) {}
inline void set_flag(pipe_t src, pipe_t dst, int id) { set_flag(src, dst, event_t(id)); }
inline void wait_flag(pipe_t src, pipe_t dst, int id) { wait_flag(src, dst, event_t(id)); }
inline void pipe_barrier(pipe_t /*pipe*/) {}
