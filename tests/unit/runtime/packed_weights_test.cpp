// packed_weights_test.cpp: atc stores each weight a kernel rearranges also in the layout the
// kernel reads on the compiling CPU (runtime::packWeights); the OM keeps both copies, and a
// session reads the packed one in place when its kernel wants exactly that layout, else reorders
// the plain one. Either way the results are the very bits an unpacked model gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "om/format.h"

using namespace asc;

namespace {

std::string tmp(const char* name) {
  REQUIRE(makeDirs(ASC_TEST_TMP "/packed").isOk());
  return std::string(ASC_TEST_TMP "/packed/") + name;
}

ir::Value* constant(ir::Graph& g, const char* name, ir::Shape shape, float scale) {
  std::vector<float> w(static_cast<size_t>(ir::numElements(shape)));
  for (size_t i = 0; i < w.size(); ++i) w[i] = scale * std::sin(0.37f * float(i) + 0.1f);
  return g.addConstant(name,
                       ir::Tensor{ir::DType::F32, shape, ir::Blob::copyOf(w.data(), w.size() * 4)});
}

ir::Value* activation(ir::Graph& g, const char* name, ir::Shape shape) {
  ir::Value* v = g.addValue(name);
  v->dtype = ir::DType::F32;
  v->shape = std::move(shape);
  return v;
}

// x [1,64,14,14] -> 3x3 conv (Winograd's kind on AVX-512) -> 1x1 conv to 32 channels; and a
// second input through a MatMul with constant weights.
ir::Graph model() {
  ir::Graph g;
  g.name = "packed";
  g.opset = 13;
  ir::Value* x = activation(g, "x", {1, 64, 14, 14});
  ir::Value* a = activation(g, "a", {4, 64});
  g.inputs = {x, a};
  ir::Value* h = activation(g, "h", {1, 64, 14, 14});
  ir::Node* c1 =
      g.addNode("Conv", "conv3x3",
                {x, constant(g, "w1", {64, 64, 3, 3}, 0.05f), constant(g, "b1", {64}, 0.1f)}, {h});
  c1->attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
  c1->attrs.set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Value* y = activation(g, "y", {1, 32, 14, 14});
  ir::Node* c2 = g.addNode("Conv", "conv1x1", {h, constant(g, "w2", {32, 64, 1, 1}, 0.1f)}, {y});
  c2->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
  ir::Value* z = activation(g, "z", {4, 48});
  g.addNode("MatMul", "matmul", {a, constant(g, "w3", {64, 48}, 0.2f)}, {z});
  g.outputs = {y, z};
  return g;
}

om::ModelInfo info() {
  om::ModelInfo i;
  i.soc_version = "Ascend310P3";
  i.atc_cmdline = "atc --test";
  return i;
}

// Every output of one run on fixed inputs, as bytes.
std::vector<std::string> run(runtime::Session& s) {
  for (size_t i = 0; i < s.inputs().size(); ++i) {
    std::vector<float> in(s.inputs()[i].bytes / 4);
    for (size_t k = 0; k < in.size(); ++k) in[k] = std::cos(0.11f * float(k) + float(i));
    REQUIRE(s.setInput(i, in.data(), in.size() * 4).isOk());
  }
  REQUIRE(s.run().isOk());
  std::vector<std::string> out;
  for (size_t i = 0; i < s.outputs().size(); ++i)
    out.emplace_back(static_cast<const char*>(s.outputData(i)), s.outputs()[i].bytes);
  return out;
}

std::string readAll(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("packed weights are read in place and give the unpacked model's bits",
          "[runtime][packed]") {
  auto plain = runtime::Session::fromGraph(model());
  REQUIRE(plain.isOk());
  const auto want = run(**plain);

  ir::Graph g = model();
  auto n = runtime::packWeights(g);
  REQUIRE(n.isOk());
  // The convolutions' weights are rearranged on every x86-64 oneDNN path, the MatMul's where
  // its kernel wants them blocked (AVX-512: yes; AVX2's gemm reads them plain); the bias is read
  // as it is.
  const bool matmul_packs = g.findValue("w3")->packed != nullptr;
  CHECK(*n == (matmul_packs ? 3u : 2u));
  CHECK(g.findValue("w1")->packed);
  CHECK(g.findValue("w2")->packed);
  CHECK_FALSE(g.findValue("w1")->packing.empty());
  CHECK_FALSE(g.findValue("b1")->packed);
  // The plain data stays as it was: every other reader of the graph sees the same constant.
  CHECK(g.findValue("w2")->data->size() == 32 * 64 * 4);

  const std::string path = tmp("packed.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  for (const char* w : {"w1", "w2", "w3"}) {
    INFO(w);
    const ir::Value* v = m->graph.findValue(w);
    REQUIRE(v);
    if (!g.findValue(w)->packed) {
      CHECK_FALSE(v->packed);
      continue;
    }
    REQUIRE(v->packed);
    CHECK(v->packing == g.findValue(w)->packing);
    CHECK(v->packed->size() == g.findValue(w)->packed->size());
    CHECK(std::memcmp(v->packed->data(), g.findValue(w)->packed->data(), v->packed->size()) == 0);
    CHECK(reinterpret_cast<uintptr_t>(v->packed->data()) % om::kWeightAlign == 0);
  }

  auto s = runtime::Session::load(path);
  REQUIRE(s.isOk());
  CHECK((*s)->packedWeights().in_place == *n);
  CHECK((*s)->packedWeights().reordered == 0);
  CHECK(run(**s) == want);
}

TEST_CASE("weights packed for another CPU are reordered from the plain copy", "[runtime][packed]") {
  auto plain = runtime::Session::fromGraph(model());
  REQUIRE(plain.isOk());
  const auto want = run(**plain);
  ir::Graph g = model();
  auto n = runtime::packWeights(g);
  REQUIRE(n.isOk());
  // As a CPU whose kernels want another layout sees them: names that do not match its own.
  for (const char* w : {"w1", "w2", "w3"})
    if (g.findValue(w)->packed) g.findValue(w)->packing += " (another CPU)";
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  CHECK((*s)->packedWeights().in_place == 0);
  CHECK((*s)->packedWeights().reordered == *n);
  CHECK(run(**s) == want);
}

TEST_CASE("a constant two nodes read, or a dynamic graph, is not packed", "[runtime][packed]") {
  ir::Graph g = model();
  // The 1x1 convolution's weights also become an output of the graph: not packed (an output is
  // read plain).
  g.outputs.push_back(g.findValue("w2"));
  auto n = runtime::packWeights(g);
  REQUIRE(n.isOk());
  CHECK(g.findValue("w1")->packed);
  CHECK_FALSE(g.findValue("w2")->packed);

  ir::Graph d = model();
  d.dynamic = true;
  auto none = runtime::packWeights(d);
  REQUIRE(none.isOk());
  CHECK(*none == 0);
}

TEST_CASE("a load checks everything but the weights; the summary checks them too",
          "[runtime][packed][om]") {
  ir::Graph g = model();
  REQUIRE(runtime::packWeights(g).isOk());
  const std::string path = tmp("crc.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto good = om::loadOm(path);
  REQUIRE(good.isOk());
  CHECK(good->summary.checksum_verified);
  CHECK_FALSE(good->summary.weights_verified);
  auto sum = om::readOmSummary(path);
  REQUIRE(sum.isOk());
  CHECK(sum->weights_verified);

  const std::string bytes = readAll(path);
  const om::PartitionInfo* w = nullptr;
  for (const auto& p : sum->partitions)
    if (p.type == om::kWeightsData) w = &p;
  REQUIRE(w);
  auto damaged = [&](size_t pos) {
    std::string b = bytes;
    b[pos] = static_cast<char>(b[pos] ^ 0x5a);
    const std::string p = tmp("crc_damaged.om");
    std::ofstream(p, std::ios::binary) << b;
    return p;
  };
  // A damaged weight: the load (which never reads the weights) succeeds, the summary fails.
  const std::string wp = damaged(w->offset + 8);
  CHECK(om::loadOm(wp).isOk());
  auto ws = om::readOmSummary(wp);
  REQUIRE_FALSE(ws.isOk());
  CHECK(ws.status().message().find("checksum mismatch of the whole file") != std::string::npos);
  // A damaged ModelDef: the load fails.
  const std::string mp = damaged(om::kHeaderSize + 40);
  auto ms = om::loadOm(mp);
  REQUIRE_FALSE(ms.isOk());
  CHECK(ms.status().message().find("checksum mismatch of everything but the weights") !=
        std::string::npos);
}
