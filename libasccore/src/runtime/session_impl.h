// session_impl.h: Session::Impl, the state of a static-shape session, shared by its two
// files: session_build.cpp makes it at load (layouts, conversions, the arena, the kernels) and
// session.cpp runs it and answers the public API. Only the runtime's own files include this.
#pragma once

#include <sched.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "cpu/blocked.h"
#include "cpu/convert.h"
#include "om/inplace.h"
#include "ops/dnnl_util.h"
#include "runtime/trace_observer.h"
#include "support/pages.h"

namespace asc::runtime {

using ops::Layout;

constexpr size_t kAlign = 64;

struct Slot {
  const ir::Value* value = nullptr;
  Layout layout = Layout::Plain;
  ir::DType type = ir::DType::Undefined;
  size_t bytes = 0;
  int first = -1, last = -1;
  const void* external = nullptr;  // constants: their data (never in the arena)
  int alias_of = -1;        // shares that slot's bytes (a Reshape-like op's output, a joined input)
  size_t alias_offset = 0;  // where in them (an input joined into a Concat's output)
  void* ptr = nullptr;
};

enum class StepKind { Kernel, Reorder, Convert };

// A kernel's workspace: the memories it added to KernelEnv::scratchpads and ::temporaries,
// [from, to) of each.
struct Workspace {
  size_t scratch_from = 0, scratch_to = 0;
  size_t temp_from[ops::KernelEnv::kTemporaries] = {}, temp_to[ops::KernelEnv::kTemporaries] = {};
};

struct Step {
  StepKind kind;
  const ir::Node* node = nullptr;  // Kernel
  std::vector<int> ins, outs;      // slot indices (-1: omitted input)
  std::unique_ptr<ops::Kernel> kernel;
  dnnl::reorder reorder;
  cpu::BlockedConversion conversion = cpu::BlockedConversion::None;  // a Reorder the runtime does
  // A Convert after a kernel that computed an fp16/bf16 output in fp32: the fp32 result is
  // rounded in place to the stored values too, since later fp32 readers take it.
  bool round_source = false;
  std::string label;
  std::vector<const ir::Node*> completes;  // nodes whose outputs are final after this step
  // Threads it is built and run on: the session's, or fewer for a step with little work
  // (threadsForStep).
  int threads = 1;
  // A BatchNormalization or 1x1 Conv reading the inputs of the channels-last Concat that made its
  // input (Session::Impl::concatFeedingReader): that Concat's step index, whose ins it reads; -1
  // otherwise.
  int concat_inputs_of = -1;
  // That Concat's step: left out of runs nobody observes (its output is read by nothing else).
  bool skip_unobserved = false;
  // Its kernel's workspace (bindScratchpads places it).
  Workspace ws;
  // In a session with two ways to run (Session::Impl::two_ways), a step the load holds to fewer
  // threads than the session's has a second kernel, made for the session's count, that the
  // wide way runs; the two never run at once, so their workspaces share bytes.
  std::unique_ptr<ops::Kernel> wide_kernel;
  Workspace wide_ws;
};

inline ir::DType computeType(ir::DType t) {
  return t == ir::DType::F16 || t == ir::DType::BF16 ? ir::DType::F32 : t;
}

/// Kernel threads: `requested` when positive, else ASC_NUM_THREADS, else (with the graph's
/// floating-point operations per run, `flops` >= 0) threadsForWork over the cores OpenMP may use
/// and the threads other processes keep busy now (busyElsewhere), else every core (threads.cpp).
/// When it samples the load, the count of threads busy elsewhere goes to *busy_seen.
int resolveThreads(int requested, int64_t flops = -1, int* busy_seen = nullptr);
/// One thread per 4 MFLOP of a run, at least one, at most one per core not busy elsewhere.
int threadsForWork(int64_t flops, int cores, int busy);
/// The work of one node: its OpDef's floating-point operations, else its outputs' elements.
int64_t nodeWork(const ir::Node& n);
/// How the steps of a session of `threads` take their thread counts (threadsForStep).
struct StepThreads {
  int64_t min_work = 0;  // one thread per this much of a step's work; 0: every step on `max`
  int max = 1;           // no step on more
  bool by_load = false;  // set from the load other processes put on the cores
};
/// ASC_STEP_MIN_WORK when set ({that, threads}); else, when other processes keep cores busy as
/// the session is built (busyElsewhere) and ASC_THREADS_FOLLOW_LOAD is not 0, {kMinStepWork
/// (4 MFLOP), the `cores` (default: the machine's) the others leave free, at least 1, at most
/// `threads`}; else {0, threads}. `busy_seen` >= 0: the load resolveThreads sampled for this
/// session, used instead of sampling again (4 ms).
StepThreads stepThreads(int threads, int busy_seen = -1, int cores = -1);
/// Threads for a step of `work`: one per st.min_work of it, at least one, at most st.max (st.max
/// when min_work is 0).
int threadsForStep(int64_t work, const StepThreads& st);
/// OpenMP's thread count for the calling thread set to `n` while this lives, then put back
/// (OpenMP's count is per calling thread; oneDNN fixes a primitive's count when it is made).
class OmpThreadsScope {
 public:
  explicit OmpThreadsScope(int n);
  ~OmpThreadsScope();
  OmpThreadsScope(const OmpThreadsScope&) = delete;
  OmpThreadsScope& operator=(const OmpThreadsScope&) = delete;

