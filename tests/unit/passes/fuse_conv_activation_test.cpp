// fuse_conv_activation_test.cpp: the fuse-conv-activation pass. A Conv (also Gemm, MatMul and
// ConvTranspose) whose only user is one of the supported activations becomes one node with an
// "activation" attribute (plus its parameters), and a BatchNormalization takes a following Relu;
// the fused node keeps both source names. The pass must leave the graph alone when the producer
// output has a second consumer, or when a BatchNormalization is followed by anything but Relu.
// The numeric tests run every fused form against the unfused graph in the CPU runtime.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

// producer ("Conv", "ConvTranspose", "Gemm" or "BatchNormalization") -> act. With
// `also_output`, the producer's output is a graph output too (a second user).
ir::Graph build(const std::string& producer, const std::string& act, bool also_output = false) {
  ir::Graph g;
  g.opset = 13;
  ir::Node* p = nullptr;
  if (producer == "MatMul" || producer == "MatMulRuntimeB") {
    // A 3-D A: the product runs as one [12, 16] x [16, 21] GEMM (the runtime's own kernel on
    // AVX2, 21 columns: a padded panel and a row's last columns past the vector loop); a B
    // computed at run time goes through oneDNN's matmul and its post-op.
    ir::Value* a = addInput(g, "a", {2, 6, 16});
    ir::Value* b =
        producer == "MatMul" ? addFloats(g, "w", {16, 21}) : addInput(g, "b", {2, 16, 21});
    p = addOp(g, "MatMul", "prod", {a, b});
  } else if (producer == "Gemm") {
    ir::Value* a = addInput(g, "a", {4, 16});
    p = addOp(g, "Gemm", "prod", {a, addFloats(g, "w", {8, 16}), addFloats(g, "c", {8})});
    p->attrs.set("transB", int64_t{1});
  } else if (producer == "BatchNormalization") {
    ir::Value* x = addInput(g, "x", {1, 8, 6, 6});
    std::vector<float> var(8);
    for (int i = 0; i < 8; ++i) var[i] = 0.5f + 0.1f * i;
    p = addOp(g, producer, "prod",
              {x, addFloats(g, "scale", {8}, {}, 1.f), addFloats(g, "bias", {8}),
               addFloats(g, "mean", {8}, {}, 0.3f), addFloats(g, "var", {8}, var)});
  } else {
    ir::Value* x = addInput(g, "x", {1, 8, 6, 6});
    const bool tr = producer == "ConvTranspose";
    ir::Value* w = addFloats(g, "w", tr ? ir::Shape{8, 4, 3, 3} : ir::Shape{8, 8, 3, 3}, {}, 0.1f);
    p = addOp(g, producer, "prod", {x, w, addFloats(g, "b", {tr ? 4 : 8})});
    p->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    if (tr) p->attrs.set("strides", std::vector<int64_t>{2, 2});
  }
  std::vector<ir::Value*> ins = {p->outputs[0]};
  if (act == "Clip") {  // opset 13: min/max are inputs; inference makes them attributes
    ins.push_back(addFloats(g, "min", {}, {-0.25f}));
    ins.push_back(addFloats(g, "max", {}, {0.4f}));
  }
  ir::Node* a = addOp(g, act, "act", ins);
  if (act == "LeakyRelu") a->attrs.set("alpha", 0.2f);
  if (act == "HardSigmoid") {  // not ONNX's defaults, so the test sees them carried over
    a->attrs.set("alpha", 0.3f);
    a->attrs.set("beta", 0.4f);
  }
  std::vector<ir::Value*> outs = {a->outputs[0]};
  if (also_output) outs.push_back(p->outputs[0]);
  finish(g, outs);
  return g;
}

const char* const kActs[] = {"Relu", "LeakyRelu", "Clip", "Sigmoid", "HardSigmoid",
                             "Tanh", "HardSwish", "Gelu", "Swish"};

}  // namespace

