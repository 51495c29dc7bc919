// fuse_gelu_test.cpp: the fuse-gelu pass. The erf form of GELU that exporters write,
// x * 0.5 * (1 + erf(x / sqrt(2))), becomes one Gelu node in both associations
// (Mul(Mul(x, 1 + erf), 0.5) with a Div by sqrt(2), and Mul(Mul(x, 0.5), 1 + erf) with a Mul by
// 1/sqrt(2)), carrying the names of all five source nodes. A wrong constant or an intermediate
// with a second user must leave the graph unchanged. The numeric test runs both forms, fused
// and unfused, through the CPU runtime; x is computed (3 * input) so it spans [-3, 3].
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

struct Options {
  bool half_first = false;   // Mul(Mul(x, 0.5), 1 + erf) with Mul(x, 0.7071) before Erf
  float one = 1.f;           // the constant added to erf
  float sqrt2 = 1.4142135f;  // the divisor (its inverse when half_first)
  bool erf_output = false;   // the Erf output is a graph output too
};

const std::vector<std::string> kNames = {"scale", "erf", "add", "mul", "half"};

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* in = addInput(g, "in", {2, 3, 16});
  ir::Value* x = addOp(g, "Mul", "pre", {in, addFloats(g, "three", {}, {3.f})})->outputs[0];
  ir::Node* scale =
      o.half_first ? addOp(g, "Mul", "scale", {addFloats(g, "c_scale", {}, {1.f / o.sqrt2}), x})
                   : addOp(g, "Div", "scale", {x, addFloats(g, "c_scale", {}, {o.sqrt2})});
  ir::Node* erf = addOp(g, "Erf", "erf", {scale->outputs[0]});
  ir::Node* add = addOp(g, "Add", "add", {addFloats(g, "c_one", {1}, {o.one}), erf->outputs[0]});
  ir::Node* last;
  if (o.half_first) {
    ir::Node* half = addOp(g, "Mul", "half", {x, addFloats(g, "c_half", {}, {0.5f})});
    last = addOp(g, "Mul", "mul", {half->outputs[0], add->outputs[0]});
  } else {
    ir::Node* mul = addOp(g, "Mul", "mul", {add->outputs[0], x});
    last = addOp(g, "Mul", "half", {mul->outputs[0], addFloats(g, "c_half", {}, {0.5f})});
  }
  std::vector<ir::Value*> outs = {last->outputs[0]};
  if (o.erf_output) outs.push_back(erf->outputs[0]);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-gelu replaces both erf forms by one Gelu", "[passes][fuse-gelu]") {
  for (bool half_first : {false, true}) {
    INFO("half_first " << half_first);
    Options o;
    o.half_first = half_first;
    ir::Graph g = build(o);
    REQUIRE(g.nodes().size() == 6);
    const ir::Value* y = g.outputs[0];
    const ir::Value* x = g.findNode("pre")->outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-gelu");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("Gelu") != std::string::npos);
    REQUIRE(g.nodes().size() == 2);
    CHECK(countOps(g, "Erf") == 0);
    CHECK(countOps(g, "Mul") == 1);  // only "pre" is left
    const ir::Node& gelu = *g.nodes()[1];
    CHECK(gelu.op_type == "Gelu");
    REQUIRE(gelu.inputs.size() == 1);
    CHECK(gelu.inputs[0] == x);
    CHECK(gelu.outputs[0] == y);
    CHECK(y->shape == ir::Shape{2, 3, 16});
    CHECK(hasOriginalNames(gelu, kNames));
    CHECK_FALSE(hasOriginalNames(gelu, {"pre"}));
  }
}

TEST_CASE("fuse-gelu leaves wrong constants and shared intermediates alone",
          "[passes][fuse-gelu]") {
  Options wrong_one, wrong_sqrt2, shared, shared_half;
  wrong_one.one = 2.f;
  wrong_sqrt2.sqrt2 = 2.f;
  wrong_sqrt2.half_first = true;
  shared.erf_output = true;
  shared_half.erf_output = true;
  shared_half.half_first = true;
  for (const Options& o : {wrong_one, wrong_sqrt2, shared, shared_half}) {
    ir::Graph g = build(o);
    const ir::Graph before = build(o);
    passes::PassContext ctx = runPass(g, "fuse-gelu");
    CHECK(ctx.log.empty());
    CHECK(countOps(g, "Gelu") == 0);
    std::string why;
    const bool same = ir::graphsEqual(g, before, &why);
    INFO(why);
    CHECK(same);
  }
}

TEST_CASE("fuse-gelu keeps the numbers", "[passes][fuse-gelu]") {
  for (bool half_first : {false, true}) {
    INFO("half_first " << half_first);
    Options o;
    o.half_first = half_first;
    ir::Graph fused = build(o);
    passes::PassContext ctx = runPass(fused, "fuse-gelu");
    REQUIRE(ctx.log.size() == 1);
    expectClose(runGraph(std::move(fused)), runGraph(build(o)));
  }
}