 private:
  int before_;
};
/// Which of a session's two ways of running its steps the next run takes, chosen from the times
/// of the runs before (docs/runtime.md, "Two ways to run beside other work"). Beside other
/// processes neither way wins everywhere: every step on the session's threads (Wide, its team
/// spread over distinct CPUs) is fast while the scheduler leaves the team's CPUs to it and slow
/// when a busy process shares them (on a 2-core VM beside a busy loop its runs alternated
/// between 2 and 6 ms); steps held to the free cores (Narrow) run at one core's speed
/// whatever the others do, and which way is faster changes with the host and over time. So a
/// run takes the way whose recent runs took less time on average and, now and then, tries the
/// other for kTrialRuns runs: after kMinInterval runs, then twice as many each time the other
/// loses (four times when its mean was kFarBehind times the current's), up to kMaxInterval
/// (and after a change of way kMinInterval, doubled for each change soon after the last), and at
/// once when the last two runs took kChange times the usual. The other way takes over when its
/// trial's mean is below kSwitch times the current way's mean over its last kKeep runs, and gives
/// it back when its first kConfirmRuns runs after that are no faster on average than the
/// replaced way's mean (a trial of one run can be lucky; most trials lose, and cost one run).
/// Each way's first run (a cold start) is left out.
class RunPlan {
 public:
  enum Way : int { Wide = 0, Narrow = 1 };
  static constexpr int kMinInterval = 4, kMaxInterval = 64, kTrialRuns = 1, kConfirmRuns = 2,
                       kKeep = 4;
  // A session's first trial: after this many runs of the narrow way (beside a busy loop the
  // wide way's runs mostly alternate between fast and slow and lose; short loops should not pay
  // for many trials).
  static constexpr int kFirstTrial = 8;
  static constexpr double kSwitch = 0.9, kChange = 1.3, kFarBehind = 1.5;

  /// Starts on `start`; the other way is first tried after `first_trial` recorded runs of it.
  explicit RunPlan(Way start = Wide, int first_trial = 1);
  /// One that always takes `w` (ASC_RUN_WAY).
  static RunPlan fixed(Way w) {
    RunPlan p(w);
    p.fixed_ = true;
    return p;
  }
  Way next() const {
    return !fixed_ && held_ > 0 && (until_trial_ <= 0 || trial_done_ > 0) ? other(current_)
                                                                          : current_;
  }
  void record(Way w, double ms);
  Way current() const { return current_; }
  int64_t runs(Way w) const { return runs_[w]; }
  int64_t switches() const { return switches_; }
  static Way other(Way w) { return w == Wide ? Narrow : Wide; }

