// ophost_test.cpp: an Ascend C operator project's pieces (CANN's host API, the framework
// mapping, compiled kernels) become an OpDef through asc::ophost::registerPending, or are refused
// by name.
#include <catch2/catch.hpp>

#include <cstring>

#include "asc/ophost/ophost.h"
#include "asc/ops/registry.h"
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
