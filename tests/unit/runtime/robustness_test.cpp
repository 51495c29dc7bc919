// robustness_test.cpp: inputs that once crashed or miscomputed (found in review): integer
// INT_MIN / -1, shapes whose byte size overflows, and a node named like a tensor in the OM.
#include <catch2/catch.hpp>

#include <climits>
#include <cstring>

#include "asc/om/om_file.h"
#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"

using namespace asc;

TEST_CASE("integer Div of INT64_MIN by -1 wraps instead of trapping", "[runtime][robust]") {
  ir::Graph g;
  ir::Value* a = g.addValue("a");
  ir::Value* b = g.addValue("b");
  for (ir::Value* v : {a, b}) {
    v->dtype = ir::DType::I64;
    v->shape = {2};
    g.inputs.push_back(v);
  }
  ir::Value* y = g.addValue("y");
  g.addNode("Div", "div", {a, b}, {y});
  g.outputs.push_back(y);
  REQUIRE(ops::inferGraph(g).isOk());
  auto s = runtime::Session::fromGraph(std::move(g));
  REQUIRE(s.isOk());
  int64_t x[2] = {INT64_MIN, 7}, d[2] = {-1, 0};
  REQUIRE((*s)->setInput(0, x, 16).isOk());
  REQUIRE((*s)->setInput(1, d, 16).isOk());
  REQUIRE((*s)->run().isOk());
  const auto* out = static_cast<const int64_t*>((*s)->outputData(0));
  CHECK(out[0] == INT64_MIN);
  CHECK(out[1] == 0);  // integer division by zero at run time gives 0
}

TEST_CASE("byte sizes that overflow are refused", "[ir][robust]") {
  uint64_t bytes = 0;
  CHECK(ir::checkedByteSize({2, 3}, ir::DType::F32, &bytes));
  CHECK(bytes == 24);
  CHECK_FALSE(ir::checkedByteSize({int64_t(1) << 40, int64_t(1) << 22}, ir::DType::F32, &bytes));
  CHECK_FALSE(ir::checkedByteSize({int64_t(1) << 39, 4}, ir::DType::F32, &bytes));
  CHECK_FALSE(ir::checkedByteSize({-1}, ir::DType::F32, &bytes));
  std::string npy = "\x93NUMPY";
  npy += '\x01';
  npy += '\x00';
  std::string h = "{'descr': '<f4', 'fortran_order': True, 'shape': (1099511627776, 4194304), }";
  h.append(64 - (10 + h.size() + 1) % 64, ' ');
  h += '\n';
  npy += static_cast<char>(h.size() & 0xff);
  npy += static_cast<char>(h.size() >> 8);
  npy += h;
  auto t = tensorio::parseNpy(npy.data(), npy.size(), "crash.npy");
  REQUIRE_FALSE(t.isOk());
  CHECK(t.status().message().find("larger than") != std::string::npos);
}

TEST_CASE("a node named like a tensor keeps its wiring through the OM", "[om][robust]") {
  // z = Add(x, Relu_named_x(x)): the Relu node shares its name with the input tensor.
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {4};
  g.inputs.push_back(x);
  ir::Value* y = g.addValue("y");
  ir::Value* z = g.addValue("z");
  g.addNode("Relu", "x", {x}, {y});
  g.addNode("Add", "add", {x, y}, {z});
  g.outputs.push_back(z);
  REQUIRE(ops::inferGraph(g).isOk());
  REQUIRE(makeDirs(ASC_TEST_TMP "/robust").isOk());
  const std::string path = ASC_TEST_TMP "/robust/collide.om";
  om::ModelInfo info;
  info.soc_version = "Ascend310";
  REQUIRE(om::writeOm(g, info, path).isOk());
  auto s = runtime::Session::load(path);
  REQUIRE(s.isOk());
  float in[4] = {-1, -2, 3, 4};
  REQUIRE((*s)->setInput(0, in, 16).isOk());
  REQUIRE((*s)->run().isOk());
  const float* out = static_cast<const float*>((*s)->outputData(0));
  CHECK(out[0] == -1.f);
  CHECK(out[1] == -2.f);
  CHECK(out[2] == 6.f);
  CHECK(out[3] == 8.f);
}