 private:
  void keep(double ms);
  double usualNow() const;  // the mean of the current way's last kKeep runs (fewer: of those)
  Way current_;
  double recent_[kKeep] = {};  // the current way's last runs, the newest last
  int held_ = 0;
  int until_trial_, interval_ = kMinInterval;
  int trial_done_ = 0;
  double trial_ms_ = 0;
  double usual_ = 0;   // usualNow() once the current way has kKeep runs since it took over
  double before_ = 0;  // the mean of the way the current one replaced, when it did
  int probation_ = 0;  // runs left before the current way's confirmation
  int trial_interval_ = kMinInterval;  // the wait before the trial it won
  int settle_ = kMinInterval;          // the wait after a change of way (settle())
  int64_t last_switch_ = -(int64_t(1) << 40);
  int settle();  // the wait after a change of way now: doubled when the last was recent
  bool ran_[2] = {false, false}, fixed_ = false;
  int64_t runs_[2] = {0, 0};
  int64_t switches_ = 0;
};

/// Puts the `n` threads of the calling thread's OpenMP team on distinct CPUs, once per calling
/// thread and count: the team's other threads stay pinned, each to its own CPU, and the calling
/// thread's CPU is remembered for placeMaster. Linux starts a new thread on its creator's CPU
/// and, in a VM, wakes a sleeping thread onto the CPU of the thread that wakes it (an idle vCPU
/// looks unavailable), so a team whose threads sleep soon (msame's bounded spin) ran both halves
/// of each step on one CPU: on a 2-vCPU VM, 9 of 20 msame processes ran a 0.04 ms elementwise
/// model at 0.12 ms (docs/runtime.md, "Threads on a busy machine"). On by default under a
/// hypervisor only (cpu::underHypervisor); ASC_SPREAD_THREADS=1 turns it on anywhere, 0 off.
void spreadTeam(int n);
/// Moves the calling thread back to the CPU spreadTeam remembered when it is elsewhere (a
/// worker woke it onto the worker's CPU), leaving its affinity mask as it was: it is not pinned,
/// so threads it starts later are not either. Nothing when its team was not spread or has
/// another count now; a call costs a getcpu when the thread is in place.
void placeMaster();
/// Threads of other processes running or ready to run now (the fewest over a few samples of
/// /proc/loadavg, less this process's running threads); 0 if unknown.
int busyElsewhere();
/// The floating-point operations of one run (OpDef::flops, one per output element otherwise).
int64_t graphFlops(const ir::Graph& g);

class Session::Impl {
 public:
  ir::Graph graph;
  int threads = 1;
  int busy_seen = -1;  // threads busy elsewhere as resolveThreads sampled them (-1: not sampled)
  // Built with every core it takes free (no step held to fewer threads by the load): its runs
  // spread the team over distinct CPUs (spreadTeam). Beside other processes they do not: the
  // calling threads of two such sessions would be held to the same CPU.
  bool spread_team = false;
  // Built beside other load with more than one thread: each step the load holds to fewer
  // threads also has a kernel on all of them (Step::wide_kernel), and each run takes one of the
  // two ways as `plan` says; the wide way spreads the team.
  bool two_ways = false;
  RunPlan plan{RunPlan::Narrow};
  ops::KernelEnv env;
  std::vector<Slot> slots;
  std::vector<Step> steps;
  std::map<std::tuple<const ir::Value*, Layout, ir::DType>, int> versions;
  std::vector<int> input_slots, output_slots;
  std::vector<TensorInfo> input_info, output_info;
  // Whole pages from the kernel (support/pages.h): huge ones where they span 2 MiB.
  // `workspace`: the kernels' scratchpads and temporaries not placed in the arena.
  PageBuffer arena, workspace;
  std::shared_ptr<SharedArena> shared_arena;  // set when the arena is a shared one
  size_t arena_bytes = 0;
  bool profile = false;
  bool check_unwritten = false;
  StepObserver* observer = nullptr;
  int observed_step = -1;  // the step whose onStep is running (writeValue), else -1
  std::vector<double> step_ms;
  int64_t profiled_runs = 0;
  // Installed when tracing is on (msprof); `observer` then points at it and it chains the
  // user's observer. Declared last: destroyed first, handing its records to the trace buffer.
  std::unique_ptr<TraceObserver> tracer;

