// precision_test.cpp: which nodes compute in fp16 under each --precision_mode, the Casts at the
// edges, and --modify_mixlist changes to the mixed-precision lists.
#include <catch2/catch.hpp>

#include <fstream>

#include "asc/ops/registry.h"
#include "asc/passes/precision.h"
#include "asc/support/file.h"

using namespace asc;

namespace {

// x -> Relu -> Softmax -> Exp -> y (all fp32).
ir::Graph build() {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {2, 8};
  g.inputs.push_back(x);
  ir::Value *r = g.addValue("r"), *s = g.addValue("s"), *y = g.addValue("y");
  g.addNode("Relu", "relu", {x}, {r});
  g.addNode("Softmax", "softmax", {r}, {s});
  g.addNode("Exp", "exp", {s}, {y});
  g.outputs.push_back(y);
  REQUIRE(ops::inferGraph(g).isOk());
  return g;
}

// The dtype each named node computes in (its first input's).
ir::DType computes(const ir::Graph& g, const char* node) {
  return g.findNode(node)->inputs[0]->dtype;
}

ir::Graph apply(passes::PrecisionOptions o) {
  ir::Graph g = build();
  passes::PassContext ctx;
  REQUIRE(passes::applyPrecision(g, o, ctx).isOk());
  return g;
}

}  // namespace

TEST_CASE("precision modes choose fp16 nodes and keep the model's I/O types",
          "[passes][precision]") {
  passes::PrecisionOptions o;
  o.mode = "force_fp16";
  ir::Graph h = apply(o);
  CHECK(computes(h, "relu") == ir::DType::F16);
  CHECK(computes(h, "exp") == ir::DType::F16);
  CHECK(h.inputs[0]->dtype == ir::DType::F32);
  CHECK(h.outputs[0]->dtype == ir::DType::F32);
  CHECK(h.outputs[0]->name == "y");  // the output keeps its name behind the final Cast
  o.mode = "allow_mix_precision";
  ir::Graph m = apply(o);
  CHECK(computes(m, "relu") == ir::DType::F16);
  CHECK(computes(m, "softmax") == ir::DType::F32);
  CHECK(computes(m, "exp") == ir::DType::F32);
  o.mode = "allow_fp32_to_fp16";
  ir::Graph c = apply(o);
  CHECK(computes(c, "relu") == ir::DType::F32);  // no cube op here
  o.mode = "force_fp32";
  ir::Graph f = apply(o);
  CHECK(f.nodes().size() == 3);
  o.mode = "force_fp16";
  o.keep_fp32 = {"softmax"};
  ir::Graph k = apply(o);
  CHECK(computes(k, "softmax") == ir::DType::F32);
  CHECK(computes(k, "exp") == ir::DType::F16);
  o.mode = "fp8";
  ir::Graph bad = build();
  passes::PassContext ctx;
  CHECK(passes::applyPrecision(bad, o, ctx).code() == ErrorCode::InvalidParam);
}

TEST_CASE("modify_mixlist moves ops between the lists", "[passes][precision]") {
  REQUIRE(makeDirs(ASC_TEST_TMP "/precision").isOk());
  const std::string path = ASC_TEST_TMP "/precision/mix.json";
  std::ofstream(path) << R"({"black-list": {"to-add": ["Relu"], "to-remove": ["SoftmaxV2"]},
                             "white-list": {"to-add": ["Exp"]}})";
  passes::PrecisionOptions o;
  o.mode = "allow_mix_precision";
  REQUIRE(passes::readMixList(path, &o).isOk());
  ir::Graph g = apply(o);
  CHECK(computes(g, "relu") == ir::DType::F32);     // added to the black list
  CHECK(computes(g, "softmax") == ir::DType::F16);  // removed from it (by its CANN name)
  CHECK(computes(g, "exp") == ir::DType::F16);      // added to the white list
  std::ofstream(path) << R"({"black-list": {"to-add": 3}})";
  CHECK(passes::readMixList(path, &o).code() == ErrorCode::JsonParseFailed);
  CHECK(passes::readMixList(path + ".missing", &o).code() == ErrorCode::FileOpenFailed);
}
