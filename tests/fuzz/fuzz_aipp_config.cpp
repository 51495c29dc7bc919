// fuzz_aipp_config: the AIPP configuration (atc --insert_op_conf, protobuf text of
// domi.InsertNewOps) through insertAipp() on a two-input model (x [1,3,8,8], z [1,1,8,8]). A
// refused configuration leaves the graph exactly as it was; an accepted one gives a graph that
// verifies, whose AIPP inputs are uint8.
#include "asc/compiler/compile.h"
#include "asc/ops/registry.h"
#include "fuzz_util.h"

namespace {

asc::ir::Graph model() {
  using namespace asc;
  ir::Graph g;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {1, 3, 8, 8};
  ir::Value* z = g.addValue("z");
  z->dtype = ir::DType::F32;
  z->shape = {1, 1, 8, 8};
  ir::Value* y = g.addValue("y");
  ir::Value* w = g.addValue("w");
  g.addNode("Relu", "relu", {x}, {y});
  g.addNode("Relu", "relu2", {z}, {w});
  g.inputs = {x, z};
  g.outputs = {y, w};
  if (!ops::inferGraph(g).isOk()) std::abort();
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  ir::Graph g = model();
  const std::string before = ir::printGraph(g);
  const Status st =
      insertAipp(g, std::string(reinterpret_cast<const char*>(data), size), "fuzz.cfg");
  fuzz::report("insertAipp", st);
  if (!st.isOk()) {
    ASC_FUZZ_CHECK(ir::printGraph(g) == before);
    return 0;
  }
  ASC_FUZZ_CHECK(ir::verify(g).isOk());
  bool any_u8 = false;
  for (const auto* v : g.inputs) any_u8 |= v->dtype == ir::DType::U8;
  ASC_FUZZ_CHECK(any_u8);
  return 0;
}
