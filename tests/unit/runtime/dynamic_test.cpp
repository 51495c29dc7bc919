// dynamic_test.cpp: a dynamic graph (shapes known only at run time) runs through the runtime's
// DynamicModel: a Reshape whose shape is a graph input, or is computed inside the graph, gets the
// value of each run; each distinct shape is compiled once and reused; dynamic input dims take the
// shape set for them and refuse what the declaration rules out.
#include <catch2/catch.hpp>

#include <cstring>
#include <numeric>

#include "asc/runtime/session.h"
#include "asc/runtime/shape_compiler.h"

using namespace asc;

namespace {

ir::Value* input(ir::Graph& g, const char* name, ir::DType dt, ir::Shape shape) {
  ir::Value* v = g.addValue(name);
  v->dtype = dt;
  v->shape = std::move(shape);
  g.inputs.push_back(v);
  return v;
}

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.f);
  return v;
}

std::vector<float> output(const runtime::Session& s, size_t i) {
  const auto& info = s.outputs()[i];
  std::vector<float> out(info.bytes / 4);
  std::memcpy(out.data(), s.outputData(i), info.bytes);
  return out;
}

// x [2, 6] reshaped to the shape given by input s: a dynamic graph.
ir::Graph reshapeToInput() {
  ir::Graph g;
  ir::Value* x = input(g, "x", ir::DType::F32, {2, 6});
  ir::Value* s = input(g, "s", ir::DType::I64, {2});
  ir::Value* y = g.addValue("y");
  g.addNode("Reshape", "reshape", {x, s}, {y});
  g.outputs = {y};
  g.dynamic = true;
  return g;
}

}  // namespace

TEST_CASE("Reshape to a shape given at run time compiles each shape once", "[runtime][dynamic]") {
  auto r = runtime::Session::fromGraph(reshapeToInput());
  REQUIRE(r.isOk());
  runtime::Session& sess = **r;
  CHECK(sess.isDynamic());
  CHECK(sess.compiledShapes() == 0);
  const auto data = iota(12);
  REQUIRE(sess.setInput(0, data.data(), data.size() * 4).isOk());
  auto runWith = [&](std::vector<int64_t> shape) {
    REQUIRE(sess.setInput(1, shape.data(), shape.size() * 8).isOk());
    REQUIRE(sess.run().isOk());
    CHECK(sess.outputs()[0].shape == ir::Shape(shape.begin(), shape.end()));
    CHECK(output(sess, 0) == data);
  };
  runWith({3, 4});
  runWith({12, 1});
  CHECK(sess.compiledShapes() == 2);
  runWith({3, 4});  // cached: nothing compiled
  CHECK(sess.compiledShapes() == 2);
  // A shape the data cannot take is the Reshape's own error, at run time.
  std::vector<int64_t> bad = {5, 5};
  REQUIRE(sess.setInput(1, bad.data(), 16).isOk());
  Status st = sess.run();
  CHECK(st.code() == ErrorCode::InvalidModel);
  CHECK_THAT(st.message(), Catch::Contains("reshape"));
}

TEST_CASE("A shape computed inside the graph is evaluated by the graph's prefix",
          "[runtime][dynamic]") {
  // y = Reshape(x, s * [1, 2]): the Mul's output is what the Reshape needs as a value.
  ir::Graph g;
  ir::Value* x = input(g, "x", ir::DType::F32, {2, 6});
  ir::Value* s = input(g, "s", ir::DType::I64, {2});
  std::vector<int64_t> k = {1, 2};
  ir::Value* kc =
      g.addConstant("k", ir::Tensor{ir::DType::I64, {2}, ir::Blob::copyOf(k.data(), 16)});
  ir::Value* t = g.addValue("t");
  ir::Value* y = g.addValue("y");
  g.addNode("Mul", "mul", {s, kc}, {t});
  g.addNode("Reshape", "reshape", {x, t}, {y});
  g.outputs = {y};
  g.dynamic = true;
  auto r = runtime::Session::fromGraph(std::move(g));
  REQUIRE(r.isOk());
  runtime::Session& sess = **r;
  const auto data = iota(12);
  REQUIRE(sess.setInput(0, data.data(), 48).isOk());
  for (std::vector<int64_t> shape : {std::vector<int64_t>{6, 1}, std::vector<int64_t>{2, 3}}) {
    REQUIRE(sess.setInput(1, shape.data(), 16).isOk());
    REQUIRE(sess.run().isOk());
    CHECK(sess.outputs()[0].shape == ir::Shape{shape[0], shape[1] * 2});
    CHECK(output(sess, 0) == data);
  }
}

