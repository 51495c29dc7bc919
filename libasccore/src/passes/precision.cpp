// precision.cpp: --precision_mode as a graph rewrite (see precision.h). Every float tensor gets
// the dtype its consumers compute in; a Cast is inserted (once per value and type) where they
// disagree, constants are converted to fp16 here, and inference then re-derives every dtype.
#include "asc/passes/precision.h"

#include <algorithm>
#include <fmt/format.h>

#include <map>
#include <unordered_map>

#include "asc/ops/registry.h"
#include "asc/support/log.h"
#include "cpu/convert.h"
#include "mixlist.pb.h"
#include "support/json_config.h"

namespace asc::passes {
namespace {

bool isFloatType(ir::DType t) { return t == ir::DType::F32 || t == ir::DType::F16; }

// Ops whose accuracy suffers most in fp16 (their OpDef's precision class): kept fp32 by
// allow_mix_precision.
bool precisionSensitive(const std::string& op) {
  const ops::OpDef* d = ops::lookup(op);
  return d && d->precision() == ops::PrecisionClass::Sensitive;
}

bool cubeOp(const std::string& op) {
  const ops::OpDef* d = ops::lookup(op);
  return d && d->isCube();
}

class Rewriter {
 public:
  explicit Rewriter(ir::Graph& g) : g_(g) {}

  // The value `v` as dtype `t`: itself, an fp16 copy of a constant, or a Cast's output.
  ir::Value* as(ir::Value* v, ir::DType t) {
    const ir::DType have = cur(v);
    if (have == t) return v;
    auto key = std::make_pair(v, t);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    ir::Value* out;
    if (v->isConstant() && have == ir::DType::F32 && t == ir::DType::F16) {
      const auto n = static_cast<size_t>(v->numel());
      std::vector<uint8_t> bytes(n * 2);
      cpu::floatToHalf(v->data->as<float>(), reinterpret_cast<uint16_t*>(bytes.data()), n);
      out = g_.addConstant(v->name + "_fp16",
                           ir::Tensor{t, v->shape, ir::Blob::fromVector(std::move(bytes))});
    } else {
      out = g_.addValue(v->name + (t == ir::DType::F16 ? "_fp16" : "_fp32"));
      ir::Node* cast = g_.addNode("Cast", out->name + "_cast", {v}, {out});
      cast->attrs.set("to", static_cast<int64_t>(ir::dtypeToOnnx(t)));
      out->dtype = t;
      out->shape = v->shape;
      ++casts_;
    }
    type_[out] = t;
    cache_[key] = out;
    return out;
  }

  ir::DType cur(const ir::Value* v) const {
    auto it = type_.find(v);
    return it == type_.end() ? v->dtype : it->second;
  }
  void setType(const ir::Value* v, ir::DType t) { type_[v] = t; }
  int casts() const { return casts_; }

 private:
  ir::Graph& g_;
  std::map<std::pair<ir::Value*, ir::DType>, ir::Value*> cache_;
  std::unordered_map<const ir::Value*, ir::DType> type_;
  int casts_ = 0;
};

Status rewritePrecision(ir::Graph& g, const PrecisionOptions& o, PassContext& ctx) {
  const std::string& m = o.mode;
  if (m != "force_fp32" && m != "must_keep_origin_dtype" && m != "force_fp16" &&
      m != "allow_fp32_to_fp16" && m != "allow_mix_precision")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --precision_mode is invalid. Reason: use "
                         "force_fp16, force_fp32, allow_mix_precision, allow_fp32_to_fp16 or "
                         "must_keep_origin_dtype",
                         m);
  for (const auto& name : o.fp16_inputs) {
    bool found = false;
    for (auto* v : g.inputs) found |= v->name == name;
    if (!found)
      return Status::error(ErrorCode::InputShapeMismatch,
                           "--input_fp16_nodes names '{}', which is not a model input", name);
  }
  const bool keep_all = m == "force_fp32" || m == "must_keep_origin_dtype";
  if (keep_all && o.fp16_inputs.empty() && (o.output_type.empty() || o.output_type == "FP32"))
    return Status::ok();

