// onnx_node_shapes_test.cpp: the official ONNX backend node tests (Debian libonnx-testdata)
// as an independent reference for import and shape inference: every case whose ops asc-tools
// maps must import, and each inferred output must have the dtype and shape of the expected
// output tensor. Cases outside the supported scope (opset > 17, unmapped ops) are counted as
// skipped; the few known gaps are listed below with their reason.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "asc/frontend/onnx.h"
#include "asc/support/file.h"
#include "onnx/onnx.pb.h"
#include "support/onnx_testdata.h"
#include "support/skip.h"

using namespace asc;

namespace {
bool readTensor(const std::string& path, onnx::TensorProto* t) {
  return t->ParseFromString(test::slurp(path));
}

// The node test's model with its int64 inputs (shapes, axes, indices) frozen into
// initializers from the test data, as a static-shape compiler needs them; with `all`, every
// input but the first.
Result<ir::Graph> importFrozen(const std::string& dir, bool all) {
  onnx::ModelProto m;
  if (!m.ParseFromString(test::slurp(dir + "/model.onnx")))
    return Status::error(ErrorCode::ModelParseFailed, "unreadable model");
  auto* graph = m.mutable_graph();
  for (int i = 0; i < graph->input_size(); ++i) {
    const auto& in = graph->input(i);
    if (!(all && i > 0) && in.type().tensor_type().elem_type() != onnx::TensorProto::INT64) continue;
    onnx::TensorProto t;
    if (!readTensor(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb", &t)) continue;
    t.set_name(in.name());
    *graph->add_initializer() = t;
  }
  std::string bytes = m.SerializeAsString();
  return frontend::importOnnxBytes(bytes.data(), bytes.size(), dir);
}

// Cases that import but whose expected output cannot match a static-shape compiler, or which
// exercise behaviour asc-tools refuses on purpose. Each has its reason.
const std::set<std::string> kKnownGaps = {
    // ONNX 1.12's test data stores bfloat16 tensors as uint16 and made them by truncating;
    // asc-tools rounds to nearest even, as the ONNX spec says from 1.13 on.
    "test_cast_FLOAT_to_BFLOAT16",
    "test_castlike_FLOAT_to_BFLOAT16_expanded",
    // The test data's 'like' input has 1 element where the model declares [3,4].
    "test_castlike_BFLOAT16_to_FLOAT_expanded",
};
}  // namespace

TEST_CASE("ONNX backend node tests: inferred shapes match the expected outputs",
          "[conformance][frontend]") {
  auto cases = test::listDirs(test::kOnnxNodeTestDir);
  if (cases.empty()) {
    ASC_SKIP("libonnx-testdata is not installed (apt-get install libonnx-testdata)");
  }
  int passed = 0, skipped = 0;
  std::vector<std::string> failures;
  for (const auto& c : cases) {
    const std::string dir = std::string(test::kOnnxNodeTestDir) + "/" + c;
    if (kKnownGaps.count(c)) {
      ++skipped;
      continue;
    }
    auto g = importFrozen(dir, false);
    // A parameter given as a graph input (Clip's min, Resize's scales, Pad's value) must be
    // known at compile time: retry with every input but the first frozen from the test data.
    if (!g && g.status().code() == ErrorCode::InvalidModel &&
        g.status().message().find("compile time") != std::string::npos)
      g = importFrozen(dir, true);
    if (!g) {
      auto code = g.status().code();
      // Out of scope: unmapped ops, opsets past 17, and unsupported dtypes/attribute kinds.
      if (code == ErrorCode::UnsupportedOp || code == ErrorCode::NotImplemented ||
          kKnownGaps.count(c)) {
        ++skipped;
        continue;
      }
      failures.push_back(c + ": " + g.status().toString());
      continue;
    }
    bool ok = true;
    for (size_t i = 0; i < g->outputs.size() && ok; ++i) {
      onnx::TensorProto t;
      if (!readTensor(dir + "/test_data_set_0/output_" + std::to_string(i) + ".pb", &t)) {
        ok = false;
        failures.push_back(c + ": cannot read expected output " + std::to_string(i));
        break;
      }
      ir::Shape want(t.dims().begin(), t.dims().end());
      const ir::Value* v = g->outputs[i];
      if (v->shape != want || ir::dtypeToOnnx(v->dtype) != t.data_type()) {
        ok = false;
        failures.push_back(fmt::format("{}: output {} is {}[{}], expected type {} [{}]", c, i,
                                       ir::dtypeName(v->dtype), ir::shapeToString(v->shape),
                                       t.data_type(), ir::shapeToString(want)));
      }
    }
    if (ok) ++passed;
  }
  for (const auto& f : failures) UNSCOPED_INFO(f);
  WARN(fmt::format("ONNX node tests: {} match, {} skipped (out of scope), {} failed", passed,
                   skipped, failures.size()));
  CHECK(failures.empty());
  CHECK(passed > 150);
}
