// registry_test.cpp: the op table is consistent: ops.def sorted and complete, the OpDefs defined
// in the op folders (libasccore/src/ops/*/) are exactly the ops.def list and allOps(), CANN
// types unique (the OM stores them and maps back), every op has shape inference.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
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
  // The in-tree ops (another test registers one at run time).
  size_t in_tree = 0;
  for (const auto* d : ops::allOps()) in_tree += !d->isRegistered();
  CHECK(names.size() == in_tree);
  for (const auto& n : names) CHECK(ops::lookup(n) != nullptr);
}

TEST_CASE("the op folders define exactly the ops of ops.def and allOps()", "[ops][registry]") {
  namespace fs = std::filesystem;
  const fs::path ops_dir = fs::path(ASC_TEST_DATA) / "../../libasccore/src/ops";
  REQUIRE(fs::is_directory(ops_dir));
  // Every `const OpDef& defName() {` in a source file under an op folder.
  const std::regex def_re(R"(const\s+OpDef&\s+def([A-Za-z0-9_]+)\(\)\s*\{)");
  std::map<std::string, std::string> defined;  // op -> file
  size_t folders = 0;
  for (const auto& dir : fs::directory_iterator(ops_dir)) {
    if (!dir.is_directory()) continue;
    ++folders;
    for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
      if (e.path().extension() != ".cpp" ||
          e.path().string().find("_test.cpp") != std::string::npos)
        continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string text = ss.str();
      for (std::sregex_iterator it(text.begin(), text.end(), def_re), end; it != end; ++it) {
        INFO((*it)[1].str() << " in " << e.path());
        CHECK(defined.emplace((*it)[1].str(), e.path().string()).second);  // defined once
      }
    }
  }
  CHECK(folders >= 5);
  std::set<std::string> listed;
  std::ifstream f(ops_dir / "ops.def");
  REQUIRE(f.good());
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("ASC_OP(", 0) == 0) listed.insert(line.substr(7, line.find(')') - 7));
  std::set<std::string> in_table;
  for (const auto* d : ops::allOps())
    if (!d->isRegistered()) in_table.insert(d->name());
  REQUIRE(!defined.empty());
  for (const auto& [name, file] : defined) {
    INFO(name << " is defined in " << file);
    CHECK(listed.count(name) == 1);
    CHECK(in_table.count(name) == 1);
  }
  for (const auto& name : listed) {
    INFO(name << " is in ops.def");
    CHECK(defined.count(name) == 1);
  }
  CHECK(defined.size() == in_table.size());
}

TEST_CASE("every op has inference and a unique CANN type", "[ops][registry]") {
  std::set<std::string> cann;
  for (const auto* d : ops::allOps()) {
    INFO(d->name());
    CHECK(d->inferFn() != nullptr);
    // In-tree ops only: a test op registered in the same process may take a built-in's type.
    if (d->isRegistered()) continue;
    CHECK(cann.insert(d->cannType()).second);
    const ops::OpDef* owner = ops::lookupByCann(d->cannType());
    CHECK((owner == d || owner->isRegistered()));
    CHECK(d->onnxSince() >= 1);
  }
}

TEST_CASE("the op set of the foundation issue is complete", "[ops][registry]") {
  const char* required[] = {"Conv",
                            "ConvTranspose",
                            "Relu",
                            "LeakyRelu",
                            "PRelu",
                            "Sigmoid",
                            "Tanh",
                            "Clip",
                            "Erf",
                            "HardSigmoid",
                            "HardSwish",
                            "MaxPool",
                            "AveragePool",
                            "GlobalAveragePool",
                            "GlobalMaxPool",
                            "BatchNormalization",
                            "InstanceNormalization",
                            "LayerNormalization",
                            "LRN",
                            "Add",
                            "Sub",
                            "Mul",
                            "Div",
                            "Pow",
                            "Sqrt",
                            "Exp",
                            "Log",
                            "Sum",
                            "Max",
                            "Min",
                            "Concat",
                            "Split",
                            "Flatten",
                            "Reshape",
                            "Transpose",
                            "Squeeze",
                            "Unsqueeze",
                            "Expand",
                            "Gemm",
                            "MatMul",
                            "Softmax",
                            "LogSoftmax",
                            "Dropout",
                            "Identity",
                            "Constant",
                            "ConstantOfShape",
                            "Shape",
                            "Gather",
                            "Slice",
                            "Pad",
                            "Resize",
                            "Upsample",
                            "ReduceMean",
                            "ReduceSum",
                            "ReduceMax",
                            "Cast",
                            "Where",
                            "Equal",
                            "Tile",
                            "DepthToSpace"};
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

TEST_CASE("element-wise ops carry their scalar function on the OpDef", "[registry]") {
  // The math and unary families' kernels and folding apply the OpDef's function: every op that
  // shares their kernel factory names one, no two ops name the same, and the names match.
  const ops::OpDef* abs = ops::lookup("Abs");
  const ops::OpDef* relu = ops::lookup("Relu");
  REQUIRE(abs);
  REQUIRE(relu);
  std::map<ops::ScalarFn, std::string> seen;
  int math = 0, unary = 0;
  for (const ops::OpDef* d : ops::allOps()) {
    const bool family =
        d->kernelFactory() == abs->kernelFactory() || d->kernelFactory() == relu->kernelFactory();
    INFO(d->name());
    CHECK(family == (d->scalarFn() != ops::ScalarFn::None));
    if (d->scalarFn() == ops::ScalarFn::None) continue;
    CHECK(seen.emplace(d->scalarFn(), d->name()).second);
    (d->kernelFactory() == abs->kernelFactory() ? math : unary)++;
  }
  CHECK(math == 30);
  CHECK(unary == 13);
  CHECK(ops::lookup("Softplus")->scalarFn() == ops::ScalarFn::Softplus);
  CHECK(ops::lookup("IsInf")->scalarFn() == ops::ScalarFn::IsInf);
  CHECK(ops::lookup("Not")->scalarFn() == ops::ScalarFn::Not);
  CHECK(ops::lookup("Gelu")->scalarFn() == ops::ScalarFn::Gelu);
  CHECK(ops::lookup("Conv")->scalarFn() == ops::ScalarFn::None);
}

TEST_CASE("pooling and recurrent ops carry their kind on the OpDef", "[registry]") {
  // The pool and rnn families' kernels read these facts from the definition, never the name.
  struct Pool {
    const char* op;
    ops::PoolKind kind;
    bool global;
  };
  for (const Pool& p :
       {Pool{"MaxPool", ops::PoolKind::Max, false},
        Pool{"AveragePool", ops::PoolKind::Average, false},
        Pool{"LpPool", ops::PoolKind::Lp, false}, Pool{"GlobalMaxPool", ops::PoolKind::Max, true},
        Pool{"GlobalAveragePool", ops::PoolKind::Average, true},
        Pool{"GlobalLpPool", ops::PoolKind::Lp, true}}) {
    INFO(p.op);
    const ops::OpDef* d = ops::lookup(p.op);
    REQUIRE(d);
    CHECK(d->poolKind() == p.kind);
    CHECK(d->isGlobalPool() == p.global);
  }
  CHECK(ops::lookup("RNN")->cellKind() == ops::CellKind::Rnn);
  CHECK(ops::lookup("GRU")->cellKind() == ops::CellKind::Gru);
  CHECK(ops::lookup("LSTM")->cellKind() == ops::CellKind::Lstm);
  CHECK(ops::lookup("Conv")->poolKind() == ops::PoolKind::None);
  CHECK(ops::lookup("Conv")->cellKind() == ops::CellKind::None);
}
