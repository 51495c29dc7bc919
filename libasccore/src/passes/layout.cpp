// layout.cpp: NC1HWC0 assignment and TransData insertion (see layout.h).
#include "asc/passes/layout.h"

#include <fmt/format.h>

#include <map>

#include "asc/ops/registry.h"

namespace asc::passes {
namespace {

bool featureMap(const ir::Value* v) {
  return v && !v->isConstant() && v->shape.size() == 4 &&
         (v->dtype == ir::DType::F32 || v->dtype == ir::DType::F16 || v->dtype == ir::DType::BF16);
}

}  // namespace

bool worksIn5hd(const ir::Node& n) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  const ops::FiveHd kind = d ? d->fiveHd() : ops::FiveHd::No;
  if (kind == ops::FiveHd::No || n.outputs.size() != 1 || !featureMap(n.outputs[0])) return false;
  if (n.op_type == "Concat" && n.attrs.getInt("axis", 0) != 1) return false;
  // Element-wise ops: every non-constant input is a feature map of the output's shape.
  if (kind == ops::FiveHd::Elementwise)
    for (auto* in : n.inputs)
      if (in && !in->isConstant() && in->shape != n.outputs[0]->shape) return false;
  return true;
}

// The registered pass; the pipeline's runner re-sorts, re-infers and verifies after it.
Status assignLayoutsPass(ir::Graph& g, PassContext& ctx) {
  std::map<std::pair<ir::Value*, std::string>, ir::Value*> converted;
  int inserted = 0;
  auto transData = [&](ir::Value* v, const std::string& to) {
    auto key = std::make_pair(v, to);
    if (auto it = converted.find(key); it != converted.end()) return it->second;
    ir::Value* out = g.addValue(v->name + (to == "NC1HWC0" ? "_5hd" : "_nchw"));
    out->dtype = v->dtype;
    out->shape = v->shape;
    out->format = to;
    ir::Node* t = g.addNode("TransData", out->name + "_transdata", {v}, {out});
    t->attrs.set("src_format", v->format);
    t->attrs.set("dst_format", to);
    converted[key] = out;
    ++inserted;
    return out;
  };
  std::vector<ir::Node*> nodes;
  for (const auto& up : g.nodes()) nodes.push_back(up.get());
  for (ir::Node* n : nodes) {
    const bool hd = worksIn5hd(*n);
    for (auto*& in : n->inputs) {
      if (!featureMap(in)) continue;
      const bool in_hd = in->format == "NC1HWC0";
      if (hd && !in_hd)
        in = transData(in, "NC1HWC0");
      else if (!hd && in_hd)
        in = transData(in, "NCHW");
    }
    if (hd) n->outputs[0]->format = "NC1HWC0";
  }
  for (auto*& out : g.outputs)
    if (out->format == "NC1HWC0") {
      ir::Value* back = transData(out, "NCHW");
      g.swapValueNames(out, back);  // the model output keeps its name
      out = back;
    }
  ctx.log.push_back(fmt::format("layout: NC1HWC0 feature maps, {} TransData nodes", inserted));
  return Status::ok();
}

Status assignLayouts(ir::Graph& g, PassContext& ctx) {
  return runPasses(g, {"assign-layout"}, ctx);
}

}  // namespace asc::passes
