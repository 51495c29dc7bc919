// layout_test.cpp: NC1HWC0 assignment and TransData insertion: structure, numbers (TransData is
// free and exact on the CPU), and the OM round trip of the 5-D descriptors.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/frontend/onnx.h"
#include "asc/om/om_file.h"
#include "asc/passes/layout.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"

using namespace asc;

namespace {
std::string data(const char* name) { return std::string(ASC_TEST_DATA) + "/" + name; }

int count(const ir::Graph& g, const char* op) {
  int n = 0;
  for (const auto& node : g.nodes()) n += node->op_type == op;
  return n;
}

std::vector<float> run(ir::Graph g, const std::vector<float>& in) {
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->setInput(0, in.data(), in.size() * 4).isOk());
  REQUIRE((*s)->run().isOk());
  const float* o = static_cast<const float*>((*s)->outputData(0));
  return std::vector<float>(o, o + (*s)->outputs()[0].bytes / 4);
}
}  // namespace

TEST_CASE("layout: feature maps in NC1HWC0, TransData at the edges", "[passes][layout]") {
  auto g = frontend::importOnnx(data("shape_chain.onnx"));  // Reshape (ND) then Gemm
  REQUIRE(g.isOk());
  passes::PassContext ctx;
  REQUIRE(passes::assignLayouts(*g, ctx).isOk());
  CHECK(count(*g, "TransData") == 0);  // no AI Core feature-map op: nothing changes
  auto t = frontend::importOnnx(data("tiny_conv.onnx"));  // Conv -> Relu
  REQUIRE(t.isOk());
  const std::string out_name = t->outputs[0]->name;
  REQUIRE(passes::assignLayouts(*t, ctx).isOk());
  CHECK(count(*t, "TransData") == 2);  // into the Conv and back for the model output
  CHECK(t->nodes().front()->op_type == "TransData");
  CHECK(t->findNode("conv1")->outputs[0]->format == "NC1HWC0");
  CHECK(t->outputs[0]->format == "NCHW");
  CHECK(t->outputs[0]->name == out_name);
  CHECK(t->inputs[0]->format == "NCHW");
}

TEST_CASE("layout: same numbers, and 5-D descriptors survive the OM", "[passes][layout][om]") {
  std::vector<float> in(3 * 8 * 8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.3f * float(i));
  auto plain = frontend::importOnnx(data("tiny_conv.onnx"));
  auto hd = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(plain.isOk());
  REQUIRE(hd.isOk());
  passes::PassContext ctx;
  REQUIRE(passes::assignLayouts(*hd, ctx).isOk());
  REQUIRE(makeDirs(ASC_TEST_TMP "/layout").isOk());
  const std::string path = ASC_TEST_TMP "/layout/m.om";
  om::ModelInfo info;
  info.soc_version = "Ascend310";
  REQUIRE(om::writeOm(*hd, info, path).isOk());
  auto json = om::omToJson(path);
  REQUIRE(json.isOk());
  CHECK(json->find("\"layout\": \"NC1HWC0\"") != std::string::npos);
  CHECK(json->find("\"origin_shape\"") != std::string::npos);
  CHECK(json->find("\"type\": \"TransData\"") != std::string::npos);
  auto back = om::loadOm(path);
  REQUIRE(back.isOk());
  std::string why;
  CHECK(ir::graphsEqual(*hd, back->graph, &why));
  INFO(why);
  CHECK(run(std::move(*plain), in) == run(std::move(back->graph), in));
}
