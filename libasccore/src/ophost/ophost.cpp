// ophost.cpp: see asc/ophost/ophost.h. The registry of host operators, their contexts and shape
// inference; their kernel is host_kernel.cpp.
#include "asc/ophost/ophost.h"

#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "asc/ascendc/launch.h"
#include "asc/ir/dtype.h"
#include "asc/ops/kernel.h"
#include "asc/ops/onnx_mapping.h"
#include "asc/ops/registry.h"
#include "asc/support/fp16.h"
#include "asc/support/log.h"
#include "register/op_def_registry.h"
#include "register/register.h"
#include "ophost/ophost_detail.h"

namespace asc::ophost {

namespace detail {

State& state() {
  static State s;
  return s;
}

const HostOp* findOp(const std::string& type) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.ops.find(type);
  return it == s.ops.end() ? nullptr : it->second.get();
}

// --- dtypes ------------------------------------------------------------------------------------

struct DtypeName {
  int ge;
  ir::DType ir;
  const char* name;
};
constexpr DtypeName kDtypes[] = {
    {ge::DT_FLOAT, ir::DType::F32, "float"},
    {ge::DT_FLOAT16, ir::DType::F16, "float16"},
    {ge::DT_BF16, ir::DType::BF16, "bfloat16"},
    {ge::DT_INT8, ir::DType::I8, "int8"},
    {ge::DT_UINT8, ir::DType::U8, "uint8"},
    {ge::DT_INT16, ir::DType::I16, "int16"},
    {ge::DT_UINT16, ir::DType::U16, "uint16"},
    {ge::DT_INT32, ir::DType::I32, "int32"},
    {ge::DT_UINT32, ir::DType::U32, "uint32"},
    {ge::DT_INT64, ir::DType::I64, "int64"},
    {ge::DT_UINT64, ir::DType::U64, "uint64"},
    {ge::DT_DOUBLE, ir::DType::F64, "double"},
    {ge::DT_BOOL, ir::DType::Bool, "bool"},
    {ge::DT_COMPLEX64, ir::DType::C64, "complex64"},
    {ge::DT_COMPLEX128, ir::DType::C128, "complex128"},
};

int toGe(ir::DType t) {
  for (const auto& d : kDtypes)
    if (d.ir == t) return d.ge;
  return ge::DT_UNDEFINED;
}
ir::DType toIr(int t) {
  for (const auto& d : kDtypes)
    if (d.ge == t) return d.ir;
  return ir::DType::Undefined;
}
const char* geName(int t) {
  for (const auto& d : kDtypes)
    if (d.ge == t) return d.name;
  return "undefined";
}
bool isFloat(int t) { return t == ge::DT_FLOAT || t == ge::DT_FLOAT16 || t == ge::DT_BF16; }

/// The prototype's dtype columns: column j holds input/output i's DataType()[j].
std::vector<std::vector<int>> columns(const ::ops::OpDef& d) {
  size_t n = 0;
  for (const auto* list : {&d.inputs(), &d.outputs()})
    for (const auto& p : *list) n = std::max(n, p.types().size());
  std::vector<std::vector<int>> cols(n);
  for (size_t j = 0; j < n; ++j)
    for (const auto* list : {&d.inputs(), &d.outputs()})
      for (const auto& p : *list) cols[j].push_back(j < p.types().size() ? p.types()[j] : -1);
  return cols;
}

std::string columnText(const std::vector<int>& col) {
  std::string s;
  for (int t : col) s += std::string(s.empty() ? "" : ",") + geName(t);
  return "(" + s + ")";
}

std::string columnsText(const ::ops::OpDef& d) {
  std::string s;
  for (const auto& c : columns(d)) s += (s.empty() ? "" : " ") + columnText(c);
  return s;
}

// --- contexts ------------------------------------------------------------------------------------

Status shapeOf(const ir::Shape& s, gert::Shape* out, const std::string& what) {
  if (s.size() > gert::Shape::kMaxDimNum)
    return Status::error(ErrorCode::NotImplemented,
                         "{} has rank {}; custom operators take up to {}", what, s.size(),
                         gert::Shape::kMaxDimNum);
  *out = gert::Shape();
  for (int64_t d : s) out->AppendDim(d);
  return Status::ok();
}

/// The node's attributes in the prototype's Attr() order, typed as the prototype declares them.
Status fillAttrs(const ::ops::OpDef& d, const ir::Node& n, gert::RuntimeAttrs* out) {
  using V = gert::RuntimeAttrs::Value;
  out->values().clear();
  for (const auto& a : d.attrs()) {
    V v = a.defaultValue();
    const ir::AttrValue* given = n.attrs.find(a.name());
    if (!given && a.required())
      return Status::error(ErrorCode::InvalidModel,
                           "node '{}' ({}): the required attribute '{}' is missing", n.name,
                           n.op_type, a.name());
    if (given) {
      bool ok = true;
      switch (v.kind) {
        case V::Int:
        case V::Bool:
          if (auto* i = std::get_if<int64_t>(given)) {
            v.i = *i;
            v.b = *i != 0;
          } else {
            ok = false;
          }
          break;
        case V::Float:
          if (auto* f = std::get_if<float>(given))
            v.f = *f;
          else if (auto* i = std::get_if<int64_t>(given))
            v.f = static_cast<float>(*i);
          else
            ok = false;
          break;
        case V::Str:
          if (auto* s = std::get_if<std::string>(given))
            v.s = *s;
          else
            ok = false;
          break;
        case V::ListInt:
          if (auto* l = std::get_if<std::vector<int64_t>>(given))
            v.ints = *l;
          else
            ok = false;
          break;
        case V::ListFloat:
          if (auto* l = std::get_if<std::vector<float>>(given))
            v.floats = *l;
          else
            ok = false;
          break;
      }
      if (!ok)
        return Status::error(ErrorCode::InvalidModel,
                             "node '{}' ({}): attribute '{}' has another type than the "
                             "operator's prototype declares",
                             n.name, n.op_type, a.name());
    }
    out->values().push_back(std::move(v));
  }
  return Status::ok();
}

void fillNames(const ir::Node& n, gert::ExtendedKernelContext* c) {
  c->node_name_ = n.name;
  c->node_type_ = n.op_type;
}

// --- inference -----------------------------------------------------------------------------------

Result<std::vector<std::pair<uint32_t, uint32_t>>> irInputs(const ::ops::OpDef& d,
                                                            size_t node_inputs) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  int dynamic = -1;
  for (size_t i = 0; i < d.inputs().size(); ++i)
    if (d.inputs()[i].paramType() == ::ops::DYNAMIC) {
      if (dynamic >= 0)
        return Status::error(ErrorCode::NotImplemented,
                             "custom operator {} has two DYNAMIC inputs ('{}' and '{}'); in a "
                             "model asc-tools takes one, whose tensors are the node's inputs the "
                             "others leave",
                             d.type(), d.inputs()[size_t(dynamic)].name(), d.inputs()[i].name());
      dynamic = int(i);
    }
  if (dynamic < 0) return out;
  const size_t fixed = d.inputs().size() - 1;
  if (node_inputs < fixed + 1)
    return Status::error(ErrorCode::InvalidParam,
                         "custom operator {} takes {} inputs and at least one tensor for its "
                         "DYNAMIC input '{}'; the node has {}",
                         d.type(), fixed, d.inputs()[size_t(dynamic)].name(), node_inputs);
  uint32_t at = 0;
  for (size_t i = 0; i < d.inputs().size(); ++i) {
    const uint32_t n = int(i) == dynamic ? uint32_t(node_inputs - fixed) : 1;
    out.emplace_back(at, n);
    at += n;
  }
  return out;
}

