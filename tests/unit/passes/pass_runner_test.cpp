// pass_runner_test.cpp: the one pass mechanism. Every transformation, precision and layout
// included, is a registered pass; after every pass that changed the graph (by its own word, by a
// logged rewrite, or as the runner's fingerprint sees it) the graph is re-sorted, re-inferred and
// verified. Passes injected here change the graph without logging or saying so: the runner still
// notices, re-infers, and refuses a graph the verifier rejects.
#include <catch2/catch.hpp>

#include "asc/passes/layout.h"
#include "asc/passes/precision.h"
#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

// x[1,4,8,8] -> Relu(r) -> MaxPool 2x2 (p) -> y; plus a second input z[1,4,4,4] unused.
ir::Graph build() {
  ir::Graph g;
  ir::Value* x = addInput(g, "x", {1, 4, 8, 8});
  addInput(g, "z", {1, 4, 4, 4});
  ir::Node* r = addOp(g, "Relu", "r", {x});
  ir::Node* p = addOp(g, "MaxPool", "p", {r->outputs[0]});
  p->attrs.set("kernel_shape", std::vector<int64_t>{2, 2});
  p->attrs.set("strides", std::vector<int64_t>{2, 2});
  finish(g, {p->outputs[0]});
  return g;
}

// Rewires the Relu to read z: a valid graph, but every shape downstream changes. No log line,
// no markChanged().
Status silentRewire(ir::Graph& g, passes::PassContext&) {
  g.findNode("r")->inputs[0] = g.findValue("z");
  return Status::ok();
}

// Makes the MaxPool read its own output: a cycle the verifier must refuse. Silent too.
Status silentCycle(ir::Graph& g, passes::PassContext&) {
  ir::Node* p = g.findNode("p");
  p->inputs[0] = p->outputs[0];
  return Status::ok();
}

// Changes only an attribute (the pooling window), silently.
Status silentAttr(ir::Graph& g, passes::PassContext&) {
  g.findNode("p")->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
  g.findNode("p")->attrs.set("strides", std::vector<int64_t>{1, 1});
  return Status::ok();
}

Status nothing(ir::Graph&, passes::PassContext&) { return Status::ok(); }

}  // namespace

TEST_CASE("a pass that changes the graph without saying so is re-inferred", "[passes][runner]") {
  ir::Graph g = build();
  REQUIRE(g.outputs[0]->shape == ir::Shape{1, 4, 4, 4});
  const passes::PassInfo pass{"test-silent-rewire", "fusion", 2, "test", silentRewire};
  passes::PassContext ctx;
  Status st = passes::runPass(g, pass, ctx);
  INFO(st.message());
  REQUIRE(st.isOk());
  REQUIRE(ctx.reports.size() == 1);
  CHECK(ctx.reports[0].name == "test-silent-rewire");
  CHECK(ctx.reports[0].changed);
  CHECK(ctx.reports[0].log.empty());
  // Re-inference ran: the pool now sees a 4x4 map.
  CHECK(g.outputs[0]->shape == ir::Shape{1, 4, 2, 2});
}

TEST_CASE("a pass that changes only an attribute is re-inferred", "[passes][runner]") {
  ir::Graph g = build();
  const passes::PassInfo pass{"test-silent-attr", "fusion", 2, "test", silentAttr};
  passes::PassContext ctx;
  REQUIRE(passes::runPass(g, pass, ctx).isOk());
  CHECK(ctx.reports[0].changed);
  CHECK(g.outputs[0]->shape == ir::Shape{1, 4, 8, 8});
}

TEST_CASE("the verifier runs after a silent pass that breaks the graph", "[passes][runner]") {
  ir::Graph g = build();
  const passes::PassInfo pass{"test-silent-cycle", "fusion", 2, "test", silentCycle};
  passes::PassContext ctx;
  Status st = passes::runPass(g, pass, ctx);
  REQUIRE_FALSE(st.isOk());
  CHECK(st.code() == ErrorCode::Internal);
  CHECK(st.message().find("after pass test-silent-cycle") != std::string::npos);
}