TEST_CASE("Dynamic input dims take the shape set for them", "[runtime][dynamic]") {
  ir::Graph g;
  ir::Value* x = input(g, "x", ir::DType::F32, {-1, 4});
  ir::Value* y = g.addValue("y");
  g.addNode("Relu", "relu", {x}, {y});
  g.outputs = {y};
  g.dynamic = true;
  auto r = runtime::Session::fromGraph(std::move(g));
  REQUIRE(r.isOk());
  runtime::Session& sess = **r;
  CHECK(sess.inputs()[0].shape == ir::Shape{-1, 4});
  std::vector<float> data = {-1, 2, -3, 4, 5, -6, 7, -8};
  // Data before a shape: the message says how to give one.
  Status early = sess.setInput(0, data.data(), 32);
  CHECK(early.code() == ErrorCode::InputShapeMismatch);
  CHECK_THAT(early.message(), Catch::Contains("set its shape first"));
  CHECK(sess.setInputShape(0, {2, 5}).code() == ErrorCode::InputShapeMismatch);  // fixed dim
  CHECK(sess.setInputShape(0, {8}).code() == ErrorCode::InputShapeMismatch);     // rank
  REQUIRE(sess.setInputShape(0, {2, 4}).isOk());
  CHECK(sess.inputs()[0].bytes == 32);
  REQUIRE(sess.setInput(0, data.data(), 32).isOk());
  REQUIRE(sess.run().isOk());
  CHECK(output(sess, 0) == std::vector<float>{0, 2, 0, 4, 5, 0, 7, 0});
  REQUIRE(sess.setInputShape(0, {1, 4}).isOk());
  REQUIRE(sess.setInput(0, data.data(), 16).isOk());
  REQUIRE(sess.run().isOk());
  CHECK(output(sess, 0) == std::vector<float>{0, 2, 0, 4});
  CHECK(sess.compiledShapes() == 2);
}

TEST_CASE("the runtime compiles per shape through the installed compiler", "[runtime][dynamic]") {
  // The compiler module installs its pipeline when the library loads; the runtime only calls it.
  const runtime::ShapeCompiler* installed = runtime::shapeCompiler();
  REQUIRE(installed != nullptr);
  struct Counting final : runtime::ShapeCompiler {
    const runtime::ShapeCompiler* inner = nullptr;
    mutable int checks = 0, compiles = 0;
    Status check(const runtime::ShapeSettings& s) const override {
      ++checks;
      return inner->check(s);
    }
    Status compile(ir::Graph& g, const runtime::ShapeSettings& s,
                   std::string* needs) const override {
      ++compiles;
      return inner->compile(g, s, needs);
    }
  } counting;
  counting.inner = installed;
  runtime::setShapeCompiler(&counting);
  auto make = [] { return reshapeToInput(); };
  {
    auto r = runtime::Session::fromGraph(make());
    REQUIRE(r.isOk());
    CHECK(counting.checks == 1);
    const auto data = iota(12);
    REQUIRE((*r)->setInput(0, data.data(), data.size() * 4).isOk());
    for (std::vector<int64_t> shape : {std::vector<int64_t>{3, 4}, {4, 3}, {3, 4}}) {
      REQUIRE((*r)->setInput(1, shape.data(), shape.size() * 8).isOk());
      REQUIRE((*r)->run().isOk());
    }
    CHECK(counting.compiles >= 2);  // each new shape is compiled (binding may ask twice)
    const int after_two = counting.compiles;
    std::vector<int64_t> again = {4, 3};
    REQUIRE((*r)->setInput(1, again.data(), again.size() * 8).isOk());
    REQUIRE((*r)->run().isOk());
    CHECK(counting.compiles == after_two);  // a shape seen before is not compiled again
  }
  // Without a compiler a dynamic model is refused, saying why; a static one does not need it.
  runtime::setShapeCompiler(nullptr);
  auto none = runtime::Session::fromGraph(make());
  runtime::setShapeCompiler(installed);
  REQUIRE_FALSE(none.isOk());
  CHECK(none.status().message().find("no compiler is installed") != std::string::npos);
}