Status inferHostOp(ops::InferContext& c) {
  const ir::Node& n = c.node();
  const HostOp* op = findOp(n.op_type);
  if (!op) return c.fail("the custom operator's plugin is not loaded");
  const ::ops::OpDef& d = *op->def;
  const size_t nin = n.inputs.size(), nout = d.outputs().size();
  auto layout = irInputs(d, nin);
  if (!layout) return c.fail(layout.status().message());

  gert::InferShapeContext sc;
  sc.ir_inputs_ = *layout;
  fillNames(n, &sc);
  ASC_RETURN_IF_ERROR(fillAttrs(d, n, &sc.attrs_));
  for (size_t i = 0; i < nin; ++i) {
    gert::Shape s;
    if (c.hasInput(i))
      ASC_RETURN_IF_ERROR(shapeOf(c.shape(i), &s, fmt::format("node '{}' input {}", n.name, i)));
    sc.inputs_.emplace_back(s);
    sc.input_descs_.emplace_back(
        c.hasInput(i) ? static_cast<ge::DataType>(toGe(c.dtype(i))) : ge::DT_UNDEFINED,
        ge::FORMAT_ND);
  }
  sc.outputs_.resize(nout);
  sc.output_descs_.resize(nout);
  if (d.inferShape()) {
    if (d.inferShape()(&sc) != ge::GRAPH_SUCCESS)
      return c.fail("the operator's InferShape function failed");
  } else {
    for (auto& o : sc.outputs_) o = sc.inputs_.empty() ? gert::StorageShape() : sc.inputs_[0];
  }
  gert::InferDataTypeContext tc;
  fillNames(n, &tc);
  tc.attrs_ = sc.attrs_;
  tc.inputs_ = sc.inputs_;
  tc.input_descs_ = sc.input_descs_;
  tc.ir_inputs_ = *layout;
  tc.output_descs_.assign(
      nout, gert::CompileTimeTensorDesc(nin ? tc.input_descs_[0].GetDataType() : ge::DT_FLOAT,
                                        ge::FORMAT_ND));
  if (d.inferDataType() && d.inferDataType()(&tc) != ge::GRAPH_SUCCESS)
    return c.fail("the operator's InferDataType function failed");

  // The combination must be one of the prototype's columns, as the chip's kernel selection asks.
  std::vector<int> combo;
  for (size_t i = 0; i < d.inputs().size(); ++i) {
    // A DYNAMIC input's tensors share one column entry: they must share its dtype.
    const int64_t first = tc.ascInstance(i, 0);
    const ge::DataType t =
        first < 0 ? ge::DT_UNDEFINED : tc.input_descs_[size_t(first)].GetDataType();
    for (size_t k = 1; tc.ascInstance(i, k) >= 0; ++k)
      if (tc.input_descs_[size_t(tc.ascInstance(i, k))].GetDataType() != t)
        return c.fail(
            fmt::format("the tensors of DYNAMIC input '{}' differ in dtype", d.inputs()[i].name()));
    combo.push_back(t);
  }
  for (const auto& t : tc.output_descs_) combo.push_back(t.GetDataType());
  bool found = false;
  for (const auto& col : columns(d)) {
    bool same = col.size() >= combo.size();
    for (size_t i = 0; same && i < combo.size(); ++i)
      same = combo[i] == ge::DT_UNDEFINED || col[i] == combo[i] ||
             (isFloat(col[i]) && isFloat(combo[i]));
    found = found || same;
  }
  if (!found)
    return c.unsupported("the dtypes {} are no column of the operator's prototype {}",
                         columnText(combo), columnsText(d));

  for (size_t i = 0; i < nout; ++i) {
    ir::Shape s;
    const gert::Shape& g = sc.outputs_[i].GetOriginShape();
    for (size_t k = 0; k < g.GetDimNum(); ++k) s.push_back(g.GetDim(k));
    c.setOutput(i, toIr(tc.output_descs_[i].GetDataType()), s);
  }
  return Status::ok();
}

