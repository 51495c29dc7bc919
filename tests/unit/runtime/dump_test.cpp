// dump_test.cpp: LayerDumper files. An Ascend dump file is uint64 L, L bytes of DumpData, then
// the raw tensors whose sizes the header lists (file size = 8 + L + sizes); it names the op, the
// source nodes of a fused op, dtypes and logical shapes, and its last output holds exactly the
// data the model outputs. npy and golden dumps hold the same data under their names.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "asc/runtime/dump.h"
#include "asc/tensorio/dump_file.h"
#include "asc/tensorio/tensor_file.h"
#include "dump_data.pb.h"

using namespace asc;

namespace {

// x[1,8,4,4] -> Conv (fused "conv"+"relu" source names) -> Sigmoid -> y
ir::Graph build() {
  ir::Graph g;
  g.opset = 13;
  auto mk = [&](const char* name, ir::Shape s) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F32;
    v->shape = std::move(s);
    return v;
  };
  ir::Value* x = mk("x", {1, 8, 4, 4});
  g.inputs.push_back(x);
  std::vector<float> w(8 * 8 * 9);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.01f * float(int(i % 17) - 8);
  ir::Value* wv = g.addConstant(
      "w", ir::Tensor{ir::DType::F32, {8, 8, 3, 3}, ir::Blob::copyOf(w.data(), w.size() * 4)});
  ir::Value* c = mk("c", {1, 8, 4, 4});
  ir::Value* y = mk("y", {1, 8, 4, 4});
  ir::Node* conv = g.addNode("Conv", "conv/fused.0", {x, wv}, {c});
  conv->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  conv->attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
  conv->attrs.set("activation", std::string("Relu"));
  conv->original_names = {"conv/fused.0", "relu_src"};
  ir::Node* s = g.addNode("Sigmoid", "sig", {c}, {y});
  s->original_names = {"sig"};
  g.outputs.push_back(y);
  return g;
}

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

struct Run {
  std::vector<float> input, output;
};

Run runWith(runtime::LayerDumper& d, const std::string& dir, bool keep_all = false) {
  runtime::SessionOptions so;
  so.observer = &d;
  so.reuse_memory = !keep_all;
  auto s = runtime::Session::fromGraph(build(), so);
  REQUIRE(s.isOk());
  Run r;
  r.input.resize(8 * 16);
  for (size_t i = 0; i < r.input.size(); ++i) r.input[i] = std::sin(0.3f * float(i));
  REQUIRE((*s)->setInput(0, r.input.data(), r.input.size() * 4).isOk());
  std::filesystem::remove_all(dir);
  REQUIRE(d.beginRun(dir).isOk());
  REQUIRE((*s)->run().isOk());
  REQUIRE(d.status().isOk());
  const float* o = static_cast<const float*>((*s)->outputData(0));
  r.output.assign(o, o + 8 * 16);
  return r;
}

}  // namespace

