// direct_call_test.cpp: an Ascend C operator called directly, as the aclnn API calls it
// (asc::ophost::prepareCall): the tiling reads the caller's tensors and attributes, a DYNAMIC
// input arrives as a tensor list (and in a model, as the node's inputs the others leave).
#include <catch2/catch.hpp>

#include <cstring>

#include "asc/ophost/ophost.h"
#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "ophost_helpers.h"
#include "register/op_def_registry.h"

using ophost_test::load;

namespace {
// A present tensor of a direct call.
asc::ophost::CallTensor tensorOf(void* data, int dtype, std::vector<int64_t> dims) {
  asc::ophost::CallTensor t;
  t.data = data;
  t.dtype = dtype;
  t.dims = std::move(dims);
  return t;
}
}  // namespace

namespace {
// A tiling function that reads what CANN's samples read: GetInputTensor's size and data,
// GetAttrPointer<T>, GetOptionalInputShape.
struct Seen {
  int64_t size = -1;
  float first = 0, alpha = 0;
  bool bias_given = true;
  std::string tag;
};
Seen g_seen;
ge::graphStatus readingTiling(gert::TilingContext* c) {
  g_seen.size = c->GetInputTensor(0)->GetShapeSize();
  const float* x = c->GetInputTensor(0)->GetData<float>();
  g_seen.first = x ? x[0] : -1.f;
  g_seen.alpha = *c->GetAttrs()->GetAttrPointer<float>(0);
  g_seen.tag = c->GetAttrs()->GetAttrPointer<char>(1);  // a copy: the context ends with the call
  g_seen.bias_given = c->GetOptionalInputShape(1) != nullptr;
  // A float read as int64_t: its 4 bytes (0.25f is 0x3e800000), then zeros, as on an NPU.
  if (*c->GetAttrs()->GetAttrPointer<int64_t>(0) != 0x3e800000) return ge::GRAPH_FAILED;
  c->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
class ReadingOp : public ops::OpDef {
 public:
  explicit ReadingOp(const char* name) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("bias").ParamType(ops::OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("alpha").AttrType(ops::OPTIONAL).Float(1.5f);
    this->Attr("tag").AttrType(ops::OPTIONAL).String("none");
    this->AICore().SetTiling(readingTiling);
  }
};
void scaleKernel(uint8_t** a) {
  const float* x = reinterpret_cast<const float*>(a[0]);
  float* y = reinterpret_cast<float*>(a[2]);
  for (int i = 0; i < 6; ++i) y[i] = x[i] * 3.f;
}
}  // namespace

TEST_CASE("ophost: a direct call (the aclnn path) tiles on the caller's tensors and attributes",
          "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new ReadingOp("AscUtReadingA")));
  asc::ophost::addKernelEntry("AscUtReadingA", "reading_a",
                              {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT}, scaleKernel);
  REQUIRE(load("ut").isOk());
  float x[6] = {4, 5, 6, 7, 8, 9}, y[6] = {};
  asc::ophost::CallTensor in = tensorOf(x, ge::DT_FLOAT, {2, 3}), absent,
                          out = tensorOf(y, ge::DT_FLOAT, {2, 3});
  absent.present = false;
  std::vector<asc::ophost::CallAttr> attrs(2);
  attrs[0].f = 0.25;
  attrs[1].s = "on";
  auto call = asc::ophost::prepareCall("aclnnUt", "AscUtReadingA", {in, absent}, {out}, attrs, "");
  REQUIRE(call.isOk());
  CHECK(g_seen.size == 6);
  CHECK(g_seen.first == 4.f);
  CHECK(g_seen.alpha == 0.25f);
  CHECK(g_seen.tag == "on");
  CHECK_FALSE(g_seen.bias_given);
  CHECK((*call)->workspaceBytes() == 0);
  REQUIRE((*call)->run(nullptr, 0).isOk());
  CHECK(y[5] == 27.f);
  // A required input left out, and a dtype no kernel takes, are refused naming them.
  auto missing =
      asc::ophost::prepareCall("aclnnUt", "AscUtReadingA", {absent, absent}, {out}, attrs, "");
  REQUIRE_FALSE(missing.isOk());
  CHECK(missing.status().message().find("aclnnUt: input 0 'x' is a null pointer; it is required") !=
        std::string::npos);
  asc::ophost::CallTensor half_in = tensorOf(x, ge::DT_FLOAT16, {2, 3});
  auto wrong =
      asc::ophost::prepareCall("aclnnUt", "AscUtReadingA", {half_in, absent}, {out}, attrs, "");
  REQUIRE_FALSE(wrong.isOk());
  CHECK(wrong.status().message().find("no kernel of the custom operator takes the dtypes") !=
        std::string::npos);
}

TEST_CASE("ophost: an Int attribute read as another integer type, as CANN's projects read it",
          "[ophost]") {
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrs::Value v;
  v.kind = gert::RuntimeAttrs::Value::Int;
  v.i = 3;
  attrs.values().push_back(v);
  gert::RuntimeAttrs::Value f;
  f.kind = gert::RuntimeAttrs::Value::Float;
  f.f = 0.5f;
  attrs.values().push_back(f);
  REQUIRE(attrs.GetAttrPointer<uint32_t>(0) != nullptr);
  CHECK(*attrs.GetAttrPointer<uint32_t>(0) == 3u);
  CHECK(*attrs.GetAttrPointer<int32_t>(0) == 3);
  CHECK(*attrs.GetAttrPointer<int64_t>(0) == 3);
  // A Float read as an integer: its own bytes, as on an NPU (0.5f is 0x3f000000).
  REQUIRE(attrs.GetAttrPointer<uint32_t>(1) != nullptr);
  CHECK(*attrs.GetAttrPointer<uint32_t>(1) == 0x3f000000u);
  CHECK(attrs.GetAttrPointer<uint32_t>(2) == nullptr);  // out of range
}

TEST_CASE(
    "ophost: an attribute read with another type's getter reads its bytes as CANN lays "
    "them out",
    "[ophost]") {
  // LpNormV2's tiling (a public project) reads p (float 2) with GetBool(0) and its empty axes
  // list with GetFloat(1): on an NPU those are false (float 2's first byte) and 0 (the list's
  // capacity), and the project's result depends on them being so.
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrs::Value p;
  p.kind = gert::RuntimeAttrs::Value::Float;
  p.f = 2.0f;
  p.name = "p";
  attrs.values().push_back(p);
  gert::RuntimeAttrs::Value axes;
  axes.kind = gert::RuntimeAttrs::Value::ListInt;
  axes.name = "axes";
  attrs.values().push_back(axes);
  gert::RuntimeAttrs::Value dims;
  dims.kind = gert::RuntimeAttrs::Value::ListInt;
  dims.ints = std::vector<int64_t>{5, 6, 7};
  attrs.values().push_back(dims);
  gert::RuntimeAttrs::Value flag;
  flag.kind = gert::RuntimeAttrs::Value::Bool;
  flag.b = true;
  attrs.values().push_back(flag);

  REQUIRE(attrs.GetBool(0) != nullptr);
  CHECK(*attrs.GetBool(0) == false);
  REQUIRE(attrs.GetFloat(1) != nullptr);
  CHECK(*attrs.GetFloat(1) == 0.0f);
  CHECK(*attrs.GetInt(2) == 3);  // a list's capacity comes first
  CHECK(*attrs.GetInt(3) == 1);  // a bool's byte, then zeros
  // A list getter on a scalar: its size is the bytes 8..15 (zeros after a float): empty.
  REQUIRE(attrs.GetListInt(0) != nullptr);
  CHECK(attrs.GetListInt(0)->GetSize() == 0);
  // A list read as a list of another element type: the same count over the same bytes.
  const auto* asFloats = attrs.GetListFloat(2);
  REQUIRE(asFloats != nullptr);
  REQUIRE(asFloats->GetSize() == 3);
  int64_t five = 0;
  std::memcpy(&five, asFloats->GetData(), sizeof five);  // floats 0 and 1 hold int64 5
  CHECK(five == 5);
  // The right getters still give the values, and the same pointer each time.
  CHECK(*attrs.GetFloat(0) == 2.0f);
  CHECK(attrs.GetListInt(2)->GetSize() == 3);
  CHECK(attrs.GetBool(0) == attrs.GetBool(0));
  CHECK(attrs.GetFloat(4) == nullptr);  // out of range
  CHECK(attrs.GetListInt(4) == nullptr);
}

namespace {
// An AddN-like operator: a DYNAMIC input (a tensor list) and a required scale; the tiling reads
// the list's tensors through GetDynamicInputShape / GetDynamicInputDesc, the kernel through
// ListTensorDesc.
struct SeenList {
  int64_t first = -1, second = -1, third = -1, after = -1;
  ge::DataType dtype = ge::DT_UNDEFINED;
};
SeenList g_list;
ge::graphStatus listTiling(gert::TilingContext* c) {
  g_list.first = c->GetDynamicInputShape(0, 0)->GetStorageShape().GetShapeSize();
  g_list.second = c->GetDynamicInputShape(0, 1)->GetStorageShape().GetShapeSize();
  g_list.third = c->GetDynamicInputShape(0, 2) ? 1 : 0;  // only two tensors
  g_list.after = c->GetDynamicInputShape(1, 0)->GetStorageShape().GetShapeSize();
  g_list.dtype = c->GetDynamicInputDesc(0, 1)->GetDataType();
  c->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
class ListOp : public ops::OpDef {
 public:
  explicit ListOp(const char* name) : OpDef(name) {
    this->Input("xs").ParamType(ops::DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("scale").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(listTiling);
  }
};
void listKernel(uint8_t** a) {
  AscendC::ListTensorDesc list(reinterpret_cast<void*>(a[0]));
  const float* scale = reinterpret_cast<const float*>(a[1]);
  float* y = reinterpret_cast<float*>(a[2]);
  AscendC::TensorDesc<float> desc;
  uint64_t dims[8] = {};
  desc.SetShapeAddr(dims);
  list.GetDesc(desc, 1);
  for (int i = 0; i < 4; ++i) {
    float sum = 0;
    for (uint32_t k = 0; k < list.GetSize(); ++k) sum += list.GetDataPtr<float>(k)[i];
    y[i] = sum * scale[0] + float(desc.GetShape(0));  // + the second tensor's dim 0 (4)
  }
}
}  // namespace

TEST_CASE("ophost: a DYNAMIC input reaches the tiling and the kernel as a tensor list",
          "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new ListOp("AscUtListA")));
  asc::ophost::addKernelEntry("AscUtListA", "list_a", {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT},
                              listKernel);
  REQUIRE(load("ut-list").isOk());
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, s[1] = {2}, y[4] = {};
  asc::ophost::CallTensor xs;
  xs.is_list = true;
  xs.list = {tensorOf(a, ge::DT_FLOAT, {4}), tensorOf(b, ge::DT_FLOAT, {4})};
  asc::ophost::CallTensor scale = tensorOf(s, ge::DT_FLOAT, {1}),
                          out = tensorOf(y, ge::DT_FLOAT, {4});
  auto call = asc::ophost::prepareCall("aclnnUtList", "AscUtListA", {xs, scale}, {out}, {}, "");
  REQUIRE(call.isOk());
  CHECK(g_list.first == 4);
  CHECK(g_list.second == 4);
  CHECK(g_list.third == 0);
  CHECK(g_list.after == 1);  // the next prototype input, after the list's instances
  CHECK(g_list.dtype == ge::DT_FLOAT);
  REQUIRE((*call)->run(nullptr, 0).isOk());
  CHECK(y[0] == (1 + 10) * 2.f + 4);
  CHECK(y[3] == (4 + 40) * 2.f + 4);
  // A single tensor where the list goes, a list where a tensor goes, mixed dtypes, an empty list.
  auto single =
      asc::ophost::prepareCall("aclnnUtList", "AscUtListA", {scale, scale}, {out}, {}, "");
  REQUIRE_FALSE(single.isOk());
  CHECK(single.status().message().find("is a DYNAMIC parameter: pass an aclTensorList") !=
        std::string::npos);
  auto list_as_one = asc::ophost::prepareCall("aclnnUtList", "AscUtListA", {xs, xs}, {out}, {}, "");
  REQUIRE_FALSE(list_as_one.isOk());
  CHECK(list_as_one.status().message().find("takes one tensor, not a tensor list") !=
        std::string::npos);
  asc::ophost::CallTensor mixed = xs;
  mixed.list[1].dtype = ge::DT_FLOAT16;
  auto m = asc::ophost::prepareCall("aclnnUtList", "AscUtListA", {mixed, scale}, {out}, {}, "");
  REQUIRE_FALSE(m.isOk());
  CHECK(m.status().message().find("a list holds one type") != std::string::npos);
  asc::ophost::CallTensor empty;
  empty.is_list = true;
  auto e = asc::ophost::prepareCall("aclnnUtList", "AscUtListA", {empty, scale}, {out}, {}, "");
  REQUIRE_FALSE(e.isOk());
  CHECK(e.status().message().find("tensor list is empty") != std::string::npos);
}

TEST_CASE("ophost: a DYNAMIC input in a model takes the node's inputs the others leave",
          "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new ListOp("AscUtListB")));
  asc::ophost::addKernelEntry("AscUtListB", "list_b", {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT},
                              listKernel);
  REQUIRE(load("ut-list-b").isOk());
  // y = (x1 + x2 + x3) * scale + 4 (the kernel adds the second tensor's dim 0).
  asc::ir::Graph g;
  std::vector<asc::ir::Value*> ins;
  for (const char* name : {"x1", "x2", "x3", "scale"}) {
    asc::ir::Value* v = g.addValue(name);
    v->dtype = asc::ir::DType::F32;
    v->shape = {std::string(name) == "scale" ? 1 : 4};
    ins.push_back(v);
  }
  asc::ir::Value* y = g.addValue("y");  // inferred: the op's InferShape over the list
  g.addNode("AscUtListB", "n", ins, {y});
  g.inputs = ins;
  g.outputs = {y};
  REQUIRE(asc::ops::inferGraph(g).isOk());
  CHECK(y->dtype == asc::ir::DType::F32);
  CHECK(y->shape == asc::ir::Shape{4});
  auto s = asc::runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  const float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4] = {100, 200, 300, 400},
              scale[1] = {0.5f};
  REQUIRE((*s)->setInput(0, a, sizeof a).isOk());
  REQUIRE((*s)->setInput(1, b, sizeof b).isOk());
  REQUIRE((*s)->setInput(2, c, sizeof c).isOk());
  REQUIRE((*s)->setInput(3, scale, sizeof scale).isOk());
  REQUIRE((*s)->run().isOk());
  const float* out = static_cast<const float*>((*s)->outputData(0));
  CHECK(out[0] == 111 * 0.5f + 4);
  CHECK(out[3] == 444 * 0.5f + 4);
  // With only the scale, the list has no tensor: refused, naming the input.
  asc::ir::Graph h;
  asc::ir::Value* only = h.addValue("scale");
  only->dtype = asc::ir::DType::F32;
  only->shape = {1};
  asc::ir::Value* z = h.addValue("z");
  h.addNode("AscUtListB", "m", {only}, {z});
  h.inputs = {only};
  h.outputs = {z};
  CHECK_FALSE(asc::ops::inferGraph(h).isOk());
}
