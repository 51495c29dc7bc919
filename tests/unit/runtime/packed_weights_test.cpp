// packed_weights_test.cpp: atc stores each weight a kernel rearranges in the layout the kernel
// reads on the compiling CPU (packWeights): a blocked layout alone, a Winograd one beside
// the plain data. A session reads the packed copy in place when its kernel wants exactly that
// layout, else reorders the plain bytes (unpacked from the packed copy when it is stored alone).
// Either way the results are the very bits an unpacked model gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "asc/compiler/compile.h"
#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "om/format.h"
#include "ops/dnnl_util.h"

using namespace asc;

namespace {

// Some of oneDNN's weight layouts follow the thread count, and a session takes fewer threads
// when other processes keep cores busy: the tests that read packed weights in place pin the
// count (as packWeights does for an idle machine) so that they hold on a loaded machine.
struct PinThreads {
  PinThreads() { setenv("ASC_NUM_THREADS", "2", 1); }
  ~PinThreads() { unsetenv("ASC_NUM_THREADS"); }
};

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

// x [1,64,14,14] -> 3x3 conv (Winograd's kind on AVX-512) -> 1x1 conv to 96 channels; and a
// second input through a MatMul with constant weights. Every weight is over the 16 KiB under
// which the writer keeps a plain copy beside a packed one.
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
  ir::Value* y = activation(g, "y", {1, 96, 14, 14});
  ir::Node* c2 = g.addNode("Conv", "conv1x1", {h, constant(g, "w2", {96, 64, 1, 1}, 0.1f)}, {y});
  c2->attrs.set("kernel_shape", std::vector<int64_t>{1, 1});
  ir::Value* z = activation(g, "z", {4, 96});
  g.addNode("MatMul", "matmul", {a, constant(g, "w3", {64, 96}, 0.2f)}, {z});
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
  PinThreads pin;
  auto plain = runtime::Session::fromGraph(model());
  REQUIRE(plain.isOk());
  const auto want = run(**plain);

  ir::Graph g = model();
  auto n = packWeights(g);
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
  CHECK(g.findValue("w2")->data->size() == 96 * 64 * 4);

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

  // Blocked copies are stored alone: the file holds no plain bytes for them, and a load makes
  // none while its kernels read the packed copies in place.
  size_t alone = 0, plain_bytes = 0;
  for (const char* w : {"w1", "w2", "w3"}) {
    const ir::Value* v = g.findValue(w);
    if (v->packed && v->packing.rfind("blocked ", 0) == 0)
      ++alone;
    else
      plain_bytes += v->byteSize();
  }
  CHECK(alone >= 1);
  uint64_t packed_bytes = 0;
  for (const char* w : {"w1", "w2", "w3"})
    if (g.findValue(w)->packed) packed_bytes += g.findValue(w)->packed->size();
  uint64_t section = 0;
  for (const auto& part : m->summary.partitions)
    if (part.type == 1) section = part.size;           // WEIGHTS_DATA
  CHECK(section < packed_bytes + plain_bytes + 4096);  // bias and alignment aside
  auto s = runtime::Session::load(path);
  REQUIRE(s.isOk());
  CHECK((*s)->packedWeights().in_place == *n);
  CHECK((*s)->packedWeights().reordered == 0);
  CHECK(run(**s) == want);
  for (const char* w : {"w1", "w2", "w3"}) {
    INFO(w);
    const ir::Value* v = m->graph.findValue(w);
    if (v->packed && v->packing.rfind("blocked ", 0) == 0) CHECK_FALSE(v->data->ready());
  }
}