  int newSlot(const ir::Value* v, Layout layout, ir::DType type, int first) {
    Slot s;
    s.value = v;
    s.layout = layout;
    s.type = type;
    ir::Value tmp;
    tmp.dtype = type;
    tmp.shape = v->shape;
    s.bytes = ops::physicalBytes(tmp, layout);
    s.first = s.last = first;
    slots.push_back(s);
    int id = static_cast<int>(slots.size()) - 1;
    versions[{v, layout, type}] = id;
    return id;
  }

  std::unordered_map<const ir::Value*, int> main_slot;  // the stored version of each value
  std::vector<const ir::Node*> pending_complete;        // aliasing nodes before the first step
  bool reuse_ = true;
  std::deque<std::vector<uint8_t>> owned;  // constants converted at load (stable addresses)

  int mainSlot(const ir::Value* v) {
    auto it = main_slot.find(v);
    return it == main_slot.end() ? -1 : it->second;
  }

  // The version of `v` in `layout` and `type`, adding conversion steps (placed now, before the
  // step that needs it) when it does not exist yet. `use` is the step index of the consumer.
  int need(const ir::Value* v, Layout layout, ir::DType type, int use);

  Session::PackedWeights packed;
  // The OM's weights are being hashed on a helper thread (Verify::Background), which reads
  // every page of them before the load returns: usePacked leaves their page tables to it.
  bool weights_being_checked = false;
  std::unordered_map<const ir::Value*, size_t> last_consumer;
  // The OM's activation plan (empty for a graph built in memory).
  std::unordered_map<const ir::Value*, uint64_t> om_offsets;
  size_t om_placed = 0, buffers = 0;

  // Places the arena's buffers: where the OM has a plan, each value's stored version goes at
  // the OM's offset when it fits (no larger than the OM tensor) and shares no bytes with
  // another buffer placed there while both are live (checked against the runtime's own
  // lifetimes, so a plan that differs from the runtime's, or a damaged one, cannot make two
  // live tensors overlap); everything else (conversions, blocked copies, model inputs kept
  // across runs) is placed around them by the same planner. Returns the offset of each entry
  // of `ids`.
  std::vector<uint64_t> placeBuffers(const std::vector<int>& ids, bool reuse);

  int rootOf(int id) const {
    while (slots[id].alias_of >= 0) id = slots[id].alias_of;
    return id;
  }

  // The slot an op may write its output into (a Conv over its fused residual): the rule the
  // OM's plan follows too (om/inplace.h), asked about this plan's slots, plus this runtime's
  // physical condition: the slot is an arena slot of exactly the output's layout, compute type
  // and size. -1 otherwise. With reuse off nothing is shared.
  // The step of the Concat whose inputs node `n` may read in place of its input (ins: n's input
  // slots), or -1: a channels-last fp32 Concat along channels read by n alone, no model output,
  // and memory reuse on (values nobody observes); `n` a BatchNormalization
  // (ops::createConcatBatchNorm) or a 1x1 Conv (ops::createConcatConv; not when only packing).
  int concatFeedingReader(const ir::Node& n, const std::vector<int>& ins) const;
  int inPlaceResidual(const ir::Node& n, size_t node_index, const std::vector<int>& ins,
                      Layout out_layout, bool native) {
    if (!reuse_) return -1;
    std::unordered_map<const ir::Value*, int> slot_of;  // this node's inputs -> their slots
    for (size_t i = 0; i < n.inputs.size() && i < ins.size(); ++i)
      if (n.inputs[i] && ins[i] >= 0) slot_of[n.inputs[i]] = ins[i];
    om::BufferQueries q;
    q.buffer_of = [&](const ir::Value* v) -> int {
      auto it = slot_of.find(v);
      if (it == slot_of.end() || slots[it->second].external) return -1;
      for (const ir::Value* in : graph.inputs)
        if (in == v) return -1;
      return rootOf(it->second);
    };
    q.used_after = [&](int root, size_t node) {
      for (size_t i = 0; i < slots.size(); ++i) {
        if (rootOf(static_cast<int>(i)) != root) continue;
        const ir::Value* v = slots[i].value;
        auto lc = last_consumer.find(v);
        if (slots[i].external || lc == last_consumer.end() || lc->second > node) return true;
        for (const ir::Value* in : graph.inputs)
          if (in == v) return true;
      }
      return false;
    };
    const int k = om::inPlaceInput(n, node_index, q);
    if (k < 0) return -1;
    const int rs = ins[k];
    const Slot& s = slots[rs];
    const ir::Value* out = n.outputs[0];
    const ir::DType ct = native ? out->dtype : computeType(out->dtype);
    ir::Value shape_of;
    shape_of.dtype = ct;
    shape_of.shape = out->shape;
    if (s.layout != out_layout || s.type != ct ||
        s.bytes != ops::physicalBytes(shape_of, out_layout))
      return -1;
    return rs;
  }

