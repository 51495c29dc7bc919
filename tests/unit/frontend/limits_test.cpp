// limits_test.cpp: the documented upper bounds (docs/reliability.md, "Limits"): tensor rank,
// elements and bytes, subgraph nesting, and ONNX models whose weights are over protobuf's 2 GB
// in external data. Each bound gives a clear error, never an abort.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <climits>
#include <fstream>
#include <string>

#include "asc/frontend/onnx.h"
#include "asc/ir/dtype.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"
#include "onnx/onnx.pb.h"

using namespace asc;

namespace {

std::string tmpDir() {
  const std::string d = ASC_TEST_TMP "/limits";
  REQUIRE(makeDirs(d).isOk());
  return d;
}

onnx::ModelProto model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  m.mutable_graph()->set_name("g");
  return m;
}

void addTensorIo(onnx::ValueInfoProto* vi, const std::string& name, const ir::Shape& shape) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : shape) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

std::string save(const onnx::ModelProto& m, const std::string& name) {
  const std::string path = tmpDir() + "/" + name;
  std::ofstream f(path, std::ios::binary);
  REQUIRE(m.SerializeToOstream(&f));
  return path;
}

bool mentions(const Status& s, const std::string& text) {
  INFO(s.toString());
  return s.message().find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("rank: at most kMaxRank dims", "[limits]") {
  uint64_t bytes = 0;
  CHECK(ir::checkedByteSize(ir::Shape(ir::kMaxRank, 1), ir::DType::F32, &bytes));
  CHECK(bytes == 4);
  CHECK_FALSE(ir::checkedByteSize(ir::Shape(ir::kMaxRank + 1, 1), ir::DType::F32, &bytes));
  CHECK(ir::shapeLimitReason(ir::Shape(33, 1), ir::DType::F32) ==
        "rank 33 is over the limit of 32 dims");

  // The same bound on every reader: a graph input, an initializer and a .npy header.
  auto m = model();
  addTensorIo(m.mutable_graph()->add_input(), "x", ir::Shape(33, 1));
  addTensorIo(m.mutable_graph()->add_output(), "x", {});
  auto r = frontend::importOnnx(save(m, "rank_input.onnx"));
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::ModelTooLarge);
  CHECK(mentions(r.status(), "graph input 'x': rank 33 is over the limit of 32 dims"));

  auto m2 = model();
  auto* w = m2.mutable_graph()->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  for (int i = 0; i < 40; ++i) w->add_dims(1);
  w->add_float_data(1.f);
  addTensorIo(m2.mutable_graph()->add_output(), "w", {});
  r = frontend::importOnnx(save(m2, "rank_init.onnx"));
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::InvalidModel);
  CHECK(mentions(r.status(), "tensor 'w' has 40 dims, over the limit of 32"));

  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (int i = 0; i < 33; ++i) dict += "1, ";
  dict += "), }\n";
  std::string npy = std::string("\x93NUMPY\x01\x00", 8);
  npy += static_cast<char>(dict.size() & 0xff);
  npy += static_cast<char>(dict.size() >> 8);
  npy += dict + std::string(4, '\0');
  auto t = tensorio::parseNpy(npy.data(), npy.size(), "deep.npy");
  REQUIRE_FALSE(t.isOk());
  CHECK(t.status().code() == ErrorCode::ModelParseFailed);
  CHECK(mentions(t.status(), "rank 33"));
}

TEST_CASE("elements and bytes: at most 2^40 of each", "[limits]") {
  uint64_t bytes = 0;
  CHECK(ir::checkedByteSize({int64_t(1) << 40}, ir::DType::U8, &bytes));
  CHECK(bytes == ir::kMaxTensorBytes);
  CHECK_FALSE(ir::checkedByteSize({int64_t(1) << 20, int64_t(1) << 21}, ir::DType::Bool, &bytes));
  CHECK(ir::shapeLimitReason({int64_t(1) << 20, int64_t(1) << 21}, ir::DType::Bool)
            .find("larger than the limit of 2^40 elements") != std::string::npos);
  CHECK_FALSE(ir::checkedByteSize({int64_t(1) << 39}, ir::DType::F32, &bytes));
  CHECK(ir::shapeLimitReason({int64_t(1) << 39}, ir::DType::F32)
            .find("larger than the limit of 2^40 bytes") != std::string::npos);
  // Overflowing products are caught, and an empty tensor is empty whatever its other dims.
  CHECK_FALSE(ir::checkedByteSize({INT64_MAX, INT64_MAX}, ir::DType::U8, &bytes));
  CHECK(ir::checkedByteSize({INT64_MAX, INT64_MAX, 0}, ir::DType::F32, &bytes));
  CHECK(bytes == 0);
  CHECK(ir::numElements({INT64_MAX, INT64_MAX, 0}) == 0);
  CHECK(ir::numElements({INT64_MAX, 2}) == INT64_MAX);
  CHECK(ir::numElements({-1, 3}) == -3);  // dynamic dims keep their old meaning

  auto m = model();
  addTensorIo(m.mutable_graph()->add_input(), "x", {int64_t(1) << 30, int64_t(1) << 30});
  addTensorIo(m.mutable_graph()->add_output(), "x", {});
  auto r = frontend::importOnnx(save(m, "huge_input.onnx"));
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::ModelTooLarge);
  CHECK(mentions(r.status(), "larger than the limit of 2^40 elements"));
}

