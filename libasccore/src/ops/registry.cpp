// registry.cpp: expands ops.def into the op table; the graph-wide inference and folding walk.
#include "asc/ops/registry.h"

#include <algorithm>
#include <optional>
#include <cassert>
#include <memory>
#include <unordered_set>

#include "asc/support/log.h"
#include "ops/op_defs.h"

namespace asc::ops {

const char* engineName(Engine e) { return e == Engine::AiCore ? "AI_CORE" : "AI_CPU"; }

namespace {

bool byName(const OpDef* a, const OpDef* b) { return a->name() < b->name(); }

// The in-tree ops of ops.def, then whatever registerOp() added, sorted by name.
std::vector<const OpDef*>& table() {
  static std::vector<const OpDef*> t = [] {
    std::vector<const OpDef*> v = {
#define ASC_OP(name) &def##name(),
#include "ops.def"
#undef ASC_OP
    };
    std::sort(v.begin(), v.end(), byName);
    for (size_t i = 1; i < v.size(); ++i)
      assert(v[i - 1]->name() != v[i]->name() && "an op appears twice in ops.def");
    return v;
  }();
  return t;
}

std::vector<std::unique_ptr<OpDef>>& registered() {
  static std::vector<std::unique_ptr<OpDef>> r;
  return r;
}

}  // namespace

const std::vector<const OpDef*>& allOps() { return table(); }

Status registerOp(OpDef def, const std::string& origin) {
  const std::string where = origin.empty() ? std::string("registerOp") : origin;
  if (def.name().empty())
    return Status::error(ErrorCode::InvalidParam, "{}: an operator without a name", where);
  if (const OpDef* old = lookup(def.name()))
    return Status::error(ErrorCode::InvalidParam,
                         "{}: operator '{}' is already registered ({}); give the custom "
                         "operator another type name",
                         where, def.name(), old->isRegistered() ? "by a plugin" : "in-tree");
  // A custom operator may take a built-in's CANN type: as in CANN, the custom one comes first
  // where an OM or --op_name_map names that type (lookupByCann). Two plugins may not share one.
  if (const OpDef* old = lookupByCann(def.cannType())) {
    if (old->isRegistered())
      return Status::error(ErrorCode::InvalidParam,
                           "{}: operator '{}' takes the CANN type '{}', which '{}' of {} already "
                           "has; give one of the custom operators another type",
                           where, def.name(), def.cannType(), old->name(), old->origin());
    ASC_LOG_INFO("{}: custom operator '{}' takes the CANN type '{}' before the built-in '{}'",
                 where, def.name(), def.cannType(), old->name());
  }
  if (!def.inferFn())
    return Status::error(ErrorCode::InvalidParam,
                         "{}: operator '{}' has no shape inference (OpDef::inferShape)", where,
                         def.name());
  if (!def.kernelFactory())
    return Status::error(ErrorCode::InvalidParam,
                         "{}: operator '{}' has no CPU kernel (OpDef::kernel)", where, def.name());
  def.markRegistered(where);
  registered().push_back(std::make_unique<OpDef>(std::move(def)));
  auto& t = table();
  t.insert(std::upper_bound(t.begin(), t.end(), registered().back().get(), byName),
           registered().back().get());
  ASC_LOG_INFO("registered operator '{}' from {}", registered().back()->name(), where);
  return Status::ok();
}

const OpDef* lookup(std::string_view name) {
  const auto& t = allOps();
  auto it = std::lower_bound(t.begin(), t.end(), name,
                             [](const OpDef* d, std::string_view n) { return d->name() < n; });
  return it != t.end() && (*it)->name() == name ? *it : nullptr;
}

std::string cannTypeOf(const ir::Node& n) {
  const OpDef* d = lookup(n.op_type);
  if (!d) return n.op_type;
  if (CannSpellingFn f = d->cannSpellingFn()) {
    std::string t = f(n).type;
    if (!t.empty()) return t;
  }
  return d->cannType();
}

const OpDef* lookupByCann(std::string_view type) {
  for (const auto& d : registered())  // custom operators first, as CANN takes them
    if (d->cannType() == type) return d.get();
  for (auto* d : allOps())
    if (d->cannType() == type) return d;
  return nullptr;
}

int64_t nodeFlops(const ir::Node& n) {
  const OpDef* d = lookup(n.op_type);
  return d && d->flopsFn() ? d->flopsFn()(n) : 0;
}

Status InferContext::moveInputToInts(size_t i, const char* attr) {
  if (!hasInput(i)) return Status::ok();
  const ir::Value* v = constInput(i);
  if (!v)
    return fail(
        "input {} ('{}') must be known at compile time (constant); dynamic values are "
        "not supported",
        i, input(i).name);
  node_.attrs.set(attr, v->tensor().toInts());
  return Status::ok();
}

Status InferContext::moveInputToFloat(size_t i, const char* attr) {
  if (!hasInput(i)) return Status::ok();
  const ir::Value* v = constInput(i);
  if (!v) return fail("input {} ('{}') must be known at compile time (constant)", i, input(i).name);
  if (v->numel() != 1) return fail("input {} must hold one value, it holds {}", i, v->numel());
  node_.attrs.set(attr, static_cast<float>(v->tensor().floatAt(0)));
  return Status::ok();
}

void InferContext::truncateInputs(size_t n) {
  if (node_.inputs.size() > n) node_.inputs.resize(n);
}

void InferContext::setOutput(size_t i, ir::DType dtype, ir::Shape shape) {
  if (i >= node_.outputs.size() || !node_.outputs[i]) return;
  node_.outputs[i]->dtype = dtype;
  node_.outputs[i]->shape = std::move(shape);
}

namespace {
Status checkCounts(const OpDef& d, const ir::Node& n) {
  int nin = static_cast<int>(n.inputs.size());
  while (nin > 0 && !n.inputs[nin - 1]) --nin;  // trailing omitted optionals
  int nout = static_cast<int>(n.outputs.size());
  if (nin < d.minInputs() || nin > d.maxInputs())
    return Status::error(ErrorCode::InvalidModel,
                         "node '{}' ({}): has {} inputs, the op takes {} to {}", n.name, n.op_type,
                         nin, d.minInputs(), d.maxInputs());
  for (int i = 0; i < d.minInputs(); ++i)
    if (!n.inputs[i])
      return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): required input {} is empty",
                           n.name, n.op_type, i);
  if (nout < d.minOutputs() || nout > d.maxOutputs())
    return Status::error(ErrorCode::InvalidModel,
                         "node '{}' ({}): has {} outputs, the op gives {} to {}", n.name, n.op_type,
                         nout, d.minOutputs(), d.maxOutputs());
  return Status::ok();
}
}  // namespace

