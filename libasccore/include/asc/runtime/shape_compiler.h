// shape_compiler.h: what compiles a dynamic model's graph for one set of input shapes. The
// runtime keeps the graph as imported and, per set of shapes, asks the compiler for the graph
// to run (runtime/dynamic.h); it never runs the passes itself. The compiler module installs its
// implementation when the library loads (compiler/shape_compile.cpp): shape inference with
// constant folding, then the pass pipeline with the settings the OM recorded, exactly as atc
// compiles a static model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::runtime {

/// The compile settings an OM records for the runtime (om::ModelInfo::runtime_compile: level,
/// switched-off passes, precision choices), as text.
using ShapeSettings = std::map<std::string, std::vector<std::string>>;

class ShapeCompiler {
 public:
  virtual ~ShapeCompiler() = default;
  /// Checks the settings once, when a dynamic model loads (E10041 for unreadable ones).
  virtual Status check(const ShapeSettings& settings) const = 0;
  /// Infers the shapes of `g` (its input shapes fixed, run-time values bound as constants) and
  /// optimises it. When inference stops because a shape needs the data of a value that is no
  /// constant, that value's name goes to `needs` beside the error.
  virtual Status compile(ir::Graph& g, const ShapeSettings& settings, std::string* needs) const = 0;
};

/// The compiler the runtime uses (installed by the compiler module; null before).
ASC_API const ShapeCompiler* shapeCompiler();
ASC_API void setShapeCompiler(const ShapeCompiler* compiler);

}  // namespace asc::runtime