TEST_CASE("subgraph nesting: a file nested deeper than the bound is a parse error", "[limits]") {
  // If nodes whose then_branch holds another If, `depth` levels deep.
  auto nested = [](int depth) {
    auto m = model();
    addTensorIo(m.mutable_graph()->add_input(), "c", {1});
    addTensorIo(m.mutable_graph()->add_output(), "y", {1});
    onnx::GraphProto* g = m.mutable_graph();
    for (int i = 0; i < depth; ++i) {
      auto* n = g->add_node();
      n->set_op_type("If");
      n->set_name("if" + std::to_string(i));
      n->add_input("c");
      n->add_output(i == 0 ? "y" : "y" + std::to_string(i));
      auto* a = n->add_attribute();
      a->set_name("then_branch");
      a->set_type(onnx::AttributeProto::GRAPH);
      g = a->mutable_g();
      g->set_name("body" + std::to_string(i));
    }
    return m;
  };
  auto shallow = frontend::importOnnx(save(nested(2), "if2.onnx"));
  REQUIRE_FALSE(shallow.isOk());  // within the bound: read, then refused as unsupported
  CHECK(shallow.status().code() == ErrorCode::UnsupportedOp);
  CHECK(mentions(shallow.status(), "unsupported operator 'If'"));

  auto deep = frontend::importOnnx(save(nested(ir::kMaxSubgraphNesting + 5), "if35.onnx"));
  REQUIRE_FALSE(deep.isOk());
  CHECK(deep.status().code() == ErrorCode::ModelParseFailed);
  CHECK(mentions(deep.status(), "nests messages (subgraphs) at most"));
  auto pre = frontend::precheckOnnx(tmpDir() + "/if35.onnx");
  CHECK_FALSE(pre.isOk());
}

TEST_CASE("an ONNX file over 2 GB is E13023 before protobuf sees it", "[limits]") {
  const char byte = 0;
  // importOnnxBytes checks the size first and never reads past the first byte.
  auto r = frontend::importOnnxBytes(&byte, size_t(INT_MAX) + 1, ".");
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::ModelTooLarge);
  CHECK(mentions(r.status(), "external data"));
}

TEST_CASE("external data: weights over 2 GB import, and bad offsets are errors", "[limits]") {
  const std::string dir = tmpDir();
  // A sparse 2 GiB + 64 byte data file: a single F32 initializer of (2^29 + 16) elements.
  const int64_t n = (int64_t(1) << 29) + 16;
  const std::string data = dir + "/big.data";
  {
    int fd = ::open(data.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, n * 4) == 0);
    ::close(fd);
  }
  auto make = [&](const std::string& offset) {
    auto m = model();
    auto* w = m.mutable_graph()->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(n);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* kv = w->add_external_data();
    kv->set_key("location");
    kv->set_value("big.data");
    kv = w->add_external_data();
    kv->set_key("offset");
    kv->set_value(offset);
    auto* node = m.mutable_graph()->add_node();
    node->set_op_type("Identity");
    node->set_name("id");
    node->add_input("w");
    node->add_output("y");
    addTensorIo(m.mutable_graph()->add_output(), "y", {n});
    return m;
  };
  frontend::OnnxImportOptions opts;
  opts.fold_constants = false;  // keep the weights mapped, not copied
  auto g = frontend::importOnnx(save(make("0"), "big.onnx"), opts);
  INFO((g.isOk() ? std::string() : g.status().toString()));
  REQUIRE(g.isOk());
  const ir::Value* w = g->nodes()[0]->inputs[0];
  REQUIRE(w->isConstant());
  CHECK(w->data->size() == size_t(n) * 4);
  CHECK(w->data->size() > size_t(INT_MAX));

  for (const char* bad : {"x", "-4", "99999999999999999999", ""}) {
    auto r = frontend::importOnnx(save(make(bad), "bad_offset.onnx"), opts);
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::InvalidModel);
    CHECK(mentions(r.status(), "is not a byte count"));
  }
  auto past = frontend::importOnnx(save(make("64"), "past_end.onnx"), opts);
  REQUIRE_FALSE(past.isOk());
  CHECK(mentions(past.status(), "lies outside"));
  std::remove(data.c_str());
}