  // The inputs of node `n` (slots `ins`) that can live inside its output, whose bytes are its
  // inputs one after another (OpDef::joinsInputs): each with its byte offset there. Such an
  // input's producer then writes into the output, and the kernel copies nothing for it. An input
  // qualifies when a step of this session writes its buffer (no model input, constant or alias
  // of another buffer), in the output's layout and type, it appears once, and nothing reads it
  // after the output's last reader.
  std::vector<std::pair<int, size_t>> joinedInputs(const ir::Node& n, const std::vector<int>& ins,
                                                   Layout out_layout, ir::DType out_type);
  // What om::joinedInputs asks, about node n's input slots `ins`.
  om::JoinQueries joinQueries(const ir::Node& n, const std::vector<int>& ins) const;
  // A Concat whose output is to be the first bytes of a later one's (om::prefixHost): its output
  // slot and input slots, made part of the later output once that one has joined them.
  struct Prefix {
    int out;
    std::vector<int> ins;
  };
  std::unordered_map<size_t, std::vector<Prefix>> prefixes;  // by the later node's index
  om::ReaderIndex readers;
  // Node n (at node_index, its slots ins and outs): registers it with its later host, if any,
  // and makes the prefixes registered with it parts of its output.
  void placePrefixes(const ir::Node& n, size_t node_index, const std::vector<int>& ins,
                     const std::vector<int>& outs, Layout out_layout);

  Status build(bool reuse);

  // A constant the OM stores only in a kernel's packed layout, its plain bytes not made yet.
  static bool packedOnly(const ir::Value* v);

  // The step's kernel. A kernel that read weights the OM stores only packed other than through
  // cpu::constantWeights (which reads them in place or unpacks them) saw the packed bytes where
  // plain ones belong: those weights are unpacked and the kernel is built again on them.
  // Every step's thread count, kernel (and, beside other load, its kernel on all the session's
  // threads: two_ways) or reorder, on the fixed buffers; weight reorders queued.
  Status createKernels();
  Status createKernel(Step& s) { return createKernel(s, s.threads, s.kernel, s.ws); }
  // The same for a kernel on `threads` into `kernel`, its workspace in `ws`.
  Status createKernel(Step& s, int threads, std::unique_ptr<ops::Kernel>& kernel, Workspace& ws);

  // One buffer behind every primitive's user-mode scratchpad (cpu::sharedScratchpad): the
  // kernels run one at a time.
  // Binds the kernels' workspaces (scratchpads and temporaries, which a kernel needs only while
  // it runs): each kernel's, when reuse is on, into bytes of the arena that no buffer live at
  // its step holds; the rest into one shared buffer of the largest size left.
  Status bindScratchpads(uint8_t* arena_base, size_t arena_size);
  // An offset in the arena where `bytes` bytes (64-aligned) are free throughout step `s`, or -1.
  int64_t freeArenaBytes(int s, size_t bytes, const uint8_t* arena_base, size_t arena_size) const;

  // The first run as fast as the ones after it: what it would otherwise do first is done at
  // load. The OpenMP team starts (with packed weights no parallel region runs at load), the
  // arena's pages are faulted in (populatePages), as the weights read in place were (usePacked),
  // and the kernels that generate their code at their first run (oneDNN's gemm-based ones) run
  // once, on the zeroed arena.
  void warmUp(uint8_t* base, size_t bytes);
  // A session built only for its kernels' packed weights (atc's packWeights), never run: no
  // warm-up, and large constants not read yet (ir::Blob::lazy: misaligned in their ONNX file)
  // stand in as `zeros`' bytes (never written: the zero page) while the kernels are
  // created. Their weight reorders stay queued (cpu::reserveWeightReorders); packWeights runs
  // each, from the constant where it lies, as the OM is written.
  bool pack_only = false;
  PageBuffer zeros;
  size_t zeros_bytes = 0;
  bool standsIn(const void* p) const { return zeros && p == zeros.get(); }

