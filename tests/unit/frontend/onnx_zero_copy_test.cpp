// onnx_zero_copy_test.cpp: a model read from a file is parsed without its initializers' raw_data,
// which is referenced in the mapped file (RawDataStripper in onnx_importer.cpp). The graph must
// equal the one protobuf's whole parse gives (importOnnxBytes), for the ways protobuf lets a
// message be written: fields repeated, messages split and merged, typed data beside raw data.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "asc/frontend/onnx.h"
#include "asc/ir/graph.h"
#include "asc/support/file.h"
#include "onnx/onnx.pb.h"

using namespace asc;

namespace {

std::string tmpPath(const std::string& name) {
  const std::string d = ASC_TEST_TMP "/zero_copy";
  REQUIRE(makeDirs(d).isOk());
  return d + "/" + name;
}

void addIo(onnx::ValueInfoProto* vi, const std::string& name, const std::vector<int64_t>& shape) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : shape) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

std::string floats(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// Y = Reshape((X + W1) + W2, S): W1 and S as raw_data, W2 as float_data.
onnx::ModelProto model(bool with_w1) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("g");
  addIo(g->add_input(), "X", {2, 3});
  addIo(g->add_output(), "Y", {3, 2});
  auto node = [&](const std::string& op, std::vector<std::string> in, const std::string& out) {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(out + "_node");
    for (auto& i : in) n->add_input(i);
    n->add_output(out);
  };
  node("Add", {"X", "W1"}, "A");
  node("Add", {"A", "W2"}, "B");
  node("Reshape", {"B", "S"}, "Y");
  if (with_w1) {
    auto* w1 = g->add_initializer();
    w1->set_name("W1");
    w1->set_data_type(onnx::TensorProto::FLOAT);
    w1->add_dims(2);
    w1->add_dims(3);
    w1->set_raw_data(floats({1, 2, 3, 4, 5, 6}));
  }
  auto* w2 = g->add_initializer();
  w2->set_name("W2");
  w2->set_data_type(onnx::TensorProto::FLOAT);
  w2->add_dims(2);
  w2->add_dims(3);
  for (float f : {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}) w2->add_float_data(f);
  auto* s = g->add_initializer();
  s->set_name("S");
  s->set_data_type(onnx::TensorProto::INT64);
  s->add_dims(2);
  const int64_t shape[2] = {3, 2};
  s->set_raw_data(std::string(reinterpret_cast<const char*>(shape), sizeof(shape)));
  return m;
}

std::string write(const std::string& bytes, const std::string& name) {
  const std::string path = tmpPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Whether p lies in a mapping of `path` (/proc/self/maps).
bool mappedFrom(const void* p, const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto a = reinterpret_cast<uintptr_t>(p);
  while (std::getline(maps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi)
      return line.size() >= path.size() &&
             line.compare(line.size() - path.size(), path.size(), path) == 0;
  }
  return false;
}

// Raw data stays in the file's mapping where a protobuf field put it at its element size's
// alignment, and is copied elsewhere (kernels and passes read constants as typed arrays): what
// the importer hands out is aligned either way.
bool aligned(const ir::Value* v) {
  return reinterpret_cast<uintptr_t>(v->data->data()) % ir::dtypeSize(v->dtype) == 0;
}

const ir::Value* constant(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    for (const ir::Value* v : n->inputs)
      if (v && v->name == name && v->isConstant()) return v;
  return nullptr;
}

}  // namespace

TEST_CASE("from a file, raw_data stays in the mapped file and the graph is protobuf's",
          "[frontend][zero-copy]") {
  const std::string bytes = model(true).SerializeAsString();
  const std::string path = write(bytes, "plain.onnx");
  auto a = frontend::importOnnx(path);
  auto b = frontend::importOnnxBytes(bytes.data(), bytes.size(), ASC_TEST_TMP);
  REQUIRE(a.isOk());
  REQUIRE(b.isOk());
  std::string why;
  CHECK(ir::graphsEqual(*a, *b, &why));
  INFO(why);
  const ir::Value* w1 = constant(*a, "W1");
  REQUIRE(w1);
  CHECK(aligned(w1));
  CHECK(w1->data->as<float>()[5] == 6.f);
  // From memory the bytes are protobuf's own copy.
  const ir::Value* w1b = constant(*b, "W1");
  REQUIRE(w1b);
  CHECK_FALSE(mappedFrom(w1b->data->data(), path));
}