TEST_CASE("fuse-conv-activation folds each activation into the Conv",
          "[passes][fuse-conv-activation]") {
  for (const char* act : kActs) {
    INFO(act);
    ir::Graph g = build("Conv", act);
    REQUIRE(g.findNode("act")->inputs.size() == 1);  // Clip's min/max are attributes now
    const ir::Value* y = g.outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-conv-activation");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("'prod'") != std::string::npos);
    REQUIRE(g.nodes().size() == 1);
    const ir::Node& conv = *g.nodes()[0];
    CHECK(conv.op_type == "Conv");
    CHECK(conv.attrs.getString("activation", "") == act);
    CHECK(conv.outputs[0] == y);  // the fused node produces the pattern's output value
    CHECK(conv.inputs.size() == 3);
    CHECK(hasOriginalNames(conv, {"prod", "act"}));
    if (std::string(act) == "LeakyRelu") CHECK(conv.attrs.getFloat("activation_alpha", 0) == 0.2f);
    if (std::string(act) == "HardSigmoid") {
      CHECK(conv.attrs.getFloat("activation_alpha", 0) == 0.3f);
      CHECK(conv.attrs.getFloat("activation_beta", 0) == 0.4f);
    }
    if (std::string(act) == "Clip") {
      CHECK(conv.attrs.getFloat("activation_min", 0) == -0.25f);
      CHECK(conv.attrs.getFloat("activation_max", 0) == 0.4f);
    }
  }
}

TEST_CASE("fuse-conv-activation folds into Gemm, MatMul, ConvTranspose and BatchNormalization",
          "[passes][fuse-conv-activation]") {
  for (const char* producer : {"Gemm", "MatMul", "ConvTranspose", "BatchNormalization"}) {
    INFO(producer);
    ir::Graph g = build(producer, "Relu");
    passes::PassContext ctx = runPass(g, "fuse-conv-activation");
    CHECK(ctx.log.size() == 1);
    REQUIRE(g.nodes().size() == 1);
    CHECK(g.nodes()[0]->op_type == producer);
    CHECK(g.nodes()[0]->attrs.getString("activation", "") == "Relu");
    CHECK(hasOriginalNames(*g.nodes()[0], {"prod", "act"}));
  }
}

TEST_CASE("fuse-conv-activation leaves shared outputs and BatchNormalization + Sigmoid alone",
          "[passes][fuse-conv-activation]") {
  struct Case {
    const char* producer;
    const char* act;
    bool also_output;
  };
  for (const Case& c : {Case{"Conv", "Relu", true}, Case{"Gemm", "Tanh", true},
                        Case{"BatchNormalization", "Sigmoid", false}}) {
    INFO(c.producer << " + " << c.act);
    ir::Graph g = build(c.producer, c.act, c.also_output);
    const ir::Graph before = build(c.producer, c.act, c.also_output);
    passes::PassContext ctx = runPass(g, "fuse-conv-activation");
    CHECK(ctx.log.empty());
    CHECK(g.nodes().size() == 2);
    CHECK_FALSE(g.nodes()[0]->attrs.has("activation"));
    std::string why;
    const bool same = ir::graphsEqual(g, before, &why);
    INFO(why);
    CHECK(same);
  }
}

TEST_CASE("fuse-conv-activation keeps the numbers", "[passes][fuse-conv-activation]") {
  struct Case {
    const char* producer;
    const char* act;
  };
  std::vector<Case> cases;
  for (const char* act : kActs) cases.push_back({"Conv", act});
  for (const char* act : {"Relu", "Sigmoid", "Clip"}) cases.push_back({"Gemm", act});
  // MatMul + GELU: the transformers' feed-forward layer (the own GEMM's erf epilogue on AVX2).
  for (const char* act : {"Relu", "Gelu", "Tanh"}) {
    cases.push_back({"MatMul", act});
    cases.push_back({"MatMulRuntimeB", act});
  }
  cases.push_back({"ConvTranspose", "LeakyRelu"});
  cases.push_back({"BatchNormalization", "Relu"});
  for (const Case& c : cases) {
    INFO(c.producer << " + " << c.act);
    ir::Graph fused = build(c.producer, c.act);
    passes::PassContext ctx = runPass(fused, "fuse-conv-activation");
    REQUIRE(ctx.log.size() == 1);
    expectClose(runGraph(std::move(fused)), runGraph(build(c.producer, c.act)));
  }
}
