// shape_compile.cpp: the compiler's per-shape pipeline for dynamic models
// (asc/runtime/shape_compiler.h), installed for the runtime when the library loads.
#include <fmt/format.h>

#include "asc/ir/graph.h"
#include "asc/ops/registry.h"
#include "asc/passes/pass.h"
#include "asc/passes/precision.h"
#include "asc/runtime/shape_compiler.h"

namespace asc::compiler {
namespace {

class PassPipeline final : public runtime::ShapeCompiler {
 public:
  Status check(const runtime::ShapeSettings& settings) const override {
    passes::OptLevel level;
    passes::PassContext pc;
    passes::PrecisionOptions precision;
    return decode(settings, &level, &pc, &precision);
  }

  Status compile(ir::Graph& g, const runtime::ShapeSettings& settings,
                 std::string* needs) const override {
    passes::OptLevel level;
    passes::PassContext pc;
    passes::PrecisionOptions precision;
    ASC_RETURN_IF_ERROR(decode(settings, &level, &pc, &precision));
    ops::InferOptions io;
    const ir::Value* wanted = nullptr;
    io.needs_value = &wanted;
    if (Status st = ops::inferGraph(g, io); !st) {
      if (wanted && !wanted->isConstant()) *needs = wanted->name;
      return st;
    }
    pc.precision = pc.precision ? &precision : nullptr;
    ASC_RETURN_IF_ERROR(passes::runPipeline(g, level, pc));
    return ir::verify(g);
  }

 private:
  // Empty settings: O3 and the default precision (the OM recorded none).
  static Status decode(const runtime::ShapeSettings& settings, passes::OptLevel* level,
                       passes::PassContext* pc, passes::PrecisionOptions* precision) {
    *level = passes::OptLevel::O3;
    if (settings.empty()) return Status::ok();
    return passes::decodeSettings(settings, level, pc, precision);
  }
};

const PassPipeline kPipeline;

// Installed when the library loads, before any model can.
const bool kInstalled = (runtime::setShapeCompiler(&kPipeline), true);

}  // namespace

/// Referenced by compile.cpp, so a static link keeps this file (and its installation).
bool shapeCompilerInstalled() { return kInstalled; }

}  // namespace asc::compiler
