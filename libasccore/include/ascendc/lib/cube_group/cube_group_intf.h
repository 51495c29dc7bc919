// lib/cube_group/cube_group_intf.h: CubeResGroupHandle, the resource group of Atlas A2's cube
// cores: vector blocks (AIV) post messages into queues in global memory, and the group's cube
// cores (AIC) take them in order and run the kernel's callback on each, with a Matmul object of
// their own. CANN's layout and rules, from its documents: the group's AICs are
// blockStart / 2 .. (blockStart + blockSize) / 2 - 1; its msgQueueSize queues are dealt out
// Ceil(msgQueueSize, blockSize / 2) to each AIC, the last taking the rest; each queue holds
// MAX_MSG_PER_AIV messages; an AIC's messages form MAX_MSG_PER_AIV rows of one message per queue
// (so `msg + i` in a callback is the next queue's message of the same row), read row by row,
// skipping the queues whose AIV has quit. A message is FREE (an AIV may take it), VALID (the AIC
// runs the callback), FAKE (a callback that serves several queues frees it: SetSkipMsg) or QUIT
// (its AIV is done; once all of an AIC's AIVs quit, the AIC returns).
//
// On the CPU twin the vector blocks are the launch's blocks; the first to call
// CreateCubeResGroup for a workspace starts the group's cube cores as threads of the launch
// (asc::ascendc::detail::startCubeCore), each running the loop below, and the launch ends after
// them. Waits poll the message states (detail::pollUntil): a wait no block or cube core can end
// fails the launch with a message instead of hanging. Each message's state is its first byte
// (the CubeGroupMsgHead that starts every message type), written last when a message is posted.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "lib/matrix/matmul/matmul_impl.h"

namespace AscendC {

constexpr uint32_t MAX_MSG_PER_AIV = 4;  // messages of one queue

enum class CubeMsgState : uint8_t { FREE = 0, VALID, QUIT, FAKE };

/// The first member of every message type.
struct CubeGroupMsgHead {
  volatile CubeMsgState msgState = CubeMsgState::FREE;
  volatile uint8_t aivID;
};

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

/// IsEqual<a, b>::Type is void when a == b, absent otherwise: callbacks pick their overload by
/// function id with it.
template <int32_t ActualFuncId, int32_t ExpectFuncId>
struct IsEqual {};
template <int32_t FuncId>
struct IsEqual<FuncId, FuncId> {
  using Type = void;
};

/// Where a kernel's cube-group messages start in its workspace; each CreateCubeResGroup moves it
/// past the group's messages.
class KfcWorkspace {
 public:
  explicit KfcWorkspace(GM_ADDR workspace) : msg_start_(workspace) {}
  void UpdateKfcWorkspace(uint32_t offset) { msg_start_ += offset; }
  GM_ADDR GetKfcWorkspace() { return msg_start_; }
  GM_ADDR GetMsgStart() { return msg_start_; }

 private:
  GM_ADDR msg_start_;
};
/// The synchronisation event of the group's vector side (the CPU twin's pipes need none).
inline uint8_t GetEventId(KfcWorkspace& desc) {
  (void)desc;
  return 0;
}

namespace detail_cpu {
inline CubeMsgState loadMsgState(const void* msg) {
  return static_cast<CubeMsgState>(
      __atomic_load_n(static_cast<const uint8_t*>(msg), __ATOMIC_ACQUIRE));
}
inline void storeMsgState(void* msg, CubeMsgState s) {
  __atomic_store_n(static_cast<uint8_t*>(msg), static_cast<uint8_t>(s), __ATOMIC_RELEASE);
  asc::ascendc::detail::noteProgress();
}
struct MsgWait {
  const void* msg;
  CubeMsgState state;
  bool equal;  // wait until the state is `state` (else: until it is not)
};
inline bool msgWaitReady(void* arg) {
  const auto* w = static_cast<const MsgWait*>(arg);
  return (loadMsgState(w->msg) == w->state) == w->equal;
}
inline const char* msgStateName(CubeMsgState s) {
  switch (s) {
    case CubeMsgState::FREE:
      return "FREE";
    case CubeMsgState::VALID:
      return "VALID";
    case CubeMsgState::QUIT:
      return "QUIT";
    case CubeMsgState::FAKE:
      return "FAKE";
  }
  return "unknown";
}
}  // namespace detail_cpu

template <typename CubeMsgType>
class CubeResGroupHandle {
 public:
  CubeResGroupHandle() = default;

