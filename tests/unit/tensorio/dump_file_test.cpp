// dump_file_test.cpp: Ascend dump files written and read back, names, corrupted files; .npy
// mapping and .txt parsing.
#include "asc/tensorio/dump_file.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "asc/compare/fusion_rule.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"

using namespace asc;
using namespace asc::tensorio;

namespace {

DumpTensor floats(const std::vector<float>& v, ir::Shape shape) {
  DumpTensor t;
  t.tensor.dtype = ir::DType::F32;
  t.tensor.shape = std::move(shape);
  t.tensor.data = ir::Blob::copyOf(v.data(), v.size() * 4);
  return t;
}

std::string tmp(const std::string& name) {
  REQUIRE(makeDirs(ASC_TEST_TMP "/dump").isOk());
  return ASC_TEST_TMP "/dump/" + name;
}

}  // namespace

TEST_CASE("dump files round-trip through writeDumpFile and readDumpFile", "[tensorio]") {
  DumpData d;
  d.op_name = "conv1";
  d.dump_time = 1700000000000001;
  d.inputs.push_back(floats({1, 2}, {2}));
  d.outputs.push_back(floats({3, 4, 5, 6}, {1, 2, 2}));
  d.outputs.back().original_op_name = "conv1_orig";
  d.outputs.back().original_output_index = 0;
  d.outputs.push_back(floats({7}, {}));
  const std::string path = tmp(dumpFileName("Conv2D", "conv1", 3, 0, 1700000000000001));
  REQUIRE(writeDumpFile(path, d).isOk());
  auto r = readDumpFile(path);
  REQUIRE(r.isOk());
  CHECK(r->op_name == "conv1");
  CHECK(r->dump_time == 1700000000000001u);
  REQUIRE(r->inputs.size() == 1);
  REQUIRE(r->outputs.size() == 2);
  CHECK(r->outputs[0].tensor.shape == ir::Shape{1, 2, 2});
  CHECK(r->outputs[0].tensor.floatAt(3) == 6.0);
  CHECK(r->outputs[0].original_op_name == "conv1_orig");
  CHECK(r->outputs[1].tensor.floatAt(0) == 7.0);
  // The file is 8 + L + sizes.
  auto m = MappedFile::open(path);
  REQUIRE(m.isOk());
  uint64_t len;
  std::memcpy(&len, (*m)->data(), 8);
  CHECK((*m)->size() == 8 + len + 4 * (2 + 4 + 1));
}

TEST_CASE("dump file names follow {op_type}.{op_name}.{task}.{stream}.{timestamp}", "[tensorio]") {
  CHECK(dumpFileName("Conv2D", "/stem/Conv", 12, 0, 42) ==
        "Conv2D._stem_Conv.12.0.0000000000000042");
  DumpName n;
  REQUIRE(parseDumpFileName("Conv2D._stem_Conv.12.1.1700000000000001", &n));
  CHECK(n.op_type == "Conv2D");
  CHECK(n.op_name == "_stem_Conv");
  CHECK(n.task_id == 12);
  CHECK(n.stream_id == 1);
  CHECK(n.timestamp == 1700000000000001u);
  REQUIRE(parseDumpFileName("Relu.r.1.2.123456789012345678901234567890", &n));
  CHECK(n.timestamp == UINT64_MAX);  // saturates, never throws
  CHECK_FALSE(parseDumpFileName("conv.0.123.npy", &n));
  CHECK_FALSE(parseDumpFileName("model_output_0.bin", &n));
}

TEST_CASE("truncated or corrupted dump files are refused, not trusted", "[tensorio]") {
  DumpData d;
  d.op_name = "x";
  d.outputs.push_back(floats({1, 2, 3, 4}, {4}));
  const std::string path = tmp("Relu.x.1.0.1");
  REQUIRE(writeDumpFile(path, d).isOk());
  auto m = MappedFile::open(path);
  REQUIRE(m.isOk());
  std::string bytes(reinterpret_cast<const char*>((*m)->data()), (*m)->size());
  for (size_t cut : {size_t(3), size_t(12), bytes.size() - 1}) {
    const std::string p = tmp("Relu.x.1.0.2");
    REQUIRE(writeFileAtomic(p, bytes.data(), cut).isOk());
    auto r = readDumpFile(p);
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::ModelParseFailed);
  }
  std::string huge = bytes;
  huge[0] = '\x7f';  // header length far past the end
  const std::string p = tmp("Relu.x.1.0.3");
  REQUIRE(writeFileAtomic(p, huge.data(), huge.size()).isOk());
  CHECK_FALSE(readDumpFile(p).isOk());
}

TEST_CASE("dump buffer sizes that wrap around 2^64 when summed are refused", "[tensorio]") {
  // DumpData { buffer { size: 2^63 } buffer { size: 2^63 } } and no data: the sizes sum to 0
  // in 64 bits, which must not pass for "no data".
  std::string buf = "\x2a\x0b\x18";
  buf += std::string(9, '\x80') + '\x01';
  const std::string header = buf + buf;
  std::string bytes(8, '\0');
  bytes[0] = static_cast<char>(header.size());
  bytes += header;
  const std::string p = tmp("Relu.x.1.0.4");
  REQUIRE(writeFileAtomic(p, bytes.data(), bytes.size()).isOk());
  auto r = readDumpFile(p);
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::ModelParseFailed);
}

TEST_CASE("a dump tensor whose bytes do not match its shape is refused by the writer",
          "[tensorio]") {
  DumpData d;
  d.outputs.push_back(floats({1, 2, 3}, {4}));
  CHECK(writeDumpFile(tmp("bad"), d).code() == ErrorCode::InvalidParam);
}

