// op_blacklist_test.cpp: atc --op_blacklist. A node named in the blacklist (by op type or by
// name) is kept exactly as the model has it by every pass: not fused into a neighbour, not
// folded, not removed as a no-op or a duplicate. Everything else is optimised as usual, and the
// outputs do not change. The JSON reader refuses a malformed file with E10032.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "asc/passes/precision.h"
#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

// x -> Conv(c1) -> Relu(r1) -> Identity(id) -> Conv(c2) -> Relu(r2) -> y, plus a constant
// Add(k = c + c) feeding nothing but a Mul with y (so folding has something to do).
ir::Graph build() {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", {1, 8, 6, 6});
  ir::Node* c1 = addOp(g, "Conv", "c1",
                       {x, addFloats(g, "w1", {8, 8, 3, 3}, {}, 0.05f), addFloats(g, "b1", {8})});
  c1->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Node* r1 = addOp(g, "Relu", "r1", {c1->outputs[0]});
  ir::Node* id = addOp(g, "Identity", "id", {r1->outputs[0]});
  ir::Node* c2 =
      addOp(g, "Conv", "c2",
            {id->outputs[0], addFloats(g, "w2", {8, 8, 3, 3}, {}, 0.05f), addFloats(g, "b2", {8})});
  c2->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Node* r2 = addOp(g, "Relu", "r2", {c2->outputs[0]});
  ir::Value* c = addFloats(g, "c", {1}, {0.75f});
  ir::Node* k = addOp(g, "Add", "k", {c, c});
  ir::Node* m = addOp(g, "Mul", "m", {r2->outputs[0], k->outputs[0]});
  for (const auto& n : g.nodes()) n->original_names = {n->name};
  finish(g, {m->outputs[0]});
  return g;
}

passes::PassContext optimise(ir::Graph& g, std::set<std::string> types,
                             std::set<std::string> names) {
  passes::PassContext ctx;
  ctx.keep_types = std::move(types);
  ctx.keep_names = std::move(names);
  Status st = passes::runDefaultPipeline(g, ctx);
  INFO(st.message());
  REQUIRE(st.isOk());
  return ctx;
}

}  // namespace

TEST_CASE("op blacklist by type keeps every node of that type", "[passes][op-blacklist]") {
  const auto want = runGraph(build());
  ir::Graph free_graph = build();
  optimise(free_graph, {}, {});
  CHECK(countOps(free_graph, "Relu") == 0);      // both fused into their Conv
  CHECK(countOps(free_graph, "Identity") == 0);  // removed

  ir::Graph g = build();
  optimise(g, {"Relu", "Identity"}, {});
  CHECK(countOps(g, "Relu") == 2);
  CHECK(countOps(g, "Identity") == 1);
  for (const auto& n : g.nodes())
    if (n->op_type == "Conv") CHECK_FALSE(n->attrs.has("activation"));
  expectClose(runGraph(std::move(g)), want);
}

TEST_CASE("op blacklist by name keeps only that node", "[passes][op-blacklist]") {
  const auto want = runGraph(build());
  ir::Graph g = build();
  optimise(g, {}, {"r2"});
  REQUIRE(g.findNode("r2") != nullptr);
  CHECK(g.findNode("r2")->op_type == "Relu");
  CHECK(countOps(g, "Relu") == 1);  // r1 was still fused
  CHECK(g.findNode("c1")->attrs.getString("activation", "") == "Relu");
  CHECK_FALSE(g.findNode("c2")->attrs.has("activation"));
  expectClose(runGraph(std::move(g)), want);
}

TEST_CASE("op blacklist keeps a constant node from folding", "[passes][op-blacklist]") {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", {4});
  ir::Value* c = addFloats(g, "c", {4}, {1.f, -2.f, 3.f, -4.f});
  ir::Node* k = addOp(g, "Relu", "k", {c});
  ir::Node* m = addOp(g, "Add", "m", {x, k->outputs[0]});
  g.outputs = {m->outputs[0]};
  ops::InferOptions io;
  io.fold_constants = false;
  Status st = ops::inferGraph(g, io);
  INFO(st.message());
  REQUIRE(st.isOk());
  passes::PassContext kept;
  kept.keep_names = {"k"};
  REQUIRE(passes::runPasses(g, {"fold-constants"}, kept).isOk());
  CHECK(g.findNode("k") != nullptr);
  passes::PassContext free_ctx;
  REQUIRE(passes::runPasses(g, {"fold-constants"}, free_ctx).isOk());
  CHECK(g.findNode("k") == nullptr);
}

