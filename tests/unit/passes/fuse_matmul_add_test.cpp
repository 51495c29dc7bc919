// fuse_matmul_add_test.cpp: the fuse-matmul-add pass. MatMul(A, W) with a constant 2-D W [K, N]
// followed by an Add of a constant bias of N values (shape [N], [1, N], ..., on either side of
// the Add) becomes one MatMul with the bias as a third, 1-D input, named after both nodes. A
// bias that is computed, that has more than N values, a W that is not constant, or a MatMul
// output with a second user must leave the graph unchanged. The numeric test compares the fused
// and unfused graphs in the CPU runtime, for 3-D and 2-D A.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

enum class Bias { kVector, kRow, kRow3d, kInput, kFull };

struct Options {
  ir::Shape a = {2, 4, 16};
  Bias bias = Bias::kVector;
  bool bias_first = false;
  bool const_w = true;
  bool also_output = false;  // the MatMul output is a graph output too
};

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* a = addInput(g, "a", o.a);
  ir::Value* w = o.const_w ? addFloats(g, "w", {16, 8}) : addInput(g, "w", {16, 8});
  ir::Node* mm = addOp(g, "MatMul", "mm", {a, w});
  ir::Value* b = nullptr;
  switch (o.bias) {
    case Bias::kVector:
      b = addFloats(g, "bias", {8}, {}, 1.f);
      break;
    case Bias::kRow:
      b = addFloats(g, "bias", {1, 8}, {}, 1.f);
      break;
    case Bias::kRow3d:
      b = addFloats(g, "bias", {1, 1, 8}, {}, 1.f);
      break;
    case Bias::kInput:
      b = addInput(g, "bias", {8});
      break;
    case Bias::kFull:
      b = addFloats(g, "bias", {4, 8}, {}, 1.f);
      break;
  }
  ir::Node* add = addOp(g, "Add", "add",
                        o.bias_first ? std::vector<ir::Value*>{b, mm->outputs[0]}
                                     : std::vector<ir::Value*>{mm->outputs[0], b});
  std::vector<ir::Value*> outs = {add->outputs[0]};
  if (o.also_output) outs.push_back(mm->outputs[0]);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-matmul-add gives the MatMul a bias input", "[passes][fuse-matmul-add]") {
  for (bool bias_first : {false, true}) {
    INFO("bias_first " << bias_first);
    Options o;
    o.bias_first = bias_first;
    ir::Graph g = build(o);
    const ir::Value* y = g.outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-matmul-add");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("'mm'") != std::string::npos);
    REQUIRE(g.nodes().size() == 1);
    const ir::Node& mm = *g.nodes()[0];
    CHECK(mm.op_type == "MatMul");
    REQUIRE(mm.inputs.size() == 3);
    CHECK(mm.inputs[0] == g.findValue("a"));
    CHECK(mm.inputs[1] == g.findValue("w"));
    CHECK(mm.inputs[2] == g.findValue("bias"));
    CHECK(mm.outputs[0] == y);
    CHECK(y->shape == ir::Shape{2, 4, 8});
    CHECK(hasOriginalNames(mm, {"mm", "add"}));
  }
}

TEST_CASE("fuse-matmul-add turns a 2-D MatMul + Add into Gemm", "[passes][fuse-matmul-add]") {
  Options o;
  o.a = {4, 16};
  ir::Graph g = build(o);
  passes::PassContext ctx = runPass(g, "fuse-matmul-add");
  REQUIRE(g.nodes().size() == 1);
  const ir::Node& gemm = *g.nodes()[0];
  CHECK(gemm.op_type == "Gemm");
  REQUIRE(gemm.inputs.size() == 3);
  CHECK(gemm.inputs[2] == g.findValue("bias"));
  CHECK(g.outputs[0]->shape == ir::Shape{4, 8});
  CHECK(ctx.log[0].find("Gemm") != std::string::npos);
  CHECK(hasOriginalNames(gemm, {"mm", "add"}));
}

TEST_CASE("fuse-matmul-add flattens a [1, N] bias", "[passes][fuse-matmul-add]") {
  for (Bias b : {Bias::kRow, Bias::kRow3d}) {
    Options o;
    o.bias = b;
    ir::Graph g = build(o);
    runPass(g, "fuse-matmul-add");
    REQUIRE(g.nodes().size() == 1);
    REQUIRE(g.nodes()[0]->inputs.size() == 3);
    const ir::Value* bias = g.nodes()[0]->inputs[2];
    REQUIRE(bias->isConstant());
    CHECK(bias->shape == ir::Shape{8});
    const ir::Graph ref = build(o);
    for (int64_t i = 0; i < 8; ++i)
      CHECK(bias->tensor().floatAt(i) == ref.findValue("bias")->tensor().floatAt(i));
  }
}

TEST_CASE("fuse-matmul-add leaves computed, oversized and shared operands alone",
          "[passes][fuse-matmul-add]") {
  Options computed, full, runtime_w, shared;
  computed.bias = Bias::kInput;
  full.bias = Bias::kFull;
  runtime_w.const_w = false;
  shared.also_output = true;
  for (const Options& o : {computed, full, runtime_w, shared}) {
    ir::Graph g = build(o);
    const ir::Graph before = build(o);
    passes::PassContext ctx = runPass(g, "fuse-matmul-add");
    CHECK(ctx.log.empty());
    CHECK(g.nodes().size() == 2);
    std::string why;
    const bool same = ir::graphsEqual(g, before, &why);
    INFO(why);
    CHECK(same);
  }
}

TEST_CASE("fuse-matmul-add keeps the numbers", "[passes][fuse-matmul-add]") {
  for (const ir::Shape& a : {ir::Shape{2, 4, 16}, ir::Shape{5, 16}})
    for (Bias b : {Bias::kVector, Bias::kRow, Bias::kRow3d})
      for (bool bias_first : {false, true}) {
        if (b == Bias::kRow3d && a.size() == 2) continue;  // would broadcast the output to 3-D
        INFO("rank " << a.size() << ", bias " << static_cast<int>(b) << ", bias_first "
                     << bias_first);
        Options o;
        o.a = a;
        o.bias = b;
        o.bias_first = bias_first;
        ir::Graph fused = build(o);
        passes::PassContext ctx = runPass(fused, "fuse-matmul-add");
        REQUIRE(ctx.log.size() == 1);
        expectClose(runGraph(std::move(fused)), runGraph(build(o)));
      }
}
