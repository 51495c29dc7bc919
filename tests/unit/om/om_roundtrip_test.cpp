// om_roundtrip_test.cpp: ONNX -> OM -> reader gives back the same graph; the container is
// validated (magic, sizes, checksum, alignment) and damaged files are rejected, never crash.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <zlib.h>

#include "asc/frontend/onnx.h"
#include "asc/om/om_file.h"
#include "asc/support/file.h"
#include "om/format.h"

using namespace asc;

namespace {
std::string data(const char* name) { return std::string(ASC_TEST_DATA) + "/" + name; }
std::string tmp(const char* name) {
  REQUIRE(makeDirs(ASC_TEST_TMP "/om").isOk());
  return std::string(ASC_TEST_TMP "/om/") + name;
}
std::string readAll(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
void writeAll(const std::string& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}
om::ModelInfo info() {
  om::ModelInfo i;
  i.soc_version = "Ascend310";
  i.atc_cmdline = "atc --test";
  return i;
}
}  // namespace

TEST_CASE("ONNX -> OM -> graph round trip gives the same graph", "[om]") {
  for (const char* model : {"tiny_conv.onnx", "shape_chain.onnx", "two_inputs.onnx"}) {
    INFO(model);
    auto g = frontend::importOnnx(data(model));
    REQUIRE(g.isOk());
    std::string path = tmp("rt.om");
    REQUIRE(om::writeOm(*g, info(), path).isOk());
    auto back = om::loadOm(path);
    REQUIRE(back.isOk());
    std::string why;
    CHECK(ir::graphsEqual(*g, back->graph, &why));
    INFO(why);
    CHECK(back->summary.integrity == "verified (XXH3, whole file)");
  }
}

TEST_CASE("the header and partitions follow the GE layout", "[om]") {
  auto g = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(g.isOk());
  std::string path = tmp("layout.om");
  REQUIRE(om::writeOm(*g, info(), path).isOk());
  std::string bytes = readAll(path);
  REQUIRE(bytes.size() > 300);
  CHECK(bytes.substr(0, 4) == "IMOD");
  om::FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof(h));
  CHECK(h.headsize == 256);
  CHECK(h.version == 0x20000000u);
  CHECK(h.length == bytes.size() - 256);
  // As CANN 8's ATC writes them (docs/om-format.md).
  CHECK(std::string(h.platform_version) == "1.11.z.0");
  CHECK(h.om_ir_version == 2u);
  CHECK(h.platform_type == 1);
  auto s = om::readOmSummary(path);
  REQUIRE(s.isOk());
  REQUIRE(s->partitions.size() == 3);
  CHECK(s->partitions[0].type == 0);
  CHECK(s->partitions[1].type == 1);
  CHECK(s->partitions[2].type == 2);
  CHECK(s->attrs.at("soc_version") == "Ascend310");
  CHECK(s->attrs.at("weight_size") == std::to_string(s->partitions[1].size));
  CHECK(s->partitions[1].size >= 448 + 16);  // 432 + 16 bytes of weights, 64-byte aligned
  CHECK(s->om_info_list.size() == 5);
  // Weights are 64-byte aligned in the file, so the runtime can use them in place.
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  for (const auto& v : m->graph.values())
    if (v->isConstant()) CHECK(reinterpret_cast<uintptr_t>(v->data->data()) % 64 == 0);
}

