// fp16_test.cpp: tensors stored as fp16 stay fp16 in memory and compute in fp32: the runtime
// converts at op boundaries, and data-movement ops pass the fp16 bytes through unconverted.
#include <catch2/catch.hpp>

#include "asc/runtime/session.h"
#include "asc/support/fp16.h"
#include "cpu/convert.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace asc;

TEST_CASE("fp16 storage, fp32 compute", "[runtime][fp16]") {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F16;
  x->shape = {2, 3};
  g.inputs.push_back(x);
  std::vector<uint16_t> c(6);
  for (int i = 0; i < 6; ++i) c[i] = floatToHalf(0.1f * float(i) - 0.2f);
  ir::Value* k =
      g.addConstant("k", ir::Tensor{ir::DType::F16, {2, 3}, ir::Blob::copyOf(c.data(), 12)});
  auto mk = [&](const char* name, ir::Shape s) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F16;
    v->shape = std::move(s);
    return v;
  };
  ir::Value* sum = mk("sum", {2, 3});
  ir::Value* relu = mk("relu", {2, 3});
  ir::Value* t = mk("t", {3, 2});
  g.addNode("Add", "add", {x, k}, {sum});
  g.addNode("Relu", "relu", {sum}, {relu});
  ir::Node* tr = g.addNode("Transpose", "tr", {relu}, {t});
  tr->attrs.set("perm", std::vector<int64_t>{1, 0});
  g.outputs.push_back(t);

  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  REQUIRE((*s)->outputs()[0].dtype == ir::DType::F16);
  CHECK((*s)->describe().find("convert") != std::string::npos);
  std::vector<uint16_t> in(6);
  for (int i = 0; i < 6; ++i) in[i] = floatToHalf(0.3f * float(i) - 0.5f);
  REQUIRE((*s)->setInput(0, in.data(), 12).isOk());
  REQUIRE((*s)->run().isOk());
  const auto* out = static_cast<const uint16_t*>((*s)->outputData(0));
  for (int r = 0; r < 2; ++r)
    for (int col = 0; col < 3; ++col) {
      const int i = r * 3 + col;
      const float want = std::max(0.f, halfToFloat(in[i]) + halfToFloat(c[i]));
      CHECK(out[col * 2 + r] == floatToHalf(want));  // transposed, rounded once to fp16
    }
}

TEST_CASE("the bulk fp16 conversions agree bit for bit with the scalar ones", "[runtime][fp16]") {
  // atc's precision pass converts weights with the bulk (F16C) path; the scalar one is the
  // reference. Special values, the rounding boundaries, subnormals, overflow and a sweep of bits.
  std::vector<float> f = {0.f,
                          -0.f,
                          1.f,
                          -1.f,
                          65504.f,
                          65520.f,
                          1e6f,
                          -1e6f,
                          5.96e-8f,
                          2.98e-8f,
                          6.1e-5f,
                          1.0009765625f,
                          1.00048828125f,
                          1.00146484375f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          1e-30f};
  for (uint32_t bits = 0; bits < 0xFFFFFFFFu - 0x10003u; bits += 0x10003u) {
    float x;
    std::memcpy(&x, &bits, 4);
    if (!std::isnan(x)) f.push_back(x);
  }
  std::vector<uint16_t> bulk(f.size());
  cpu::floatToHalf(f.data(), bulk.data(), f.size());
  size_t differ = 0;
  for (size_t i = 0; i < f.size(); ++i) differ += bulk[i] != floatToHalf(f[i]);
  CHECK(differ == 0);
  std::vector<float> back(f.size());
  cpu::halfToFloat(bulk.data(), back.data(), f.size());
  for (size_t i = 0; i < f.size(); ++i) differ += back[i] != halfToFloat(bulk[i]);
  CHECK(differ == 0);
  // NaN stays NaN (payloads may differ between the two paths).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  uint16_t h;
  cpu::floatToHalf(&nan, &h, 1);
  CHECK(std::isnan(halfToFloat(h)));
}
