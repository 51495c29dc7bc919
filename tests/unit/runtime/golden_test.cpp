// golden_test.cpp: whole models against ONNX Runtime. The references (tests/data/golden/*.ort.bin)
// were computed by ONNX Runtime (scripts/bench/make_golden_outputs.sh) on the same inputs; the
// models exercise the fused and blocked-layout kernels (depthwise, squeeze-and-excitation
// broadcast, SiLU, residuals, Pad + AvgPool, Resize, ConvTranspose, Concat, GELU, LayerNorm).
// Each model runs three ways: as atc compiles it (passes, OM written and loaded), and as msame
// runs an .onnx (no passes), with 1 and 2 threads.
#include <catch2/catch.hpp>

#include <cmath>

#include "asc/frontend/onnx.h"
#include "asc/om/om_file.h"
#include "asc/passes/pass.h"
#include "asc/passes/precision.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"

using namespace asc;

namespace {

struct Case {
  const char* model;  // relative to the repository root
  const char* name;   // tests/data/golden/<name>.input.npy and .ort.bin
};

std::string root() { return std::string(ASC_TEST_DATA) + "/../.."; }

void checkClose(const float* got, const float* want, size_t n) {
  double dot = 0, ng = 0, nw = 0, maxdiff = 0, maxref = 0;
  for (size_t i = 0; i < n; ++i) {
    dot += double(got[i]) * want[i];
    ng += double(got[i]) * got[i];
    nw += double(want[i]) * want[i];
    maxdiff = std::max(maxdiff, std::fabs(double(got[i]) - want[i]));
    maxref = std::max(maxref, std::fabs(double(want[i])));
  }
  const double cosine = dot / std::sqrt(ng * nw);
  INFO("cosine " << cosine << ", max |diff| " << maxdiff << ", max |ref| " << maxref);
  CHECK(cosine >= 0.99999);
  CHECK(maxdiff <= 1e-4 * maxref);
}

}  // namespace

TEST_CASE("models match ONNX Runtime, compiled and uncompiled", "[runtime][golden]") {
  const Case cases[] = {{"tests/data/golden/zoo.onnx", "zoo"},
                        {"models/resnet_mini.onnx", "resnet_mini"}};
  for (const auto& c : cases) {
    INFO(c.name);
    const std::string g = root() + "/tests/data/golden/" + c.name;
    auto input = tensorio::readTensorFile(g + ".input.npy");
    REQUIRE(input.isOk());
    auto ref = MappedFile::open(g + ".ort.bin");
    REQUIRE(ref.isOk());
    for (bool compiled : {true, false})
      for (int threads : {1, 2}) {
        INFO("compiled " << compiled << ", threads " << threads);
        auto graph = frontend::importOnnx(root() + "/" + c.model);
        REQUIRE(graph.isOk());
        std::unique_ptr<runtime::Session> s;
        runtime::SessionOptions so;
        so.threads = threads;
        if (compiled) {
          passes::PassContext pc;
          REQUIRE(passes::runDefaultPipeline(*graph, pc).isOk());
          CHECK_FALSE(pc.log.empty());
          REQUIRE(makeDirs(ASC_TEST_TMP "/golden").isOk());
          const std::string om = std::string(ASC_TEST_TMP "/golden/") + c.name + ".om";
          om::ModelInfo info;
          info.soc_version = "Ascend310P3";
          REQUIRE(om::writeOm(*graph, info, om).isOk());
          auto r = runtime::Session::load(om, so);
          REQUIRE(r.isOk());
          s = std::move(*r);
        } else {
          auto r = runtime::Session::fromGraph(std::move(*graph), so);
          REQUIRE(r.isOk());
          s = std::move(*r);
        }
        REQUIRE(s->setInput(0, input->tensor.data->data(), input->tensor.data->size()).isOk());
        REQUIRE(s->run().isOk());
        REQUIRE(s->outputs()[0].bytes == (*ref)->size());
        checkClose(static_cast<const float*>(s->outputData(0)),
                   reinterpret_cast<const float*>((*ref)->data()), (*ref)->size() / 4);
        // A second run gives the same bytes (no state left behind).
        std::vector<uint8_t> first(
            static_cast<const uint8_t*>(s->outputData(0)),
            static_cast<const uint8_t*>(s->outputData(0)) + s->outputs()[0].bytes);
        REQUIRE(s->run().isOk());
        CHECK(std::memcmp(first.data(), s->outputData(0), first.size()) == 0);
      }
  }
}

TEST_CASE("a wrong input size is refused with both sizes", "[runtime]") {
  auto graph = frontend::importOnnx(root() + "/tests/data/golden/zoo.onnx");
  REQUIRE(graph.isOk());
  auto s = runtime::Session::fromGraph(std::move(*graph));
  REQUIRE(s.isOk());
  std::vector<float> small(10);
  Status st = (*s)->setInput(0, small.data(), small.size() * 4);
  REQUIRE(st.code() == ErrorCode::InputShapeMismatch);
  CHECK(st.message().find("'input'") != std::string::npos);
  CHECK(st.message().find("12288") != std::string::npos);
  CHECK(st.message().find("40 bytes") != std::string::npos);
  CHECK((*s)->setInput(3, small.data(), 40).code() == ErrorCode::InputShapeMismatch);
}

TEST_CASE("fp16 precision modes drift a little from ONNX Runtime's fp32",
          "[runtime][golden][fp16]") {
  const std::string g = root() + "/tests/data/golden/resnet_mini";
  auto input = tensorio::readTensorFile(g + ".input.npy");
  REQUIRE(input.isOk());
  auto ref = MappedFile::open(g + ".ort.bin");
  REQUIRE(ref.isOk());
  const float* want = reinterpret_cast<const float*>((*ref)->data());
  const size_t n = (*ref)->size() / 4;
  for (const char* mode : {"force_fp16", "allow_fp32_to_fp16", "allow_mix_precision"}) {
    INFO(mode);
    auto graph = frontend::importOnnx(root() + "/models/resnet_mini.onnx");
    REQUIRE(graph.isOk());
    passes::PassContext pc;
    REQUIRE(passes::runDefaultPipeline(*graph, pc).isOk());
    passes::PrecisionOptions po;
    po.mode = mode;
    REQUIRE(passes::applyPrecision(*graph, po, pc).isOk());
    size_t fp16_values = 0;
    for (const auto& v : graph->values()) fp16_values += v->dtype == ir::DType::F16;
    CHECK(fp16_values > 10);
    CHECK(graph->outputs[0]->dtype == ir::DType::F32);  // the model's output type is kept
    auto s = runtime::Session::fromGraph(std::move(*graph));
    REQUIRE(s.isOk());
    REQUIRE((*s)->setInput(0, input->tensor.data->data(), input->tensor.data->size()).isOk());
    REQUIRE((*s)->run().isOk());
    const float* got = static_cast<const float*>((*s)->outputData(0));
    double dot = 0, ng = 0, nw = 0, maxdiff = 0;
    for (size_t i = 0; i < n; ++i) {
      dot += double(got[i]) * want[i];
      ng += double(got[i]) * got[i];
      nw += double(want[i]) * want[i];
      maxdiff = std::max(maxdiff, std::fabs(double(got[i]) - want[i]));
    }
    const double cosine = dot / std::sqrt(ng * nw);
    INFO("cosine " << cosine << ", max |diff| " << maxdiff);
    CHECK(cosine >= 0.999);
    CHECK(maxdiff > 0);  // fp16 storage really happened
  }
}
