// shape_compiler.cpp: the installed per-shape compiler (asc/runtime/shape_compiler.h).
#include "asc/runtime/shape_compiler.h"

#include <atomic>

namespace asc::runtime {
namespace {
std::atomic<const ShapeCompiler*> g_compiler{nullptr};
}  // namespace

const ShapeCompiler* shapeCompiler() { return g_compiler.load(std::memory_order_acquire); }
void setShapeCompiler(const ShapeCompiler* compiler) {
  g_compiler.store(compiler, std::memory_order_release);
}

}  // namespace asc::runtime
