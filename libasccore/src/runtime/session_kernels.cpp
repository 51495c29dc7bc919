// session_kernels.cpp: the last steps of building a Session: each step's thread count and kernel
// created on its fixed buffers (reading packed weights in place where the OM has them for this
// CPU; beside other load a second kernel on all the session's threads, RunPlan), oneDNN's
// scratchpads bound to the arena, and the arena's pages touched once before the first run.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "asc/ops/registry.h"
#include "asc/support/log.h"
#include "asc/trace/trace.h"
#include "ops/conv/conv_kernel.h"
#include "ops/norm/norm_kernel.h"
#include "ops/pool/pool_kernel.h"
#include "runtime/session_impl.h"

namespace asc::runtime {

bool Session::Impl::packedOnly(const ir::Value* v) {
  return v->isConstant() && v->packed && v->data && !v->data->ready();
}

Status Session::Impl::createKernel(Step& s, int threads, std::unique_ptr<ops::Kernel>& kernel,
                                   Workspace& ws) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    // A discarded attempt's workspace goes with it: this step's is what the last one adds.
    ws.scratch_from = env.scratchpads.size();
    for (int k = 0; k < ops::KernelEnv::kTemporaries; ++k)
      ws.temp_from[k] = env.temporaries[k].size();
    const size_t reorders_before = env.pending_reorders.size();
    ops::KernelInit init{*s.node, {}, {}, env, threads, check_unwritten};
    for (int id : s.ins) init.inputs.push_back(ref(id));
    for (int id : s.outs) init.outputs.push_back(ref(id));
    env.weights_read.clear();
    if (s.concat_inputs_of >= 0) {
      Step& concat = steps[s.concat_inputs_of];
      std::vector<ops::TensorRef> parts;
      for (int id : concat.ins) parts.push_back(ref(id));
      const std::string& op = s.node->op_type;
      kernel = op == "Conv"      ? ops::createConcatConv(init, parts)
               : op == "MaxPool" ? ops::createConcatMaxPool(init, parts)
                                 : ops::createConcatBatchNorm(init, parts);
      // Nothing else reads the Concat's output: runs nobody observes leave its copy out.
      if (kernel) {
        if (!concat.skip_unobserved)
          concat.label += fmt::format(" (left out of unobserved runs: its {} reads its inputs)",
                                      op == "BatchNormalization" ? "batch norm" : op);
        concat.skip_unobserved = true;
        ws.scratch_to = env.scratchpads.size();  // its convolutions' (the batch norm has none)
        for (int t = 0; t < ops::KernelEnv::kTemporaries; ++t)
          ws.temp_to[t] = env.temporaries[t].size();
        break;
      }
      concat.skip_unobserved = false;
      s.concat_inputs_of = -1;
    }
    auto k = ops::lookup(s.node->op_type)->kernelFactory()(init);
    if (!k) return k.status();
    kernel = std::move(*k);
    ws.scratch_to = env.scratchpads.size();
    for (int t = 0; t < ops::KernelEnv::kTemporaries; ++t)
      ws.temp_to[t] = env.temporaries[t].size();
    bool rebuild = false;
    for (int id : s.ins) {
      if (id < 0) continue;
      Slot& slot = slots[id];
      const ir::Value* v = slot.value;
      if (!v || !v->packed || slot.external != v->packed->data() || v->data->ready() ||
          std::find(env.weights_read.begin(), env.weights_read.end(), v) != env.weights_read.end())
        continue;
      slot.external = v->data->data();
      slot.ptr = const_cast<void*>(slot.external);
      rebuild = true;
    }
    if (!rebuild) break;
    ASC_LOG_DEBUG("node '{}': its kernel reads weights stored packed as plain ones; unpacked",
                  s.node->name);
    // The discarded kernel's queued weight reorders may read buffers it owned: they go too
    // (those it queued; another kernel of the step keeps its own).
    env.pending_reorders.resize(reorders_before);
    kernel.reset();
    env.scratchpads.resize(ws.scratch_from);
    for (int t = 0; t < ops::KernelEnv::kTemporaries; ++t)
      env.temporaries[t].resize(ws.temp_from[t]);
  }
  return Status::ok();
}

