// pass_test_util.h: small helpers shared by the pass tests. They build graphs the way the ONNX
// importer leaves them (float inputs with shapes, constants, nodes whose original_names hold
// their own name), run a graph through the CPU runtime on a deterministic input, and compare
// two sets of outputs elementwise.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "asc/ir/graph.h"
#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/runtime/session.h"

namespace asc::passtest {

/// A float graph input.
inline ir::Value* addInput(ir::Graph& g, const std::string& name, ir::Shape shape) {
  ir::Value* v = g.addValue(name);
  v->dtype = ir::DType::F32;
  v->shape = std::move(shape);
  g.inputs.push_back(v);
  return v;
}

/// A float constant; without `data`, filled with a deterministic pattern scaled by `scale`.
inline ir::Value* addFloats(ir::Graph& g, const std::string& name, ir::Shape shape,
                            std::vector<float> data = {}, float scale = 0.2f) {
  if (data.empty()) {
    data.resize(static_cast<size_t>(ir::numElements(shape)));
    for (size_t i = 0; i < data.size(); ++i) data[i] = scale * std::cos(0.53f * i + 0.1f);
  }
  return g.addConstant(name, ir::Tensor{ir::DType::F32, std::move(shape),
                                        ir::Blob::copyOf(data.data(), data.size() * 4)});
}

inline ir::Value* addInts(ir::Graph& g, const std::string& name, std::vector<int64_t> data) {
  ir::Shape shape{static_cast<int64_t>(data.size())};
  return g.addConstant(
      name, ir::Tensor{ir::DType::I64, shape, ir::Blob::copyOf(data.data(), data.size() * 8)});
}

/// A node with one new output value "<name>_out"; original_names = {name}, as after import.
inline ir::Node* addOp(ir::Graph& g, const std::string& op, const std::string& name,
                       std::vector<ir::Value*> inputs) {
  ir::Node* n = g.addNode(op, name, std::move(inputs), {g.addValue(name + "_out")});
  n->original_names = {name};
  return n;
}

/// Marks the graph outputs and runs shape inference (canonicalizing the nodes).
inline void finish(ir::Graph& g, const std::vector<ir::Value*>& outputs) {
  g.outputs = outputs;
  Status st = ops::inferGraph(g);
  INFO(st.message());
  REQUIRE(st.isOk());
}

inline int countOps(const ir::Graph& g, const std::string& op) {
  return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                        [&](const auto& n) { return n->op_type == op; }));
}

/// Whether every name in `want` appears in `n`'s original_names.
inline bool hasOriginalNames(const ir::Node& n, const std::vector<std::string>& want) {
  for (const auto& w : want)
    if (std::find(n.original_names.begin(), n.original_names.end(), w) == n.original_names.end())
      return false;
  return true;
}

/// Runs `g` on the input pattern sin(0.37 * i + k) (input k) and returns every output.
inline std::vector<std::vector<float>> runGraph(ir::Graph g) {
  runtime::SessionOptions so;
  so.threads = 1;
  auto s = runtime::Session::fromGraph(std::move(g), so);
  REQUIRE(s.isOk());
  for (size_t k = 0; k < (*s)->inputs().size(); ++k) {
    std::vector<float> in((*s)->inputs()[k].bytes / 4);
    for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.37f * i + k);
    REQUIRE((*s)->setInput(k, in.data(), in.size() * 4).isOk());
  }
  REQUIRE((*s)->run().isOk());
  std::vector<std::vector<float>> outs;
  for (size_t k = 0; k < (*s)->outputs().size(); ++k) {
    const float* p = static_cast<const float*>((*s)->outputData(k));
    outs.emplace_back(p, p + (*s)->outputs()[k].bytes / 4);
  }
  return outs;
}

/// |got - want| <= 1e-5 + 1e-4 * |want| for every element of every output (and the reference
/// is not all zeros).
inline void expectClose(const std::vector<std::vector<float>>& got,
                        const std::vector<std::vector<float>>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    REQUIRE(got[k].size() == want[k].size());
    size_t bad = 0;
    double worst = 0, largest = 0;
    for (size_t i = 0; i < got[k].size(); ++i) {
      const double d = std::fabs(double(got[k][i]) - want[k][i]);
      worst = std::max(worst, d);
      largest = std::max(largest, std::fabs(double(want[k][i])));
      bad += !(d <= 1e-5 + 1e-4 * std::fabs(want[k][i]));
    }
    INFO("output " << k << ": " << bad << " elements out of tolerance, max |diff| " << worst);
    CHECK(bad == 0);
    CHECK(largest > 0.01);  // the comparison is not between two all-zero tensors
  }
}

/// Runs one pass and returns its context (requires success).
inline passes::PassContext runPass(ir::Graph& g, const std::string& pass) {
  passes::PassContext ctx;
  Status st = passes::runPasses(g, {pass}, ctx);
  INFO(st.message());
  REQUIRE(st.isOk());
  return ctx;
}

/// Runs `pass` on `g` and checks that it changed nothing: no log line, and the graph equal to
/// `before` (the same graph built again).
inline void expectUntouched(ir::Graph& g, const ir::Graph& before, const std::string& pass) {
  passes::PassContext ctx = runPass(g, pass);
  CHECK(ctx.log.empty());
  std::string why;
  const bool same = ir::graphsEqual(g, before, &why);
  INFO(why);
  CHECK(same);
}

}  // namespace asc::passtest
