// eliminate_test.cpp: the clean-up passes (eliminate-identity, eliminate-common, eliminate-dead,
// fold-constants): structure, and the numbers before and after.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/runtime/session.h"
#include "pass_test_util.h"

using namespace asc;

namespace {

// x -> Identity -> Relu(a) ; x -> Relu(b) (a duplicate of a after identity removal);
// Add(a, b) -> y; a dead Sigmoid; a constant subgraph Add(c1, c2) feeding a Mul.
ir::Graph build() {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {2, 8};
  g.inputs.push_back(x);
  auto v = [&](const char* n) { return g.addValue(n); };
  std::vector<float> one(8, 1.5f), two(8, -0.25f);
  ir::Value* c1 =
      g.addConstant("c1", ir::Tensor{ir::DType::F32, {8}, ir::Blob::copyOf(one.data(), 32)});
  ir::Value* c2 =
      g.addConstant("c2", ir::Tensor{ir::DType::F32, {8}, ir::Blob::copyOf(two.data(), 32)});
  ir::Value *id = v("id"), *a = v("a"), *b = v("b"), *s = v("s"), *dead = v("dead"), *k = v("k"),
            *y = v("y");
  g.addNode("Identity", "identity", {x}, {id});
  g.addNode("Relu", "relu_a", {id}, {a});
  g.addNode("Relu", "relu_b", {x}, {b});
  g.addNode("Add", "add", {a, b}, {s});
  g.addNode("Sigmoid", "unused", {s}, {dead});
  g.addNode("Add", "const_add", {c1, c2}, {k});
  g.addNode("Mul", "mul", {s, k}, {y});
  g.outputs.push_back(y);
  for (const auto& n : g.nodes()) n->original_names = {n->name};  // as the importer does
  REQUIRE(ops::inferGraph(g,
                          [] {
                            ops::InferOptions o;
                            o.fold_constants = false;
                            return o;
                          }())
              .isOk());
  return g;
}

std::vector<float> run(ir::Graph g) {
  std::vector<float> in(16);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.7f * float(i));
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, in.data(), 64).isOk());
  REQUIRE((*s)->run().isOk());
  const float* o = static_cast<const float*>((*s)->outputData(0));
  return std::vector<float>(o, o + 16);
}

bool has(const ir::Graph& g, const char* name) { return g.findNode(name) != nullptr; }

}  // namespace

TEST_CASE("eliminate-identity removes pass-through nodes", "[passes][eliminate-identity]") {
  ir::Graph g = build();
  passes::PassContext ctx;
  REQUIRE(passes::runPasses(g, {"eliminate-identity"}, ctx).isOk());
  CHECK_FALSE(has(g, "identity"));
  CHECK(g.findNode("relu_a")->inputs[0] == g.inputs[0]);
  CHECK(run(build()) == run(std::move(g)));
}

TEST_CASE("eliminate-common merges identical nodes", "[passes][eliminate-common]") {
  ir::Graph g = build();
  passes::PassContext ctx;
  REQUIRE(passes::runPasses(g, {"eliminate-identity", "eliminate-common"}, ctx).isOk());
  CHECK(has(g, "relu_a"));
  CHECK_FALSE(has(g, "relu_b"));
  CHECK(g.findNode("relu_a")->original_names == std::vector<std::string>{"relu_a", "relu_b"});
  CHECK(run(build()) == run(std::move(g)));
}

TEST_CASE("eliminate-dead removes what no output needs", "[passes][eliminate-dead]") {
  ir::Graph g = build();
  passes::PassContext ctx;
  REQUIRE(passes::runPasses(g, {"eliminate-dead"}, ctx).isOk());
  CHECK_FALSE(has(g, "unused"));
  CHECK(ctx.log.size() == 1);
  CHECK(run(build()) == run(std::move(g)));
}

TEST_CASE("fold-constants evaluates constant subgraphs", "[passes][fold-constants]") {
  ir::Graph g = build();
  passes::PassContext ctx;
  REQUIRE(passes::runPasses(g, {"fold-constants"}, ctx).isOk());
  CHECK_FALSE(has(g, "const_add"));
  REQUIRE(g.findNode("mul")->inputs[1]->isConstant());
  CHECK(g.findNode("mul")->inputs[1]->tensor().floatAt(0) == 1.25);
  CHECK(run(build()) == run(std::move(g)));
}

namespace {

// x [4, 1, 6] -> Transpose(perm) -> Relu -> y: a Transpose whose dims of more than 1 keep their
// order is a Reshape.
ir::Graph transposeGraph(std::vector<int64_t> perm, ir::Shape shape = {4, 1, 6}) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = passtest::addInput(g, "x", shape);
  ir::Node* t = passtest::addOp(g, "Transpose", "t", {x});
  if (!perm.empty()) t->attrs.set("perm", perm);
  ir::Node* r = passtest::addOp(g, "Relu", "r", {t->outputs[0]});
  passtest::finish(g, {r->outputs[0]});
  return g;
}

}  // namespace

TEST_CASE("eliminate-identity makes a Transpose that moves only dims of 1 a Reshape",
          "[passes][eliminate-identity]") {
  SECTION("the sequence-first attention's [S, 1, D] -> [1, S, D]") {
    ir::Graph g = transposeGraph({1, 0, 2});
    passtest::runPass(g, "eliminate-identity");
    const ir::Node* t = g.findNode("t");
    REQUIRE(t);
    CHECK(t->op_type == "Reshape");
    CHECK_FALSE(t->attrs.has("perm"));
    CHECK(t->attrs.getInts("shape") == std::vector<int64_t>{1, 4, 6});
    CHECK(t->outputs[0]->shape == ir::Shape{1, 4, 6});
    passtest::expectClose(passtest::runGraph(std::move(g)),
                          passtest::runGraph(transposeGraph({1, 0, 2})));
  }
  SECTION("the default permutation (reversed) of [1, 5]") {
    ir::Graph g = transposeGraph({}, {1, 5});
    passtest::runPass(g, "eliminate-identity");
    CHECK(g.findNode("t")->op_type == "Reshape");
    passtest::expectClose(passtest::runGraph(std::move(g)),
                          passtest::runGraph(transposeGraph({}, {1, 5})));
  }
  SECTION("a Transpose that reorders dims of more than 1 stays") {
    ir::Graph g = transposeGraph({2, 1, 0});
    passtest::expectUntouched(g, transposeGraph({2, 1, 0}), "eliminate-identity");
    ir::Graph h = transposeGraph({0, 2, 1}, {1, 3, 4});
    passtest::expectUntouched(h, transposeGraph({0, 2, 1}, {1, 3, 4}), "eliminate-identity");
  }
}