TEST_CASE("a pass that changes nothing reports no change", "[passes][runner]") {
  ir::Graph g = build();
  const passes::PassInfo pass{"test-nothing", "cleanup", 1, "test", nothing};
  passes::PassContext ctx;
  REQUIRE(passes::runPass(g, pass, ctx).isOk());
  REQUIRE(ctx.reports.size() == 1);
  CHECK_FALSE(ctx.reports[0].changed);
  // A real pass with nothing to do on this graph says the same.
  REQUIRE(passes::runPasses(g, {"fuse-conv-bn"}, ctx).isOk());
  CHECK_FALSE(ctx.reports.back().changed);
}

TEST_CASE("a switched-off pass does not run", "[passes][runner]") {
  ir::Graph g = build();
  const passes::PassInfo pass{"test-silent-rewire", "fusion", 2, "test", silentRewire};
  passes::PassContext ctx;
  ctx.disabled.insert("test-silent-rewire");
  REQUIRE(passes::runPass(g, pass, ctx).isOk());
  CHECK(ctx.reports.empty());
  CHECK(g.outputs[0]->shape == ir::Shape{1, 4, 4, 4});
}

TEST_CASE("every transformation is a registered pass", "[passes][runner]") {
  for (const char* name : {"precision", "assign-layout", "fold-constants", "fuse-conv-activation",
                           "fuse-matmul-transpose-scale"}) {
    INFO(name);
    const passes::PassInfo* p = passes::findPass(name);
    REQUIRE(p != nullptr);
    CHECK(std::string(p->description).size() > 10);
  }
  CHECK(passes::findPass("no-such-pass") == nullptr);
  // Each pass of the default pipeline is registered; each registered pass is in it once.
  const auto pipeline = passes::defaultPipeline();
  CHECK(pipeline.size() == passes::allPasses().size());
  for (const auto& p : passes::allPasses())
    CHECK(std::count(pipeline.begin(), pipeline.end(), p.name) == 1);
}

TEST_CASE("optimisation levels select nested pass sets", "[passes][levels]") {
  auto o1 = passes::pipelineFor(passes::OptLevel::O1);
  auto o2 = passes::pipelineFor(passes::OptLevel::O2);
  auto o3 = passes::pipelineFor(passes::OptLevel::O3);
  CHECK(o1.size() < o2.size());
  CHECK(o2.size() < o3.size());
  CHECK(o3 == passes::defaultPipeline());
  for (const auto& name : o1) {
    const std::string kind = passes::findPass(name)->kind;
    CHECK((kind == "cleanup" || kind == "precision"));
    CHECK(std::count(o2.begin(), o2.end(), name) == 1);
  }
  for (const auto& name : o2) {
    const std::string kind = passes::findPass(name)->kind;
    CHECK(kind != "layout");
    CHECK(kind != "attention");
    CHECK(std::count(o3.begin(), o3.end(), name) == 1);
  }
  // Precision follows --precision_mode at every level.
  for (const auto* level : {&o1, &o2, &o3})
    CHECK(std::count(level->begin(), level->end(), "precision") == 1);
  CHECK(passes::parseOptLevel("O2", "oo_level").value() == passes::OptLevel::O2);
  CHECK(passes::parseOptLevel("O4", "oo_level").status().code() == ErrorCode::InvalidParam);
  CHECK(passes::parseOptLevel("o3", "optimize").status().message().find("--optimize") !=
        std::string::npos);
}

TEST_CASE("precision and layout run through the runner and report", "[passes][runner]") {
  ir::Graph g = build();
  passes::PrecisionOptions po;
  po.mode = "force_fp16";
  passes::PassContext ctx;
  REQUIRE(passes::applyPrecision(g, po, ctx).isOk());
  REQUIRE(passes::assignLayouts(g, ctx).isOk());
  REQUIRE(ctx.reports.size() == 2);
  CHECK(ctx.reports[0].name == "precision");
  CHECK(ctx.reports[0].changed);
  CHECK(ctx.reports[1].name == "assign-layout");
  CHECK(ir::verify(g).isOk());
  CHECK(countOps(g, "TransData") > 0);
}
