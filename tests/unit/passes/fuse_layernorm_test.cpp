// fuse_layernorm_test.cpp: the fuse-layernorm pass. The decomposition opset < 17 exporters write,
// ReduceMean, Sub, Pow(2), ReduceMean, Add(eps), Sqrt, Div, then an optional Mul(gamma) and
// Add(beta), becomes one LayerNormalization over the last axis with that epsilon, whose
// original_names list every source node. Without gamma the pass supplies ones; a [1, 1, N] gamma
// becomes [N]. A wrong exponent, a mean over another axis, or a centred value with a third user
// must leave the graph unchanged. Numeric tests compare fused and unfused graphs at runtime.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

enum class Affine { kNone, kGamma, kGammaBeta, kGamma3d };

struct Options {
  Affine affine = Affine::kGammaBeta;
  float eps = 1e-5f;
  float exponent = 2.f;
  int64_t axis = -1;        // of both ReduceMeans
  bool sub_output = false;  // the centred value is a graph output too
};

ir::Node* mean(ir::Graph& g, const std::string& name, ir::Value* v, int64_t axis) {
  ir::Node* n = addOp(g, "ReduceMean", name, {v});
  n->attrs.set("axes", std::vector<int64_t>{axis});
  n->attrs.set("keepdims", int64_t{1});
  return n;
}

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", {2, 5, 16});
  ir::Node* r1 = mean(g, "mean", x, o.axis);
  ir::Node* sub = addOp(g, "Sub", "sub", {x, r1->outputs[0]});
  ir::Node* pow = addOp(g, "Pow", "pow", {sub->outputs[0], addFloats(g, "two", {}, {o.exponent})});
  ir::Node* r2 = mean(g, "var", pow->outputs[0], o.axis);
  ir::Node* add = addOp(g, "Add", "add_eps", {r2->outputs[0], addFloats(g, "eps", {}, {o.eps})});
  ir::Node* sqrt = addOp(g, "Sqrt", "sqrt", {add->outputs[0]});
  ir::Node* last = addOp(g, "Div", "div", {sub->outputs[0], sqrt->outputs[0]});
  if (o.affine != Affine::kNone) {
    ir::Shape gs = o.affine == Affine::kGamma3d ? ir::Shape{1, 1, 16} : ir::Shape{16};
    last = addOp(g, "Mul", "gamma_mul", {last->outputs[0], addFloats(g, "gamma", gs, {}, 1.f)});
  }
  if (o.affine == Affine::kGammaBeta)
    last = addOp(g, "Add", "beta_add", {addFloats(g, "beta", {16}), last->outputs[0]});
  std::vector<ir::Value*> outs = {last->outputs[0]};
  if (o.sub_output) outs.push_back(sub->outputs[0]);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-layernorm replaces the decomposition by LayerNormalization",
          "[passes][fuse-layernorm]") {
  Options o;
  o.eps = 1e-3f;
  ir::Graph g = build(o);
  REQUIRE(g.nodes().size() == 9);
  const ir::Value* y = g.outputs[0];
  passes::PassContext ctx = runPass(g, "fuse-layernorm");
  REQUIRE(ctx.log.size() == 1);
  CHECK(ctx.log[0].find("9 nodes") != std::string::npos);
  REQUIRE(g.nodes().size() == 1);
  const ir::Node& ln = *g.nodes()[0];
  CHECK(ln.op_type == "LayerNormalization");
  REQUIRE(ln.inputs.size() == 3);
  CHECK(ln.inputs[0] == g.findValue("x"));
  CHECK(ln.inputs[1] == g.findValue("gamma"));
  CHECK(ln.inputs[2] == g.findValue("beta"));
  CHECK(ln.outputs[0] == y);
  const int64_t axis = ln.attrs.getInt("axis", 0);
  CHECK((axis == -1 || axis == 2));
  CHECK(ln.attrs.getFloat("epsilon", 0) == 1e-3f);
  CHECK(hasOriginalNames(
      ln, {"mean", "sub", "pow", "var", "add_eps", "sqrt", "div", "gamma_mul", "beta_add"}));
}

TEST_CASE("fuse-layernorm supplies a missing gamma and flattens a [1, 1, N] one",
          "[passes][fuse-layernorm]") {
  Options none, gamma3d;
  none.affine = Affine::kNone;
  gamma3d.affine = Affine::kGamma3d;
  ir::Graph g = build(none);
  runPass(g, "fuse-layernorm");
  REQUIRE(g.nodes().size() == 1);
  const ir::Node& ln = *g.nodes()[0];
  REQUIRE(ln.inputs.size() == 2);
  REQUIRE(ln.inputs[1]->isConstant());
  CHECK(ln.inputs[1]->shape == ir::Shape{16});
  for (int64_t i = 0; i < 16; ++i) CHECK(ln.inputs[1]->tensor().floatAt(i) == 1.0);
  CHECK(hasOriginalNames(ln, {"mean", "sub", "pow", "var", "add_eps", "sqrt", "div"}));

  ir::Graph h = build(gamma3d);
  runPass(h, "fuse-layernorm");
  REQUIRE(h.nodes().size() == 1);
  REQUIRE(h.nodes()[0]->inputs.size() == 2);
  CHECK(h.nodes()[0]->inputs[1]->shape == ir::Shape{16});
  CHECK(hasOriginalNames(*h.nodes()[0], {"mean", "div", "gamma_mul"}));
}

TEST_CASE("fuse-layernorm leaves near-misses alone", "[passes][fuse-layernorm]") {
  Options cube, middle_axis, shared;
  cube.exponent = 3.f;
  middle_axis.axis = 1;
  shared.sub_output = true;
  for (const Options& o : {cube, middle_axis, shared}) {
    ir::Graph g = build(o);
    const ir::Graph before = build(o);
    passes::PassContext ctx = runPass(g, "fuse-layernorm");
    CHECK(ctx.log.empty());
    CHECK(countOps(g, "LayerNormalization") == 0);
    std::string why;
    const bool same = ir::graphsEqual(g, before, &why);
    INFO(why);
    CHECK(same);
  }
}

TEST_CASE("fuse-layernorm keeps the numbers", "[passes][fuse-layernorm]") {
  for (Affine a : {Affine::kNone, Affine::kGamma, Affine::kGammaBeta, Affine::kGamma3d})
    for (float eps : {1e-5f, 0.1f}) {
      INFO("affine " << static_cast<int>(a) << ", eps " << eps);
      Options o;
      o.affine = a;
      o.eps = eps;
      ir::Graph fused = build(o);
      passes::PassContext ctx = runPass(fused, "fuse-layernorm");
      REQUIRE(ctx.log.size() == 1);
      expectClose(runGraph(std::move(fused)), runGraph(build(o)));
    }
}
