// ophost_test.cpp: an Ascend C operator project's pieces (CANN's host API, the framework
// mapping, compiled kernels) become an OpDef through asc::ophost::registerPending, or are refused
// by name.
#include <catch2/catch.hpp>

#include <cstring>

#include "asc/ophost/ophost.h"
#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "kernel_operator.h"
#include "register/op_def_registry.h"
#include "register/register.h"

namespace {

ge::graphStatus tiling(gert::TilingContext* c) {
  c->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}

class UtHostOp : public ops::OpDef {
 public:
  explicit UtHostOp(const char* name) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("alpha").AttrType(ops::OPTIONAL).Float(1.5f);
    this->AICore().SetTiling(tiling);
  }
};

void copyKernel(uint8_t** a) { std::memcpy(a[1], a[0], 4); }

// Tiling that picks key 2 (or 5, which the kernel has no branch for), and a kernel that
// branches on the key as Ascend C kernels do.
ge::graphStatus tilingKey2(gert::TilingContext* c) {
  c->SetBlockDim(1);
  c->SetTilingKey(2);
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus tilingKey5(gert::TilingContext* c) {
  c->SetBlockDim(1);
  c->SetTilingKey(5);
  return ge::GRAPH_SUCCESS;
}
class KeyedOp : public ops::OpDef {
 public:
  KeyedOp(const char* name, ops::TilingFunc fn) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(fn);
  }
};
void keyedKernel(uint8_t** a) {
  const float* x = reinterpret_cast<const float*>(a[0]);
  float* y = reinterpret_cast<float*>(a[1]);
  if (TILING_KEY_IS(1)) {
    for (int i = 0; i < 4; ++i) y[i] = x[i] + 1.f;
  } else if (TILING_KEY_IS(2)) {
    for (int i = 0; i < 4; ++i) y[i] = x[i] * 2.f;
  }
}
// A kernel that forgets its tail: writes 2 of the 4 outputs.
void halfKernel(uint8_t** a) {
  const float* x = reinterpret_cast<const float*>(a[0]);
  float* y = reinterpret_cast<float*>(a[1]);
  for (int i = 0; i < 2; ++i) y[i] = x[i];
}
// One node of `op_type` on a [4] float input, run on {1, 2, 3, 4}.
asc::Status runKeyed(const std::string& op_type, std::vector<float>* out,
                     const asc::runtime::SessionOptions& opts = {}) {
  asc::ir::Graph g;
  asc::ir::Value* x = g.addValue("x");
  x->dtype = asc::ir::DType::F32;
  x->shape = {4};
  asc::ir::Value* y = g.addValue("y");  // shapes as an import leaves them (fromGraph infers none)
  y->dtype = asc::ir::DType::F32;
  y->shape = {4};
  g.addNode(op_type, "n", {x}, {y});
  g.inputs = {x};
  g.outputs = {y};
  ASC_TRY(auto s, asc::runtime::Session::fromGraph(std::move(g), opts));
  const float in[4] = {1, 2, 3, 4};
  ASC_RETURN_IF_ERROR(s->setInput(0, in, sizeof in));
  ASC_RETURN_IF_ERROR(s->run());
  const float* o = static_cast<const float*>(s->outputData(0));
  out->assign(o, o + 4);
  return asc::Status::ok();
}

asc::Status load(const char* origin) {
  asc::ops::PluginRegistrar r(origin);
  asc::ophost::registerPending(r);
  return r.status();
}

}  // namespace

TEST_CASE("ophost: a prototype with a kernel and an ONNX mapping becomes an OpDef", "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpA")));
  asc::ophost::addKernelEntry("AscUtHostOpA", "asc_ut_host_op_a", {ge::DT_FLOAT, ge::DT_FLOAT},
                              copyKernel);
  domi::OpRegistrationData reg("AscUtHostOpA");
  reg.FrameworkType(domi::ONNX).OriginOpType("my.domain::3::AscUtHostOpA");
  domi::OpReceiver receiver(reg);
  REQUIRE(load("ut").isOk());
  const asc::ops::OpDef* d = asc::ops::lookup("AscUtHostOpA");
  REQUIRE(d);
  CHECK(d->onnxSince() == 3);
  CHECK(d->onnxDomainName() == "my.domain");
  CHECK(d->minInputs() == 1);
  CHECK(d->maxOutputs() == 1);
  CHECK(d->isRegistered());
  CHECK(d->summaryText().find("asc_ut_host_op_a") != std::string::npos);
}

