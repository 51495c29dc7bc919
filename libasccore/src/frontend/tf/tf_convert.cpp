// tf_convert.cpp: the Converter's helpers (inputs, attributes, node building with immediate
// shape inference, the NHWC/NCHW bookkeeping) and TensorProto decoding.
#include "tf_convert.h"

#include "frontend/field_decode.h"

#include <algorithm>
#include <cstring>

#include "asc/support/log.h"

namespace asc::frontend::tf {

// --- tensors ----------------------------------------------------------------------------------

ir::DType dtypeFromTf(int t) {
  switch (t) {
    case tensorflow::DT_FLOAT:
      return ir::DType::F32;
    case tensorflow::DT_DOUBLE:
      return ir::DType::F64;
    case tensorflow::DT_INT32:
      return ir::DType::I32;
    case tensorflow::DT_UINT8:
      return ir::DType::U8;
    case tensorflow::DT_INT16:
      return ir::DType::I16;
    case tensorflow::DT_INT8:
      return ir::DType::I8;
    case tensorflow::DT_INT64:
      return ir::DType::I64;
    case tensorflow::DT_BOOL:
      return ir::DType::Bool;
    case tensorflow::DT_BFLOAT16:
      return ir::DType::BF16;
    case tensorflow::DT_UINT16:
      return ir::DType::U16;
    case tensorflow::DT_HALF:
      return ir::DType::F16;
    case tensorflow::DT_UINT32:
      return ir::DType::U32;
    case tensorflow::DT_UINT64:
      return ir::DType::U64;
    default:
      return ir::DType::Undefined;
  }
}

std::string tfTypeName(int t) {
  if (tensorflow::DataType_IsValid(t))
    return tensorflow::DataType_Name(static_cast<tensorflow::DataType>(t));
  return fmt::format("type {}", t);
}

namespace {

// A constant given by a short value list is that list with its last value repeated (TensorFlow's
// rule for splat constants); such a tensor may be far larger than its file, so it is capped.
constexpr uint64_t kMaxSplatBytes = uint64_t(1) << 30;

}  // namespace

Result<ir::Tensor> tensorFromTf(const tensorflow::TensorProto& t, const std::string& what,
                                const std::shared_ptr<const void>& owner) {
  auto bad = [&](const std::string& msg) {
    return Status::error(ErrorCode::InvalidModel, "{}: {}", what, msg);
  };
  ir::Tensor out;
  out.dtype = dtypeFromTf(t.dtype());
  if (out.dtype == ir::DType::Undefined)
    return Status::error(ErrorCode::NotImplemented,
                         "{}: tensors of {} are not supported by asc-tools", what,
                         tfTypeName(t.dtype()));
  const auto& shape = t.tensor_shape();
  if (shape.unknown_rank()) return bad("the tensor's shape has unknown rank");
  if (static_cast<size_t>(shape.dim_size()) > ir::kMaxRank)
    return bad(fmt::format("{} dims, over the limit of {}", shape.dim_size(), ir::kMaxRank));
  for (const auto& d : shape.dim()) {
    if (d.size() < 0) return bad("a constant tensor has an unknown (-1) dim");
    out.shape.push_back(d.size());
  }
  uint64_t want = 0;
  if (!ir::checkedByteSize(out.shape, out.dtype, &want))
    return bad(ir::shapeLimitReason(out.shape, out.dtype));
  const size_t n = static_cast<size_t>(out.numel());
  if (!t.tensor_content().empty()) {
    if (t.tensor_content().size() != want)
      return bad(fmt::format("tensor_content holds {} bytes, the shape [{}] of {} needs {}",
                             t.tensor_content().size(), ir::shapeToString(out.shape),
                             ir::dtypeName(out.dtype), want));
    out.data = std::make_shared<ir::Blob>(t.tensor_content().data(), want, owner);
    return out;
  }
  int have = 0;
  switch (out.dtype) {
    case ir::DType::F32:
      have = t.float_val_size();
      break;
    case ir::DType::F64:
      have = t.double_val_size();
      break;
    case ir::DType::I32:
    case ir::DType::I16:
    case ir::DType::I8:
    case ir::DType::U8:
    case ir::DType::U16:
      have = t.int_val_size();
      break;
    case ir::DType::I64:
      have = t.int64_val_size();
      break;
    case ir::DType::Bool:
      have = t.bool_val_size();
      break;
    case ir::DType::F16:
    case ir::DType::BF16:
      have = t.half_val_size();
      break;
    case ir::DType::U32:
      have = t.uint32_val_size();
      break;
    case ir::DType::U64:
      have = t.uint64_val_size();
      break;
    default:
      break;
  }
  if (static_cast<size_t>(have) > n)
    return bad(fmt::format("holds {} values, its shape [{}] has {} elements", have,
                           ir::shapeToString(out.shape), n));
  if (static_cast<size_t>(have) < n && want > kMaxSplatBytes)
    return bad(
        fmt::format("a constant of {} bytes given by {} values; asc-tools expands such "
                    "constants up to {} bytes",
                    want, have, kMaxSplatBytes));
  switch (out.dtype) {
    case ir::DType::F32:
      out.data = blobFromField<float>(t.float_val(), n, true);
      break;
    case ir::DType::F64:
      out.data = blobFromField<double>(t.double_val(), n, true);
      break;
    case ir::DType::I32:
      out.data = blobFromField<int32_t>(t.int_val(), n, true);
      break;
    case ir::DType::I16:
      out.data = blobFromField<int16_t>(t.int_val(), n, true);
      break;
    case ir::DType::I8:
      out.data = blobFromField<int8_t>(t.int_val(), n, true);
      break;
    case ir::DType::U8:
      out.data = blobFromField<uint8_t>(t.int_val(), n, true);
      break;
    case ir::DType::U16:
      out.data = blobFromField<uint16_t>(t.int_val(), n, true);
      break;
    case ir::DType::I64:
      out.data = blobFromField<int64_t>(t.int64_val(), n, true);
      break;
    case ir::DType::Bool:
      out.data = blobFromField<uint8_t>(t.bool_val(), n, true);
      break;
    case ir::DType::F16:
    case ir::DType::BF16:
      out.data = blobFromField<uint16_t>(t.half_val(), n, true);
      break;
    case ir::DType::U32:
      out.data = blobFromField<uint32_t>(t.uint32_val(), n, true);
      break;
    case ir::DType::U64:
      out.data = blobFromField<uint64_t>(t.uint64_val(), n, true);
      break;
    default:
      return bad("unsupported data type");
  }
  return out;
}

// --- converter --------------------------------------------------------------------------------

Converter::Converter(ir::Graph& g, std::shared_ptr<const tensorflow::GraphDef> def, bool fold)
    : g_(g), def_(std::move(def)) {
  infer_.fold_constants = fold;
}

void Converter::begin(const tensorflow::NodeDef& n) {
  node_ = &n;
  inputs_.clear();
}

const tensorflow::AttrValue* Converter::attr(const char* key) const {
  auto it = node_->attr().find(key);
  return it == node_->attr().end() ? nullptr : &it->second;
}

int64_t Converter::intAttr(const char* key, int64_t def) const {
  const auto* a = attr(key);
  return a && a->value_case() == tensorflow::AttrValue::kI ? a->i() : def;
}

float Converter::floatAttr(const char* key, float def) const {
  const auto* a = attr(key);
  return a && a->value_case() == tensorflow::AttrValue::kF ? a->f() : def;
}

bool Converter::boolAttr(const char* key, bool def) const {
  const auto* a = attr(key);
  return a && a->value_case() == tensorflow::AttrValue::kB ? a->b() : def;
}

std::string Converter::strAttr(const char* key, const std::string& def) const {
  const auto* a = attr(key);
  return a && a->value_case() == tensorflow::AttrValue::kS ? a->s() : def;
}

std::vector<int64_t> Converter::intsAttr(const char* key) const {
  const auto* a = attr(key);
  if (!a || a->value_case() != tensorflow::AttrValue::kList) return {};
  return std::vector<int64_t>(a->list().i().begin(), a->list().i().end());
}

Result<ir::DType> Converter::typeAttr(const char* key) const {
  const auto* a = attr(key);
  if (!a || a->value_case() != tensorflow::AttrValue::kType)
    return fail("the type attribute '{}' is missing", key);
  ir::DType t = dtypeFromTf(a->type());
  if (t == ir::DType::Undefined)
    return unsupported("attribute '{}' is {}, which asc-tools does not support", key,
                       tfTypeName(a->type()));
  return t;
}

Status Converter::bindInputs() {
  for (const auto& ref : node_->input()) {
    if (!ref.empty() && ref[0] == '^') continue;  // control dependency
    std::string src = ref;
    size_t index = 0;
    if (auto colon = ref.rfind(':'); colon != std::string::npos) {
      const std::string digits = ref.substr(colon + 1);
      if (digits.empty() || digits.size() > 6 ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return fail("input '{}' is not 'node' or 'node:index'", ref);
      index = std::stoul(digits);
      src = ref.substr(0, colon);
    }
    auto it = outputs_.find(src);
    if (it == outputs_.end()) return fail("input '{}' names no node of the graph", ref);
    if (index >= it->second.size() || !it->second[index].v)
      return fail("input '{}' reads output {} of '{}', which has {} output(s)", ref, index, src,
                  it->second.size());
    inputs_.push_back(&it->second[index]);
  }
  return Status::ok();
}

Status Converter::needInputs(size_t n) const {
  if (inputs_.size() < n) return fail("has {} data input(s), the op takes {}", inputs_.size(), n);
  return Status::ok();
}

Result<ir::Value*> Converter::nchw(size_t i) {
  TfValue& t = in(i);
  if (t.nchw) return t.nchw;
  if (t.v->shape.size() != 4)
    return fail("input {} ('{}') is [{}]; NHWC needs a 4-D tensor", i, t.v->name,
                ir::shapeToString(t.v->shape));
  // Cached on the tensor, so that every later consumer shares this transpose.
  ASC_TRY(t.nchw, transpose(t.v, {0, 3, 1, 2}, "to_nchw"));
  return t.nchw;
}

Result<ir::Tensor> Converter::constIn(size_t i) {
  ir::Value* v = x(i);
  if (!v->isConstant())
    return unsupported(
        "input {} ('{}') must be a constant (a frozen graph's weights, shapes and axes); it is "
        "computed at run time",
        i, v->name);
  return v->tensor();
}

Result<std::vector<int64_t>> Converter::constInts(size_t i) {
  ASC_TRY(ir::Tensor t, constIn(i));
  if (ir::isFloat(t.dtype) || t.shape.size() > 1)
    return fail("input {} must be an integer scalar or vector, it is {} [{}]", i,
                ir::dtypeName(t.dtype), ir::shapeToString(t.shape));
  return t.toInts();
}

Result<ir::Node*> Converter::emit(const std::string& op_type, std::vector<ir::Value*> inputs,
                                  ir::Attrs attrs, size_t outputs, const std::string& suffix) {
  const std::string node_name =
      g_.uniqueNodeName(suffix.empty() ? name() : fmt::format("{}/{}", name(), suffix));
  std::vector<ir::Value*> outs;
  for (size_t i = 0; i < outputs; ++i)
    outs.push_back(g_.addValue(fmt::format("{}:{}", node_name, i)));
  ir::Node* n = g_.addNode(op_type, node_name, std::move(inputs), std::move(outs));
  n->attrs = std::move(attrs);
  n->original_names = {name()};
  bool folded = false;
  ASC_RETURN_IF_ERROR(ops::inferNode(g_, *n, infer_, &folded));
  if (folded) folded_.insert(n);
  return n;
}

Result<ir::Value*> Converter::emit1(const std::string& op_type, std::vector<ir::Value*> inputs,
                                    ir::Attrs attrs, const std::string& suffix) {
  ASC_TRY(ir::Node * n, emit(op_type, std::move(inputs), std::move(attrs), 1, suffix));
  return n->outputs[0];
}

Result<ir::Value*> Converter::transpose(ir::Value* v, std::vector<int64_t> perm,
                                        const std::string& suffix) {
  ir::Attrs a;
  a.set("perm", std::move(perm));
  return emit1("Transpose", {v}, std::move(a), suffix);
}

Result<ir::Value*> Converter::reshape(ir::Value* v, std::vector<int64_t> shape,
                                      const std::string& suffix) {
  ir::Attrs a;
  if (std::count(shape.begin(), shape.end(), 0)) a.set("allowzero", int64_t{1});
  a.set("shape", std::move(shape));
  return emit1("Reshape", {v}, std::move(a), suffix);
}

ir::Value* Converter::constant(const ir::Tensor& t, const std::string& suffix) {
  return g_.addConstant(fmt::format("{}/{}", name(), suffix), t);
}

ir::Value* Converter::constInts64(const std::vector<int64_t>& v, const std::string& suffix) {
  std::vector<uint8_t> bytes(v.size() * sizeof(int64_t));
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  ir::Tensor t{ir::DType::I64, {static_cast<int64_t>(v.size())}, ir::Blob::fromVector(bytes)};
  return constant(t, suffix);
}

Result<ir::Value*> Converter::nchwOperand(TfValue& t) {
  if (t.nchw) return t.nchw;
  ir::Value* v = t.v;
  const size_t r = v->shape.size();
  if (r == 0) return v;
  if (v->isConstant() && r <= 4) {
    std::vector<int64_t> s4(4 - r, 1);
    s4.insert(s4.end(), v->shape.begin(), v->shape.end());
    ir::Value* c = v;
    if (r < 4) {
      ASC_TRY(c, reshape(v, s4, "operand4d"));
    }
    return transpose(c, {0, 3, 1, 2}, "operand_nchw");
  }
  if (r == 4) {
    ASC_TRY(t.nchw, transpose(v, {0, 3, 1, 2}, "to_nchw"));
    return t.nchw;
  }
  return static_cast<ir::Value*>(nullptr);
}

void Converter::setOut(size_t i, TfValue t) {
  auto& outs = outputs_[name()];
  if (outs.size() <= i) outs.resize(i + 1);
  outs[i] = t;
}

Status Converter::setOutNchw(size_t i, ir::Value* nchw) {
  if (nchw->shape.size() != 4)
    return Status::error(ErrorCode::Internal, "node '{}': an NCHW result of rank {}", name(),
                         nchw->shape.size());
  ASC_TRY(ir::Value * nhwc, transpose(nchw, {0, 2, 3, 1}, i ? fmt::format("nhwc{}", i) : "nhwc"));
  // The tensor TensorFlow sees keeps the TensorFlow name ("node:i").
  if (nchw->name == fmt::format("{}:{}", name(), i)) g_.swapValueNames(nchw, nhwc);
  setOut(i, TfValue{nhwc, nchw});
  return Status::ok();
}

void Converter::dropFolded() {
  if (folded_.empty()) return;
  g_.removeNodesIf([&](const ir::Node& n) { return folded_.count(&n) != 0; });
  folded_.clear();
}

// --- the op table -----------------------------------------------------------------------------

const OpTable& opTable() {
  static const OpTable t = [] {
    OpTable m;
    // The ops the importer handles itself, declared here for the list and the docs.
    m["Placeholder"] = {nullptr, "", "graph input", "shape from the attribute or `--input_shape`"};
    m["Const"] = {nullptr, "", "constant",
                  "`tensor_content` (no copy) or typed values; a short value list repeats its "
                  "last value (splat, up to 1 GiB)"};
    m["NoOp"] = {nullptr, "", "-", ""};
    addNnConverters(m);
    addShapeConverters(m);
    addMoreConverters(m);
    return m;
  }();
  return t;
}

OpConverter findConverter(const std::string& op) {
  auto it = opTable().find(op);
  return it == opTable().end() ? nullptr : it->second.convert;
}

}  // namespace asc::frontend::tf
