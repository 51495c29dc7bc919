// fuse_conv_bias_test.cpp: the fuse-conv-bias pass. Add(Conv(x), c) with c an fp32 constant of
// one value per output channel ([8, 1, 1], [1, 8, 1, 1]) or one value folds into the Conv's
// bias (made when the Conv has none); the Conv takes the Add's output and names. A shared Conv
// output, a constant that varies over H or W, and a computed operand must not match. Numeric
// checks run the fused and unfused graphs in the CPU runtime.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

struct Options {
  ir::Shape c_shape = {8, 1, 1};
  bool bias = true;
  bool conv_first = true;
  bool also_output = false;  // the Conv output is a graph output too
  bool computed = false;     // the other operand is a graph input
  bool transpose = false;    // a ConvTranspose
};

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", {1, 8, 6, 6});
  std::vector<ir::Value*> ins = {x, addFloats(g, "w", {8, 8, 3, 3}, {}, 0.1f)};
  if (o.bias) ins.push_back(addFloats(g, "b", {8}));
  ir::Node* c = addOp(g, o.transpose ? "ConvTranspose" : "Conv", "conv", ins);
  c->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Value* other = o.computed ? addInput(g, "r", o.c_shape) : addFloats(g, "c", o.c_shape);
  ir::Node* add = addOp(g, "Add", "bias_add",
                        o.conv_first ? std::vector<ir::Value*>{c->outputs[0], other}
                                     : std::vector<ir::Value*>{other, c->outputs[0]});
  std::vector<ir::Value*> outs = {add->outputs[0]};
  if (o.also_output) outs.push_back(c->outputs[0]);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-conv-bias folds per-channel and scalar constants", "[passes][fuse-conv-bias]") {
  for (ir::Shape s :
       {ir::Shape{6}, ir::Shape{8, 1, 1}, ir::Shape{1, 8, 1, 1}, ir::Shape{1}, ir::Shape{}})
    for (bool bias : {true, false})
      for (bool conv_first : {true, false})
        for (bool transpose : {false, true}) {
          INFO("shape [" << ir::shapeToString(s) << "], bias " << bias << ", conv_first "
                         << conv_first << ", transpose " << transpose);
          Options o;
          o.c_shape = s;
          o.bias = bias;
          o.conv_first = conv_first;
          o.transpose = transpose;
          // A [6] constant broadcasts over W, not channels: it must stay an Add.
          const bool fuses = s != ir::Shape{6};
          ir::Graph g = build(o);
          const ir::Value* y = g.outputs[0];
          passes::PassContext ctx = runPass(g, "fuse-conv-bias");
          CHECK(ctx.log.size() == (fuses ? 1u : 0u));
          if (!fuses) continue;
          REQUIRE(g.nodes().size() == 1);
          const ir::Node& c = *g.nodes()[0];
          REQUIRE(c.inputs.size() == 3);
          CHECK(c.inputs[2]->shape == ir::Shape{8});
          CHECK(c.outputs[0] == y);
          CHECK(hasOriginalNames(c, {"conv", "bias_add"}));
          expectClose(runGraph(std::move(g)), runGraph(build(o)));
        }
}

TEST_CASE("fuse-conv-bias leaves shared, computed and spatial operands alone",
          "[passes][fuse-conv-bias]") {
  Options shared, computed, spatial;
  shared.also_output = true;
  computed.computed = true;
  spatial.c_shape = {8, 6, 1};
  for (const Options& o : {shared, computed, spatial}) {
    ir::Graph g = build(o);
    passes::PassContext ctx = runPass(g, "fuse-conv-bias");
    CHECK(ctx.log.empty());
    CHECK(g.nodes().size() == 2);
  }
}
