// registry_test.cpp: the op table is consistent: ops.def sorted and complete, CANN types unique
// (the OM stores them and maps back), every op has shape inference.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <fstream>
#include <set>
#include <sstream>

#include "asc/ops/registry.h"

using namespace asc;

TEST_CASE("ops.def is sorted and matches the table", "[ops][registry]") {
  std::ifstream f(std::string(ASC_TEST_DATA) + "/../../libasccore/src/ops/ops.def");
  REQUIRE(f.good());
  std::vector<std::string> names;
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("ASC_OP(", 0) == 0) names.push_back(line.substr(7, line.find(')') - 7));
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(names.size() == ops::allOps().size());
  for (const auto& n : names) CHECK(ops::lookup(n) != nullptr);
}

TEST_CASE("every op has inference and a unique CANN type", "[ops][registry]") {
  std::set<std::string> cann;
  for (const auto* d : ops::allOps()) {
    INFO(d->name());
    CHECK(d->inferFn() != nullptr);
    CHECK(cann.insert(d->cannType()).second);
    CHECK(ops::lookupByCann(d->cannType()) == d);
    CHECK(d->onnxSince() >= 1);
  }
}

TEST_CASE("the op set of the foundation issue is complete", "[ops][registry]") {
  const char* required[] = {
      "Conv", "ConvTranspose", "Relu", "LeakyRelu", "PRelu", "Sigmoid", "Tanh", "Clip", "Erf",
      "HardSigmoid", "HardSwish", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
      "BatchNormalization", "InstanceNormalization", "LayerNormalization", "LRN", "Add", "Sub",
      "Mul", "Div", "Pow", "Sqrt", "Exp", "Log", "Sum", "Max", "Min", "Concat", "Split",
      "Flatten", "Reshape", "Transpose", "Squeeze", "Unsqueeze", "Expand", "Gemm", "MatMul",
      "Softmax", "LogSoftmax", "Dropout", "Identity", "Constant", "ConstantOfShape", "Shape",
      "Gather", "Slice", "Pad", "Resize", "Upsample", "ReduceMean", "ReduceSum", "ReduceMax",
      "Cast", "Where", "Equal", "Tile", "DepthToSpace"};
  for (const char* op : required) {
    INFO(op);
    CHECK(ops::lookup(op) != nullptr);
  }
}

TEST_CASE("unknown ops give E2002 naming node and type", "[ops][registry]") {
  ir::Graph g;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {1};
  g.inputs.push_back(x);
  ir::Value* y = g.addValue("y");
  g.addNode("NoSuchOp", "n7", {x}, {y});
  g.outputs.push_back(y);
  Status s = ops::inferGraph(g);
  REQUIRE(s.code() == ErrorCode::UnsupportedOp);
  CHECK(s.message().find("NoSuchOp") != std::string::npos);
  CHECK(s.message().find("n7") != std::string::npos);
}