  Rewriter rw(g);
  // --input_fp16_nodes: the model receives fp16; its consumers see the type they compute in.
  for (auto*& v : g.inputs)
    if (o.fp16_inputs.count(v->name) && v->dtype == ir::DType::F32) {
      v->dtype = ir::DType::F16;
      rw.setType(v, ir::DType::F16);
    }
  std::vector<ir::Node*> nodes;
  for (const auto& up : g.nodes()) nodes.push_back(up.get());
  int low_nodes = 0;
  for (ir::Node* n : nodes) {
    const ops::OpDef* d = ops::lookup(n->op_type);
    const bool movement = d && d->hasNativeDtypes() && n->op_type != "Cast";
    bool low;
    if (keep_all)
      low = false;
    else if (o.keep_fp32.count(n->name) || o.keep_fp32.count(n->op_type) ||
             std::any_of(n->original_names.begin(), n->original_names.end(),
                         [&](const std::string& s) { return o.keep_fp32.count(s) > 0; }))
      low = false;  // a fused node stays fp32 when --keep_dtype names any node it stands for
    else if (n->attrs.getString(ops::kImplModeAttr, "") == "high_precision")
      low = false;
    else if (m == "force_fp16")
      low = true;
    else if (m == "allow_fp32_to_fp16")
      low = cubeOp(n->op_type);
    else {  // allow_mix_precision, with --modify_mixlist changes (CANN or ONNX type names)
      const ops::OpDef* def = ops::lookup(n->op_type);
      auto listed = [&](const std::set<std::string>& l) {
        return l.count(n->op_type) || (def && l.count(def->cannType()));
      };
      const bool sensitive =
          (precisionSensitive(n->op_type) && !listed(o.black_remove)) || listed(o.black_add);
      low = !sensitive || (listed(o.fp16_add) && !listed(o.black_add));
    }
    ir::DType want = low ? ir::DType::F16 : ir::DType::F32;
    if (movement) {  // data movement follows its (first float) input
      want = ir::DType::Undefined;
      for (auto* in : n->inputs)
        if (in && isFloatType(rw.cur(in)) && !in->isConstant()) {
          want = rw.cur(in);
          break;
        }
      if (want == ir::DType::Undefined) want = ir::DType::F32;
    }
    if (n->op_type == "Cast") continue;  // keeps its declared target type
    for (auto*& in : n->inputs)
      if (in && isFloatType(rw.cur(in))) in = rw.as(in, want);
    for (auto* out : n->outputs)
      if (isFloatType(out->dtype)) rw.setType(out, want);
    low_nodes += want == ir::DType::F16;
  }
  // Model outputs: back to their declared type (or --output_type).
  for (auto*& out : g.outputs) {
    if (!isFloatType(rw.cur(out))) continue;
    ir::DType want = o.output_type == "FP16"   ? ir::DType::F16
                     : o.output_type == "FP32" ? ir::DType::F32
                                               : out->dtype;
    ir::Value* converted = rw.as(out, want);
    if (converted != out && !converted->isConstant()) g.swapValueNames(out, converted);
    out = converted;  // the model's output keeps its name; the fp16 value inside is renamed
  }
  ctx.log.push_back(fmt::format("precision {}: {} nodes compute in fp16, {} Cast nodes inserted", m,
                                low_nodes, rw.casts()));
  return Status::ok();
}

}  // namespace

// The registered pass: the pipeline's runner re-sorts, re-infers and verifies after it.
Status precisionPass(ir::Graph& g, PassContext& ctx) {
  static const PrecisionOptions kKeep;  // force_fp32: nothing changes
  return rewritePrecision(g, ctx.precision ? *ctx.precision : kKeep, ctx);
}

Status applyPrecision(ir::Graph& g, const PrecisionOptions& opts, PassContext& ctx) {
  const PrecisionOptions* saved = ctx.precision;
  ctx.precision = &opts;
  Status st = runPasses(g, {"precision"}, ctx);
  ctx.precision = saved;
  return st;
}

Status readMixList(const std::string& path, PrecisionOptions* opts) {
  asc::config::MixList m;
  ASC_RETURN_IF_ERROR(readJsonConfig(path, "modify_mixlist",
                                     R"({"black-list": {"to-add": [...], "to-remove": [...]}, )"
                                     R"("white-list": ..., "gray-list": ...})",
                                     &m));
  opts->black_add.insert(m.black_list().to_add().begin(), m.black_list().to_add().end());
  opts->black_remove.insert(m.black_list().to_remove().begin(), m.black_list().to_remove().end());
  opts->fp16_add.insert(m.white_list().to_add().begin(), m.white_list().to_add().end());
  opts->fp16_add.insert(m.gray_list().to_add().begin(), m.gray_list().to_add().end());
  return Status::ok();
}

}  // namespace asc::passes