  CubeResGroupHandle(GM_ADDR workspace, uint8_t blockStart, uint8_t blockSize, uint8_t msgQueueSize,
                     uint8_t evtIDIn) {
    (void)evtIDIn;
    using asc::ascendc::detail::failf;
    static const char* kCall = "CubeResGroupHandle";
    if (sizeof(CubeMsgType) % 64 != 0)
      failf(kCall, "the message type is ", sizeof(CubeMsgType),
            " bytes: it must be a multiple of 64 (pad it)");
    if (blockStart % 2 || blockSize % 2 || blockSize == 0)
      failf(kCall, "blockStart ", int(blockStart), " and blockSize ", int(blockSize),
            " must be even (two vector cores to a cube core) and blockSize positive");
    if (msgQueueSize == 0) failf(kCall, "msgQueueSize is 0");
    if (!workspace) failf(kCall, "the workspace is null");
    aic_start_ = blockStart / 2;
    aic_size_ = blockSize / 2;
    aiv_size_ = msgQueueSize;
    aiv_per_aic_ = (aiv_size_ + aic_size_ - 1) / aic_size_;
    const int last = int(aiv_size_) - int(aic_size_ - 1) * aiv_per_aic_;
    if (last <= 0)
      failf(kCall, int(msgQueueSize), " queues dealt ", int(aiv_per_aic_), " to each of ",
            int(aic_size_), " cube cores leave none for the last: every cube core needs a queue");
    if (aiv_per_aic_ > 64) failf(kCall, int(aiv_per_aic_), " queues to a cube core: at most 64");
    const int64_t cores = asc::ascendc::detail::cubeCoreNum();
    if (aic_start_ + aic_size_ > cores)
      failf(kCall, "the group's cube cores ", int(aic_start_), "..", aic_start_ + aic_size_ - 1,
            " (blockStart ", int(blockStart), ", blockSize ", int(blockSize),
            ") are past the launch's ", cores, " (its blockDim)");
    base_ = reinterpret_cast<uint8_t*>(workspace);
    area_ = uint64_t(aiv_per_aic_) * aic_size_ * MAX_MSG_PER_AIV * sizeof(CubeMsgType);
    const size_t extent = asc::ascendc::detail::gmExtent(workspace);
    if (extent != 0 && extent < area_)
      failf(kCall, "the group's messages take ", area_, " bytes, but only ", extent,
            " are left in its workspace: size the workspace on the host "
            "(TilingContext::GetWorkspaceSizes)");
    if (ASCEND_IS_AIC) {
      const int64_t idx = GetBlockIdx() - aic_start_;
      aiv_num_ = idx == aic_size_ - 1 ? last : aiv_per_aic_;
      work_state_ = aiv_num_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << aiv_num_) - 1;
      head_ = msgAt(idx * aiv_per_aic_ * MAX_MSG_PER_AIV);
    }
  }

  /// (AIV) Takes queue `queueIdIn` of the group (0 .. msgQueueSize - 1).
  void AssignQueue(uint8_t queueIdIn) {
    if (!ASCEND_IS_AIV) return;
    using asc::ascendc::detail::failf;
    if (queueIdIn >= aiv_size_)
      failf("AssignQueue", "queue ", int(queueIdIn), " is not one of the group's ", int(aiv_size_));
    const int aic = queueIdIn / aiv_per_aic_;
    const int column = queueIdIn % aiv_per_aic_;
    queue_id_ = queueIdIn;
    aiv_num_ = aic == aic_size_ - 1 ? aiv_size_ - (aic_size_ - 1) * aiv_per_aic_ : aiv_per_aic_;
    head_ = msgAt(uint64_t(aic) * aiv_per_aic_ * MAX_MSG_PER_AIV + column);
    pos_ = 0;
  }

  /// (AIV) The queue's next message, once its cube core has freed it.
  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  __gm__ CubeMsgType* AllocMessage() {
    CubeMsgType* msg = head_ ? head_ + uint64_t(pos_) * aiv_per_aic_ : nullptr;
    if (!ASCEND_IS_AIV) return msg;
    requireQueue("AllocMessage");
    waitFor("AllocMessage", msg, CubeMsgState::FREE, true);
    pos_ = (pos_ + 1) % MAX_MSG_PER_AIV;
    return msg;
  }

  /// (AIV) Writes `msgInput` into `msg`, its state (msgInput.head.msgState, VALID to be served)
  /// last. Returns the message's offset for Wait.
  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  uint16_t PostMessage(__gm__ CubeMsgType* msg, CubeMsgType& msgInput) {
    if (ASCEND_IS_AIV) {
      requireQueue("PostMessage");
      checkMsg("PostMessage", msg);
      const auto* src = reinterpret_cast<const uint8_t*>(&msgInput);
      std::memcpy(reinterpret_cast<uint8_t*>(msg) + 1, src + 1, sizeof(CubeMsgType) - 1);
      detail_cpu::storeMsgState(msg, static_cast<CubeMsgState>(src[0]));
    }
    return offsetOf(msg);
  }

