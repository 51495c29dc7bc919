// fuse_conv_activation.cpp: Conv, ConvTranspose or Gemm (or BatchNormalization, for Relu) whose
// only user is an activation takes the activation as a post-op (attribute "activation" and its
// parameters); the activation node goes away. oneDNN applies it while the output is still in
// registers.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* producer;
  ir::Node* act;
  std::vector<const ir::Node*> involved() const { return {producer, act}; }
};

bool isFusableActivation(const ir::Node& n) {
  static const char* kActs[] = {"Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "HardSwish", "Gelu", "Swish"};
  for (const char* a : kActs)
    if (n.op_type == a) return n.inputs.size() == 1;  // Clip: min/max already attributes
  return false;
}

bool match(const ir::Graph& g, const Users& users, ir::Node& n, Match* m) {
  const bool bn = n.op_type == "BatchNormalization";
  if (n.op_type != "Conv" && n.op_type != "ConvTranspose" && n.op_type != "Gemm" && !bn) return false;
  if (n.attrs.has("activation") || n.outputs.size() != 1) return false;
  ir::Node* act = soleUser(g, users, n.outputs[0]);
  if (!act || !isFusableActivation(*act)) return false;
  if (bn && act->op_type != "Relu") return false;  // oneDNN fuses ReLU only into batch norm
  if (act->outputs.size() != 1 || act->outputs[0]->dtype != n.outputs[0]->dtype) return false;
  *m = {&n, act};
  return true;
}

void rewrite(const Match& m, PassContext& ctx) {
  ir::Node* p = m.producer;
  const ir::Node* a = m.act;
  p->attrs.set("activation", a->op_type);
  if (a->op_type == "LeakyRelu") p->attrs.set("activation_alpha", a->attrs.getFloat("alpha", 0.01f));
  if (a->op_type == "Clip") {
    if (a->attrs.has("min")) p->attrs.set("activation_min", a->attrs.getFloat("min", 0));
    if (a->attrs.has("max")) p->attrs.set("activation_max", a->attrs.getFloat("max", 0));
  }
  ctx.log.push_back(fmt::format("fuse-conv-activation: {} '{}' + {} '{}'", p->op_type, p->name,
                                a->op_type, a->name));
  inheritNames(p, a);
  takeOutput(p, m.act);
}

}  // namespace

Status fuseConvActivation(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match, [](ir::Graph& gr, Match& m, PassContext& c) {
    rewrite(m, c);
  });
}

}  // namespace asc::passes
