// dynamic.h: running a dynamic graph (ir::Graph::dynamic): one whose shapes are known only at run
// time, from the input shapes (a dynamic batch, image size or dims; ranges) or from values a shape
// depends on (a Reshape's shape, a Slice's starts, a Range's limit computed at run time, the input
// of an op whose output shape depends on data such as NonZero).
//
// The graph is kept as imported. For each distinct set of input shapes the model has the compiler
// compile a copy with those shapes (runtime::ShapeCompiler, installed by the compiler module:
// shape inference with constant folding, then the pass pipeline with the settings the OM
// recorded, exactly as atc compiles a static model), and builds a static Session over it, once:
// later runs at the same shapes reuse it. Profiles ("gears") are compiled at load.
//
// A value a shape depends on is found by compiling: when inference stops at a node that asked for
// the data of an input that is no constant (InferOptions::needs_value), the model "binds" that
// value: a graph input's bytes, or, for a value computed inside the graph, the output of the
// graph's prefix that computes it (itself a DynamicModel). Bound values become constants of the
// copy and part of its cache key; the list of values to bind is kept per input shapes, so a later
// run binds them before it compiles anything.
#pragma once

#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "asc/runtime/shape_compiler.h"

namespace asc::runtime {

class DynamicModel {
 public:
  /// `raw`: the graph as imported (dynamic); `dyn`: its profiles and ranges; `settings`: the
  /// pass settings the OM recorded (empty: O3, force_fp32). E10041 for unreadable settings; a
  /// profile that does not compile fails here, naming it.
  static Result<std::unique_ptr<DynamicModel>> create(ir::Graph raw, om::DynamicShapes dyn,
                                                      ShapeSettings settings,
                                                      const SessionOptions& opts,
                                                      std::string model_name, std::string soc);

  const std::vector<TensorInfo>& inputs() const { return inputs_; }
  /// The outputs of the last run (before one: the graph's outputs, shapes unknown).
  const std::vector<TensorInfo>& outputs() const;
  /// Per output, its shape and bytes in the profile where it is largest (bytes 0 and the
  /// declared shape when some profile's outputs are known only at run time, or with ranges).
  const std::vector<TensorInfo>& largestOutputs() const { return largest_outputs_; }
  /// Sets input i's shape for the next runs. E1001 when its rank or a fixed dim differs, or a dim
  /// lies outside the input's range (naming the range).
  Status setInputShape(size_t i, const ir::Shape& shape);
  Status setInput(size_t i, const void* data, size_t bytes);
  void zeroInputs();
  /// Compiles (or reuses) the plan for the current input shapes and bound values, and runs it.
  /// E1001 for shapes outside the profiles (listing them) or an input with unknown dims.
  Status run();
  /// The static session the last run used (nullptr before the first run).
  Session* current() const { return current_; }
  const ir::Graph& graph() const { return raw_; }
  const om::DynamicShapes& shapes() const { return dyn_; }
  /// How many plans were compiled since load (profiles included).
  size_t compiled() const { return compiled_; }
  void setObserver(StepObserver* observer);

 private:
  DynamicModel() = default;
  struct Bound {
    std::string name;
    ir::DType dtype = ir::DType::Undefined;
    ir::Shape shape;
    std::shared_ptr<const ir::Blob> data;
  };
  // Compiles the graph for `shapes` with `bound` values. On a missing value, *needs names it (a
  // value of raw_) and the status says why; otherwise the session.
  Result<std::unique_ptr<Session>> compile(const std::vector<ir::Shape>& shapes,
                                           const std::vector<Bound>& bound, std::string* needs);
  Result<Bound> evaluate(const std::string& value);  // a bound value's data for this run
  Status checkProfile(const std::vector<ir::Shape>& shapes) const;
  std::string describeProfiles() const;

  ir::Graph raw_;
  om::DynamicShapes dyn_;
  ShapeSettings settings_;
  const ShapeCompiler* compiler_ = nullptr;
  SessionOptions opts_;
  std::string model_name_, soc_;

  std::vector<TensorInfo> inputs_;
  std::vector<std::vector<uint8_t>> input_data_;
  std::vector<TensorInfo> declared_outputs_;
  std::vector<TensorInfo> largest_outputs_;
  // Per input shapes: the values to bind, in the order compiling asked for them.
  std::map<std::string, std::vector<std::string>> recipes_;
  // Compiled plans by key (shapes and bound bytes), oldest first for eviction.
  std::map<std::string, std::unique_ptr<Session>> plans_;
  std::list<std::string> plan_order_;
  // The prefix models that compute bound values, by value name.
  std::map<std::string, std::unique_ptr<DynamicModel>> prefixes_;
  Session* current_ = nullptr;
  size_t compiled_ = 0;
};

}  // namespace asc::runtime