TEST_CASE("ophost: what a plugin lacks is refused by name", "[ophost]") {
  SECTION("no kernel") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpB")));
    asc::Status st = load("ut");
    CHECK_FALSE(st.isOk());
    CHECK(st.message().find("AscUtHostOpB") != std::string::npos);
    CHECK(st.message().find("no compiled kernel") != std::string::npos);
  }
  SECTION("a kernel for other arguments") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpC")));
    asc::ophost::addKernelEntry("AscUtHostOpC", "k", {ge::DT_FLOAT}, copyKernel);
    asc::Status st = load("ut");
    CHECK_FALSE(st.isOk());
    CHECK(st.message().find("built for 1 inputs and outputs, the prototype declares 2") !=
          std::string::npos);
  }
  SECTION("an ONNX mapping of another op type") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpD")));
    asc::ophost::addKernelEntry("AscUtHostOpD", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
    domi::OpRegistrationData reg("AscUtHostOpD");
    reg.FrameworkType(domi::ONNX).OriginOpType("ai.onnx::11::LeakyRelu");
    domi::OpReceiver receiver(reg);
    asc::Status st = load("ut");
    CHECK_FALSE(st.isOk());
    CHECK(st.message().find("'ai.onnx::11::LeakyRelu' maps another ONNX op type") !=
          std::string::npos);
    CHECK_FALSE(asc::ops::lookup("AscUtHostOpD"));
  }
  SECTION("a malformed OriginOpType") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpE")));
    asc::ophost::addKernelEntry("AscUtHostOpE", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
    domi::OpRegistrationData reg("AscUtHostOpE");
    reg.FrameworkType(domi::ONNX).OriginOpType("AscUtHostOpE");
    domi::OpReceiver receiver(reg);
    asc::Status st = load("ut");
    CHECK_FALSE(st.isOk());
    CHECK(st.message().find("is not '<domain>::<opset>::<op type>'") != std::string::npos);
  }
  SECTION("an operator that exists") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("Relu")));
    asc::ophost::addKernelEntry("Relu", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
    asc::Status st = load("ut");
    CHECK_FALSE(st.isOk());
    CHECK(st.message().find("Relu") != std::string::npos);
  }
  SECTION("no operator at all") {
    asc::Status st = load("ut");
    CHECK_FALSE(st.isOk());
    CHECK(st.message().find("declares no operator") != std::string::npos);
  }
}

TEST_CASE("ophost: the tiling key SetTilingKey chose reaches TILING_KEY_IS", "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new KeyedOp("AscUtKeyedA", tilingKey2)));
  asc::ophost::addKernelEntry("AscUtKeyedA", "keyed_a", {ge::DT_FLOAT, ge::DT_FLOAT}, keyedKernel);
  REQUIRE(load("ut").isOk());
  std::vector<float> y;
  asc::Status st = runKeyed("AscUtKeyedA", &y);
  REQUIRE(st.isOk());
  CHECK(y == std::vector<float>{2, 4, 6, 8});
  // A key the kernel has no branch for: an error naming it, not outputs nobody wrote.
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new KeyedOp("AscUtKeyedB", tilingKey5)));
  asc::ophost::addKernelEntry("AscUtKeyedB", "keyed_b", {ge::DT_FLOAT, ge::DT_FLOAT}, keyedKernel);
  REQUIRE(load("ut").isOk());
  st = runKeyed("AscUtKeyedB", &y);
  REQUIRE_FALSE(st.isOk());
  INFO(st.toString());
  CHECK(st.message().find("tiling key 5 matches no TILING_KEY_IS branch") != std::string::npos);
}

TEST_CASE("ophost: check_unwritten names the outputs a kernel left unwritten", "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new KeyedOp("AscUtHalfA", tilingKey2)));
  asc::ophost::addKernelEntry("AscUtHalfA", "half_a", {ge::DT_FLOAT, ge::DT_FLOAT}, halfKernel);
  REQUIRE(load("ut").isOk());
  std::vector<float> y;
  asc::runtime::SessionOptions opts;
  opts.check_unwritten = true;
  asc::Status st = runKeyed("AscUtHalfA", &y, opts);
  REQUIRE_FALSE(st.isOk());
  INFO(st.toString());
  CHECK(st.code() == asc::ErrorCode::KernelCheckFailed);
  CHECK(st.message().find("node 'n': kernel 'half_a' left 2 of the 4 elements of output 0 "
                          "unwritten (the first at 2, the last at 3)") != std::string::npos);
  // A kernel that writes everything passes the check.
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new KeyedOp("AscUtFullA", tilingKey2)));
  asc::ophost::addKernelEntry("AscUtFullA", "full_a", {ge::DT_FLOAT, ge::DT_FLOAT}, keyedKernel);
  REQUIRE(load("ut").isOk());
  REQUIRE(runKeyed("AscUtFullA", &y, opts).isOk());
  CHECK(y == std::vector<float>{2, 4, 6, 8});
}

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
  if (c->GetAttrs()->GetAttrPointer<int64_t>(0) != nullptr) return ge::GRAPH_FAILED;  // a float
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
  asc::ophost::CallTensor in{true, x, ge::DT_FLOAT, {2, 3}}, absent{false, nullptr, -1, {}},
      out{true, y, ge::DT_FLOAT, {2, 3}};
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
  asc::ophost::CallTensor half_in{true, x, ge::DT_FLOAT16, {2, 3}};
  auto wrong =
      asc::ophost::prepareCall("aclnnUt", "AscUtReadingA", {half_in, absent}, {out}, attrs, "");
  REQUIRE_FALSE(wrong.isOk());
  CHECK(wrong.status().message().find("no kernel of the custom operator takes the dtypes") !=
        std::string::npos);
}

TEST_CASE("ophost: CANN's spellings of shapes and list attributes", "[ophost]") {
  gert::Shape s({2, 3, 4});
  CHECK(s[1] == 3);
  s[2] = 5;
  CHECK(s.GetDim(2) == 5);
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrs::Value v;
  v.kind = gert::RuntimeAttrs::Value::ListInt;
  v.ints = std::vector<int64_t>{7, 8};
  attrs.values().push_back(v);
  const auto* list = attrs.GetListInt(0);
  REQUIRE(list != nullptr);
  CHECK(list->GetSize() == 2);
  CHECK(list->GetData()[1] == 8);
  CHECK((*list)[0] == 7);  // also the std::vector it holds
  CHECK(attrs.GetListFloat(0) == nullptr);
}