Status Session::Impl::createKernels() {
  int small_steps = 0;
  // Packing for an OM (pack_only) takes the idle machine's layouts, whatever the load.
  const StepThreads step_threads =
      pack_only ? StepThreads{0, threads} : stepThreads(threads, busy_seen);
  spread_team = threads > 1 && step_threads.min_work == 0 && step_threads.max == threads;
  // Beside other load, a second kernel on every thread for each step held to fewer, and runs
  // that choose between the two ways (RunPlan). ASC_RUN_WAY=wide or narrow fixes the way.
  two_ways = !pack_only && threads > 1 && step_threads.by_load;
  const char* way = std::getenv("ASC_RUN_WAY");
  const std::string fixed_way = way ? way : "";
  if (fixed_way == "narrow") two_ways = false;
  if (!fixed_way.empty() && fixed_way != "wide" && fixed_way != "narrow" && fixed_way != "auto")
    ASC_LOG_WARN("ASC_RUN_WAY='{}' is none of wide, narrow, auto: taken as auto", fixed_way);
  int wide_kernels = 0;
  for (auto& s : steps) {
    // A step's work: its node's, or for a reorder or conversion the elements it moves.
    const int64_t work =
        s.kind == StepKind::Kernel
            ? nodeWork(*s.node)
            : static_cast<int64_t>(slots[s.outs[0]].bytes /
                                   std::max<size_t>(1, ir::dtypeSize(slots[s.outs[0]].type)));
    s.threads = threadsForStep(work, step_threads);
    small_steps += s.threads < threads;
    // oneDNN fixes a primitive's thread count when it is made: the step's count, here too.
    OmpThreadsScope step_threads(s.threads);
    if (s.kind == StepKind::Kernel) {
      ASC_RETURN_IF_ERROR(createKernel(s));
      s.label += " " + s.kernel->implName();
      usePacked(s, *s.kernel);
      if (two_ways && s.threads < threads) {
        OmpThreadsScope all_threads(threads);
        ASC_RETURN_IF_ERROR(createKernel(s, threads, s.wide_kernel, s.wide_ws));
        usePacked(s, *s.wide_kernel, false);
        ++wide_kernels;
      }
    } else if (s.kind == StepKind::Reorder) {
      try {
        auto src = cpu::memOf(ref(s.ins[0]), env.engine);
        auto dst = cpu::memOf(ref(s.outs[0]), env.engine);
        s.reorder = dnnl::reorder(src, dst);
        // fp32 nChw8c <-> nchw: the runtime's own transposes (cpu/blocked.h) on AVX2 CPUs.
        if (cpu::fastConversions())
          s.conversion = cpu::blockedConversion(src.get_desc(), dst.get_desc());
      } catch (const dnnl::error& e) {
        return Status::error(ErrorCode::Internal, "{}: {}", s.label, e.what());
      }
    }
  }
  two_ways = two_ways && wide_kernels > 0;
  if (two_ways)
    plan = fixed_way == "wide" ? RunPlan::fixed(RunPlan::Wide)
                               : RunPlan(RunPlan::Narrow, RunPlan::kFirstTrial);
  if (small_steps)
    ASC_LOG_INFO(
        "{} of {} steps run on fewer than {} threads (little work, other processes "
        "busy on the cores){}",
        small_steps, steps.size(), threads,
        two_ways
            ? fmt::format("; {} of them also have a kernel on {}: {}", wide_kernels, threads,
                          fixed_way == "wide" ? "every run takes those (ASC_RUN_WAY=wide)"
                                              : "each run takes the way that was faster lately")
            : std::string());
  return Status::ok();
}

int64_t Session::Impl::freeArenaBytes(int s, size_t bytes, const uint8_t* arena_base,
                                      size_t arena_size) const {
  // The arena bytes of the buffers live at step s (the planner's own lifetimes), in order.
  std::vector<std::pair<size_t, size_t>> busy;
  for (const Slot& slot : slots) {
    if (slot.external || slot.alias_of >= 0 || !slot.ptr) continue;
    const uint8_t* p = static_cast<const uint8_t*>(slot.ptr);
    if (p < arena_base || p >= arena_base + arena_size) continue;
    if (s < slot.first || s > std::max(slot.first, slot.last)) continue;
    const size_t at = static_cast<size_t>(p - arena_base);
    busy.emplace_back(at, at + slot.bytes);
  }
  std::sort(busy.begin(), busy.end());
  size_t at = 0;
  for (const auto& [begin, end] : busy) {
    if (begin >= at + bytes) break;
    at = std::max(at, (end + kAlign - 1) / kAlign * kAlign);
  }
  return at + bytes <= arena_size ? static_cast<int64_t>(at) : -1;
}

