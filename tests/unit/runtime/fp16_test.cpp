// fp16_test.cpp: tensors stored as fp16 stay fp16 in memory and compute in fp32: the runtime
// converts at op boundaries, and data-movement ops pass the fp16 bytes through unconverted.
#include <catch2/catch.hpp>

#include "asc/runtime/session.h"
#include "asc/support/fp16.h"

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