/// Splits "<domain>::<opset>::<type>".
bool parseOrigin(const std::string& s, std::string* domain, int* opset, std::string* type) {
  size_t a = s.find("::");
  if (a == std::string::npos) return false;
  size_t b = s.find("::", a + 2);
  if (b == std::string::npos) return false;
  *domain = s.substr(0, a);
  try {
    *opset = std::stoi(s.substr(a + 2, b - a - 2));
  } catch (...) {
    return false;
  }
  *type = s.substr(b + 2);
  return !type->empty() && *opset >= 1;
}

// ge::Operator's attributes and the IR's.
ge::OperatorAttr toOperatorAttr(const std::string& name, const ir::AttrValue& v, bool* ok) {
  ge::OperatorAttr a;
  a.name = asc::AbiString(name);
  *ok = true;
  if (auto* i = std::get_if<int64_t>(&v)) {
    a.kind = ge::OperatorAttr::kInt;
    a.i = *i;
  } else if (auto* f = std::get_if<float>(&v)) {
    a.kind = ge::OperatorAttr::kFloat;
    a.f = *f;
  } else if (auto* str = std::get_if<std::string>(&v)) {
    a.kind = ge::OperatorAttr::kString;
    a.s = asc::AbiString(*str);
  } else if (auto* is = std::get_if<std::vector<int64_t>>(&v)) {
    a.kind = ge::OperatorAttr::kInts;
    a.ints = *is;
  } else if (auto* fs = std::get_if<std::vector<float>>(&v)) {
    a.kind = ge::OperatorAttr::kFloats;
    a.floats = *fs;
  } else if (auto* ss = std::get_if<std::vector<std::string>>(&v)) {
    a.kind = ge::OperatorAttr::kStrings;
    for (const auto& e : *ss) a.strings.push_back(asc::AbiString(e));
  } else {
    *ok = false;  // a tensor: no Operator attribute holds one
  }
  return a;
}

