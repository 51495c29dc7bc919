// fuse_matmul_transpose_scale_test.cpp: the fuse-matmul-transpose-scale pass on the attention
// score pattern. Q/sqrt(d) (Div or Mul, either operand order), K transposed on its last two dims,
// a scale on K, and a scale on the product fold into one MatMul with transpose_x2 and alpha, and
// the source names run in execution order (the output scale last). Non-scalar factors, a
// Transpose of other dims, a factor with a second user, or c / x must stay. Numeric tests run
// fused and unfused graphs through the CPU runtime (oneDNN's output scale, transposed strides).
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

struct Options {
  const char* q_scale = "Div";  // "Div", "Mul", "MulConstFirst" or "" (none)
  bool transpose_k = true;
  std::vector<int64_t> perm = {0, 1, 3, 2};
  bool k_scale = false;
  bool out_scale = false;
  bool q_scaled_also_output = false;  // the scaled Q has a second user
  bool vector_scale = false;          // a per-column factor instead of a scalar
  bool divide_const_by_q = false;     // c / Q
};

// Q [1,2,5,4], K [1,2,5,4] (or [1,2,4,5] when not transposed) -> scores [1,2,5,5] -> Softmax
ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* q = addInput(g, "q", {1, 2, 5, 4});
  ir::Value* k = addInput(g, "k", o.transpose_k ? ir::Shape{1, 2, 5, 4} : ir::Shape{1, 2, 4, 5});
  std::vector<ir::Value*> outs;
  ir::Value* a = q;
  const std::string qs = o.q_scale;
  if (!qs.empty()) {
    ir::Value* c = o.vector_scale ? addFloats(g, "c", {4}, {0.5f, 1.f, 2.f, 0.25f})
                                  : addFloats(g, "c", {}, {2.f});
    ir::Node* s = nullptr;
    if (o.divide_const_by_q)
      s = addOp(g, "Div", "q_scale", {c, q});
    else if (qs == "Div")
      s = addOp(g, "Div", "q_scale", {q, c});
    else if (qs == "Mul")
      s = addOp(g, "Mul", "q_scale", {q, c});
    else
      s = addOp(g, "Mul", "q_scale", {c, q});
    a = s->outputs[0];
    if (o.q_scaled_also_output) outs.push_back(a);
  }
  ir::Value* b = k;
  if (o.k_scale) b = addOp(g, "Mul", "k_scale", {b, addFloats(g, "ck", {1}, {0.7f})})->outputs[0];
  if (o.transpose_k) {
    ir::Node* t = addOp(g, "Transpose", "k_t", {b});
    t->attrs.set("perm", o.perm);
    b = t->outputs[0];
  }
  ir::Value* s = addOp(g, "MatMul", "scores", {a, b})->outputs[0];
  if (o.out_scale)
    s = addOp(g, "Mul", "out_scale", {s, addFloats(g, "co", {}, {1.5f})})->outputs[0];
  ir::Node* sm = addOp(g, "Softmax", "softmax", {s});
  sm->attrs.set("axis", int64_t{-1});
  outs.insert(outs.begin(), sm->outputs[0]);
  finish(g, outs);
  return g;
}

const ir::Node* matmul(const ir::Graph& g) {
  for (const auto& n : g.nodes())
    if (n->op_type == "MatMul") return n.get();
  return nullptr;
}

}  // namespace

TEST_CASE("fuse-matmul-transpose-scale folds Q/sqrt(d) and K^T",
          "[passes][fuse-matmul-transpose-scale]") {
  for (const char* qs : {"Div", "Mul", "MulConstFirst"}) {
    INFO(qs);
    Options o;
    o.q_scale = qs;
    ir::Graph g = build(o);
    const auto want = runGraph(build(o));
    passes::PassContext ctx = runPass(g, "fuse-matmul-transpose-scale");
    REQUIRE(ctx.log.size() == 1);
    CHECK(g.nodes().size() == 2);  // MatMul, Softmax
    const ir::Node* mm = matmul(g);
    REQUIRE(mm);
    CHECK(mm->attrs.getInt("transpose_x2", 0) == 1);
    CHECK(mm->attrs.getFloat("alpha", 1.f) == Approx(std::string(qs) == "Div" ? 0.5f : 2.f));
    CHECK(mm->inputs[0]->name == "q");
    CHECK(mm->inputs[1]->name == "k");
    CHECK(mm->outputs[0]->shape == ir::Shape{1, 2, 5, 5});
    CHECK(mm->original_names == std::vector<std::string>{"q_scale", "k_t", "scores"});
    expectClose(runGraph(std::move(g)), want);
  }
}

