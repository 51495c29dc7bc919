// compile_test.cpp: asc::compile(), the compiler's order of work in the library. A model compiled
// through compile() alone (no atc) writes an OM that runs; the optimisation levels O1, O2 and O3
// give the same outputs (cosine >= 0.99999 against the graph as imported) with fewer or equal
// operators as the level rises; the report says what each pass did; the chip and memory checks
// refuse what does not fit.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "asc/compiler/compile.h"
#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"

using namespace asc;

namespace {

std::string root() { return std::string(ASC_TEST_DATA) + "/../.."; }

CompileOptions fp32Options(const std::string& model) {
  CompileOptions o;
  o.model = model;
  o.soc_version = "Ascend310P3";
  o.precision.mode = "force_fp32";
  return o;
}

// Runs a graph (or an OM) on seeded random inputs; returns every output as floats.
std::vector<std::vector<float>> runSession(runtime::Session& s) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  for (size_t i = 0; i < s.inputs().size(); ++i) {
    const auto& in = s.inputs()[i];
    REQUIRE(in.dtype == ir::DType::F32);
    std::vector<float> data(in.bytes / 4);
    for (auto& v : data) v = uni(rng);
    REQUIRE(s.setInput(i, data.data(), in.bytes).isOk());
  }
  REQUIRE(s.run().isOk());
  std::vector<std::vector<float>> outs;
  for (size_t i = 0; i < s.outputs().size(); ++i) {
    REQUIRE(s.outputs()[i].dtype == ir::DType::F32);
    const float* p = static_cast<const float*>(s.outputData(i));
    outs.emplace_back(p, p + s.outputs()[i].bytes / 4);
  }
  return outs;
}

std::vector<std::vector<float>> runGraph(const ir::Graph& g) {
  runtime::SessionOptions so;
  so.threads = 1;
  auto s = runtime::Session::fromGraph(g.clone(), so);
  INFO(s.status().message());
  REQUIRE(s.isOk());
  return runSession(**s);
}

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double(a[i]) * b[i];
    na += double(a[i]) * a[i];
    nb += double(b[i]) * b[i];
  }
  return dot / std::sqrt(na * nb);
}

}  // namespace

TEST_CASE("compile() alone takes a model to an OM that runs", "[compiler]") {
  CompileOptions o = fp32Options(std::string(ASC_TEST_DATA) + "/tiny_conv.onnx");
  auto m = compile(o);
  INFO(m.status().message());
  REQUIRE(m.isOk());
  CHECK(m->chip != nullptr);
  CHECK(m->info.soc_version == "Ascend310P3");
  CHECK(m->info.opt_level == "O3");
  CHECK(m->report.level == passes::OptLevel::O3);
  CHECK(m->report.passes.size() == passes::pipelineFor(passes::OptLevel::O3).size());
  CHECK(m->report.after.nodes <= m->report.before.nodes);
  CHECK(m->report.after.memory.arena_bytes > 0);
  CHECK(!m->original.has_value());
  CHECK(ir::verify(m->graph).isOk());

  REQUIRE(makeDirs(ASC_TEST_TMP "/compiler").isOk());
  const std::string path = ASC_TEST_TMP "/compiler/tiny_conv.om";
  REQUIRE(om::writeOm(m->graph, m->info, path).isOk());
  auto s = runtime::Session::load(path);
  INFO(s.status().message());
  REQUIRE(s.isOk());
  auto from_om = runSession(**s);

  // The same model as imported, run directly: what the OM computes.
  auto imported = frontend::importOnnx(o.model, o.import);
  REQUIRE(imported.isOk());
  auto want = runGraph(*imported);
  REQUIRE(from_om.size() == want.size());
  for (size_t k = 0; k < want.size(); ++k) CHECK(cosine(from_om[k], want[k]) >= 0.99999);
}