TEST_CASE("damaged OM files are rejected with E10041, never crash", "[om]") {
  auto g = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(g.isOk());
  std::string path = tmp("good.om");
  REQUIRE(om::writeOm(*g, info(), path).isOk());
  const std::string good = readAll(path);
  std::string bad = tmp("bad.om");
  for (size_t cut :
       {size_t(0), size_t(10), size_t(255), size_t(256), size_t(300), good.size() - 1}) {
    writeAll(bad, good.substr(0, cut));
    CHECK(om::readOmSummary(bad).status().code() == ErrorCode::ModelLoadFailed);
    CHECK(om::loadOm(bad).status().code() == ErrorCode::ModelLoadFailed);
  }
  // Every damaged byte, header and weights included, fails every reader; a byte inside a
  // partition is named by it. Verify::Skip (msame --skip_verify=true) trusts the bytes.
  auto s = om::readOmSummary(path);
  REQUIRE(s.isOk());
  uint64_t w0 = 0, w1 = 0;
  for (const auto& p : s->partitions)
    if (p.type == om::kWeightsData) w0 = p.offset, w1 = p.offset + p.size;
  REQUIRE(w1 > w0);
  for (size_t pos = 0; pos < good.size(); pos += 7) {
    if (pos >= 12 && pos < 76) continue;  // the checksum record itself: below
    std::string b = good;
    b[pos] = static_cast<char>(b[pos] ^ 0x5a);
    writeAll(bad, b);
    INFO("byte " << pos);
    CHECK(om::readOmSummary(bad).status().code() == ErrorCode::ModelLoadFailed);
    auto m = om::loadOm(bad);
    CHECK(m.status().code() == ErrorCode::ModelLoadFailed);
    if (pos >= w0 && pos < w1) {
      CHECK(m.status().message().find("partition 1 (WEIGHTS_DATA") != std::string::npos);
      CHECK(m.status().message().find("re-convert the model") != std::string::npos);
      auto skipped = om::loadOm(bad, om::Verify::Skip);
      REQUIRE(skipped.isOk());
      CHECK(skipped->summary.integrity == "not verified (skipped)");
    }
  }
  // A damaged record is a mismatch too (or a record of a kind this reader does not know).
  for (size_t pos = 16; pos < 76; ++pos) {
    std::string b = good;
    b[pos] = static_cast<char>(b[pos] ^ 0x01);
    writeAll(bad, b);
    INFO("checksum byte " << pos);
    CHECK(om::loadOm(bad).status().code() == ErrorCode::ModelLoadFailed);
  }
}

TEST_CASE("an OM of an older asc-tools (CRC32 of the file) is verified whole", "[om]") {
  auto g = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(g.isOk());
  std::string path = tmp("crc.om");
  REQUIRE(om::writeOm(*g, info(), path).isOk());
  std::string b = readAll(path);
  // The record atc wrote before 2026-12: "ASCK" and zlib's CRC32 of every byte after the header.
  std::memset(&b[12], 0, 64);
  std::memcpy(&b[12], "ASCK", 4);
  const uint32_t crc = static_cast<uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(b.data() + 256), b.size() - 256));
  std::memcpy(&b[16], &crc, 4);
  writeAll(path, b);
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  CHECK(m->summary.integrity == "verified (CRC32, whole file)");
  b[b.size() - 5] = static_cast<char>(b[b.size() - 5] ^ 0x40);
  writeAll(path, b);
  auto bad = om::loadOm(path);
  CHECK(bad.status().code() == ErrorCode::ModelLoadFailed);
  CHECK(bad.status().message().find("CRC32 of the whole file") != std::string::npos);
}

TEST_CASE("a file without our checksum is still fully validated", "[om]") {
  auto g = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(g.isOk());
  std::string path = tmp("nock.om");
  REQUIRE(om::writeOm(*g, info(), path).isOk());
  std::string good = readAll(path);
  std::memset(&good[12], 0, 64);  // as another writer leaves the checksum field
  std::string p2 = tmp("nock2.om");
  writeAll(p2, good);
  auto m = om::loadOm(p2);
  REQUIRE(m.isOk());
  CHECK(m->summary.integrity == "none");
  // Now damage every byte in turn: the reader must fail cleanly or load something valid.
  for (size_t pos = 256; pos < good.size(); pos += 3) {
    std::string b = good;
    b[pos] = static_cast<char>(b[pos] ^ 0xff);
    writeAll(p2, b);
    auto r = om::loadOm(p2);
    if (!r.isOk()) CHECK(r.status().code() == ErrorCode::ModelLoadFailed);
  }
}

TEST_CASE("OM JSON renders ops with shapes", "[om]") {
  auto g = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(g.isOk());
  std::string path = tmp("json.om");
  REQUIRE(om::writeOm(*g, info(), path).isOk());
  auto j = om::omToJson(path);
  REQUIRE(j.isOk());
  CHECK(j->find("\"type\": \"Conv2D\"") != std::string::npos);
  CHECK(j->find("\"name\": \"conv1\"") != std::string::npos);
  CHECK(j->find("\"key\": \"_datadump_original_op_names\"") != std::string::npos);
  CHECK(j->find("\"dtype\": \"DT_FLOAT\"") != std::string::npos);
  auto j2 = om::omToJson(path);
  CHECK(*j == *j2);  // deterministic
}