TEST_CASE("op blacklist JSON file", "[passes][op-blacklist]") {
  const std::string dir = ASC_TEST_TMP;
  std::filesystem::create_directories(dir);
  const std::string good = dir + "/blacklist.json", bad = dir + "/blacklist_bad.json";
  std::ofstream(good) << R"({"op_types": ["Relu"], "op_names": ["c2", "id"]})";
  std::ofstream(bad) << R"({"op_type": ["Relu"]})";  // a misspelt key is refused
  passes::PassContext ctx;
  REQUIRE(passes::readOpBlacklist(good, &ctx).isOk());
  CHECK(ctx.keep_types == std::set<std::string>{"Relu"});
  CHECK(ctx.keep_names == std::set<std::string>{"c2", "id"});
  Status st = passes::readOpBlacklist(bad, &ctx);
  CHECK(st.code() == ErrorCode::JsonParseFailed);
  CHECK(st.message().find("op_types") != std::string::npos);
  st = passes::readOpBlacklist(dir + "/missing.json", &ctx);
  CHECK(st.code() == ErrorCode::FileOpenFailed);
}

TEST_CASE("op blacklist's per-op form chooses implementations", "[passes][op-blacklist]") {
  const std::string dir = std::string(ASC_TEST_TMP) + "/impl_choice";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  passes::PassContext ctx;
  REQUIRE(passes::readOpBlacklist(
              write("one.json", R"({"op_name": "Conv2D", "impl_type": "high_precision"})"), &ctx)
              .isOk());
  CHECK(ctx.impl_modes.at("Conv2D") == "high_precision");
  REQUIRE(passes::readOpBlacklist(
              write("list.json", R"( [{"op_name": "r1", "impl_type": "high_performance"}])"), &ctx)
              .isOk());
  CHECK(ctx.impl_modes.at("r1") == "high_performance");
  CHECK(passes::readOpBlacklist(write("bad.json", R"({"op_name": "Conv2D", "impl_type": "fast"})"),
                                &ctx)
            .code() == ErrorCode::InvalidParam);
  CHECK(passes::readOpBlacklist(write("noname.json", R"([{"impl_type": "high_precision"}])"), &ctx)
            .code() == ErrorCode::InvalidParam);
  CHECK(passes::readOpBlacklist(write("neither.json", R"({"op": 1})"), &ctx).code() ==
        ErrorCode::JsonParseFailed);

  // A high_precision Conv (by CANN type) keeps fp32 under force_fp16; the other ops do not.
  ir::Graph g = build();
  passes::PassContext run;
  run.impl_modes["Conv2D"] = "high_precision";
  passes::PrecisionOptions po;
  po.mode = "force_fp16";
  run.precision = &po;
  REQUIRE(passes::runPasses(g, {"impl-mode", "precision"}, run).isOk());
  for (const auto& n : g.nodes()) {
    INFO(n->name);
    if (n->op_type == "Conv") {
      CHECK(n->attrs.getString(ops::kImplModeAttr, "") == "high_precision");
      CHECK(n->outputs[0]->dtype == ir::DType::F32);
    } else if (n->op_type == "Relu") {
      CHECK(n->outputs[0]->dtype == ir::DType::F16);
    }
  }
  // A node name wins over its type.
  passes::PassContext named;
  named.impl_modes = {{"Conv", "high_precision"}, {"c2", "high_performance"}};
  ir::Graph h = build();
  REQUIRE(passes::runPasses(h, {"impl-mode"}, named).isOk());
  CHECK(h.findNode("c1")->attrs.getString(ops::kImplModeAttr, "") == "high_precision");
  CHECK(h.findNode("c2")->attrs.getString(ops::kImplModeAttr, "") == "high_performance");
}