Status Session::Impl::bindScratchpads(uint8_t* arena_base, size_t arena_size) {
  auto aligned = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  auto bytes = [&](const Workspace& w) {
    size_t n = 0;
    for (size_t m = w.scratch_from; m < w.scratch_to; ++m)
      n += aligned(env.scratchpads[m].get_desc().get_size());
    for (int k = 0; k < ops::KernelEnv::kTemporaries; ++k)
      for (size_t m = w.temp_from[k]; m < w.temp_to[k]; ++m)
        n += aligned(env.temporaries[k][m].get_desc().get_size());
    return n;
  };
  // A kernel's memories one after another from `p`.
  auto bindOne = [&](const Workspace& w, uint8_t* p) {
    for (size_t m = w.scratch_from; m < w.scratch_to; ++m) {
      env.scratchpads[m].set_data_handle(p);
      p += aligned(env.scratchpads[m].get_desc().get_size());
    }
    for (int k = 0; k < ops::KernelEnv::kTemporaries; ++k)
      for (size_t m = w.temp_from[k]; m < w.temp_to[k]; ++m) {
        env.temporaries[k][m].set_data_handle(p);
        p += aligned(env.temporaries[k][m].get_desc().get_size());
      }
  };
  // A step's two kernels (Step::wide_kernel) never run at once: both from the same bytes.
  auto bind = [&](const Step& s, uint8_t* p) {
    bindOne(s.ws, p);
    if (s.wide_kernel) bindOne(s.wide_ws, p);
  };
  std::vector<size_t> need(steps.size(), 0);
  std::vector<bool> placed(steps.size(), false);
  size_t shared = 0, in_arena = 0, with_workspace = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (s.kind != StepKind::Kernel) continue;
    need[i] = std::max(bytes(s.ws), s.wide_kernel ? bytes(s.wide_ws) : 0);
    if (need[i] == 0) continue;
    ++with_workspace;
    // With reuse off every value stays readable after the run: no bytes of the arena are free.
    const int64_t at =
        reuse_ ? freeArenaBytes(static_cast<int>(i), need[i], arena_base, arena_size) : -1;
    if (at >= 0) {
      bind(s, arena_base + at);
      placed[i] = true;
      ++in_arena;
    } else {
      shared = std::max(shared, need[i]);
    }
  }
  if (with_workspace)
    ASC_LOG_DEBUG("kernel workspaces: {} of {} in free bytes of the arena", in_arena,
                  with_workspace);
  if (shared == 0) return Status::ok();
  // The others share one buffer of the largest size (kernels run one at a time), faulted in
  // now rather than in the first run.
  workspace = pageBuffer(shared);
  if (!workspace)
    return Status::error(ErrorCode::MemoryExceeded, "cannot allocate the {}-byte kernel workspace",
                         shared);
  populatePages(workspace.get(), shared);
  for (size_t i = 0; i < steps.size(); ++i)
    if (need[i] && !placed[i]) bind(steps[i], workspace.get());
  ASC_LOG_DEBUG("kernel workspace {} bytes, shared by {} kernels", shared,
                with_workspace - in_arena);
  return Status::ok();
}

void Session::Impl::warmUp(uint8_t* base, size_t bytes) {
#pragma omp parallel num_threads(threads)
  { omp_get_thread_num(); }
  populatePages(base, bytes);
  // oneDNN's gemm (MatMul, Gemm and inner products where no brgemm kernel serves: AVX2 CPUs)
  // generates its code at its first call, not at primitive creation: the benchmark
  // transformer's first MatMul took 25 ms against 0.6 ms later, ResNet-50's FC 5.7 ms against
  // 0.35 ms. Their outputs are written again by every run.
  for (auto& s : steps) {
    if (s.kind != StepKind::Kernel) continue;
    if (s.kernel->implName().find("gemm:jit") != std::string::npos) s.kernel->run();
    if (s.wide_kernel && s.wide_kernel->implName().find("gemm:jit") != std::string::npos)
      s.wide_kernel->run();
  }
}

void Session::Impl::usePacked(const Step& s, const ops::Kernel& kernel, bool count) {
  bool any = false;
  for (int id : s.ins) any |= id >= 0 && slots[id].value && slots[id].value->packed;
  if (!any) return;
  const auto mine = kernel.packedInputs();
  for (int id : s.ins) {
    const ir::Value* v = id < 0 ? nullptr : slots[id].value;
    if (!v || !v->packed) continue;
    bool used = false;
    for (const auto& p : mine) used |= p.data == v->packed->data();
    // A Conv over a Concat's inputs reads its weights in slices, from the plain bytes.
    const bool sliced = s.concat_inputs_of >= 0 && s.node && s.node->op_type == "Conv";
    if (count) ++(used ? packed.in_place : sliced ? packed.sliced : packed.reordered);
    // Page tables now (the pages are the page cache's, the very ones the run reads; nothing
    // is copied). In a virtual machine that shadows page tables, the first read still costs
    // a fault per page: reading them on a second thread here took longer than the load.
    // Not while the check reads them on its thread: it maps every page of the weights before
    // the load returns, and doing it here too took the build's core for as long again (the
    // check's share of ResNet-50's load, AVX2: 0.29 -> see docs/benchmarks-avx2.md).
    if (used && !weights_being_checked) prefaultForReading(v->packed->data(), v->packed->size());
  }
}

}  // namespace asc::runtime
