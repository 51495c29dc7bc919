// graph_test.cpp: graph building, verifier and comparison.
#include <catch2/catch.hpp>

#include <string>
#include <type_traits>

#include "asc/ir/graph.h"

using namespace asc;
using namespace asc::ir;

TEST_CASE("values get unique names", "[ir]") {
  Graph g;
  CHECK(g.addValue("x")->name == "x");
  CHECK(g.addValue("x")->name == "x_1");
  CHECK(g.findValue("x_1") != nullptr);
}

TEST_CASE("the verifier catches use before definition", "[ir]") {
  Graph g;
  Value* x = g.addValue("x");
  x->dtype = DType::F32;
  x->shape = {2};
  g.inputs.push_back(x);
  Value* a = g.addValue("a");
  Value* b = g.addValue("b");
  a->dtype = b->dtype = DType::F32;
  a->shape = b->shape = {2};
  g.addNode("Relu", "r2", {a}, {b});  // uses a before r1 produces it
  g.addNode("Relu", "r1", {x}, {a});
  g.outputs.push_back(b);
  Status s = verify(g);
  REQUIRE_FALSE(s.isOk());
  CHECK(s.message().find("r2") != std::string::npos);
}

TEST_CASE("a constant with the wrong byte count fails verification", "[ir]") {
  Graph g;
  std::vector<uint8_t> bytes(7);
  g.addConstant("c", Tensor{DType::F32, {2}, Blob::fromVector(bytes)});
  CHECK_FALSE(verify(g).isOk());
}

TEST_CASE("graphsEqual reports the first difference", "[ir]") {
  auto make = [](float alpha) {
    Graph g;
    Value* x = g.addValue("x");
    x->dtype = DType::F32;
    x->shape = {1, 2};
    g.inputs.push_back(x);
    Value* y = g.addValue("y");
    y->dtype = DType::F32;
    y->shape = {1, 2};
    Node* n = g.addNode("LeakyRelu", "lr", {x}, {y});
    n->attrs.set("alpha", alpha);
    g.outputs.push_back(y);
    return g;
  };
  Graph a = make(0.1f), b = make(0.1f), c = make(0.2f);
  std::string why;
  CHECK(graphsEqual(a, b, &why));
  CHECK_FALSE(graphsEqual(a, c, &why));
  CHECK(why.find("attributes") != std::string::npos);
  CHECK(printGraph(a).find("LeakyRelu[lr]") != std::string::npos);
}

TEST_CASE("Tensor element access converts types", "[ir]") {
  std::vector<int32_t> v = {3, -4};
  Tensor t{DType::I32, {2}, Blob::copyOf(v.data(), 8)};
  CHECK(t.toInts() == std::vector<int64_t>{3, -4});
  CHECK(t.floatAt(1) == -4.0);
}

TEST_CASE("visitNumeric gives each numeric dtype its C++ type, others the fallback", "[ir]") {
  auto describe = [](ir::DType t) {
    return ir::visitNumeric(
        t,
        [](auto tag) -> std::string {
          using T = typename decltype(tag)::type;
          return std::string(std::is_floating_point<T>::value ? "f"
                             : std::is_signed<T>::value       ? "i"
                                                              : "u") +
                 std::to_string(8 * sizeof(T));
        },
        [] { return std::string("other"); });
  };
  CHECK(describe(ir::DType::F32) == "f32");
  CHECK(describe(ir::DType::F64) == "f64");
  CHECK(describe(ir::DType::I8) == "i8");
  CHECK(describe(ir::DType::U8) == "u8");
  CHECK(describe(ir::DType::I16) == "i16");
  CHECK(describe(ir::DType::U16) == "u16");
  CHECK(describe(ir::DType::I32) == "i32");
  CHECK(describe(ir::DType::U32) == "u32");
  CHECK(describe(ir::DType::I64) == "i64");
  CHECK(describe(ir::DType::U64) == "u64");
  for (ir::DType t : {ir::DType::F16, ir::DType::BF16, ir::DType::Bool, ir::DType::I4,
                      ir::DType::F8E4M3FN, ir::DType::Undefined})
    CHECK(describe(t) == "other");
}