Status inferNode(ir::Graph& g, ir::Node& n, const InferOptions& opts, bool* folded) {
  if (folded) *folded = false;
  const OpDef* d = lookup(n.op_type);
  if (!d)
    return Status::error(ErrorCode::UnsupportedOp,
                         "unsupported operator '{}' (node '{}'); see 'atc --list_ops' for the "
                         "supported set",
                         n.op_type, n.name);
  ASC_RETURN_IF_ERROR(checkCounts(*d, n));
  // Partial: a node with an input not known yet (no dtype, or a -1 dim) stays as it is.
  auto unknown = [](const ir::Value* v) {
    return v && (v->dtype == ir::DType::Undefined ||
                 std::any_of(v->shape.begin(), v->shape.end(), [](int64_t x) { return x < 0; }));
  };
  if (opts.partial && std::any_of(n.inputs.begin(), n.inputs.end(), unknown)) return Status::ok();
  for (size_t i = 0; i < n.inputs.size(); ++i)
    if (n.inputs[i] && n.inputs[i]->dtype == ir::DType::Undefined)
      return Status::error(ErrorCode::InvalidModel,
                           "node '{}' ({}): input {} ('{}') has an unknown or unsupported dtype",
                           n.name, n.op_type, i, n.inputs[i]->name);
  if (!d->takesNarrowTypes())
    for (size_t i = 0; i < n.inputs.size(); ++i)
      if (n.inputs[i] && ir::isNarrow(n.inputs[i]->dtype))
        return Status::error(ErrorCode::NotImplemented,
                             "node '{}' ({}): input {} ('{}') is {}, which {} does not compute; "
                             "only Cast, CastLike, QuantizeLinear, DequantizeLinear and the "
                             "data-movement operators take float8 and int4 values: convert it "
                             "with Cast or DequantizeLinear first",
                             n.name, n.op_type, i, n.inputs[i]->name,
                             ir::dtypeName(n.inputs[i]->dtype), n.op_type);
  InferContext ctx(g, n);
  // Partial: a node that cannot be inferred yet is put back as it was.
  std::optional<std::pair<std::vector<ir::Value*>, ir::Attrs>> before;
  if (opts.partial) before.emplace(n.inputs, n.attrs);
  Status st = d->canonicalizeFn() ? d->canonicalizeFn()(ctx) : Status::ok();
  if (st.isOk()) st = d->inferFn()(ctx);
  if (!st.isOk() && opts.partial) {
    n.inputs = before->first;
    n.attrs = before->second;
    for (auto* out : n.outputs) {
      out->dtype = ir::DType::Undefined;
      out->shape.clear();
    }
    return Status::ok();
  }
  if (!st.isOk()) {
    if (opts.needs_value) *opts.needs_value = ctx.wantedValue();
    return st;
  }
  for (auto* out : n.outputs) {
    uint64_t bytes;
    if (out->dtype != ir::DType::Undefined && !ir::checkedByteSize(out->shape, out->dtype, &bytes))
      return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): output '{}': {}", n.name,
                           n.op_type, out->name, ir::shapeLimitReason(out->shape, out->dtype));
    if (out->dtype == ir::DType::Undefined)
      return Status::error(ErrorCode::Internal, "node '{}' ({}): output '{}' got no dtype", n.name,
                           n.op_type, out->name);
    for (auto dim : out->shape)
      if (dim < 0)
        return Status::error(ErrorCode::InvalidModel,
                             "node '{}' ({}): output '{}' has a negative dim [{}]", n.name,
                             n.op_type, out->name, ir::shapeToString(out->shape));
  }

  if (!opts.fold_constants || !d->evalFn() || (opts.keep && opts.keep(n))) return Status::ok();
  std::vector<ir::Tensor> ins;
  for (auto* v : n.inputs) {
    if (!v) {
      ins.emplace_back();
      continue;
    }
    if (!v->isConstant() && !d->evalNeedsOnlyShapes()) return Status::ok();
    ins.push_back(v->tensor());  // data is null for a non-constant (shapes-only eval)
  }
  size_t out_bytes = 0;
  for (auto* out : n.outputs) out_bytes += out->byteSize();
  if (out_bytes > opts.fold_limit_bytes) return Status::ok();
  auto r = d->evalFn()(n, ins);
  if (!r) return r.status();
  if (r->size() != n.outputs.size())
    return Status::error(ErrorCode::Internal, "node '{}': constant evaluation gave {} outputs",
                         n.name, r->size());
  for (size_t i = 0; i < r->size(); ++i) {
    ir::Value* out = n.outputs[i];
    const ir::Tensor& t = (*r)[i];
    if (t.dtype != out->dtype || t.shape != out->shape || !t.data ||
        t.data->size() != out->byteSize())
      return Status::error(ErrorCode::Internal,
                           "node '{}' ({}): constant evaluation disagrees with shape "
                           "inference on output {}",
                           n.name, n.op_type, i);
    out->data = t.data;
    out->producer = nullptr;
  }
  ASC_LOG_DEBUG("folded constant node '{}' ({})", n.name, n.op_type);
  if (folded) *folded = true;
  return Status::ok();
}

Status inferGraph(ir::Graph& g, const InferOptions& opts) {
  std::unordered_set<const ir::Node*> folded;
  for (const auto& up : g.nodes()) {
    bool f = false;
    ASC_RETURN_IF_ERROR(inferNode(g, *up, opts, &f));
    if (f) folded.insert(up.get());
  }
  if (!folded.empty()) g.removeNodesIf([&](const ir::Node& n) { return folded.count(&n) != 0; });
  g.pruneValues();
  return Status::ok();
}

}  // namespace asc::ops
