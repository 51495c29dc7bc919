// fuse_conv_add_test.cpp: the fuse-conv-add pass. Add(Conv(x), r), where the Conv output has no
// other user and r is a computed tensor of the output's shape, becomes a Conv with r as a
// fourth input (a residual post-op); the Conv keeps the Add's name, and when both Add operands
// come from Convs the later one absorbs the Add. Constant or broadcast operands and shared Conv
// outputs must not match. Numeric tests compare the fused graphs (with and without a Conv bias)
// against the unfused ones in the CPU runtime, and a following Relu fused by
// fuse-conv-activation runs after the residual sum.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

enum class Residual { kInput, kSelf, kConv, kConstant, kBroadcast };

struct Options {
  Residual residual = Residual::kInput;
  bool bias = true;
  bool conv_first = true;    // Add(conv, r) rather than Add(r, conv)
  bool also_output = false;  // the Conv output is a graph output too
  bool relu = false;         // a Relu after the Add
};

ir::Node* conv(ir::Graph& g, const std::string& name, ir::Value* x, bool bias) {
  std::vector<ir::Value*> ins = {x, addFloats(g, name + "_w", {8, 8, 3, 3}, {}, 0.1f)};
  if (bias) ins.push_back(addFloats(g, name + "_b", {8}));
  ir::Node* c = addOp(g, "Conv", name, ins);
  c->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  return c;
}

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", {1, 8, 6, 6});
  ir::Node* c = conv(g, "conv", x, o.bias);
  ir::Value* r = nullptr;
  switch (o.residual) {
    case Residual::kInput:
      r = addInput(g, "r", {1, 8, 6, 6});
      break;
    case Residual::kSelf:
      r = x;
      break;
    case Residual::kConv:
      r = conv(g, "conv2", x, o.bias)->outputs[0];
      break;
    case Residual::kConstant:
      r = addFloats(g, "r", {1, 8, 6, 6});
      break;
    case Residual::kBroadcast:
      r = addInput(g, "r", {1, 8, 1, 1});
      break;
  }
  ir::Node* add = addOp(g, "Add", "add",
                        o.conv_first ? std::vector<ir::Value*>{c->outputs[0], r}
                                     : std::vector<ir::Value*>{r, c->outputs[0]});
  ir::Value* y = o.relu ? addOp(g, "Relu", "relu", {add->outputs[0]})->outputs[0] : add->outputs[0];
  std::vector<ir::Value*> outs = {y};
  if (o.also_output) outs.push_back(c->outputs[0]);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-conv-add makes the residual a fourth Conv input", "[passes][fuse-conv-add]") {
  for (bool conv_first : {true, false}) {
    INFO("conv_first " << conv_first);
    Options o;
    o.conv_first = conv_first;
    ir::Graph g = build(o);
    const ir::Value* y = g.outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-conv-add");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("'add'") != std::string::npos);
    REQUIRE(g.nodes().size() == 1);
    const ir::Node& c = *g.nodes()[0];
    CHECK(c.op_type == "Conv");
    REQUIRE(c.inputs.size() == 4);
    CHECK(c.inputs[3] == g.findValue("r"));
    CHECK(c.outputs[0] == y);
    CHECK(hasOriginalNames(c, {"conv", "add"}));
  }
}

TEST_CASE("fuse-conv-add pads a bias-less Conv and prefers the later of two Convs",
          "[passes][fuse-conv-add]") {
  Options o;
  o.bias = false;
  ir::Graph g = build(o);
  runPass(g, "fuse-conv-add");
  REQUIRE(g.nodes().size() == 1);
  REQUIRE(g.nodes()[0]->inputs.size() == 4);
  CHECK(g.nodes()[0]->inputs[2] == nullptr);

  o.residual = Residual::kConv;
  ir::Graph two = build(o);
  passes::PassContext ctx = runPass(two, "fuse-conv-add");
  CHECK(ctx.log.size() == 1);
  REQUIRE(two.nodes().size() == 2);
  const ir::Node* conv2 = two.findNode("conv2");
  REQUIRE(conv2 != nullptr);
  REQUIRE(conv2->inputs.size() == 4);
  CHECK(conv2->inputs[3] == two.findNode("conv")->outputs[0]);
  CHECK(conv2->outputs[0] == two.outputs[0]);
  CHECK(hasOriginalNames(*conv2, {"conv2", "add"}));
}

TEST_CASE("fuse-conv-add leaves constant, broadcast and shared operands alone",
          "[passes][fuse-conv-add]") {
  Options constant, broadcast, shared;
  constant.residual = Residual::kConstant;
  broadcast.residual = Residual::kBroadcast;
  shared.also_output = true;
  for (const Options& o : {constant, broadcast, shared}) {
    ir::Graph g = build(o);
    const ir::Graph before = build(o);
    passes::PassContext ctx = runPass(g, "fuse-conv-add");
    CHECK(ctx.log.empty());
    CHECK(g.nodes().size() == 2);
    std::string why;
    const bool same = ir::graphsEqual(g, before, &why);
    INFO(why);
    CHECK(same);
  }
}

TEST_CASE("fuse-conv-add keeps the numbers", "[passes][fuse-conv-add]") {
  for (Residual r : {Residual::kInput, Residual::kSelf, Residual::kConv})
    for (bool bias : {true, false})
      for (bool conv_first : {true, false}) {
        INFO("residual " << static_cast<int>(r) << ", bias " << bias << ", conv_first "
                         << conv_first);
        Options o;
        o.residual = r;
        o.bias = bias;
        o.conv_first = conv_first;
        ir::Graph fused = build(o);
        passes::PassContext ctx = runPass(fused, "fuse-conv-add");
        REQUIRE(ctx.log.size() == 1);
        expectClose(runGraph(std::move(fused)), runGraph(build(o)));
      }
}

TEST_CASE("fuse-conv-add then fuse-conv-activation applies the sum before the Relu",
          "[passes][fuse-conv-add]") {
  Options o;
  o.relu = true;
  ir::Graph fused = build(o);
  passes::PassContext ctx;
  REQUIRE(passes::runPasses(fused, {"fuse-conv-add", "fuse-conv-activation"}, ctx).isOk());
  CHECK(ctx.log.size() == 2);
  REQUIRE(fused.nodes().size() == 1);
  const ir::Node& c = *fused.nodes()[0];
  CHECK(c.inputs.size() == 4);
  CHECK(c.attrs.getString("activation", "") == "Relu");
  CHECK(hasOriginalNames(c, {"conv", "add", "relu"}));
  expectClose(runGraph(std::move(fused)), runGraph(build(o)));
}
