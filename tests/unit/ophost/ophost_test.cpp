// ophost_test.cpp: an Ascend C operator project's pieces (CANN's host API, the framework
// mapping, compiled kernels) become an OpDef through asc::ophost::registerPending, or are refused
// by name.
#include <catch2/catch.hpp>

#include <cstring>

#include "asc/frontend/onnx.h"
#include "asc/ophost/ophost.h"
#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "graph/operator.h"
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "onnx/onnx.pb.h"
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

namespace {

// An ONNX model of one LeakyRelu (alpha 0.1) at `opset`, as bytes.
// (Old opsets: the mappings stay registered for the rest of the process, and other tests
// import LeakyRelu at current ones.)
std::string leakyModel(int opset, const char* name = "lr") {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(opset);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("g");
  onnx::NodeProto* n = g->add_node();
  n->set_op_type("LeakyRelu");
  n->set_name(name);
  n->add_input("x");
  n->add_output("y");
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("alpha");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(0.1f);
  for (const char* io : {"x", "y"}) {
    onnx::ValueInfoProto* v = std::string(io) == "x" ? g->add_input() : g->add_output();
    v->set_name(io);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(4);
  }
  return m.SerializeAsString();
}

asc::Result<asc::ir::Graph> importModel(const std::string& bytes) {
  return asc::frontend::importOnnxBytes(bytes.data(), bytes.size(), ".");
}

// What the parse function saw of its last node.
std::string g_seen_json, g_seen_type, g_seen_name;
std::vector<std::string> g_seen_inputs;

domi::Status parseLeaky(const ge::Operator& src, ge::Operator& dest) {
  ge::AscendString json, type;
  if (src.GetAttr("attribute", json) != ge::GRAPH_SUCCESS) return domi::FAILED;
  g_seen_json = json.GetString();
  src.GetAttr("op_type", type);
  g_seen_type = type.GetString();
  std::string name;
  src.GetAttr("name", name);
  g_seen_name = name;
  src.GetAttr("input", g_seen_inputs);
  // As CANN samples read it: the float of attribute "alpha" is the string after "f".
  const size_t f = g_seen_json.find("\"f\": \"");
  if (f == std::string::npos) return domi::FAILED;
  dest.SetAttr("alpha", float(std::atof(g_seen_json.c_str() + f + 6)) * 2);
  return domi::SUCCESS;
}
domi::Status parseFails(const ge::Operator&, ge::Operator&) { return domi::FAILED; }

}  // namespace

TEST_CASE("ophost: a framework plugin takes another ONNX op type over with its parse function",
          "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpD")));
  asc::ophost::addKernelEntry("AscUtHostOpD", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
  domi::OpRegistrationData reg("AscUtHostOpD");
  reg.FrameworkType(domi::ONNX)
      .OriginOpType(
          {ge::AscendString("ai.onnx::6::LeakyRelu"), ge::AscendString("ai.onnx::7::LeakyRelu")})
      .ParseParamsByOperatorFn(parseLeaky);
  domi::OpReceiver receiver(reg);
  REQUIRE(load("ut").isOk());

  auto g = importModel(leakyModel(6));
  REQUIRE(g.isOk());
  REQUIRE(g->nodes().size() == 1);
  const asc::ir::Node& n = *g->nodes()[0];
  CHECK(n.op_type == "AscUtHostOpD");
  CHECK(n.attrs.getFloat("alpha", 0) == Approx(0.2f));  // the parse function's value
  CHECK(g_seen_type == "LeakyRelu");
  CHECK(g_seen_name == "lr");
  CHECK(g_seen_inputs == std::vector<std::string>{"x"});
  // CANN's text: set fields in key order, the enum as a number, a float as "%g".
  CHECK(g_seen_json ==
        "{\n  \"attribute\": [\n    {\n      \"f\": \"0.1\",\n      \"name\": \"alpha\",\n"
        "      \"type\": 1\n    }\n  ]\n}");
  // Another opset than the origins name: the built-in reading.
  auto other = importModel(leakyModel(8));
  REQUIRE(other.isOk());
  CHECK(other->nodes()[0]->op_type == "LeakyRelu");
}

