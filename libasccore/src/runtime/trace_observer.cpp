// trace_observer.cpp: turns StepEvents into trace records. Static facts of each step (op type,
// engine, shapes, FLOPs, bytes) are recorded the first time the step runs; every later run adds
// one TaskRecord.
#include "runtime/trace_observer.h"

#include "asc/ops/registry.h"
#include "asc/support/log.h"

namespace asc::runtime {
namespace {

std::string dtypeText(ir::DType t) {
  std::string s = ir::dtypeGeName(t);
  return s.rfind("DT_", 0) == 0 ? s.substr(3) : s;
}

void describeValues(const std::vector<ir::Value*>& vs, std::string* shapes, std::string* dtypes,
                    std::string* formats, int64_t* bytes) {
  bool first = true;
  for (const ir::Value* v : vs) {
    if (!v) continue;
    if (!first) {
      *shapes += ';';
      *dtypes += ';';
      *formats += ';';
    }
    first = false;
    for (size_t i = 0; i < v->shape.size(); ++i) {
      if (i) *shapes += ',';
      *shapes += std::to_string(v->shape[i]);
    }
    *dtypes += dtypeText(v->dtype);
    *formats += v->format;
    *bytes += static_cast<int64_t>(v->byteSize());
  }
}

}  // namespace

TraceObserver::~TraceObserver() {
  if (sid_ == 0) return;
  trace::addTasks(sid_, std::move(tasks_));
  Status st = trace::flush();
  if (!st) ASC_LOG_WARN("profile data lost: {}", st.toString());
}

int TraceObserver::opFor(const StepEvent& e) {
  if (sid_ == 0) sid_ = trace::beginSession(model_, soc_, threads_);
  trace::OpRecord r;
  if (e.node) {
    const ir::Node& n = *e.node;
    r.name = n.name;
    r.ir_type = n.op_type;
    const ops::OpDef* def = ops::lookup(n.op_type);
    r.cann_type = ops::cannTypeOf(n);
    r.engine = ops::engineName(def ? def->engineKind() : ops::Engine::AiCore);
    for (size_t i = 0; i < n.original_names.size(); ++i)
      r.original += (i ? ";" : "") + n.original_names[i];
    describeValues(n.inputs, &r.in_shapes, &r.in_dtypes, &r.in_formats, &r.bytes);
    describeValues(n.outputs, &r.out_shapes, &r.out_dtypes, &r.out_formats, &r.bytes);
    r.flops = ops::nodeFlops(n);
  } else {
    // Runtime-inserted steps: a layout change is CANN's TransData, a dtype change its Cast.
    const bool reorder = std::string(e.kind) == "reorder";
    r.name = e.label ? *e.label : e.kind;
    r.ir_type = e.kind;
    r.cann_type = reorder ? "TransData" : "Cast";
    r.engine = ops::engineName(ops::Engine::AiCore);
  }
  return trace::addOp(sid_, r);
}

void TraceObserver::onStep(const Session& session, const StepEvent& e) {
  if (e.index == 0) ++run_;
  if (e.index >= op_of_step_.size()) op_of_step_.resize(e.index + 1, -1);
  int& op = op_of_step_[e.index];
  if (op < 0) op = opFor(e);
  tasks_.push_back({op, run_, e.start_ns, e.end_ns});
  if (next_) next_->onStep(session, e);
}

}  // namespace asc::runtime
