// fuse_swish_test.cpp: the fuse-swish pass. SiLU written as Mul(x, Sigmoid(x)) (either operand
// order) becomes one Swish node on x that carries the Sigmoid's and the Mul's names; two SiLUs
// in a row both fuse in one run. A Mul of the Sigmoid with another tensor, a Sigmoid output with
// a second user, or Mul(Sigmoid(x), Sigmoid(x)) must leave the graph unchanged. The numeric test
// runs fused and unfused graphs through the CPU runtime.
#include <catch2/catch.hpp>

#include <utility>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

enum class Other { kX, kAnother, kSigmoid };

struct Options {
  bool sigmoid_first = false;  // Mul(Sigmoid(x), x) rather than Mul(x, Sigmoid(x))
  Other other = Other::kX;     // the Mul's second operand
  bool sig_output = false;     // the Sigmoid output is a graph output too
  bool chain = false;          // a second SiLU on the first one's output
};

ir::Value* silu(ir::Graph& g, const std::string& suffix, ir::Value* x, const Options& o,
                ir::Value* another) {
  ir::Node* sig = addOp(g, "Sigmoid", "sig" + suffix, {x});
  ir::Value* s = sig->outputs[0];
  ir::Value* m = o.other == Other::kX ? x : o.other == Other::kAnother ? another : s;
  std::vector<ir::Value*> ins = {m, s};
  if (o.sigmoid_first) std::swap(ins[0], ins[1]);
  ir::Node* mul = addOp(g, "Mul", "mul" + suffix, ins);
  if (o.sig_output) g.outputs.push_back(s);
  return mul->outputs[0];
}

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* in = addInput(g, "in", {2, 3, 8, 8});
  ir::Value* x = addOp(g, "Mul", "pre", {in, addFloats(g, "four", {}, {4.f})})->outputs[0];
  ir::Value* another = o.other == Other::kAnother ? addInput(g, "another", {2, 3, 8, 8}) : nullptr;
  ir::Value* y = silu(g, "", x, o, another);
  if (o.chain) y = silu(g, "2", y, o, another);
  std::vector<ir::Value*> outs = g.outputs;
  outs.insert(outs.begin(), y);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-swish replaces Mul(x, Sigmoid(x)) by Swish", "[passes][fuse-swish]") {
  for (bool sigmoid_first : {false, true}) {
    INFO("sigmoid_first " << sigmoid_first);
    Options o;
    o.sigmoid_first = sigmoid_first;
    ir::Graph g = build(o);
    const ir::Value* y = g.outputs[0];
    const ir::Value* x = g.findNode("pre")->outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-swish");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("'sig'") != std::string::npos);
    REQUIRE(g.nodes().size() == 2);
    CHECK(countOps(g, "Sigmoid") == 0);
    const ir::Node& sw = *g.nodes()[1];
    CHECK(sw.op_type == "Swish");
    REQUIRE(sw.inputs.size() == 1);
    CHECK(sw.inputs[0] == x);
    CHECK(sw.outputs[0] == y);
    CHECK(y->shape == ir::Shape{2, 3, 8, 8});
    CHECK(hasOriginalNames(sw, {"sig", "mul"}));
  }
}

TEST_CASE("fuse-swish fuses two SiLUs in a row", "[passes][fuse-swish]") {
  Options o;
  o.chain = true;
  ir::Graph g = build(o);
  passes::PassContext ctx = runPass(g, "fuse-swish");
  CHECK(ctx.log.size() == 2);
  REQUIRE(g.nodes().size() == 3);
  CHECK(g.nodes()[1]->op_type == "Swish");
  CHECK(g.nodes()[2]->op_type == "Swish");
  CHECK(g.nodes()[2]->inputs[0] == g.nodes()[1]->outputs[0]);
  CHECK(hasOriginalNames(*g.nodes()[2], {"sig2", "mul2"}));
}

TEST_CASE("fuse-swish leaves other products and shared Sigmoids alone", "[passes][fuse-swish]") {
  Options another, squared, shared;
  another.other = Other::kAnother;
  squared.other = Other::kSigmoid;
  shared.sig_output = true;
  for (const Options& o : {another, squared, shared}) {
    ir::Graph g = build(o);
    const ir::Graph before = build(o);
    passes::PassContext ctx = runPass(g, "fuse-swish");
    CHECK(ctx.log.empty());
    CHECK(countOps(g, "Swish") == 0);
    std::string why;
    const bool same = ir::graphsEqual(g, before, &why);
    INFO(why);
    CHECK(same);
  }
}

TEST_CASE("fuse-swish keeps the numbers", "[passes][fuse-swish]") {
  for (bool sigmoid_first : {false, true})
    for (bool chain : {false, true}) {
      INFO("sigmoid_first " << sigmoid_first << ", chain " << chain);
      Options o;
      o.sigmoid_first = sigmoid_first;
      o.chain = chain;
      ir::Graph fused = build(o);
      passes::PassContext ctx = runPass(fused, "fuse-swish");
      REQUIRE(ctx.log.size() == (chain ? 2u : 1u));
      expectClose(runGraph(std::move(fused)), runGraph(build(o)));
    }
}

namespace {

// Mul(x, HardSigmoid(x)) with the given constants, x = in * 4.
ir::Graph hardSwishGraph(float alpha, float beta) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* in = addInput(g, "in", {2, 3, 8, 8});
  ir::Value* x = addOp(g, "Mul", "pre", {in, addFloats(g, "four", {}, {4.f})})->outputs[0];
  ir::Node* hs = addOp(g, "HardSigmoid", "hsig", {x});
  hs->attrs.set("alpha", alpha);
  hs->attrs.set("beta", beta);
  ir::Node* mul = addOp(g, "Mul", "mul", {x, hs->outputs[0]});
  finish(g, {mul->outputs[0]});
  return g;
}

}  // namespace

TEST_CASE("fuse-swish replaces hard-swish's Mul(x, HardSigmoid(x)) by HardSwish",
          "[passes][fuse-swish]") {
  ir::Graph g = hardSwishGraph(1.f / 6.f, 0.5f);
  passes::PassContext ctx = runPass(g, "fuse-swish");
  REQUIRE(ctx.log.size() == 1);
  CHECK(ctx.log[0].find("HardSigmoid 'hsig'") != std::string::npos);
  REQUIRE(g.nodes().size() == 2);
  CHECK(g.nodes()[1]->op_type == "HardSwish");
  CHECK(hasOriginalNames(*g.nodes()[1], {"hsig", "mul"}));
  ir::Graph fused = hardSwishGraph(1.f / 6.f, 0.5f);
  runPass(fused, "fuse-swish");
  expectClose(runGraph(std::move(fused)), runGraph(hardSwishGraph(1.f / 6.f, 0.5f)));
  // Other constants are not hard-swish: ONNX's default HardSigmoid (0.2, 0.5) stays.
  for (auto [alpha, beta] : {std::pair{0.2f, 0.5f}, std::pair{1.f / 6.f, 0.4f}}) {
    ir::Graph other = hardSwishGraph(alpha, beta);
    CHECK(runPass(other, "fuse-swish").log.empty());
    CHECK(countOps(other, "HardSwish") == 0);
  }
}
