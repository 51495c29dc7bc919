// fuse_conv_bn_test.cpp: BatchNormalization folded into the Conv before it: structure (the BN
// node is gone, the Conv has new weights and a bias, and records both source names) and numbers
// (the folded graph computes what the original does).
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/runtime/session.h"

using namespace asc;

namespace {

ir::Value* constant(ir::Graph& g, const char* name, ir::Shape shape, float seed) {
  std::vector<float> v(static_cast<size_t>(ir::numElements(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(seed + 0.37f * float(i)) * 0.5f;
  return g.addConstant(name,
                       ir::Tensor{ir::DType::F32, shape, ir::Blob::copyOf(v.data(), v.size() * 4)});
}

ir::Graph convBn(bool second_user) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {1, 4, 6, 6};
  g.inputs.push_back(x);
  ir::Value* c = g.addValue("c");
  ir::Value* y = g.addValue("y");
  g.addNode("Conv", "conv", {x, constant(g, "w", {8, 4, 3, 3}, 1.f), constant(g, "b", {8}, 2.f)},
            {c})
      ->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  std::vector<float> var(8);
  for (int i = 0; i < 8; ++i) var[i] = 0.5f + 0.1f * float(i);
  ir::Value* v =
      g.addConstant("var", ir::Tensor{ir::DType::F32, {8}, ir::Blob::copyOf(var.data(), 32)});
  g.addNode("BatchNormalization", "bn",
            {c, constant(g, "scale", {8}, 3.f), constant(g, "beta", {8}, 4.f),
             constant(g, "mean", {8}, 5.f), v},
            {y});
  g.outputs.push_back(y);
  if (second_user) g.outputs.push_back(c);
  for (const auto& n : g.nodes()) n->original_names = {n->name};  // as the importer does
  REQUIRE(ops::inferGraph(g).isOk());
  return g;
}

}  // namespace

TEST_CASE("fuse-conv-bn folds BatchNormalization into the Conv", "[passes][fuse-conv-bn]") {
  ir::Graph g = convBn(false);
  passes::PassContext ctx;
  REQUIRE(passes::runPasses(g, {"fuse-conv-bn"}, ctx).isOk());
  REQUIRE(g.nodes().size() == 1);
  const ir::Node& conv = *g.nodes()[0];
  CHECK(conv.op_type == "Conv");
  CHECK(conv.original_names == std::vector<std::string>{"conv", "bn"});
  CHECK(conv.outputs[0]->name == "y");
  CHECK(ctx.log.size() == 1);
  // The Conv output used elsewhere too: no fold.
  ir::Graph h = convBn(true);
  passes::PassContext ctx2;
  REQUIRE(passes::runPasses(h, {"fuse-conv-bn"}, ctx2).isOk());
  CHECK(h.nodes().size() == 2);
  CHECK(ctx2.log.empty());
}

TEST_CASE("fuse-conv-bn keeps the numbers", "[passes][fuse-conv-bn]") {
  std::vector<float> in(4 * 36);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::cos(0.21f * float(i));
  std::vector<std::vector<float>> outs;
  for (bool fuse : {false, true}) {
    ir::Graph g = convBn(false);
    passes::PassContext ctx;
    if (fuse) REQUIRE(passes::runPasses(g, {"fuse-conv-bn"}, ctx).isOk());
    auto s = runtime::Session::fromGraph(std::move(g));
    REQUIRE(s.isOk());
    REQUIRE((*s)->setInput(0, in.data(), in.size() * 4).isOk());
    REQUIRE((*s)->run().isOk());
    const float* o = static_cast<const float*>((*s)->outputData(0));
    outs.emplace_back(o, o + (*s)->outputs()[0].bytes / 4);
  }
  REQUIRE(outs[0].size() == outs[1].size());
  for (size_t i = 0; i < outs[0].size(); ++i)
    CHECK(std::fabs(outs[0][i] - outs[1][i]) <= 1e-5 + 1e-4 * std::fabs(outs[0][i]));
}