ir::AttrValue fromOperatorAttr(const ge::OperatorAttr& a) {
  switch (a.kind) {
    case ge::OperatorAttr::kInt:
    case ge::OperatorAttr::kBool:
      return a.i;
    case ge::OperatorAttr::kFloat:
      return a.f;
    case ge::OperatorAttr::kString:
      return a.s.str();
    case ge::OperatorAttr::kInts:
    case ge::OperatorAttr::kBools:
      return a.ints;
    case ge::OperatorAttr::kFloats:
      return a.floats;
    default: {
      std::vector<std::string> v;
      for (const auto& e : a.strings) v.push_back(e.str());
      return v;
    }
  }
}

/// Runs a plugin's parse function on an ONNX node: op_src as CANN's parser fills it (the
/// NodeProto's set fields as attributes, "attribute" the JSON text), op_dest the custom node.
Result<ir::Attrs> runParse(const domi::ParseParamByOpFunc& fn, const ops::OnnxNodeView& v,
                           const std::string& type) {
  ge::Operator src(v.name.c_str(), v.op_type.c_str());
  if (!v.inputs.empty()) src.SetAttr("input", v.inputs);
  if (!v.outputs.empty()) src.SetAttr("output", v.outputs);
  if (!v.name.empty()) src.SetAttr("name", v.name);
  src.SetAttr("op_type", v.op_type);
  if (!v.attribute_json.empty()) src.SetAttr("attribute", v.attribute_json);
  if (!v.doc_string.empty()) src.SetAttr("doc_string", v.doc_string);
  if (!v.domain.empty()) src.SetAttr("domain", v.domain);
  if (v.attrs)
    for (const auto& [name, value] : v.attrs->all()) {
      bool ok = false;
      ge::OperatorAttr a = toOperatorAttr(name, value, &ok);
      if (ok) src.ascOriginAttrs().push_back(std::move(a));
    }
  ge::Operator dest(v.name.c_str(), type.c_str());
  domi::Status st = domi::FAILED;
  try {
    st = fn(src, dest);
  } catch (const std::exception& e) {
    return Status::error(ErrorCode::InvalidParam, "it threw: {}", e.what());
  } catch (...) {
    return Status::error(ErrorCode::InvalidParam, "it threw an exception");
  }
  if (st != domi::SUCCESS)
    return Status::error(ErrorCode::InvalidParam,
                         "it returned {}, not SUCCESS: the node is not what the plugin reads "
                         "(check its attributes against the plugin's parse function)",
                         st);
  ir::Attrs out;
  for (const auto& a : dest.ascAttrs()) out.set(a.name.str(), fromOperatorAttr(a));
  return out;
}

}  // namespace detail

using namespace detail;

void addKernelEntry(const char* op_type, const char* kernel_name, std::vector<int> dtypes,
                    KernelEntry entry) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.pending_entries.push_back(Entry{op_type, kernel_name, std::move(dtypes), entry, false});
}

void addMixedKernelEntry(const char* op_type, const char* kernel_name, std::vector<int> dtypes,
                         KernelEntry entry) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.pending_entries.push_back(Entry{op_type, kernel_name, std::move(dtypes), entry, true});
}

