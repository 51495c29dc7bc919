// single_op.cpp: see single_op.h. The file names follow GE's single-op parser
// (ascend-facts.md; docs/acl.md); the JSON itself is single_op_json.cpp's.
#include "asc/compiler/single_op.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "asc/ops/plugin.h"
#include "asc/ops/registry.h"
#include "compiler/single_op_detail.h"

namespace asc::singleop {

using namespace detail;

namespace detail {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

const char* dtypeText(ir::DType t) {
  for (const auto& d : kDtypes)
    if (d.dtype == t) return d.name;
  return ir::dtypeName(t);
}

std::string shapeText(const ir::Shape& s) { return fmt::format("[{}]", fmt::join(s, ",")); }

}  // namespace detail

namespace {

bool sameAttr(const ir::AttrValue& a, const ir::AttrValue& b) {
  if (a.index() != b.index()) return false;
  if (std::holds_alternative<ir::Tensor>(a)) return false;
  return a == b;
}

std::string attrText(const ir::AttrValue& v) {
  std::string j = attrJson("", v);
  const size_t at = j.find("\"value\": ");
  return at == std::string::npos ? j : j.substr(at + 9, j.size() - at - 10);
}

// Whether `call` fits `compiled` ("" when it does).
std::string tensorMismatch(const TensorDesc& compiled, const TensorDesc& call) {
  if (compiled.dtype != call.dtype)
    return fmt::format("dtype {} where the model has {}", dtypeText(call.dtype),
                       dtypeText(compiled.dtype));
  if (compiled.format != call.format)
    return fmt::format("format {} where the model has {}", call.format, compiled.format);
  if (compiled.dims.size() != call.dims.size())
    return fmt::format("shape {} (rank {}) where the model has {} (rank {})", shapeText(call.dims),
                       call.dims.size(), shapeText(compiled.dims), compiled.dims.size());
  for (size_t k = 0; k < call.dims.size(); ++k) {
    const int64_t d = call.dims[k];
    if (compiled.dims[k] != -1) {
      if (d != compiled.dims[k])
        return fmt::format("shape {} where the model has {}", shapeText(call.dims),
                           shapeText(compiled.dims));
      continue;
    }
    if (d == -1) continue;  // an output whose size the run decides
    const om::DimRange r = k < compiled.ranges.size() ? compiled.ranges[k] : om::DimRange{1, -1};
    if (d < r.min || (r.max != -1 && d > r.max))
      return fmt::format("shape {}: dim {} is {}, outside the model's range [{}, {}]",
                         shapeText(call.dims), k, d, r.min, r.max);
  }
  return "";
}

}  // namespace

bool TensorDesc::dynamic() const { return std::find(dims.begin(), dims.end(), -1) != dims.end(); }

bool OpDesc::dynamic() const {
  for (const auto& t : inputs)
    if (t.dynamic()) return true;
  return false;
}

int aclDtype(ir::DType t) {
  for (const auto& d : kDtypes)
    if (d.dtype == t) return d.acl;
  return -1;
}

ir::DType dtypeFromAcl(int t) {
  for (const auto& d : kDtypes)
    if (d.acl == t) return d.dtype;
  return ir::DType::Undefined;
}

int aclFormat(const std::string& format) {
  for (const auto& f : kFormats)
    if (format == f.name) return f.acl;
  return -1;
}

std::string formatFromAcl(int f) {
  for (const auto& x : kFormats)
    if (x.acl == f) return x.name;
  return "";
}

std::string fileName(const OpDesc& d, size_t index) {
  std::string name = fmt::format("{}_{}", index, d.op);
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const auto& t : *list) {
      name += fmt::format("_{}_{}", aclDtype(t.dtype), aclFormat(t.format));
      for (int64_t dim : t.dims) name += fmt::format("_{}", dim);
    }
  if (name.size() > 128) name.resize(128);
  return name + ".om";
}