TEST_CASE("little-endian C-order .npy stays mapped; big-endian is converted", "[tensorio]") {
  ir::Tensor t;
  t.dtype = ir::DType::F32;
  t.shape = {2, 2};
  std::vector<float> v = {1, 2, 3, 4};
  t.data = ir::Blob::copyOf(v.data(), 16);
  const std::string path = tmp("a.npy");
  std::string npy = encodeNpy(t);
  REQUIRE(writeFileAtomic(path, npy.data(), npy.size()).isOk());
  auto r = readTensorFile(path);
  REQUIRE(r.isOk());
  CHECK(r->mapped);
  CHECK(r->tensor.floatAt(2) == 3.0);
  // '>f4', Fortran order: values read back in C order
  std::string dict = "{'descr': '>f4', 'fortran_order': True, 'shape': (2, 2), }";
  dict.append((64 - (11 + dict.size()) % 64) % 64, ' ');
  dict += '\n';
  std::string be = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + char(0) + dict;
  for (float f : {1.f, 3.f, 2.f, 4.f}) {  // column-major storage of [[1,2],[3,4]]
    const auto* b = reinterpret_cast<const char*>(&f);
    be += std::string{b[3], b[2], b[1], b[0]};
  }
  const std::string p2 = tmp("b.npy");
  REQUIRE(writeFileAtomic(p2, be.data(), be.size()).isOk());
  auto r2 = readTensorFile(p2);
  REQUIRE(r2.isOk());
  CHECK_FALSE(r2->mapped);
  CHECK(r2->tensor.floatAt(1) == 2.0);
  CHECK(r2->tensor.floatAt(2) == 3.0);
}

TEST_CASE("msame .txt files parse as rows of numbers", "[tensorio]") {
  std::string txt = "1 2 3 \n4 5 6 \n";
  auto t = parseTxt(txt.data(), txt.size(), ir::DType::F32, "t.txt");
  REQUIRE(t.isOk());
  CHECK(t->shape == ir::Shape{2, 3});
  CHECK(t->floatAt(5) == 6.0);
  std::string bad = "1 x 3";
  CHECK(parseTxt(bad.data(), bad.size(), ir::DType::F32, "t.txt").status().code() ==
        ErrorCode::ModelParseFailed);
}

TEST_CASE("fusion rule files give original op names in graph order", "[compare]") {
  const std::string path = tmp("rule.json");
  std::string json = R"({"graph": [{"name": "g", "op": [
    {"name": "in", "type": "Data"},
    {"name": "/c/Conv", "type": "Conv2D", "attr": [{"key": "_datadump_original_op_names",
      "value": {"list": {"s": ["/c/Conv", "/c/Relu"], "val_type": "VT_LIST_STRING"}}}]}]}]})";
  REQUIRE(writeFileAtomic(path, json.data(), json.size()).isOk());
  auto r = compare::readFusionRule(path);
  REQUIRE(r.isOk());
  REQUIRE(r->ops.size() == 2);
  CHECK(r->ops[1].type == "Conv2D");
  CHECK(r->ops[1].original_names == std::vector<std::string>{"/c/Conv", "/c/Relu"});
  CHECK(tensorio::dumpSafeName("/c/Relu") == "_c_Relu");
  const std::string bad = tmp("bad.json");
  REQUIRE(writeFileAtomic(bad, "{", 1).isOk());
  CHECK(compare::readFusionRule(bad).status().code() == ErrorCode::JsonParseFailed);
}

TEST_CASE("a deeply nested fusion rule file is refused quickly", "[compare]") {
  // 200000 levels: protobuf's JSON parser would take minutes before refusing it.
  const std::string path = tmp("deep.json");
  const std::string json = std::string(200000, '[') + std::string(200000, ']');
  REQUIRE(writeFileAtomic(path, json.data(), json.size()).isOk());
  auto r = compare::readFusionRule(path);
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().code() == ErrorCode::JsonParseFailed);
  CHECK(r.status().message().find("deep") != std::string::npos);
  // Brackets inside strings do not count.
  const std::string ok = tmp("brackets.json");
  const std::string text =
      R"({"graph": [{"op": [{"name": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[)"
      R"([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{", "type": "X"}]}]})";
  REQUIRE(writeFileAtomic(ok, text.data(), text.size()).isOk());
  auto r2 = compare::readFusionRule(ok);
  REQUIRE(r2.isOk());
  CHECK(r2->ops.size() == 1);
}

TEST_CASE("a dump tensor's format, original shape and original format round-trip", "[tensorio]") {
  DumpData d;
  d.op_name = "conv";
  DumpTensor t = floats(std::vector<float>(2 * 1 * 2 * 2 * 16, 1.f), {2, 1, 2, 2, 16});
  t.format = 3;  // FORMAT_NC1HWC0
  t.original_shape = {2, 2, 2, 5};
  t.original_format = 1;  // FORMAT_NHWC, without an original op name
  d.outputs.push_back(t);
  DumpTensor in = t;
  in.original_format = 0;
  d.inputs.push_back(in);
  const std::string path = tmp("Conv2D.conv.1.0.0000000000000001");
  REQUIRE(writeDumpFile(path, d).isOk());
  auto r = readDumpFile(path);
  REQUIRE(r.isOk());
  REQUIRE(r->outputs.size() == 1);
  CHECK(r->outputs[0].format == 3);
  CHECK(r->outputs[0].original_shape == ir::Shape{2, 2, 2, 5});
  CHECK(r->outputs[0].original_format == 1);
  REQUIRE(r->inputs.size() == 1);
  CHECK(r->inputs[0].format == 3);
  CHECK(r->inputs[0].original_shape == ir::Shape{2, 2, 2, 5});
}