TEST_CASE("fuse-matmul-transpose-scale takes every scalar factor",
          "[passes][fuse-matmul-transpose-scale]") {
  Options o;
  o.k_scale = true;
  o.out_scale = true;
  ir::Graph g = build(o);
  const auto want = runGraph(build(o));
  runPass(g, "fuse-matmul-transpose-scale");
  CHECK(g.nodes().size() == 2);
  const ir::Node* mm = matmul(g);
  REQUIRE(mm);
  CHECK(mm->attrs.getFloat("alpha", 1.f) == Approx(0.5f * 0.7f * 1.5f));
  CHECK(mm->original_names.back() == "out_scale");  // the group's output is the scale's
  CHECK(hasOriginalNames(*mm, {"q_scale", "k_scale", "k_t", "scores"}));
  expectClose(runGraph(std::move(g)), want);
}

TEST_CASE("fuse-matmul-transpose-scale: transpose only, no scale",
          "[passes][fuse-matmul-transpose-scale]") {
  Options o;
  o.q_scale = "";
  ir::Graph g = build(o);
  const auto want = runGraph(build(o));
  runPass(g, "fuse-matmul-transpose-scale");
  const ir::Node* mm = matmul(g);
  REQUIRE(mm);
  CHECK(mm->attrs.getInt("transpose_x2", 0) == 1);
  CHECK_FALSE(mm->attrs.has("alpha"));
  expectClose(runGraph(std::move(g)), want);
}

TEST_CASE("fuse-matmul-transpose-scale leaves what it cannot fold",
          "[passes][fuse-matmul-transpose-scale]") {
  SECTION("a per-column factor") {
    Options o;
    o.vector_scale = true;
    o.transpose_k = false;
    ir::Graph g = build(o);
    passes::PassContext ctx = runPass(g, "fuse-matmul-transpose-scale");
    CHECK(ctx.log.empty());
    CHECK(countOps(g, "Div") == 1);
  }
  SECTION("a Transpose of other dims") {
    ir::Graph g;
    g.opset = 13;
    ir::Value* q = addInput(g, "q", {2, 3, 4});
    ir::Value* k = addInput(g, "k", {4, 2, 5});
    ir::Node* t = addOp(g, "Transpose", "k_t", {k});
    t->attrs.set("perm", std::vector<int64_t>{1, 0, 2});  // [2, 4, 5]
    ir::Node* mm = addOp(g, "MatMul", "scores", {q, t->outputs[0]});
    finish(g, {mm->outputs[0]});
    passes::PassContext ctx = runPass(g, "fuse-matmul-transpose-scale");
    CHECK(ctx.log.empty());
    CHECK(countOps(g, "Transpose") == 1);
  }
  SECTION("the scaled Q has a second user") {
    Options o;
    o.q_scaled_also_output = true;
    ir::Graph g = build(o);
    runPass(g, "fuse-matmul-transpose-scale");
    CHECK(countOps(g, "Div") == 1);                          // kept for its other user
    CHECK(matmul(g)->attrs.getInt("transpose_x2", 0) == 1);  // the transpose still folds
    CHECK_FALSE(matmul(g)->attrs.has("alpha"));
  }
  SECTION("c / Q is not a scale") {
    Options o;
    o.divide_const_by_q = true;
    o.transpose_k = false;
    ir::Graph g = build(o);
    passes::PassContext ctx = runPass(g, "fuse-matmul-transpose-scale");
    CHECK(ctx.log.empty());
  }
}