void registerPending(ops::PluginRegistrar& r) {
  State& s = state();
  std::vector<std::unique_ptr<::ops::OpDef>> defs;
  std::vector<domi::OpRegistrationData> maps;
  std::vector<Entry> entries;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    defs.swap(s.pending_defs);
    maps.swap(s.pending_maps);
    entries.swap(s.pending_entries);
  }
  if (defs.empty()) {
    r.fail(Status::error(ErrorCode::InvalidParam,
                         "the plugin declares no operator (no OP_ADD in its op_host sources)"));
    return;
  }
  for (auto& def : defs) {
    const std::string type = def->type();
    auto host = std::make_unique<HostOp>();
    for (const Entry& e : entries)
      if (e.op_type == type) host->entries.push_back(e);
    if (host->entries.empty()) {
      r.fail(Status::error(ErrorCode::InvalidParam,
                           "custom operator {}: the plugin has no compiled kernel for it "
                           "(op_kernel/ not built)",
                           type));
      return;
    }
    const size_t nargs = def->inputs().size() + def->outputs().size();
    for (const Entry& e : host->entries)
      if (e.dtypes.size() != nargs) {
        r.fail(Status::error(ErrorCode::InvalidParam,
                             "custom operator {}: kernel {} was built for {} inputs and outputs, "
                             "the prototype declares {}",
                             type, e.kernel, e.dtypes.size(), nargs));
        return;
      }
    // The ONNX mapping: REGISTER_CUSTOM_OP(type).FrameworkType(ONNX).OriginOpType(...). atc
    // reads custom operators from ONNX only: a TensorFlow or Caffe mapping (kept for the real
    // CANN) is not used. An origin of the op's own type reads such nodes from its opset on; one
    // of another type takes those nodes over at exactly its opset (ops/onnx_mapping.h); a parse
    // function of the plugin's own runs for either.
    std::string domain;
    int since = 1;
    std::vector<ops::OnnxCustomMapping> takeovers;
    for (const auto& m : maps) {
      if (m.omType() != type || m.framework() != domi::ONNX) continue;
      const domi::ParseParamByOpFunc& fn = m.parseByOperator();
      const auto* plain = fn.target<domi::Status (*)(const ge::Operator&, ge::Operator&)>();
      const bool own_parse = fn && !(plain && *plain == &domi::AutoMappingByOpFn);
      for (const auto& origin : m.originTypes()) {
        std::string onnx_type, origin_domain;
        int opset = 1;
        if (!parseOrigin(origin, &origin_domain, &opset, &onnx_type)) {
          r.fail(Status::error(ErrorCode::InvalidParam,
                               "custom operator {}: OriginOpType '{}' is not "
                               "'<domain>::<opset>::<op type>' (e.g. 'ai.onnx::11::{}')",
                               type, origin, type));
          return;
        }
        if (onnx_type == type) {
          domain = origin_domain;
          since = opset;
          if (!own_parse) continue;
        }
        ops::OnnxCustomMapping cm;
        cm.domain = origin_domain;
        cm.opset_from = opset;
        cm.opset_to = onnx_type == type ? std::numeric_limits<int>::max() : opset;
        cm.onnx_type = onnx_type;
        cm.custom_type = type;
        cm.origin = fmt::format("REGISTER_CUSTOM_OP(\"{}\")", type);
        if (fn) cm.parse = [fn, type](const ops::OnnxNodeView& v) { return runParse(fn, v, type); };
        takeovers.push_back(std::move(cm));
      }
    }
    if (domain == "ai.onnx") domain.clear();
    int min_in = 0, dynamic = 0;
    for (const auto& p : def->inputs()) {
      if (p.paramType() == ::ops::REQUIRED) ++min_in;
      if (p.paramType() == ::ops::DYNAMIC) ++dynamic, ++min_in;  // at least one tensor
    }
    // A DYNAMIC input takes any number of a node's inputs (irInputs).
    const int nin = static_cast<int>(def->inputs().size()) + (dynamic ? 65535 : 0);
    const int nout = static_cast<int>(def->outputs().size());
    std::string kernels;
    for (const Entry& e : host->entries)
      if (kernels.find(e.kernel) == std::string::npos)
        kernels += (kernels.empty() ? "" : ",") + e.kernel;
    ops::OpDef od(type);
    od.onnx(since)
        .onnxDomain(domain)
        .cann(type)
        .inputs(min_in, nin)
        .outputs(nout, nout)
        .inferShape(inferHostOp)
        .kernel(makeHostKernel)
        .nativeDtypes()
        .summary(fmt::format("Ascend C custom operator (kernel {}, dtypes {})", kernels,
                             columnsText(*def)));
    host->def = std::move(def);
    {
      std::lock_guard<std::mutex> lock(s.mu);
      if (s.ops.count(type)) {
        r.fail(Status::error(ErrorCode::InvalidParam,
                             "custom operator {} is registered already (by another plugin)", type));
        return;
      }
      s.ops[type] = std::move(host);
    }
    r.add(std::move(od));
    if (!r.status().isOk()) {
      std::lock_guard<std::mutex> lock(s.mu);
      s.ops.erase(type);
      return;
    }
    for (auto& cm : takeovers) {
      Status st = ops::addOnnxCustomMapping(std::move(cm));
      if (!st.isOk()) {
        r.fail(st);
        return;
      }
    }
  }
}

}  // namespace asc::ophost

// The pending lists the plugin's static initializers fill.
namespace ops {
void addPendingOpDef(std::unique_ptr<OpDef> def) {
  auto& s = asc::ophost::state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.pending_defs.push_back(std::move(def));
}
}  // namespace ops

namespace domi {
Status AutoMappingByOpFn(const ge::Operator& op_src, ge::Operator& op_dest) {
  for (const auto& a : op_src.ascOriginAttrs()) {
    auto& dest = op_dest.ascAttrs();
    bool replaced = false;
    for (auto& d : dest)
      if (d.name == a.name) {
        d = a;
        replaced = true;
      }
    if (!replaced) dest.push_back(a);
  }
  return SUCCESS;
}

OpReceiver::OpReceiver(OpRegistrationData& reg) {
  auto& s = asc::ophost::state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.pending_maps.push_back(reg);
}
}  // namespace domi