TEST_CASE("ophost: AutoMappingByOpFn copies the ONNX attributes; a failing parse names the node",
          "[ophost]") {
  SECTION("AutoMappingByOpFn, called from the plugin's own function") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpF")));
    asc::ophost::addKernelEntry("AscUtHostOpF", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
    domi::OpRegistrationData reg("AscUtHostOpF");
    reg.FrameworkType(domi::ONNX)
        .OriginOpType("ai.onnx::9::LeakyRelu")
        .ParseParamsByOperatorFn([](const ge::Operator& src, ge::Operator& dest) {
          domi::Status st = domi::AutoMappingByOpFn(src, dest);
          dest.SetAttr("extra", int64_t(7));
          return st;
        });
    domi::OpReceiver receiver(reg);
    REQUIRE(load("ut").isOk());
    auto g = importModel(leakyModel(9));
    REQUIRE(g.isOk());
    const asc::ir::Node& n = *g->nodes()[0];
    CHECK(n.op_type == "AscUtHostOpF");
    CHECK(n.attrs.getFloat("alpha", 0) == Approx(0.1f));
    CHECK(n.attrs.getInt("extra", 0) == 7);
  }
  SECTION("a parse function that fails") {
    ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpG")));
    asc::ophost::addKernelEntry("AscUtHostOpG", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
    domi::OpRegistrationData reg("AscUtHostOpG");
    reg.FrameworkType(domi::ONNX)
        .OriginOpType("ai.onnx::10::LeakyRelu")
        .ParseParamsByOperatorFn(parseFails);
    domi::OpReceiver receiver(reg);
    REQUIRE(load("ut").isOk());
    auto g = importModel(leakyModel(10, "leaky_7"));
    REQUIRE_FALSE(g.isOk());
    CHECK(g.status().message().find("node 'leaky_7' (LeakyRelu)") != std::string::npos);
    CHECK(g.status().message().find("REGISTER_CUSTOM_OP(\"AscUtHostOpG\")") != std::string::npos);
    CHECK(g.status().message().find("not SUCCESS") != std::string::npos);
  }
}

TEST_CASE("ge::Operator keeps attributes by name and type", "[ophost]") {
  ge::Operator op("n", "T");
  op.SetAttr("i", 3).SetAttr("f", 0.5f).SetAttr("b", true).SetAttr("s", "text");
  op.SetAttr("ints", std::vector<int64_t>{1, 2}).SetAttr("i", int64_t(4));  // replaces
  int64_t i = 0;
  float f = 0;
  bool b = false;
  ge::AscendString s;
  std::vector<int32_t> ints;
  CHECK(op.GetAttr("i", i) == ge::GRAPH_SUCCESS);
  CHECK(i == 4);
  CHECK(op.GetAttr("f", f) == ge::GRAPH_SUCCESS);
  CHECK(f == 0.5f);
  CHECK(op.GetAttr("b", b) == ge::GRAPH_SUCCESS);
  CHECK(b);
  CHECK(op.GetAttr("s", s) == ge::GRAPH_SUCCESS);
  CHECK(std::string(s.GetString()) == "text");
  CHECK(op.GetAttr("ints", ints) == ge::GRAPH_SUCCESS);
  CHECK(ints == std::vector<int32_t>{1, 2});
  CHECK(op.GetAttr("f", i) == ge::GRAPH_FAILED);        // another type
  CHECK(op.GetAttr("missing", f) == ge::GRAPH_FAILED);  // none
  CHECK(op.ascAttrs().size() == 5);
}

namespace {
std::string g_probe_json;
domi::Status captureJson(const ge::Operator& src, ge::Operator&) {
  ge::AscendString json;
  if (src.GetAttr("attribute", json) != ge::GRAPH_SUCCESS) return domi::FAILED;
  g_probe_json = json.GetString();
  return domi::SUCCESS;
}
}  // namespace

TEST_CASE("ophost: the attribute JSON of lists, strings and a tensor, in CANN's form", "[ophost]") {
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new UtHostOp("AscUtHostOpH")));
  asc::ophost::addKernelEntry("AscUtHostOpH", "k", {ge::DT_FLOAT, ge::DT_FLOAT}, copyKernel);
  domi::OpRegistrationData reg("AscUtHostOpH");
  reg.FrameworkType(domi::ONNX)
      .OriginOpType("my.probe::1::Probe")
      .ParseParamsByOperatorFn(captureJson);
  domi::OpReceiver receiver(reg);
  REQUIRE(load("ut").isOk());

  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* probe_domain = m.add_opset_import();
  probe_domain->set_domain("my.probe");
  probe_domain->set_version(1);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("g");
  onnx::NodeProto* n = g->add_node();
  n->set_op_type("Probe");
  n->set_domain("my.probe");
  n->set_name("p");
  n->add_input("x");
  n->add_output("y");
  onnx::AttributeProto* ints = n->add_attribute();
  ints->set_name("ints");
  ints->set_type(onnx::AttributeProto::INTS);
  ints->add_ints(1);
  ints->add_ints(-2);
  onnx::AttributeProto* strs = n->add_attribute();
  strs->set_name("strs");
  strs->set_type(onnx::AttributeProto::STRINGS);
  strs->add_strings("a\"b");
  onnx::AttributeProto* s = n->add_attribute();
  s->set_name("s");
  s->set_type(onnx::AttributeProto::STRING);
  s->set_s("x\ny");
  onnx::AttributeProto* t = n->add_attribute();
  t->set_name("t");
  t->set_type(onnx::AttributeProto::TENSOR);
  t->mutable_t()->add_dims(2);
  t->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  t->mutable_t()->add_float_data(1.5f);
  t->mutable_t()->add_float_data(0.1f);
  for (const char* io : {"x", "y"}) {
    onnx::ValueInfoProto* v = std::string(io) == "x" ? g->add_input() : g->add_output();
    v->set_name(io);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(4);
  }
  auto imported = importModel(m.SerializeAsString());
  REQUIRE(imported.isOk());
  CHECK(imported->nodes()[0]->op_type == "AscUtHostOpH");
  // Lists of numbers as numbers (a float as the shortest text that reads back to its double),
  // a single bytes field C-escaped, strings in lists JSON-escaped only, the tensor nested.
  CHECK(g_probe_json ==
        "{\n  \"attribute\": [\n"
        "    {\n      \"ints\": [\n        1,\n        -2\n      ],\n"
        "      \"name\": \"ints\",\n      \"type\": 7\n    },\n"
        "    {\n      \"name\": \"strs\",\n      \"strings\": [\n        \"a\\\"b\"\n      ],\n"
        "      \"type\": 8\n    },\n"
        "    {\n      \"name\": \"s\",\n      \"s\": \"x\\\\ny\",\n      \"type\": 3\n    },\n"
        "    {\n      \"name\": \"t\",\n      \"t\": {\n        \"data_type\": 1,\n"
        "        \"dims\": [\n          2\n        ],\n        \"float_data\": [\n"
        "          1.5,\n          0.10000000149011612\n        ]\n      },\n"
        "      \"type\": 4\n    }\n  ]\n}");
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
  CHECK(attrs.GetAttrPointer<uint32_t>(1) == nullptr);  // a Float is no integer
  CHECK(attrs.GetAttrPointer<uint32_t>(2) == nullptr);  // out of range
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
  xs.list = {{true, a, ge::DT_FLOAT, {4}}, {true, b, ge::DT_FLOAT, {4}}};
  asc::ophost::CallTensor scale{true, s, ge::DT_FLOAT, {1}}, out{true, y, ge::DT_FLOAT, {4}};
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
