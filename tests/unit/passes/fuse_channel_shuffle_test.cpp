// fuse_channel_shuffle_test.cpp: the fuse-channel-shuffle pass. ShuffleNet's channel shuffle,
// Reshape [N, C, H, W] -> [N, g, C/g, H, W], Transpose (0, 2, 1, 3, 4), Reshape back, becomes
// one ShuffleChannel node carrying the three names. Between convolutions it keeps their
// (channels-last) layout, and so do the channel Slices after it; the numbers equal the unfused
// graph's on the CPU runtime. Another permutation, or a Reshape to another shape, is left alone.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

ir::Value* conv1x1(ir::Graph& g, const std::string& name, ir::Value* x, int64_t cin, int64_t cout) {
  ir::Node* c = addOp(g, "Conv", name, {x, addFloats(g, name + "_w", {cout, cin, 1, 1})});
  c->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
  return c->outputs[0];
}

ir::Value* slice(ir::Graph& g, const std::string& name, ir::Value* x, int64_t start, int64_t end) {
  return addOp(g, "Slice", name,
               {x, addInts(g, name + "_s", {start}), addInts(g, name + "_e", {end}),
                addInts(g, name + "_a", {1})})
      ->outputs[0];
}

// conv -> shuffle (groups, perm) -> two channel halves -> conv on one -> concat.
ir::Graph build(int64_t groups, std::vector<int64_t> perm) {
  ir::Graph g;
  g.opset = 13;
  const int64_t C = 16;
  ir::Value* in = addInput(g, "in", {1, C, 6, 6});
  ir::Value* x = conv1x1(g, "conv_a", in, C, C);
  ir::Value* r1 =
      addOp(g, "Reshape", "split", {x, addInts(g, "split_shape", {1, groups, C / groups, 6, 6})})
          ->outputs[0];
  ir::Node* t = addOp(g, "Transpose", "swap", {r1});
  t->attrs.set("perm", perm);
  ir::Value* r2 =
      addOp(g, "Reshape", "join", {t->outputs[0], addInts(g, "join_shape", {1, C, 6, 6})})
          ->outputs[0];
  ir::Value* lo = slice(g, "lo", r2, 0, C / 2);
  ir::Value* hi = conv1x1(g, "conv_b", slice(g, "hi", r2, C / 2, C), C / 2, C / 2);
  ir::Node* cat = addOp(g, "Concat", "cat", {lo, hi});
  cat->attrs.set("axis", int64_t{1});
  finish(g, {cat->outputs[0]});
  return g;
}

}  // namespace

TEST_CASE("fuse-channel-shuffle replaces Reshape, Transpose, Reshape by ShuffleChannel",
          "[passes][fuse-channel-shuffle]") {
  for (int64_t groups : {2, 4}) {
    INFO("groups " << groups);
    ir::Graph g = build(groups, {0, 2, 1, 3, 4});
    const auto want = runGraph(g.clone());
    const ir::Value* x = g.findNode("conv_a")->outputs[0];
    const ir::Value* y = g.findNode("join")->outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-channel-shuffle");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("(group " + std::to_string(groups) + ")") != std::string::npos);
    CHECK(countOps(g, "Reshape") == 0);
    CHECK(countOps(g, "Transpose") == 0);
    REQUIRE(countOps(g, "ShuffleChannel") == 1);
    const ir::Node* sc = nullptr;
    for (const auto& n : g.nodes())
      if (n->op_type == "ShuffleChannel") sc = n.get();
    REQUIRE(sc);
    CHECK(sc->inputs[0] == x);
    CHECK(sc->outputs[0] == y);
    CHECK(sc->attrs.getInt("group", 0) == groups);
    CHECK(hasOriginalNames(*sc, {"split", "swap", "join"}));
    // The fused graph computes the same numbers (pure data movement: the same bits).
    const auto got = runGraph(g.clone());
    expectClose(got, want);
    CHECK(got == want);
    // Between the convolutions nothing is reordered on a channels-last CPU: the shuffle and the
    // slices keep the layout, and the one reorder makes the graph output plain (on AVX2 the
    // shuffle and slices run plain, with reorders).
    auto s = runtime::Session::fromGraph(g.clone());
    REQUIRE(s.isOk());
    const std::string plan = (*s)->describe();
    INFO(plan);
    if (ops::channelsLast()) {
      const size_t first = plan.find("reorder");
      CHECK(first == plan.find("reorder cat_out to plain"));
      CHECK(plan.find("reorder", first + 1) == std::string::npos);
    }
  }
}

TEST_CASE("fuse-channel-shuffle leaves other permutations and shapes alone",
          "[passes][fuse-channel-shuffle]") {
  ir::Graph g = build(2, {0, 1, 2, 4, 3});  // swaps H and W, not the groups
  passes::PassContext ctx = runPass(g, "fuse-channel-shuffle");
  CHECK(ctx.log.empty());
  CHECK(countOps(g, "Transpose") == 1);
  CHECK(countOps(g, "ShuffleChannel") == 0);
}

TEST_CASE("a Slice of a channels-last tensor takes any axes and steps in place of layout",
          "[passes][fuse-channel-shuffle][slice]") {
  // conv -> Slice(axes {1, 2, 3}, steps {2, 2, -1}), against slicing the conv's own output.
  auto make = [](bool sliced) {
    ir::Graph g;
    g.opset = 13;
    ir::Value* in = addInput(g, "in", {1, 16, 7, 7});
    ir::Value* x = conv1x1(g, "conv", in, 16, 16);
    if (!sliced) {
      finish(g, {x});
      return g;
    }
    ir::Node* s = addOp(g, "Slice", "s",
                        {x, addInts(g, "st", {1, 1, 6}), addInts(g, "en", {16, 7, -8}),
                         addInts(g, "ax", {1, 2, 3}), addInts(g, "sp", {2, 2, -1})});
    finish(g, {s->outputs[0]});
    return g;
  };
  const auto full = runGraph(make(false));
  const auto got = runGraph(make(true));
  REQUIRE(got.size() == 1);
  std::vector<float> want;
  for (int c = 1; c < 16; c += 2)
    for (int h = 1; h < 7; h += 2)
      for (int w = 6; w >= 0; --w) want.push_back(full[0][(c * 7 + h) * 7 + w]);
  CHECK(got[0] == want);
}
