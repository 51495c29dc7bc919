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
#include "onnx/onnx.pb.h"
#include "ophost_helpers.h"
#include "register/op_def_registry.h"
#include "register/register.h"

using ophost_test::load;

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
  KeyedOp(const char* name, gert::OpImplRegisterV2::TilingKernelFunc fn) : OpDef(name) {
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
// A complex64 operator, as a project's OpDef declares it; its kernel reads the (real, imaginary)
// float pairs through GM_ADDR and writes the conjugate.
int conjElements = 0;  // what the kernel's tiling saw: the input's element count
ge::graphStatus conjTiling(gert::TilingContext* c) {
  c->SetBlockDim(1);
  conjElements = int(c->GetInputShape(0)->GetStorageShape().GetShapeSize());
  return ge::GRAPH_SUCCESS;
}
class ConjOp : public ops::OpDef {
 public:
  explicit ConjOp(const char* name) : OpDef(name) {
    this->Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(conjTiling);
  }
};
void conjKernel(uint8_t** a) {
  const float* x = reinterpret_cast<const float*>(a[0]);
  float* y = reinterpret_cast<float*>(a[1]);
  for (int i = 0; i < 3; ++i) {
    y[2 * i] = x[2 * i];
    y[2 * i + 1] = -x[2 * i + 1];
  }
}
}  // namespace

TEST_CASE("ophost: a complex64 operator gets 8-byte elements, in and out", "[ophost]") {
  CHECK(ge::GetSizeByDataType(ge::DT_COMPLEX64) == 8);
  CHECK(ge::GetSizeByDataType(ge::DT_COMPLEX128) == 16);
  CHECK(asc::ir::dtypeSize(asc::ir::DType::C64) == 8);
  CHECK(asc::ir::dtypeFromOnnx(14) == asc::ir::DType::Undefined);  // no model makes them
  ops::addPendingOpDef(std::unique_ptr<ops::OpDef>(new ConjOp("AscUtConjA")));
  asc::ophost::addKernelEntry("AscUtConjA", "conj_a", {ge::DT_COMPLEX64, ge::DT_COMPLEX64},
                              conjKernel);
  REQUIRE(load("ut").isOk());
  asc::ir::Graph g;
  asc::ir::Value* x = g.addValue("x");
  x->dtype = asc::ir::DType::C64;
  x->shape = {3};
  asc::ir::Value* y = g.addValue("y");
  y->dtype = asc::ir::DType::C64;
  y->shape = {3};
  g.addNode("AscUtConjA", "n", {x}, {y});
  g.inputs = {x};
  g.outputs = {y};
  auto s = asc::runtime::Session::fromGraph(std::move(g), {});
  REQUIRE(s.isOk());
  const float in[6] = {1, 2, 3, -4, 5, 6};
  REQUIRE((*s)->setInput(0, in, sizeof in).isOk());
  asc::Status st = (*s)->run();
  INFO(st.toString());
  REQUIRE(st.isOk());
  CHECK(conjElements == 3);
  const float* o = static_cast<const float*>((*s)->outputData(0));
  CHECK(std::vector<float>(o, o + 6) == std::vector<float>{1, -2, 3, 4, 5, -6});
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
  CHECK((*list)[0] == 7);                        // also the std::vector it holds
  CHECK(attrs.GetListFloat(0)->GetSize() == 2);  // the same bytes, as CANN reads them
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