  /// (AIC) Frees `msg` for its AIV.
  uint16_t FreeMessage(__gm__ CubeMsgType* msg) {
    if (ASCEND_IS_AIC) {
      checkMsg("FreeMessage", msg);
      detail_cpu::storeMsgState(msg, CubeMsgState::FREE);
    }
    return offsetOf(msg);
  }
  /// (AIC) Waits until `msg` is in `waitState` (a FAKE its AIV posts), then frees it.
  uint16_t FreeMessage(__gm__ CubeMsgType* msg, CubeMsgState waitState) {
    if (ASCEND_IS_AIC) {
      checkMsg("FreeMessage", msg);
      waitFor("FreeMessage", msg, waitState, true);
      detail_cpu::storeMsgState(msg, CubeMsgState::FREE);
    }
    return offsetOf(msg);
  }

  /// (AIV) Marks `msg` FAKE: a callback serving another queue's message frees it.
  uint16_t PostFakeMsg(__gm__ CubeMsgType* msg) {
    if (ASCEND_IS_AIV) {
      requireQueue("PostFakeMsg");
      checkMsg("PostFakeMsg", msg);
      detail_cpu::storeMsgState(msg, CubeMsgState::FAKE);
    }
    return offsetOf(msg);
  }

  /// (AIV) Tells the cube core this queue is done.
  void SetQuit(__gm__ CubeMsgType* msg) {
    if (!ASCEND_IS_AIV) return;
    requireQueue("SetQuit");
    checkMsg("SetQuit", msg);
    reinterpret_cast<CubeGroupMsgHead*>(msg)->aivID = uint8_t(queue_id_ % aiv_per_aic_);
    detail_cpu::storeMsgState(msg, CubeMsgState::QUIT);
  }

  /// (AIC, in a callback) Skips the next `skipCnt` queues of the row: the callback served them.
  void SetSkipMsg(uint8_t skipCnt) {
    if (!ASCEND_IS_AIC) return;
    if (column_ + skipCnt >= aiv_num_)
      asc::ascendc::detail::failf("SetSkipMsg", "skipping ", int(skipCnt), " from queue ",
                                  int(column_), " passes the row's last queue (", aiv_num_,
                                  " to this cube core): a skip stays within one row");
    column_ += skipCnt;
  }

  /// (AIV) Whether the cube core has freed the message at `offset` (AllocMessage's slot as
  /// PostMessage returned it); with sync, waits until it has.
  template <bool sync = true>
  bool Wait(uint16_t offset) {
    if (!ASCEND_IS_AIV) return true;
    requireQueue("Wait");
    CubeMsgType* msg = head_ + offset;
    checkMsg("Wait", msg);
    if (!sync) return detail_cpu::loadMsgState(msg) == CubeMsgState::FREE;
    waitFor("Wait", msg, CubeMsgState::FREE, true);
    return true;
  }

  // --- the cube core's side (CreateCubeResGroup) -------------------------------------------
  /// Whether an AIV of this cube core has not quit.
  bool serving() const { return work_state_ != 0; }
  /// The next message to serve, once its AIV has posted it.
  CubeMsgType* receive() {
    CubeMsgType* msg = head_ + uint64_t(row_) * aiv_per_aic_ + column_;
    waitFor("CreateCubeResGroup", msg, CubeMsgState::FREE, false);
    return msg;
  }
  /// After `msg` was served (`quit`: it was a QUIT, read as it was received: the callback may
  /// free it and its AIV reuse it): a QUIT retires its queue; then on to the next queue that has
  /// not quit.
  void release(const CubeMsgType* msg, bool quit) {
    const uint8_t aiv = reinterpret_cast<const CubeGroupMsgHead*>(msg)->aivID;
    if (quit && aiv < 64) work_state_ &= ~(uint64_t(1) << aiv);
    do {
      if (work_state_ == 0) return;
      if (++column_ >= aiv_num_) {
        column_ = 0;
        row_ = (row_ + 1) % MAX_MSG_PER_AIV;
      }
    } while (!(work_state_ & (uint64_t(1) << column_)));
  }

  /// The bytes of the group's messages in the workspace.
  uint32_t areaBytes() const { return uint32_t(area_); }