TEST_CASE("compileGraph takes an in-memory graph, keep_original keeps it", "[compiler]") {
  auto g = frontend::importOnnx(root() + "/models/resnet_mini.onnx");
  REQUIRE(g.isOk());
  const size_t imported_nodes = g->nodes().size();
  CompileOptions o = fp32Options("");
  o.keep_original = true;
  o.check_equivalence = true;
  auto m = compileGraph(std::move(*g), o);
  INFO(m.status().message());
  REQUIRE(m.isOk());
  REQUIRE(m->original.has_value());
  CHECK(m->original->nodes().size() == imported_nodes);
  CHECK(m->graph.nodes().size() < imported_nodes);
  size_t changed = 0;
  for (const auto& p : m->report.passes) changed += p.changed;
  CHECK(changed >= 3);  // at least BN folding, activation fusion and layout
}

TEST_CASE("the optimisation levels agree, with fewer or equal operators as they rise",
          "[compiler][levels]") {
  const std::vector<std::string> models = {root() + "/models/resnet_mini.onnx",
                                           std::string(ASC_TEST_DATA) + "/tiny_conv.onnx",
                                           std::string(ASC_TEST_DATA) + "/shape_chain.onnx",
                                           std::string(ASC_TEST_DATA) + "/two_inputs.onnx",
                                           std::string(ASC_TEST_DATA) + "/golden/zoo.onnx"};
  for (const auto& model : models) {
    INFO(model);
    auto imported = frontend::importOnnx(model);
    REQUIRE(imported.isOk());
    const auto want = runGraph(*imported);
    size_t previous = SIZE_MAX;
    for (auto level : {passes::OptLevel::O1, passes::OptLevel::O2, passes::OptLevel::O3}) {
      INFO(passes::optLevelName(level));
      CompileOptions o = fp32Options(model);
      o.level = level;
      auto m = compile(o);
      INFO(m.status().message());
      REQUIRE(m.isOk());
      CHECK(m->info.opt_level == passes::optLevelName(level));
      CHECK(m->report.after.nodes <= previous);
      previous = m->report.after.nodes;
      if (level != passes::OptLevel::O3) CHECK(m->report.after.transdata == 0);
      const auto got = runGraph(m->graph);
      REQUIRE(got.size() == want.size());
      for (size_t k = 0; k < want.size(); ++k) {
        REQUIRE(got[k].size() == want[k].size());
        CHECK(cosine(got[k], want[k]) >= 0.99999);
      }
    }
  }
}

TEST_CASE("compile() refuses what the chip or the limits cannot take", "[compiler]") {
  CompileOptions o = fp32Options(std::string(ASC_TEST_DATA) + "/tiny_conv.onnx");
  SECTION("unknown chip") {
    o.soc_version = "Ascend999";
    CHECK(compile(o).status().code() == ErrorCode::InvalidParam);
  }
  SECTION("Cube ops on a Vector Core") {
    o.core_type = "VectorCore";
    auto m = compile(o);
    CHECK(m.status().code() == ErrorCode::InvalidParam);
    CHECK(m.status().message().find("Cube") != std::string::npos);
  }
  SECTION("arena limit") {
    o.arena_limit_bytes = 16;
    o.arena_limit_source = "a test limit";
    auto m = compile(o);
    CHECK(m.status().code() == ErrorCode::MemoryExceeded);
    CHECK(m.status().message().find("a test limit") != std::string::npos);
  }
  SECTION("frameworks without a frontend") {
    o.framework = 1;
    CHECK(compile(o).status().code() == ErrorCode::NotImplemented);
  }
  SECTION("an ONNX file given as TensorFlow is no GraphDef") {
    o.framework = 3;
    CHECK(compile(o).status().code() == ErrorCode::ModelParseFailed);
  }
  SECTION("unknown pass in the switch list is harmless, a known one is honoured") {
    o.disabled_passes = {"fuse-conv-activation"};
    auto m = compile(o);
    REQUIRE(m.isOk());
    for (const auto& p : m->report.passes) CHECK(p.name != "fuse-conv-activation");
  }
}