TEST_CASE("Ascend dump files: layout, header and data", "[runtime][dump]") {
  const std::string dir = std::string(ASC_TEST_TMP) + "/dump_ascend";
  runtime::LayerDumper d({runtime::DumpMode::All, runtime::DumpFormat::Ascend});
  Run r = runWith(d, dir, /*keep_all=*/true);
  auto files = filesIn(dir);
  REQUIRE(files.size() == 2);
  CHECK(d.filesWritten() == 2);
  // Sorted: Conv2D.conv_fused_0.0.0.<ts>, Sigmoid.sig.1.0.<ts>
  const std::string conv_name = std::filesystem::path(files[0]).filename();
  const std::string sig_name = std::filesystem::path(files[1]).filename();
  CHECK(conv_name.rfind("Conv2D.conv_fused_0.0.0.", 0) == 0);
  CHECK(sig_name.rfind("Sigmoid.sig.1.0.", 0) == 0);
  CHECK(conv_name.size() == std::string("Conv2D.conv_fused_0.0.0.").size() + 16);

  for (const auto& path : files) {
    const std::string bytes = slurp(path);
    REQUIRE(bytes.size() > 8);
    uint64_t len = 0;
    std::memcpy(&len, bytes.data(), 8);
    REQUIRE(8 + len <= bytes.size());
    toolkit::dumpdata::DumpData h;
    REQUIRE(h.ParseFromArray(bytes.data() + 8, static_cast<int>(len)));
    uint64_t total = 0;
    for (const auto& in : h.input()) total += in.size();
    for (const auto& out : h.output()) total += out.size();
    CHECK(8 + len + total == bytes.size());
    REQUIRE(h.output_size() == 1);
    CHECK(h.output(0).data_type() == toolkit::dumpdata::DT_FLOAT);
    CHECK(h.output(0).format() == toolkit::dumpdata::FORMAT_NCHW);
    CHECK(h.output(0).shape().dim_size() == 4);
    CHECK(h.output(0).data().empty());
    if (path == files[0]) {
      CHECK(h.op_name() == "conv/fused.0");
      CHECK(h.output(0).original_op().name() == "relu_src");  // the group's last source node
      REQUIRE(h.attr_size() == 1);
      CHECK(h.attr(0).value() == "conv/fused.0,relu_src");
      REQUIRE(h.input_size() == 1);  // constants (weights) are not dumped
      std::vector<float> in(8 * 16);
      std::memcpy(in.data(), bytes.data() + 8 + len, in.size() * 4);
      CHECK(in == r.input);
    } else {
      CHECK(h.op_name() == "sig");
      const size_t off = 8 + len + h.input(0).size();
      std::vector<float> out(8 * 16);
      std::memcpy(out.data(), bytes.data() + off, out.size() * 4);
      CHECK(out == r.output);
      // Its input is the Conv's output: Sigmoid of it is the output.
      std::vector<float> in(8 * 16);
      std::memcpy(in.data(), bytes.data() + 8 + len, in.size() * 4);
      for (size_t i = 0; i < in.size(); ++i)
        CHECK(out[i] == Approx(1.f / (1.f + std::exp(-in[i]))).epsilon(1e-5));
    }
  }
}

TEST_CASE("npy and golden dumps hold the same data", "[runtime][dump]") {
  const std::string base = std::string(ASC_TEST_TMP);
  runtime::LayerDumper npy({runtime::DumpMode::Output, runtime::DumpFormat::Npy});
  Run r = runWith(npy, base + "/dump_npy");
  auto files = filesIn(base + "/dump_npy");
  REQUIRE(files.size() == 2);
  CHECK(files[1].find(".output.0.npy") != std::string::npos);
  auto t = tensorio::readTensorFile(files[1]);
  REQUIRE(t.isOk());
  CHECK(t->tensor.shape == ir::Shape{1, 8, 4, 4});
  CHECK(std::memcmp(t->tensor.data->data(), r.output.data(), r.output.size() * 4) == 0);

  runtime::LayerDumper golden({runtime::DumpMode::Output, runtime::DumpFormat::Golden});
  runWith(golden, base + "/dump_golden");
  files = filesIn(base + "/dump_golden");
  REQUIRE(files.size() == 2);
  const std::string name = std::filesystem::path(files[1]).filename();
  CHECK(name.rfind("sig.0.", 0) == 0);
  CHECK(name.size() == std::string("sig.0.").size() + 16 + 4);
  auto g = tensorio::readTensorFile(files[1]);
  REQUIRE(g.isOk());
  CHECK(std::memcmp(g->tensor.data->data(), r.output.data(), r.output.size() * 4) == 0);
}

TEST_CASE("dump safe names", "[runtime][dump]") {
  CHECK(tensorio::dumpSafeName("/layers.0/conv 1:x") == "_layers_0_conv_1_x");
  CHECK(tensorio::dumpSafeName("ok_name-1") == "ok_name-1");
  CHECK(tensorio::dumpSafeName("") == "_");
}

TEST_CASE("a dump into an unwritable folder fails with a clear error", "[runtime][dump]") {
  const std::string file = std::string(ASC_TEST_TMP) + "/not_a_dir";
  std::filesystem::create_directories(ASC_TEST_TMP);
  std::ofstream(file) << "x";
  runtime::LayerDumper d({runtime::DumpMode::Output, runtime::DumpFormat::Ascend});
  CHECK_FALSE(d.beginRun(file + "/sub").isOk());
}