  // Which of the step's packed constants its kernel reads in place (it reports them as its
  // rearranged inputs, at the packed copy's address); those get their page tables now.
  void usePacked(const Step& s, const ops::Kernel& kernel, bool count = true);

  ops::TensorRef ref(int id) {
    if (id < 0) return ops::TensorRef{};
    const Slot& s = slots[id];
    ops::TensorRef r;
    r.data = s.ptr;
    r.value = s.value;
    r.layout = s.layout;
    r.type = s.type;
    r.bytes = s.bytes;
    return r;
  }

  // Runs the step on its own thread count, or, the way `wide`, its kernel on the session's
  // (a step without one keeps its count: its primitive is made for that many threads).
  void runStep(Step& s, bool wide = false) {
    const bool on_all = wide && s.wide_kernel;
    if (s.threads == threads || on_all) return runStepOn(s, on_all);
    OmpThreadsScope step_threads(s.threads);
    runStepOn(s, false);
  }

  void runStepOn(Step& s, bool wide) {
    switch (s.kind) {
      case StepKind::Kernel:
        (wide && s.wide_kernel ? s.wide_kernel : s.kernel)->run();
        break;
      case StepKind::Reorder: {
        if (s.conversion != cpu::BlockedConversion::None) {
          const Slot& a = slots[s.ins[0]];
          const ir::Shape& d = a.value->shape;
          const auto* x = static_cast<const float*>(a.ptr);
          auto* y = static_cast<float*>(slots[s.outs[0]].ptr);
          if (s.conversion == cpu::BlockedConversion::ToPlain)
            cpu::blockedToPlain(x, y, d[0], d[1], d[2] * d[3]);
          else
            cpu::plainToBlocked(x, y, d[0], d[1], d[2] * d[3]);
          break;
        }
        auto src = cpu::memOf(ref(s.ins[0]), env.engine);
        auto dst = cpu::memOf(ref(s.outs[0]), env.engine);
        s.reorder.execute(env.stream, src, dst);
        env.stream.wait();
        break;
      }
      case StepKind::Convert: {
        const Slot& a = slots[s.ins[0]];
        const Slot& b = slots[s.outs[0]];
        size_t n = b.bytes / ir::dtypeSize(b.type);
        auto* src16 = static_cast<const uint16_t*>(a.ptr);
        auto* dst16 = static_cast<uint16_t*>(b.ptr);
        if (a.type == ir::DType::F16 && b.type == ir::DType::F32)
          cpu::halfToFloat(src16, static_cast<float*>(b.ptr), n);
        else if (a.type == ir::DType::F32 && b.type == ir::DType::F16 && s.round_source)
          cpu::floatToHalfRounding(static_cast<float*>(a.ptr), dst16, n);
        else if (a.type == ir::DType::F32 && b.type == ir::DType::BF16 && s.round_source)
          cpu::floatToBf16Rounding(static_cast<float*>(a.ptr), dst16, n);
        else if (a.type == ir::DType::F32 && b.type == ir::DType::F16)
          cpu::floatToHalf(static_cast<const float*>(a.ptr), dst16, n);
        else if (a.type == ir::DType::BF16 && b.type == ir::DType::F32)
          cpu::bf16ToFloat(src16, static_cast<float*>(b.ptr), n);
        else if (a.type == ir::DType::F32 && b.type == ir::DType::BF16)
          cpu::floatToBf16(static_cast<const float*>(a.ptr), dst16, n);
        break;
      }
    }
  }
};

/// A session's Impl built on `graph`, with the OM's activation plan when loading one;
/// `pack_only` for one built only to pack weights (atc; Impl::pack_only).
Result<std::unique_ptr<Session::Impl>> buildImpl(ir::Graph graph, const SessionOptions& opts,
                                                 bool reuse, om::OmModel* plan = nullptr,
                                                 bool pack_only = false);

}  // namespace asc::runtime
