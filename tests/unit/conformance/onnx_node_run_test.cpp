// onnx_node_run_test.cpp: runs the official ONNX backend node tests (Debian libonnx-testdata)
// on the CPU runtime and compares every output with the expected tensor, with the tolerances
// the ONNX backend test runner uses (rtol 1e-3, atol 1e-7; integers and bools exactly).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "asc/frontend/onnx.h"
#include "asc/runtime/session.h"
#include "onnx/onnx.pb.h"
#include "support/onnx_testdata.h"
#include "support/skip.h"

using namespace asc;

namespace {
// The raw bytes of a TensorProto in its dtype (raw_data or the typed fields).
std::string tensorBytes(const onnx::TensorProto& t) {
  if (t.has_raw_data()) return t.raw_data();
  std::string out;
  auto put = [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); };
  ir::DType dt = ir::dtypeFromOnnx(t.data_type());
  switch (dt) {
    case ir::DType::F32: for (float v : t.float_data()) put(&v, 4); break;
    case ir::DType::F64: for (double v : t.double_data()) put(&v, 8); break;
    case ir::DType::I64: for (int64_t v : t.int64_data()) put(&v, 8); break;
    case ir::DType::I32: for (int32_t v : t.int32_data()) put(&v, 4); break;
    case ir::DType::Bool:
    case ir::DType::U8: case ir::DType::I8:
      for (int32_t v : t.int32_data()) { uint8_t b = static_cast<uint8_t>(v); put(&b, 1); }
      break;
    case ir::DType::F16: case ir::DType::U16: case ir::DType::I16: case ir::DType::BF16:
      for (int32_t v : t.int32_data()) { uint16_t b = static_cast<uint16_t>(v); put(&b, 2); }
      break;
    default: break;
  }
  return out;
}

// Known differences, each with its reason. Keep this list short and explained.
const std::set<std::string> kKnownGaps = {
    // ONNX 1.12's test data stores bfloat16 tensors as uint16 and made them by truncating;
    // asc-tools rounds to nearest even, as the ONNX spec says from 1.13 on.
    "test_cast_FLOAT_to_BFLOAT16",
    "test_castlike_FLOAT_to_BFLOAT16_expanded",
    // The test data's 'like' input has 1 element where the model declares [3,4].
    "test_castlike_BFLOAT16_to_FLOAT_expanded",
};
}  // namespace

TEST_CASE("ONNX backend node tests: the CPU runtime matches the expected outputs",
          "[conformance][runtime]") {
  auto cases = test::listDirs(test::kOnnxNodeTestDir);
  if (cases.empty()) {
    ASC_SKIP("libonnx-testdata is not installed (apt-get install libonnx-testdata)");
  }
  int passed = 0, skipped = 0;
  std::vector<std::string> failures;
  for (const auto& c : cases) {
    if (kKnownGaps.count(c)) {
      ++skipped;
      continue;
    }
    const std::string dir = std::string(test::kOnnxNodeTestDir) + "/" + c;
    // Compile-time inputs (int64 shapes/axes/indices; on a retry, every input but the first)
    // become initializers from the test data; the rest are fed at run time.
    std::vector<std::string> runtime_inputs;
    auto build = [&](bool all) -> Result<ir::Graph> {
      runtime_inputs.clear();
      onnx::ModelProto m;
      if (!m.ParseFromString(test::slurp(dir + "/model.onnx")))
        return Status::error(ErrorCode::ModelParseFailed, "unreadable");
      auto* graph = m.mutable_graph();
      std::set<std::string> inits;
      for (const auto& i : graph->initializer()) inits.insert(i.name());
      int data_index = 0;
      for (int i = 0; i < graph->input_size(); ++i) {
        const auto& in = graph->input(i);
        if (inits.count(in.name())) continue;
        onnx::TensorProto t;
        const int di = data_index++;
        if (!t.ParseFromString(test::slurp(dir + "/test_data_set_0/input_" + std::to_string(di) + ".pb")))
          continue;
        if ((all && di > 0) || in.type().tensor_type().elem_type() == onnx::TensorProto::INT64) {
          t.set_name(in.name());
          *graph->add_initializer() = t;
        } else {
          runtime_inputs.push_back(tensorBytes(t));
        }
      }
      std::string bytes = m.SerializeAsString();
      return frontend::importOnnxBytes(bytes.data(), bytes.size(), dir);
    };
    auto g = build(false);
    if (!g && g.status().code() == ErrorCode::InvalidModel &&
        g.status().message().find("compile time") != std::string::npos)
      g = build(true);
    if (!g) {
      ++skipped;  // outside the supported op set or opsets: covered by the shapes test
      continue;
    }
    auto s = runtime::Session::fromGraph(std::move(*g));
    if (!s) {
      if (s.status().code() == ErrorCode::UnsupportedOp || s.status().code() == ErrorCode::NotImplemented) {
        ++skipped;
        continue;
      }
      failures.push_back(c + ": " + s.status().toString());
      continue;
    }
    bool ok = true;
    for (size_t k = 0; k < runtime_inputs.size() && k < (*s)->inputs().size(); ++k) {
      Status st = (*s)->setInput(k, runtime_inputs[k].data(), runtime_inputs[k].size());
      if (!st) {
        failures.push_back(c + ": " + st.toString());
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (Status st = (*s)->run(); !st) {
      failures.push_back(c + ": " + st.toString());
      continue;
    }
    for (size_t o = 0; o < (*s)->outputs().size() && ok; ++o) {
      onnx::TensorProto t;
      t.ParseFromString(test::slurp(dir + "/test_data_set_0/output_" + std::to_string(o) + ".pb"));
      std::string want = tensorBytes(t);
      const auto& info = (*s)->outputs()[o];
      if (want.size() != info.bytes) {
        failures.push_back(fmt::format("{}: output {} has {} bytes, expected {}", c, o, info.bytes, want.size()));
        ok = false;
        break;
      }
      const void* got = (*s)->outputData(o);
      size_t n = info.bytes / std::max<size_t>(1, ir::dtypeSize(info.dtype));
      ir::Tensor ta{info.dtype, {static_cast<int64_t>(n)},
                    std::make_shared<ir::Blob>(got, info.bytes, nullptr)};
      ir::Tensor tb{info.dtype, {static_cast<int64_t>(n)},
                    std::make_shared<ir::Blob>(want.data(), want.size(), nullptr)};
      for (size_t e = 0; e < n && ok; ++e) {
        double a = ta.floatAt(static_cast<int64_t>(e));
        double b = tb.floatAt(static_cast<int64_t>(e));
        bool close = ir::isFloat(info.dtype)
                         ? (std::isnan(a) && std::isnan(b)) || a == b ||
                               std::fabs(a - b) <= 1e-7 + 1e-3 * std::fabs(b)
                         : a == b;
        if (!close) {
          failures.push_back(fmt::format("{}: output {} element {} is {}, expected {}", c, o, e, a, b));
          ok = false;
        }
      }
    }
    if (ok) ++passed;
  }
  for (const auto& f : failures) UNSCOPED_INFO(f);
  WARN(fmt::format("ONNX node tests on the CPU runtime: {} pass, {} skipped, {} failed", passed,
                   skipped, failures.size()));
  CHECK(failures.empty());
}