TEST_CASE(
    "weights stored only packed are unpacked, exactly, for a kernel that wants another "
    "layout",
    "[runtime][packed]") {
  PinThreads pin;
  auto plain = runtime::Session::fromGraph(model());
  REQUIRE(plain.isOk());
  const auto want = run(**plain);
  const ir::Graph original = model();
  ir::Graph g = model();
  REQUIRE(packWeights(g).isOk());
  const std::string path = tmp("alone.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  size_t alone = 0;
  for (const char* w : {"w1", "w2", "w3"}) {
    ir::Value* v = m->graph.findValue(w);
    if (!v->packed || v->packing.rfind("blocked ", 0) != 0) continue;
    ++alone;
    REQUIRE_FALSE(v->data->ready());
    // As a CPU whose kernels want another layout sees it.
    v->packing += " (another CPU)";
  }
  REQUIRE(alone >= 1);
  auto s = runtime::Session::fromGraph(m->graph.clone());
  REQUIRE(s.isOk());
  CHECK(run(**s) == want);
  // The unpacked bytes are the model's own, bit for bit.
  for (const char* w : {"w1", "w2", "w3"}) {
    INFO(w);
    const ir::Value* v = m->graph.findValue(w);
    const ir::Value* o = original.findValue(w);
    REQUIRE(v->data->size() == o->data->size());
    CHECK(std::memcmp(v->data->data(), o->data->data(), o->data->size()) == 0);
  }
}

TEST_CASE("a packed layout's name from a file is checked before it is used", "[runtime][packed]") {
  PinThreads pin;
  ir::Graph g = model();
  REQUIRE(packWeights(g).isOk());
  const ir::Value* w2 = g.findValue("w2");
  REQUIRE(w2->packed);
  const std::string good = w2->packing;
  if (good.rfind("blocked ", 0) != 0) return;  // nothing blocked to check on this CPU
  const size_t bytes = w2->packed->size();
  auto md = cpu::parsePacking(good, w2->shape, bytes);
  REQUIRE(md.isOk());
  CHECK(md->get_size() == bytes);
  auto bad = [&](std::string text, const ir::Shape& shape, size_t size) {
    INFO(text);
    auto r = cpu::parsePacking(text, shape, size);
    REQUIRE_FALSE(r.isOk());
    CHECK(r.status().code() == ErrorCode::InvalidModel);
  };
  auto with = [&](const std::string& key, const std::string& value) {
    const size_t at = good.find(key + "=");
    REQUIRE(at != std::string::npos);
    const size_t end = good.find(' ', at);
    return good.substr(0, at) + key + "=" + value +
           (end == std::string::npos ? std::string() : good.substr(end));
  };
  bad(good, {32, 64, 3, 3}, bytes);  // another tensor's shape
  bad(good, {32, 65}, bytes);        // other elements in any dims
  bad(good, w2->shape, bytes - 4);   // fewer bytes than the layout needs
  bad(good, w2->shape, bytes + 64);  // more: oneDNN sizes it otherwise
  bad(with("strides", "1,1,1,1000000000"), w2->shape, bytes);
  bad(with("strides", "-1,1,1,1"), w2->shape, bytes);
  bad(with("offset0", "16"), w2->shape, bytes);
  bad(with("offsets", "0,1,0,0"), w2->shape, bytes);
  bad(with("padded", "4096,64,1,1"), w2->shape, bytes);
  bad(with("dims", "32,64,1"), w2->shape, bytes);
  bad(with("inner", "16:9"), w2->shape, bytes);
  bad(with("inner", "999999:0"), w2->shape, bytes);
  bad(with("strides", "99999999999999999999,1,1,1"), w2->shape, bytes);
  bad(with("extra", "1,0,0,0"), w2->shape, bytes);
  bad("wino " + good.substr(8), w2->shape, bytes);
  bad("blocked 3", w2->shape, bytes);
  bad("", w2->shape, bytes);
  bad(good + " ", w2->shape, bytes);

  // In a file whose w2 is stored only packed: a load refuses the model, naming the constant.
  // The name is altered in the written file (same length; the checksum skipped so the layout's
  // own check is reached), since the writer stores only a layout it can describe alone.
  const std::string path = tmp("badpacking.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  const std::string worse = with("extra", "1,0,0,0");
  REQUIRE(worse.size() == good.size());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const size_t at = bytes.find(good);
    REQUIRE(at != std::string::npos);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(worse.data(), static_cast<std::streamsize>(worse.size()));
  }
  auto m = om::loadOm(path, om::Verify::Skip);
  REQUIRE_FALSE(m.isOk());
  CHECK(m.status().code() == ErrorCode::ModelLoadFailed);
  CHECK(m.status().message().find("w2") != std::string::npos);
}

TEST_CASE("weights packed for another CPU are reordered from the plain copy", "[runtime][packed]") {
  PinThreads pin;
  auto plain = runtime::Session::fromGraph(model());
  REQUIRE(plain.isOk());
  const auto want = run(**plain);
  ir::Graph g = model();
  auto n = packWeights(g);
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

// model() with every weight misaligned where it lies, as raw_data in an ONNX file often is.
ir::Graph misalignedModel() {
  ir::Graph g = model();
  for (const char* w : {"w1", "b1", "w2", "w3"}) {
    ir::Value* v = g.findValue(w);
    const size_t n = v->data->size();
    auto storage = std::make_shared<std::vector<uint8_t>>(n + 8);
    uint8_t* p = storage->data() + 1 + (4 - reinterpret_cast<uintptr_t>(storage->data()) % 4) % 4;
    std::memcpy(p, v->data->data(), n);
    v->data = ir::Blob::unaligned(p, n, storage);
  }
  return g;
}

TEST_CASE("atc packs misaligned weights from where they lie, as it writes the OM",
          "[runtime][packed][om]") {
  PinThreads pin;
  auto plain = runtime::Session::fromGraph(model());
  REQUIRE(plain.isOk());
  const auto want = run(**plain);

  ir::Graph aligned = model(), g = misalignedModel();
  auto n = packWeights(g);
  REQUIRE(n.isOk());
  REQUIRE(packWeights(aligned).isOk());
  CHECK(*n >= 2);
  for (const char* w : {"w1", "w2", "w3"}) {
    INFO(w);
    const ir::Value* v = g.findValue(w);
    CHECK(bool(v->packed) == bool(aligned.findValue(w)->packed));
    if (!v->packed) continue;
    CHECK(v->packing == aligned.findValue(w)->packing);
    // Neither copy exists yet: the packed one is made when the OM is written, from the plain
    // bytes where they lie.
    CHECK_FALSE(v->packed->ready());
    CHECK_FALSE(v->data->ready());
  }
  const std::string path = tmp("misaligned.om"), path_aligned = tmp("aligned.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  REQUIRE(om::writeOm(aligned, info(), path_aligned).isOk());
  // Streamed into the file, never held: still no copy of a weight stored packed alone.
  for (const char* w : {"w1", "w2", "w3"}) {
    const ir::Value* v = g.findValue(w);
    if (!v->packed) continue;
    CHECK_FALSE(v->packed->ready());
    if (v->packing.rfind("blocked ", 0) == 0) CHECK_FALSE(v->data->ready());
  }
  // The very file the aligned weights give, and its checksum holds.
  CHECK(readAll(path) == readAll(path_aligned));
  auto m = om::loadOm(path);
  REQUIRE(m.isOk());
  CHECK(m->summary.verified());
  auto s = runtime::Session::load(path);
  REQUIRE(s.isOk());
  CHECK((*s)->packedWeights().in_place == *n);
  CHECK(run(**s) == want);
  // And a session built on the packed graph in memory makes what it reads on request.
  auto mem = runtime::Session::fromGraph(g.clone());
  REQUIRE(mem.isOk());
  CHECK(run(**mem) == want);
}

TEST_CASE("a constant two nodes read, or a dynamic graph, is not packed", "[runtime][packed]") {
  PinThreads pin;
  ir::Graph g = model();
  // The 1x1 convolution's weights also become an output of the graph: not packed (an output is
  // read plain).
  g.outputs.push_back(g.findValue("w2"));
  auto n = packWeights(g);
  REQUIRE(n.isOk());
  CHECK(g.findValue("w1")->packed);
  CHECK_FALSE(g.findValue("w2")->packed);

  ir::Graph d = model();
  d.dynamic = true;
  auto none = packWeights(d);
  REQUIRE(none.isOk());
  CHECK(*none == 0);
}

TEST_CASE("a load checks every byte, packed weights included, unless told to skip",
          "[runtime][packed][om]") {
  PinThreads pin;
  ir::Graph g = model();
  REQUIRE(packWeights(g).isOk());
  const std::string path = tmp("crc.om");
  REQUIRE(om::writeOm(g, info(), path).isOk());
  auto good = om::loadOm(path);
  REQUIRE(good.isOk());
  CHECK(good->summary.integrity == "verified (XXH3, whole file)");
  auto sum = om::readOmSummary(path);
  REQUIRE(sum.isOk());
  CHECK(sum->verified());

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
  // A damaged weight: every reader fails, naming WEIGHTS_DATA; a session does not load.
  const std::string wp = damaged(w->offset + 8);
  for (auto st : {om::loadOm(wp).status(), om::readOmSummary(wp).status(),
                  runtime::Session::load(wp).status()}) {
    REQUIRE_FALSE(st.isOk());
    CHECK(st.code() == ErrorCode::ModelLoadFailed);
    CHECK(st.message().find("checksum mismatch in partition 1 (WEIGHTS_DATA") != std::string::npos);
  }
  // Told to skip, the session loads and runs (on the damaged weight).
  runtime::SessionOptions skip;
  skip.verify = om::Verify::Skip;
  auto trusted = runtime::Session::load(wp, skip);
  REQUIRE(trusted.isOk());
  CHECK((*trusted)->run().isOk());
  // A damaged ModelDef: the load fails, naming it.
  const std::string mp = damaged(om::kHeaderSize + 40);
  auto ms = om::loadOm(mp);
  REQUIRE_FALSE(ms.isOk());
  CHECK(ms.status().message().find("partition 0 (MODEL_DEF") != std::string::npos);
}
