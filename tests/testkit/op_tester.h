// op_tester.h: builds one-node graphs for op tests and runs shape inference (and constant
// folding) on them.
#pragma once

#include <memory>
#include <string>
#include <stdexcept>
#include <vector>

#include "asc/ir/graph.h"
#include "asc/ops/registry.h"

namespace asc::test {

/// A one-node graph under construction: add inputs (runtime or constant), then run().
class OpTester {
 public:
  explicit OpTester(std::string op_type, int opset = 13) : op_type_(std::move(op_type)) {
    g_ = std::make_unique<ir::Graph>();
    g_->name = "test";
    g_->opset = opset;
  }
  /// A runtime (graph) input.
  OpTester& input(ir::DType t, ir::Shape s) {
    ir::Value* v = g_->addValue("in" + std::to_string(ins_.size()));
    v->dtype = t;
    v->shape = std::move(s);
    g_->inputs.push_back(v);
    ins_.push_back(v);
    return *this;
  }
  /// An omitted optional input.
  OpTester& none() {
    ins_.push_back(nullptr);
    return *this;
  }
  OpTester& constInts(std::vector<int64_t> v, ir::Shape s) {
    return constant(ir::DType::I64, std::move(s), v.data(), v.size() * 8);
  }
  OpTester& constInts(std::vector<int64_t> v) {
    ir::Shape s{static_cast<int64_t>(v.size())};
    return constInts(std::move(v), s);
  }
  OpTester& constFloats(std::vector<float> v, ir::Shape s) {
    return constant(ir::DType::F32, std::move(s), v.data(), v.size() * 4);
  }
  OpTester& constant(ir::DType t, ir::Shape s, const void* data, size_t bytes) {
    ir::Value* v = g_->addConstant("c" + std::to_string(ins_.size()),
                                   ir::Tensor{t, std::move(s), ir::Blob::copyOf(data, bytes)});
    ins_.push_back(v);
    return *this;
  }
  OpTester& attr(const std::string& k, ir::AttrValue v) {
    attrs_.set(k, std::move(v));
    return *this;
  }
  OpTester& outputs(int n) {
    nout_ = n;
    return *this;
  }
  /// Runs inferGraph. After it, out(i) gives the inferred outputs (constants if folded).
  Status run(bool fold = true) {
    std::vector<ir::Value*> outs;
    for (int i = 0; i < nout_; ++i) outs.push_back(g_->addValue("out" + std::to_string(i)));
    node_ = g_->addNode(op_type_, "node", ins_, outs);
    node_->attrs = attrs_;
    for (auto* o : outs) g_->outputs.push_back(o);
    ops::InferOptions opts;
    opts.fold_constants = fold;
    return ops::inferGraph(*g_, opts);
  }
  const ir::Value& out(int i = 0) const { return *g_->outputs.at(i); }
  /// The node after canonicalization (nullptr if it was folded away).
  const ir::Node* node() const { return g_->findNode("node"); }
  ir::Graph& graph() { return *g_; }

 private:
  std::string op_type_;
  std::unique_ptr<ir::Graph> g_;
  std::vector<ir::Value*> ins_;
  ir::Attrs attrs_;
  ir::Node* node_ = nullptr;
  int nout_ = 1;
};

/// Whether `s` failed with a message containing `what`.
inline bool mentions(const Status& s, const std::string& what) {
  return !s.isOk() && s.message().find(what) != std::string::npos;
}

/// The elements of a constant value as doubles. For integer values it refuses (throws) any
/// element a double cannot hold exactly (|v| > 2^53): compare those with int64sOf.
inline std::vector<double> doublesOf(const ir::Value& v) {
  std::vector<double> out;
  ir::Tensor t = v.tensor();
  const bool integral = !ir::isFloat(t.dtype);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (integral) {
      const int64_t k = t.intAt(i);
      if (k > (int64_t(1) << 53) || k < -(int64_t(1) << 53))
        throw std::runtime_error(
            "doublesOf: an integer past 2^53 would compare inexactly; use "
            "int64sOf");
    }
    out.push_back(t.floatAt(i));
  }
  return out;
}

/// The elements of a constant float value as floats.
inline std::vector<float> floatsOf(const ir::Value& v) {
  std::vector<float> out;
  ir::Tensor t = v.tensor();
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(static_cast<float>(t.floatAt(i)));
  return out;
}

/// The elements of an integer or bool value, exactly.
inline std::vector<int64_t> int64sOf(const ir::Value& v) {
  std::vector<int64_t> out;
  ir::Tensor t = v.tensor();
  if (ir::isFloat(t.dtype)) throw std::runtime_error("int64sOf: the value is floating point");
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.intAt(i));
  return out;
}

}  // namespace asc::test
