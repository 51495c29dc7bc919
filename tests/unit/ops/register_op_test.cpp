// register_op_test.cpp: the open operator registry. An operator registered at run time (as a
// custom-op plugin does) is found, inferred, optimised, laid out, planned, written to an OM and
// run like an in-tree one, because every pass and the runtime ask its OpDef; taken names, taken
// CANN types and ops without shape inference or kernel are refused by name.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/compiler/compile.h"
#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"

using namespace asc;

namespace {

// y = alpha * x, alpha an attribute (default 2).
class ScaleKernel : public ops::Kernel {
 public:
  explicit ScaleKernel(const ops::KernelInit& k)
      : in_(k.inputs[0]), out_(k.outputs[0]), alpha_(k.node.attrs.getFloat("alpha", 2.f)) {}
  void run() override {
    for (int64_t i = 0; i < out_.numel(); ++i) out_.f32()[i] = alpha_ * in_.f32()[i];
  }
  std::string implName() const override { return "test_scale"; }

 private:
  ops::TensorRef in_, out_;
  float alpha_;
};

Result<std::unique_ptr<ops::Kernel>> createScale(const ops::KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32 || k.outputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::UnsupportedOp, "AscTestScale computes in fp32 only");
  return std::unique_ptr<ops::Kernel>(new ScaleKernel(k));
}

Status inferScale(ops::InferContext& c) {
  c.setOutput(0, c.dtype(0), c.shape(0));
  return Status::ok();
}

ops::OpDef scaleDef(const char* name, const char* cann) {
  return ops::OpDef(name)
      .onnx(1)
      .cann(cann)
      .inferShape(inferScale)
      .kernel(createScale)
      .works5hd(ops::FiveHd::Elementwise)
      .precisionClass(ops::PrecisionClass::Sensitive)
      .summary("test: alpha * x");
}

void registerOnce() {
  static const Status st =
      ops::registerOp(scaleDef("AscTestScale", "AscTestScaleD"), "the test plugin");
  INFO(st.message());
  REQUIRE(st.isOk());
}

// x[1,16,4,4] -> AscTestScale(alpha 3) -> Relu -> y
ir::Graph build() {
  ir::Graph g;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {1, 16, 4, 4};
  g.inputs.push_back(x);
  ir::Node* s = g.addNode("AscTestScale", "scale", {x}, {g.addValue("s")});
  s->attrs.set("alpha", 3.f);
  ir::Node* r = g.addNode("Relu", "relu", {s->outputs[0]}, {g.addValue("y")});
  for (const auto& n : g.nodes()) n->original_names = {n->name};
  g.outputs = {r->outputs[0]};
  REQUIRE(ops::inferGraph(g).isOk());
  return g;
}

std::vector<float> run(runtime::Session& s) {
  std::vector<float> in(16 * 16);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.3f * i);
  REQUIRE(s.setInput(0, in.data(), in.size() * 4).isOk());
  REQUIRE(s.run().isOk());
  const float* y = static_cast<const float*>(s.outputData(0));
  std::vector<float> out(y, y + in.size());
  for (size_t i = 0; i < in.size(); ++i) CHECK(out[i] == std::max(3.f * in[i], 0.f));
  return out;
}

}  // namespace

TEST_CASE("a registered op is found like an in-tree one", "[ops][registry]") {
  registerOnce();
  const ops::OpDef* d = ops::lookup("AscTestScale");
  REQUIRE(d != nullptr);
  CHECK(d->isRegistered());
  CHECK(d->origin() == "the test plugin");
  CHECK(ops::lookupByCann("AscTestScaleD") == d);
  CHECK(std::is_sorted(ops::allOps().begin(), ops::allOps().end(),
                       [](auto* a, auto* b) { return a->name() < b->name(); }));
  CHECK_FALSE(ops::lookup("Relu")->isRegistered());
}

TEST_CASE("registerOp refuses taken names, taken CANN types and incomplete ops",
          "[ops][registry]") {
  registerOnce();
  auto dup = ops::registerOp(scaleDef("AscTestScale", "Other"), "plugin B");
  CHECK(dup.code() == ErrorCode::InvalidParam);
  CHECK(dup.message().find("plugin B") != std::string::npos);
  CHECK(dup.message().find("already registered (by a plugin)") != std::string::npos);
  auto relu = ops::registerOp(scaleDef("Relu", "ReluX"), "plugin C");
  CHECK(relu.message().find("already registered (in-tree)") != std::string::npos);
  // Another plugin's CANN type is refused; a built-in's is taken over (the next test case).
  auto cann = ops::registerOp(scaleDef("AscTestOther", "AscTestScaleD"), "plugin D");
  CHECK(cann.message().find("CANN type 'AscTestScaleD'") != std::string::npos);
  CHECK(cann.message().find("of the test plugin") != std::string::npos);
  CHECK(ops::registerOp(ops::OpDef("AscTestNoKernel").inferShape(inferScale), "p").code() ==
        ErrorCode::InvalidParam);
  CHECK(ops::registerOp(ops::OpDef("AscTestNoInfer").kernel(createScale), "p").code() ==
        ErrorCode::InvalidParam);
  CHECK(ops::lookup("AscTestNoKernel") == nullptr);
}

TEST_CASE("a custom op takes a built-in's CANN type before the built-in, as in CANN",
          "[ops][registry]") {
  const ops::OpDef* builtin = ops::lookupByCann("Col2im");
  REQUIRE(builtin != nullptr);
  REQUIRE(!builtin->isRegistered());
  if (!ops::lookup("AscTestCol2im"))
    REQUIRE(ops::registerOp(scaleDef("AscTestCol2im", "Col2im"), "plugin E").isOk());
  CHECK(ops::lookupByCann("Col2im") == ops::lookup("AscTestCol2im"));
  CHECK(ops::lookup(builtin->name()) == builtin);  // the built-in keeps its IR name
}

TEST_CASE("a registered op compiles, lays out, writes and runs like an in-tree one",
          "[ops][registry]") {
  registerOnce();
  CompileOptions o;
  o.soc_version = "Ascend310P3";
  o.precision.mode = "allow_mix_precision";
  auto m = compileGraph(build(), o);
  INFO(m.status().message());
  REQUIRE(m.isOk());
  const ir::Node* scale = m->graph.findNode("scale");
  REQUIRE(scale != nullptr);
  // The layout pass asked its OpDef: an element-wise NC1HWC0 op, like Relu.
  CHECK(scale->outputs[0]->format == "NC1HWC0");
  // allow_mix_precision asked its precision class: it stays fp32, the Relu goes fp16.
  CHECK(scale->outputs[0]->dtype == ir::DType::F32);
  CHECK(m->graph.findNode("relu")->outputs[0]->dtype == ir::DType::F16);

  // fp32 end to end: the runtime runs its kernel, from the graph and from an OM.
  o.precision.mode = "force_fp32";
  auto f = compileGraph(build(), o);
  REQUIRE(f.isOk());
  auto s = runtime::Session::fromGraph(f->graph.clone());
  REQUIRE(s.isOk());
  run(**s);
  REQUIRE(makeDirs(ASC_TEST_TMP "/registry").isOk());
  const std::string path = ASC_TEST_TMP "/registry/scale.om";
  REQUIRE(om::writeOm(f->graph, f->info, path).isOk());
  auto loaded = runtime::Session::load(path);
  INFO(loaded.status().message());
  REQUIRE(loaded.isOk());
  run(**loaded);
}