TEST_CASE("An empty constant keeps the checksum right", "[om]") {
  // An empty tensor once reset the running checksum (zlib's crc32 restarts on a null buffer).
  ir::Graph g;
  g.name = "empty_const";
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {2};
  g.inputs.push_back(x);
  ir::Value* y = g.addValue("y");
  y->dtype = ir::DType::F32;
  y->shape = {2};
  g.addNode("Relu", "relu", {x}, {y});
  ir::Value* e = g.addConstant("e", ir::Tensor{ir::DType::F32, {0}, ir::Blob::copyOf(nullptr, 0)});
  g.outputs = {y, e};
  const std::string path = tmp("empty_const.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  CHECK(m->summary.verified());
  CHECK(m->graph.outputs.size() == 2);
}

TEST_CASE("the OM's plan puts Concat inputs inside its output, as the runtime does", "[om]") {
  // x -> Relu a, Neg b -> Concat(a, b) -> Relu c, and a read after c by Identity d: b is
  // joined (its bytes follow a's inside the Concat's buffer); a is read after the Concat's last
  // reader, so it keeps a buffer of its own.
  ir::Graph g;
  g.opset = 13;
  g.name = "joins";
  auto value = [&](const std::string& name, ir::Shape s) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F32;
    v->shape = std::move(s);
    return v;
  };
  ir::Value* x = value("x", {1, 4, 3, 3});
  g.inputs.push_back(x);
  ir::Value* a = value("a", {1, 4, 3, 3});
  ir::Value* b = value("b", {1, 4, 3, 3});
  ir::Value* cat = value("cat", {1, 8, 3, 3});
  ir::Value* c = value("c", {1, 8, 3, 3});
  ir::Value* d = value("d", {1, 4, 3, 3});
  g.addNode("Relu", "ra", {x}, {a});
  g.addNode("Neg", "nb", {x}, {b});
  g.addNode("Concat", "cat", {a, b}, {cat})->attrs.set("axis", int64_t{1});
  g.addNode("Relu", "rc", {cat}, {c});
  g.addNode("Relu", "rd", {a}, {d});
  g.outputs = {c, d};
  const std::string path = tmp("joins.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  std::map<std::string, uint64_t> at;
  for (const auto& [v, off] : m->activation_offsets) at[v->name] = off;
  REQUIRE(at.count("b"));
  REQUIRE(at.count("cat"));
  CHECK(at["b"] == at["cat"] + 4 * 9 * 4);
  // a lives in its own bytes: outside the Concat's, which are live while a is.
  CHECK((at["a"] + 4 * 9 * 4 <= at["cat"] || at["a"] >= at["cat"] + 8 * 9 * 4));
}

TEST_CASE("a background check of many chunks finds a flipped weight byte", "[om][checksum]") {
  // 5 chunks of weights (20 MiB): the helper thread and finish() share them.
  ir::Graph g;
  g.name = "big_weights";
  g.opset = 13;
  const int64_t n = 5 * (int64_t(1) << 20);
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {n};
  g.inputs.push_back(x);
  std::vector<float> w(static_cast<size_t>(n));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 977);
  ir::Value* c = g.addConstant(
      "c", ir::Tensor{ir::DType::F32, {n}, ir::Blob::copyOf(w.data(), w.size() * sizeof(float))});
  ir::Value* y = g.addValue("y");
  y->dtype = ir::DType::F32;
  y->shape = {n};
  g.addNode("Add", "add", {x, c}, {y});
  g.outputs = {y};
  const std::string path = tmp("big.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto m = om::loadOm(path, om::Verify::Background);
  REQUIRE(m.isOk());
  REQUIRE(m->pending);
  CHECK(m->pending->finish().isOk());
  auto s = om::readOmSummary(path);
  REQUIRE(s.isOk());
  uint64_t w0 = 0, wn = 0;
  for (const auto& p : s->partitions)
    if (p.type == om::kWeightsData) w0 = p.offset, wn = p.size;
  REQUIRE(wn >= uint64_t(n) * 4);
  std::string b = readAll(path);
  for (uint64_t at : {w0, w0 + (uint64_t(1) << 22) + 5, w0 + wn - 1}) {
    INFO("byte " << at);
    std::string d = b;
    d[at] = static_cast<char>(d[at] ^ 0x20);
    const std::string bad = tmp("big_bad.om");
    writeAll(bad, d);
    auto lm = om::loadOm(bad, om::Verify::Background);
    REQUIRE(lm.isOk());  // the weights' check is still pending
    REQUIRE(lm->pending);
    Status st = lm->pending->finish();
    CHECK(st.code() == ErrorCode::ModelLoadFailed);
    CHECK(st.message().find("partition 1 (WEIGHTS_DATA") != std::string::npos);
    CHECK(om::loadOm(bad).status().code() == ErrorCode::ModelLoadFailed);
    // Dropped unfinished, the check stops its helper (no thread left behind, no crash).
    auto dropped = om::loadOm(bad, om::Verify::Background);
    REQUIRE(dropped.isOk());
  }
}