 private:
  CubeMsgType* msgAt(uint64_t index) const {
    return reinterpret_cast<CubeMsgType*>(base_ + index * sizeof(CubeMsgType));
  }
  uint16_t offsetOf(const CubeMsgType* msg) const { return head_ ? uint16_t(msg - head_) : 0; }
  void requireQueue(const char* call) const {
    if (!head_)
      asc::ascendc::detail::failf(call, "this vector block has no queue: call AssignQueue first");
  }
  void checkMsg(const char* call, const CubeMsgType* msg) const {
    const auto* p = reinterpret_cast<const uint8_t*>(msg);
    if (!msg || p < base_ || p >= base_ + area_ || (p - base_) % sizeof(CubeMsgType) != 0)
      asc::ascendc::detail::failf(call, "the message ", static_cast<const void*>(msg),
                                  " is not one of the group's (", area_ / sizeof(CubeMsgType),
                                  " messages from ", static_cast<const void*>(base_), ")");
  }
  void waitFor(const char* call, const CubeMsgType* msg, CubeMsgState state, bool equal) const {
    detail_cpu::MsgWait w{msg, state, equal};
    if (detail_cpu::msgWaitReady(&w)) return;  // the usual case: no message text to make
    const uint64_t index = (reinterpret_cast<const uint8_t*>(msg) - base_) / sizeof(CubeMsgType);
    const uint64_t per_aic = uint64_t(aiv_per_aic_) * MAX_MSG_PER_AIV;
    const std::string what = asc::ascendc::detail::cat(
        "waits for message ", index % per_aic / aiv_per_aic_, " of queue ",
        index / per_aic * aiv_per_aic_ + index % aiv_per_aic_, (equal ? " to be " : " to leave "),
        detail_cpu::msgStateName(state), " (it is ",
        detail_cpu::msgStateName(detail_cpu::loadMsgState(msg)), ")");
    asc::ascendc::detail::pollUntil(call, what.c_str(), detail_cpu::msgWaitReady, &w);
  }

  uint8_t* base_ = nullptr;
  uint64_t area_ = 0;
  int aic_start_ = 0, aic_size_ = 0, aiv_size_ = 0, aiv_per_aic_ = 1, aiv_num_ = 0;
  int queue_id_ = 0;
  CubeMsgType* head_ = nullptr;  // AIV: its queue's first message; AIC: its first row
  int pos_ = 0;                  // AIV: the next message of its queue
  int row_ = 0, column_ = 0;     // AIC: the message it serves
  uint64_t work_state_ = 0;      // AIC: the queues whose AIV has not quit
};

namespace detail_cpu {
struct CubeGroupStart {
  GM_ADDR workspace;
  uint8_t block_start, block_size, queues;
  GM_ADDR tiling;
};
/// One cube core of a group: the callback's Init, then every message of its queues until all
/// of them quit.
template <class MatmulApiType, template <class, class> class CallBack, typename CubeMsgType>
void serveCubeGroup(void* arg) {
  const auto* s = static_cast<const CubeGroupStart*>(arg);
  TPipe pipe;
  CubeResGroupHandle<CubeMsgType> handle(s->workspace, s->block_start, s->block_size, s->queues, 0);
  MatmulApiType mm;
  CallBack<MatmulApiType, CubeMsgType> obj;
  obj.Init(obj, mm, s->tiling);
  while (handle.serving()) {
    CubeMsgType* msg = handle.receive();
    const bool quit = loadMsgState(msg) == CubeMsgState::QUIT;
    if (!quit) obj.Call(mm, msg, handle);
    handle.release(msg, quit);
  }
}
}  // namespace detail_cpu

/// Makes the handle of group `groupID` (messages from `desc`, which it moves past them). On a
/// vector block the handle is returned for AssignQueue and the messages; the first vector block
/// of the launch to get here starts the group's cube cores, which serve the messages with
/// CallBack<MatmulApiType, CubeMsgType> (Init, then Call for each) until their queues quit.
template <int groupID, class MatmulApiType, template <class, class> class CallBack,
          typename CubeMsgType>
CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(KfcWorkspace& desc, uint8_t blockStart,
                                                   uint8_t blockSize, uint8_t msgQueueSize,
                                                   GM_ADDR tiling) {
  GM_ADDR ws = desc.GetKfcWorkspace();
  CubeResGroupHandle<CubeMsgType> handle(ws, blockStart, blockSize, msgQueueSize, GetEventId(desc));
  desc.UpdateKfcWorkspace(handle.areaBytes());
  if (ASCEND_IS_AIV && asc::ascendc::detail::claimInLaunch(ws)) {
    for (int aic = blockStart / 2; aic < (blockStart + blockSize) / 2; ++aic) {
      auto* start = new detail_cpu::CubeGroupStart{ws, blockStart, blockSize, msgQueueSize, tiling};
      asc::ascendc::detail::startCubeCore(
          aic, &detail_cpu::serveCubeGroup<MatmulApiType, CallBack, CubeMsgType>, start,
          [](void* p) { delete static_cast<detail_cpu::CubeGroupStart*>(p); });
    }
  }
  return handle;
}

}  // namespace AscendC
