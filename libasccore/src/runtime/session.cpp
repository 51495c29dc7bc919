// session.cpp: running a Session and its public API; session_build.cpp makes it at load.
#include "asc/runtime/session.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <omp.h>

#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/trace/trace.h"
#include "runtime/dynamic.h"
#include "runtime/session_impl.h"
#include "runtime/session_internal.h"

namespace asc::runtime {

SharedArena::~SharedArena() { freePages(data_, bytes_); }

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::Session(std::unique_ptr<DynamicModel> dyn) : dyn_(std::move(dyn)) {}
Session::~Session() {
  if (impl_ && impl_->two_ways)
    ASC_LOG_INFO(
        "model '{}': {} run(s) with every step on {} threads, {} with steps held to the "
        "free cores; {} change(s) of way",
        impl_->graph.name, impl_->plan.runs(RunPlan::Wide), impl_->threads,
        impl_->plan.runs(RunPlan::Narrow), impl_->plan.switches());
}

void setTraceModel(Session& s, const std::string& model, const std::string& soc) {
  if (s.impl_ && s.impl_->tracer) s.impl_->tracer->setModel(model, soc);
}

Result<std::unique_ptr<Session>> Session::fromGraph(ir::Graph graph, const SessionOptions& opts) {
  if (graph.dynamic) {  // compiled per shape; clean-ups only, as this path runs no fusion
    const std::string name = graph.name;
    ASC_TRY(auto dyn,
            DynamicModel::create(std::move(graph), {}, {{"level", {"O1"}}}, opts, name, ""));
    return std::unique_ptr<Session>(new Session(std::move(dyn)));
  }
  ASC_TRY(auto impl, buildImpl(std::move(graph), opts, opts.reuse_memory));
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

Result<std::unique_ptr<Session>> Session::load(const std::string& om_path,
                                               const SessionOptions& opts) {
  ASC_TRACE_SCOPE("AscendCL", "LoadModel");
  // The weights are hashed on a helper thread while the session is built (the build reads only
  // what the verified ModelDef describes); nothing runs before the check has passed.
  const om::Verify verify =
      opts.verify == om::Verify::Skip ? om::Verify::Skip : om::Verify::Background;
  ASC_TRY(om::OmModel m, om::loadOm(om_path, verify));
  // A copy: the build sees that the weights are being read by the check (so it does not fault
  // their pages in a second time), and the check outlives the build's OmModel.
  std::shared_ptr<om::PendingCheck> pending = m.pending;
  Result<std::unique_ptr<Session>> s = build(om_path, std::move(m), opts);
  if (pending) ASC_RETURN_IF_ERROR(pending->finish());
  return s;
}

Result<std::unique_ptr<Session>> Session::build(const std::string& om_path, om::OmModel m,
                                                const SessionOptions& opts) {
  if (m.graph.dynamic) {
    auto soc = m.summary.attrs.find("soc_version");
    SessionOptions o = opts;  // a model built with reuse off gets none at any shape either
    o.reuse_memory = opts.reuse_memory && m.memory_reuse;
    ASC_TRY(auto dyn, DynamicModel::create(std::move(m.graph), std::move(m.dynamic),
                                           m.runtime_compile, o, fileStem(om_path),
                                           soc == m.summary.attrs.end() ? "" : soc->second));
    return std::unique_ptr<Session>(new Session(std::move(dyn)));
  }
  // The OM's memory setting holds here too: a model built with reuse off gets no reuse.
  ASC_TRY(auto impl, buildImpl(std::move(m.graph), opts, opts.reuse_memory && m.memory_reuse, &m));
  if (impl->tracer) {
    auto soc = m.summary.attrs.find("soc_version");
    impl->tracer->setModel(fileStem(om_path), soc == m.summary.attrs.end() ? "" : soc->second);
  }
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

const std::vector<TensorInfo>& Session::inputs() const {
  return dyn_ ? dyn_->inputs() : impl_->input_info;
}
const std::vector<TensorInfo>& Session::outputs() const {
  return dyn_ ? dyn_->outputs() : impl_->output_info;
}
std::vector<TensorInfo> Session::largestOutputs() const {
  return dyn_ ? dyn_->largestOutputs() : impl_->output_info;
}
bool Session::isDynamic() const { return dyn_ != nullptr; }
const om::DynamicShapes* Session::dynamicShapes() const { return dyn_ ? &dyn_->shapes() : nullptr; }
size_t Session::compiledShapes() const { return dyn_ ? dyn_->compiled() : 0; }

Status Session::setInputShape(size_t i, const ir::Shape& shape) {
  if (dyn_) return dyn_->setInputShape(i, shape);
  if (i >= impl_->input_info.size())
    return Status::error(ErrorCode::InputShapeMismatch, "the model has {} inputs, not {}",
                         impl_->input_info.size(), i + 1);
  const TensorInfo& info = impl_->input_info[i];
  if (shape != info.shape)
    return Status::error(
        ErrorCode::InputShapeMismatch,
        "input {} ('{}') has the fixed shape [{}], not [{}]; the model has no "
        "dynamic dims (atc --input_shape with -1 or ranges, or --dynamic_batch_size "
        "and its kin, make them)",
        i, info.name, ir::shapeToString(info.shape), ir::shapeToString(shape));
  return Status::ok();
}

Status Session::setInput(size_t i, const void* data, size_t bytes) {
  if (dyn_) return dyn_->setInput(i, data, bytes);
  if (i >= impl_->input_slots.size())
    return Status::error(ErrorCode::InputShapeMismatch, "the model has {} inputs, not {}",
                         impl_->input_slots.size(), i + 1);
  const TensorInfo& info = impl_->input_info[i];
  if (bytes != info.bytes)
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input {} ('{}') needs {} bytes ({} [{}]), the data has {} bytes", i,
                         info.name, info.bytes, ir::dtypeName(info.dtype),
                         ir::shapeToString(info.shape), bytes);
  std::memcpy(impl_->slots[impl_->input_slots[i]].ptr, data, bytes);
  return Status::ok();
}

void Session::zeroInputs() {
  if (dyn_) return dyn_->zeroInputs();
  for (size_t i = 0; i < impl_->input_slots.size(); ++i)
    std::memset(impl_->slots[impl_->input_slots[i]].ptr, 0, impl_->input_info[i].bytes);
}

Status Session::run() {
  if (dyn_) return dyn_->run();
  // OpenMP's thread count is per calling thread: a session run from another thread than the one
  // that built it (msame --concurrency, AscendCL stream workers) would otherwise take every core.
  // Placing the team is no part of the model's execution (msprof's ModelExecute).
  if (omp_get_max_threads() != impl_->threads) omp_set_num_threads(impl_->threads);
  // Beside other load a run takes the way that was faster lately (RunPlan); runs with an
  // observer or a profile keep the current one, so their steps' times stay comparable.
  const bool timed = impl_->two_ways && !impl_->observer && !impl_->profile;
  const RunPlan::Way way =
      impl_->two_ways ? (timed ? impl_->plan.next() : impl_->plan.current()) : RunPlan::Narrow;
  const bool wide = way == RunPlan::Wide;
  if (impl_->spread_team || wide) {
    spreadTeam(impl_->threads);
    placeMaster();
  }
  ASC_TRACE_SCOPE("AscendCL", "ModelExecute");
  try {
    if (impl_->observer) {
      using Clock = std::chrono::steady_clock;
      static const char* kKinds[] = {"kernel", "reorder", "convert"};
      // Copies no kernel reads (Step::skip_unobserved) run for observers that read values; one
      // that only times the steps sees them as steps of no duration.
      const bool copies = impl_->observer->readsValues();
      for (size_t i = 0; i < impl_->steps.size(); ++i) {
        Step& st = impl_->steps[i];
        const bool runs = copies || !st.skip_unobserved;
        auto t0 = Clock::now();
        if (runs) impl_->runStep(st, wide);
        auto t1 = runs ? Clock::now() : t0;
        if (impl_->profile) {
          if (impl_->step_ms.empty()) impl_->step_ms.assign(impl_->steps.size(), 0.0);
          impl_->step_ms[i] += std::chrono::duration<double, std::milli>(t1 - t0).count();
        }
        StepEvent e;
        e.index = i;
        e.kind = kKinds[static_cast<int>(st.kind)];
        e.node = st.node;
        e.label = &st.label;
        e.completes = &st.completes;
        e.start_ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(t0.time_since_epoch()).count();
        e.end_ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(t1.time_since_epoch()).count();
        impl_->observed_step = static_cast<int>(i);
        impl_->observer->onStep(*this, e);
        impl_->observed_step = -1;
      }
      if (impl_->profile) ++impl_->profiled_runs;
    } else if (impl_->profile) {
      if (impl_->step_ms.empty()) impl_->step_ms.assign(impl_->steps.size(), 0.0);
      for (size_t i = 0; i < impl_->steps.size(); ++i) {
        if (impl_->steps[i].skip_unobserved) continue;
        auto t0 = std::chrono::steady_clock::now();
        impl_->runStep(impl_->steps[i], wide);
        impl_->step_ms[i] +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
      }
      ++impl_->profiled_runs;
    } else if (timed) {
      const auto t0 = std::chrono::steady_clock::now();
      for (auto& s : impl_->steps)
        if (!s.skip_unobserved) impl_->runStep(s, wide);
      impl_->plan.record(
          way,
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    } else {
      for (auto& s : impl_->steps)
        if (!s.skip_unobserved) impl_->runStep(s, wide);
    }
  } catch (const dnnl::error& e) {
    return Status::error(ErrorCode::Internal, "oneDNN failed while running: {}", e.what());
  } catch (const ops::KernelRunError& e) {
    return e.status();
  }
  return Status::ok();
}

const void* Session::outputData(size_t i) const {
  if (dyn_) return dyn_->current() ? dyn_->current()->outputData(i) : nullptr;
  return impl_->slots[impl_->output_slots.at(i)].ptr;
}

void Session::setObserver(StepObserver* observer) {
  if (dyn_) return dyn_->setObserver(observer);
  if (impl_->tracer)
    impl_->tracer->setNext(observer);  // tracing stays on; the user's observer follows it
  else
    impl_->observer = observer;
}

Status Session::readValue(const ir::Value* v, void* dst) const {
  if (dyn_) {
    if (dyn_->current()) return dyn_->current()->readValue(v, dst);
    return Status::error(ErrorCode::Internal,
                         "a dynamic model holds no values before its first run");
  }
  const int id = v ? impl_->mainSlot(v) : -1;
  if (id < 0)
    return Status::error(ErrorCode::Internal, "value '{}' is not held by this session",
                         v ? v->name : "(null)");
  const Slot& s = impl_->slots[id];
  if (s.layout == Layout::Plain) {
    std::memcpy(dst, s.ptr, v->byteSize());
    return Status::ok();
  }
  try {
    ops::TensorRef from = impl_->ref(id);
    ops::TensorRef to = from;
    to.data = dst;
    to.layout = Layout::Plain;
    to.bytes = v->byteSize();
    auto src = cpu::memOf(from, impl_->env.engine);
    auto out = cpu::memOf(to, impl_->env.engine);
    dnnl::reorder(src, out).execute(impl_->env.stream, src, out);
    impl_->env.stream.wait();
  } catch (const dnnl::error& e) {
    return Status::error(ErrorCode::Internal, "reading '{}': oneDNN: {}", v->name, e.what());
  }
  return Status::ok();
}

Status Session::writeValue(const ir::Value* v, const void* src) {
  if (dyn_) {
    if (dyn_->current()) return dyn_->current()->writeValue(v, src);
    return Status::error(ErrorCode::Internal,
                         "a dynamic model holds no values before its first run");
  }
  const int step = impl_->observed_step;
  if (!v || v->isConstant() || impl_->mainSlot(v) < 0)
    return Status::error(ErrorCode::Internal,
                         "value '{}' is not an activation held by this session",
                         v ? v->name : "(null)");
  if (step < 0)
    return Status::error(ErrorCode::Internal,
                         "writeValue('{}') is only valid inside a StepObserver's onStep", v->name);
  // Every live version of the value: the stored one, and the copies later steps read (the
  // float32 compute copy of an fp16 value, a blocked-layout copy), each converted from the
  // plain data. A version no later step reads may share its bytes with another value by now.
  std::vector<const void*> written;
  try {
    for (size_t id = 0; id < impl_->slots.size(); ++id) {
      const Slot& s = impl_->slots[id];
      if (s.value != v || s.external || !s.ptr || s.first > step ||
          (s.last <= step && static_cast<int>(id) != impl_->mainSlot(v)))
        continue;
      if (std::find(written.begin(), written.end(), s.ptr) != written.end()) continue;
      written.push_back(s.ptr);
      if (s.layout == Layout::Plain && s.type == v->dtype) {
        std::memcpy(s.ptr, src, v->byteSize());
        continue;
      }
      ops::TensorRef to = impl_->ref(static_cast<int>(id));
      ops::TensorRef from = to;
      from.data = const_cast<void*>(src);  // only read by the reorder
      from.layout = Layout::Plain;
      from.type = v->dtype;
      from.bytes = v->byteSize();
      auto in = cpu::memOf(from, impl_->env.engine);
      auto out = cpu::memOf(to, impl_->env.engine);
      dnnl::reorder(in, out).execute(impl_->env.stream, in, out);
      impl_->env.stream.wait();
    }
  } catch (const dnnl::error& e) {
    return Status::error(ErrorCode::Internal, "writing '{}': oneDNN: {}", v->name, e.what());
  }
  return Status::ok();
}

// A dynamic model answers for the plan of its last run.
size_t Session::arenaBytes() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->arenaBytes() : 0;
  return impl_->arena_bytes;
}
size_t Session::bufferCount() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->bufferCount() : 0;
  return impl_->buffers;
}
size_t Session::modelPlacedBuffers() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->modelPlacedBuffers() : 0;
  return impl_->om_placed;
}
Session::PackedWeights Session::packedWeights() const {
  return impl_ ? impl_->packed : PackedWeights{};
}

size_t Session::stepCount() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->stepCount() : 0;
  return impl_->steps.size();
}
int Session::threads() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->threads() : resolveThreads(0);
  return impl_->threads;
}
const ir::Graph& Session::graph() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->graph() : dyn_->graph();
  return impl_->graph;
}

std::vector<StepTime> Session::stepProfile() const {
  if (dyn_) return dyn_->current() ? dyn_->current()->stepProfile() : std::vector<StepTime>{};
  std::vector<StepTime> out;
  for (size_t i = 0; i < impl_->step_ms.size(); ++i) {
    const auto& st = impl_->steps[i];
    out.push_back(
        {st.label, st.node ? st.node->name : "", impl_->step_ms[i], impl_->profiled_runs});
  }
  return out;
}

std::string Session::describe() const {
  if (dyn_)
    return dyn_->current() ? dyn_->current()->describe()
                           : "(a dynamic model: compiled for its input shapes at the first run)\n";
  std::string out;
  for (size_t i = 0; i < impl_->steps.size(); ++i)
    out += fmt::format("{:4} {}\n", i, impl_->steps[i].label);
  return out;
}

}  // namespace asc::runtime