TEST_CASE("a large misaligned initializer is copied only when read as floats",
          "[frontend][zero-copy]") {
  // Y = X + W with W [64, 1024] (256 KiB) as raw_data; the graph's name pads the file until W's
  // bytes start off a float boundary.
  std::vector<float> w(64 * 1024);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.25f * float(i % 1000) - 7.f;
  const std::string raw = floats(w);
  for (int pad = 0; pad < 4; ++pad) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    g->set_name("g" + std::string(static_cast<size_t>(pad), 'p'));
    addIo(g->add_input(), "X", {64, 1024});
    addIo(g->add_output(), "Y", {64, 1024});
    auto* n = g->add_node();
    n->set_op_type("Add");
    n->set_name("add");
    n->add_input("X");
    n->add_input("W");
    n->add_output("Y");
    auto* t = g->add_initializer();
    t->set_name("W");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(64);
    t->add_dims(1024);
    t->set_raw_data(raw);
    const std::string bytes = m.SerializeAsString();
    if (bytes.find(raw) % 4 == 0) continue;  // this one lies aligned: the next pad
    const std::string path = write(bytes, "misaligned.onnx");
    auto a = frontend::importOnnx(path);
    REQUIRE(a.isOk());
    const ir::Value* v = constant(*a, "W");
    REQUIRE(v);
    CHECK_FALSE(v->data->ready());  // no copy yet
    std::vector<float> streamed(w.size());
    v->data->copyTo(streamed.data());  // from the mapped file
    CHECK(streamed == w);
    CHECK_FALSE(v->data->ready());
    CHECK(aligned(v));  // read as floats: now copied, on a float boundary
    CHECK(v->data->ready());
    CHECK(std::memcmp(v->data->data(), w.data(), raw.size()) == 0);
    return;
  }
  FAIL("no padding put W's bytes off a float boundary");
}

TEST_CASE("a graph split in two and raw_data given twice merge as protobuf merges them",
          "[frontend][zero-copy]") {
  // The model without W1, then a second ModelProto.graph holding W1 split over two TensorProto
  // chunks: its first raw_data [9 x 6], then, in the second chunk, [1..6], which wins.
  std::string bytes = model(false).SerializeAsString();
  onnx::TensorProto first, second;
  first.set_name("W1");
  first.set_data_type(onnx::TensorProto::FLOAT);
  first.add_dims(2);
  first.add_dims(3);
  first.set_raw_data(floats({9, 9, 9, 9, 9, 9}));
  second.set_raw_data(floats({1, 2, 3, 4, 5, 6}));
  const std::string tensor = first.SerializeAsString() + second.SerializeAsString();
  std::string graph;
  {
    google::protobuf::io::StringOutputStream s(&graph);
    google::protobuf::io::CodedOutputStream o(&s);
    o.WriteTag((5 << 3) | 2);  // GraphProto.initializer
    o.WriteVarint32(static_cast<uint32_t>(tensor.size()));
    o.WriteString(tensor);
  }
  {
    google::protobuf::io::StringOutputStream s(&bytes);
    google::protobuf::io::CodedOutputStream o(&s);
    o.WriteTag((7 << 3) | 2);  // ModelProto.graph, a second time
    o.WriteVarint32(static_cast<uint32_t>(graph.size()));
    o.WriteString(graph);
  }
  const std::string path = write(bytes, "merged.onnx");
  auto a = frontend::importOnnx(path);
  auto b = frontend::importOnnxBytes(bytes.data(), bytes.size(), ASC_TEST_TMP);
  REQUIRE(a.isOk());
  REQUIRE(b.isOk());
  std::string why;
  CHECK(ir::graphsEqual(*a, *b, &why));
  INFO(why);
  const ir::Value* w1 = constant(*a, "W1");
  REQUIRE(w1);
  CHECK(w1->data->as<float>()[0] == 1.f);
  CHECK(aligned(w1));
}

TEST_CASE("raw_data of the wrong size is the same error from a file as from memory",
          "[frontend][zero-copy]") {
  onnx::ModelProto m = model(true);
  m.mutable_graph()->mutable_initializer(0)->set_raw_data(floats({1, 2, 3}));
  const std::string bytes = m.SerializeAsString();
  auto a = frontend::importOnnx(write(bytes, "short.onnx"));
  auto b = frontend::importOnnxBytes(bytes.data(), bytes.size(), ASC_TEST_TMP);
  REQUIRE_FALSE(a.isOk());
  REQUIRE_FALSE(b.isOk());
  CHECK(a.status().code() == ErrorCode::InvalidModel);
  CHECK(a.status().message().find("holds 12 bytes of raw data") != std::string::npos);
  CHECK(a.status().message().find(b.status().message()) != std::string::npos);
}

TEST_CASE("cut or damaged files fail as protobuf's parse fails, never crash",
          "[frontend][zero-copy]") {
  const std::string bytes = model(true).SerializeAsString();
  for (size_t cut = 1; cut < bytes.size(); cut += 5) {
    const std::string part = bytes.substr(0, cut);
    auto a = frontend::importOnnx(write(part, "cut.onnx"));
    auto b = frontend::importOnnxBytes(part.data(), part.size(), ASC_TEST_TMP);
    INFO("cut at " << cut);
    CHECK(a.isOk() == b.isOk());
    if (!a.isOk() && !b.isOk()) CHECK(a.status().code() == b.status().code());
  }
  // Every byte flipped in turn: both paths agree on success and on the error code.
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    auto a = frontend::importOnnx(write(bad, "flip.onnx"));
    auto b = frontend::importOnnxBytes(bad.data(), bad.size(), ASC_TEST_TMP);
    INFO("byte " << i << " flipped");
    REQUIRE(a.isOk() == b.isOk());
    std::string why;
    if (a.isOk())
      CHECK(ir::graphsEqual(*a, *b, &why));
    else
      CHECK(a.status().code() == b.status().code());
    INFO(why);
  }
}
