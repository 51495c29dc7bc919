// prune_conv_taps_test.cpp: the prune-conv-taps pass. Taps of a Conv's kernel that no output
// position reads inside the input go: the weights become a new, sliced constant, kernel_shape
// and the pads shrink, a dim left with one tap drops its dilation, and the output shape stays.
// Dims whose every tap is read and dims whose pads would go negative keep their taps (auto_pad
// is explicit pads by then: shape inference canonicalizes it). Numeric tests compare pruned and
// unpruned graphs in the CPU runtime.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

struct Options {
  ir::Shape x = {1, 4, 6, 6};
  ir::Shape w = {3, 4, 3, 3};
  std::vector<int64_t> dilations = {8, 8};
  std::vector<int64_t> pads = {8, 8, 8, 8};  // begins then ends
  std::vector<int64_t> strides;              // none: 1
  std::string auto_pad;
  bool bias = true;
};

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", o.x);
  std::vector<ir::Value*> ins = {x, addFloats(g, "w", o.w)};
  if (o.bias) ins.push_back(addFloats(g, "b", {o.w[0]}));
  ir::Node* c = addOp(g, "Conv", "conv", ins);
  c->attrs.set("dilations", o.dilations);
  if (o.auto_pad.empty())
    c->attrs.set("pads", o.pads);
  else
    c->attrs.set("auto_pad", o.auto_pad);
  if (!o.strides.empty()) c->attrs.set("strides", o.strides);
  finish(g, {c->outputs[0]});
  return g;
}

}  // namespace

TEST_CASE("prune-conv-taps drops the taps that only read padding", "[passes][prune-conv-taps]") {
  Options o;  // dilation 8 on 6x6: only the centre tap reads the input
  ir::Graph g = build(o);
  const ir::Shape y_shape = g.outputs[0]->shape;
  passes::PassContext ctx = runPass(g, "prune-conv-taps");
  REQUIRE(ctx.log.size() == 1);
  CHECK(ctx.log[0].find("kernel 3x3 -> 1x1") != std::string::npos);
  const ir::Node& c = *g.findNode("conv");
  CHECK(c.inputs[1]->shape == ir::Shape{3, 4, 1, 1});
  CHECK(c.attrs.getInts("kernel_shape") == std::vector<int64_t>{1, 1});
  CHECK(c.attrs.getInts("pads") == std::vector<int64_t>{0, 0, 0, 0});
  CHECK(c.attrs.getInts("dilations") == std::vector<int64_t>{1, 1});
  CHECK(g.outputs[0]->shape == y_shape);
  // The centre weights, in order: w[o][i][1][1].
  const ir::Graph unpruned = build(o);
  const float* w = unpruned.findValue("w")->data->as<float>();
  const float* pw = c.inputs[1]->data->as<float>();
  for (int64_t k = 0; k < 12; ++k) CHECK(pw[k] == w[k * 9 + 4]);
}

TEST_CASE("prune-conv-taps keeps the taps some output reads", "[passes][prune-conv-taps]") {
  // Rows: dilation 4 on 6 rows with pads 4 reads taps 0 and 2 at the edges, so all three stay;
  // columns: dilation 8 with pads 8 reads only the centre tap.
  Options o;
  o.dilations = {4, 8};
  o.pads = {4, 8, 4, 8};
  ir::Graph g = build(o);
  passes::PassContext ctx = runPass(g, "prune-conv-taps");
  REQUIRE(ctx.log.size() == 1);
  const ir::Node& c = *g.findNode("conv");
  CHECK(c.inputs[1]->shape == ir::Shape{3, 4, 3, 1});
  CHECK(c.attrs.getInts("pads") == std::vector<int64_t>{4, 0, 4, 0});
  CHECK(c.attrs.getInts("dilations") == std::vector<int64_t>{4, 1});
}

TEST_CASE("prune-conv-taps leaves other convolutions alone", "[passes][prune-conv-taps]") {
  Options every, negative;
  every.dilations = {2, 2};  // every tap is read somewhere
  every.pads = {2, 2, 2, 2};
  // One output position, reading only the centre tap (at 3): dropping tap 0 would need pad
  // 5 - 8 < 0.
  negative.dilations = {8, 8};
  negative.pads = {5, 5, 6, 6};
  for (const Options& o : {every, negative}) {
    ir::Graph g = build(o);
    expectUntouched(g, build(o), "prune-conv-taps");
  }
}

TEST_CASE("prune-conv-taps keeps the numbers", "[passes][prune-conv-taps]") {
  Options centre, mixed, strided, one_d, same_upper;
  same_upper.auto_pad = "SAME_UPPER";  // pads 8 on each side by then
  mixed.dilations = {4, 8};
  mixed.pads = {4, 8, 4, 8};
  strided.strides = {2, 3};
  strided.x = {1, 4, 7, 8};
  strided.pads = {8, 7, 9, 8};
  strided.bias = false;
  one_d.x = {1, 4, 5};
  one_d.w = {3, 4, 3};
  one_d.dilations = {6};
  one_d.pads = {6, 6};
  for (const Options& o : {centre, mixed, strided, one_d, same_upper}) {
    ir::Graph pruned = build(o);
    passes::PassContext ctx = runPass(pruned, "prune-conv-taps");
    REQUIRE(ctx.log.size() == 1);
    expectClose(runGraph(std::move(pruned)), runGraph(build(o)));
  }
}