Result<ir::Graph> buildGraph(const OpDesc& d) {
  const ops::OpDef* def = ops::lookupByCann(d.op);
  if (!def) def = ops::lookup(d.op);
  if (!def)
    return Status::error(ErrorCode::UnsupportedOp,
                         "single op '{}': no operator has this type; it is neither a built-in "
                         "operator's CANN type (atc --list_ops) nor a loaded custom operator "
                         "(looked in: {}); install its package into $ASCEND_OPP_PATH/vendors or "
                         "give --op_plugin_path",
                         d.op,
                         ops::pluginSearchPath().empty() ? "nothing" : ops::pluginSearchPath());
  // A built-in operator whose CANN spelling differs from the IR's (attribute names, ranks or
  // defaults: LeakyRelu's negative_slope against ONNX's alpha) would read the file's attributes
  // wrongly, or its defaults where CANN's differ: refused rather than silently different.
  if (!def->isRegistered() && def->cannSpellingFn())
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: single op '{}': CANN spells this "
                         "built-in operator's attributes differently from asc-tools' IR, which "
                         "reads them only in models; run it in a model (atc --model), or as a "
                         "custom operator",
                         d.op);
  ir::Graph g;
  g.name = d.op;
  std::vector<ir::Value*> ins, outs;
  for (size_t i = 0; i < d.inputs.size(); ++i) {
    const TensorDesc& t = d.inputs[i];
    ir::Value* v = g.addValue(t.name.empty() ? fmt::format("x{}", i) : t.name);
    v->dtype = t.dtype;
    v->shape = t.dims;
    v->format = t.format;
    g.inputs.push_back(v);
    ins.push_back(v);
  }
  for (size_t i = 0; i < d.outputs.size(); ++i) {
    ir::Value* v =
        g.addValue(d.outputs[i].name.empty() ? fmt::format("y{}", i) : d.outputs[i].name);
    v->format = d.outputs[i].format;
    outs.push_back(v);
  }
  ir::Node* n = g.addNode(def->name(), d.op, ins, outs);
  n->attrs = d.attrs;
  g.outputs = outs;
  if (d.dynamic()) {
    g.dynamic = true;
    return g;
  }
  ops::InferOptions io;
  io.fold_constants = false;
  ASC_RETURN_IF_ERROR(ops::inferGraph(g, io));
  for (size_t i = 0; i < d.outputs.size(); ++i) {
    const TensorDesc& want = d.outputs[i];
    const ir::Value* got = g.outputs[i];
    const bool shape_ok =
        want.dynamic() ? want.dims.size() == got->shape.size() : want.dims == got->shape;
    if (got->dtype != want.dtype || !shape_ok)
      return Status::error(ErrorCode::SingleOpTensor,
                           "single op '{}' output {}: the description says {} {}, the operator "
                           "computes {} {} from the inputs given",
                           d.op, i, dtypeText(want.dtype), shapeText(want.dims),
                           dtypeText(got->dtype), shapeText(got->shape));
  }
  return g;
}

Result<CompiledModel> compileOp(const OpDesc& d, CompileOptions options) {
  ASC_TRY(ir::Graph g, buildGraph(d));
  options.dynamic = {};
  if (g.dynamic) {
    options.dynamic.kind = "range";
    for (const auto& t : d.inputs) {
      std::vector<om::DimRange> r = t.ranges;
      if (r.empty())
        for (int64_t dim : t.dims) r.push_back({dim, dim});
      options.dynamic.ranges.push_back(std::move(r));
    }
  }
  ASC_TRY(CompiledModel m, compileGraph(std::move(g), options));
  m.info.single_op = toJson(d);
  m.info.framework_type = "SingleOp";
  return m;
}

Mismatch match(const OpDesc& compiled, const OpDesc& call, std::string* why) {
  auto say = [&](Mismatch m, std::string text) {
    if (why) *why = std::move(text);
    return m;
  };
  if (compiled.op != call.op)
    return say(Mismatch::Type,
               fmt::format("the op type is {}, the model's {}", call.op, compiled.op));
  for (int side = 0; side < 2; ++side) {
    const auto& want = side ? compiled.outputs : compiled.inputs;
    const auto& got = side ? call.outputs : call.inputs;
    const char* what = side ? "output" : "input";
    const Mismatch kind = side ? Mismatch::Output : Mismatch::Input;
    if (want.size() != got.size())
      return say(kind,
                 fmt::format("{} {}s given, the model has {}", got.size(), what, want.size()));
    for (size_t i = 0; i < want.size(); ++i)
      if (std::string m = tensorMismatch(want[i], got[i]); !m.empty())
        return say(kind, fmt::format("{} {}: {}", what, i, m));
  }
  for (const auto& [name, v] : compiled.attrs.all()) {
    const ir::AttrValue* given = call.attrs.find(name);
    if (!given) return say(Mismatch::Attr, fmt::format("attr '{}' is not given", name));
    if (!sameAttr(v, *given))
      return say(Mismatch::Attr, fmt::format("attr '{}' is {}, the model's {}", name,
                                             attrText(*given), attrText(v)));
  }
  for (const auto& [name, v] : call.attrs.all())
    if (!compiled.attrs.find(name))
      return say(Mismatch::Attr,
                 fmt::format("attr '{}' is given, the model has none of that name", name));
  return Mismatch::None;
}

}  // namespace asc::singleop
