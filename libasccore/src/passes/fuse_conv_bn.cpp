// fuse_conv_bn.cpp: an inference BatchNormalization right after a Conv (or ConvTranspose with
// one group, or Gemm) with constant weights folds into them:
//   s = scale / sqrt(var + eps);  W' = W * s (per output channel);  b' = (b - mean) * s + beta.
// The new weights are new constants (fp32); the BN node goes away.
#include <fmt/format.h>

#include <cmath>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* op;
  ir::Node* bn;
  std::vector<const ir::Node*> involved() const { return {op, bn}; }
};

bool constF32(const ir::Value* v) { return v && v->isConstant() && v->dtype == ir::DType::F32; }

// Output channels of the op and where they sit in its weight tensor.
int64_t outChannels(const ir::Node& op) {
  const ir::Shape& w = op.inputs[1]->shape;
  if (op.op_type == "Conv") return w[0];
  if (op.op_type == "ConvTranspose") return w[1];
  return op.attrs.getInt("transB", 0) ? w[0] : w[1];  // Gemm
}

bool match(const ir::Graph& g, const Users& users, ir::Node& op, Match* m) {
  const std::string& t = op.op_type;
  if (t != "Conv" && t != "ConvTranspose" && t != "Gemm") return false;
  if (op.attrs.has("activation") || op.inputs.size() > 3 || !constF32(op.inputs[1])) return false;
  if (op.inputs.size() > 2 && op.inputs[2] && !constF32(op.inputs[2])) return false;
  if (t == "ConvTranspose" && op.attrs.getInt("group", 1) != 1) return false;
  if (t == "Gemm" &&
      (op.attrs.getFloat("alpha", 1.f) != 1.f || op.attrs.getFloat("beta", 1.f) != 1.f ||
       op.attrs.getInt("transA", 0) != 0 ||
       (op.inputs.size() > 2 && op.inputs[2] && op.inputs[2]->numel() != outChannels(op))))
    return false;
  ir::Node* bn = soleUser(g, users, op.outputs[0]);
  if (!bn || bn->op_type != "BatchNormalization" || bn->inputs[0] != op.outputs[0] ||
      bn->outputs.size() != 1)
    return false;
  const int64_t c = outChannels(op);
  for (size_t i = 1; i < 5; ++i)
    if (!constF32(bn->inputs[i]) || bn->inputs[i]->numel() != c) return false;
  *m = {&op, bn};
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  ir::Node& op = *m.op;
  const int64_t c = outChannels(op);
  const float eps = m.bn->attrs.getFloat("epsilon", 1e-5f);
  const float* scale = m.bn->inputs[1]->data->as<float>();
  const float* beta = m.bn->inputs[2]->data->as<float>();
  const float* mean = m.bn->inputs[3]->data->as<float>();
  const float* var = m.bn->inputs[4]->data->as<float>();
  std::vector<float> s(static_cast<size_t>(c));
  for (int64_t i = 0; i < c; ++i) s[i] = scale[i] / std::sqrt(var[i] + eps);
  const ir::Value* wv = op.inputs[1];
  const float* w = wv->data->as<float>();
  std::vector<float> nw(w, w + wv->numel());
  const ir::Shape& ws = wv->shape;
  const int64_t total = wv->numel();
  for (int64_t i = 0; i < total; ++i) {
    int64_t ch;
    if (op.op_type == "Conv")
      ch = i / (total / ws[0]);
    else if (op.op_type == "ConvTranspose")
      ch = (i / (total / (ws[0] * ws[1]))) % ws[1];
    else
      ch = op.attrs.getInt("transB", 0) ? i / ws[1] : i % ws[1];
    nw[i] *= s[ch];
  }
  std::vector<float> nb(static_cast<size_t>(c));
  const bool has_b = op.inputs.size() > 2 && op.inputs[2];
  for (int64_t i = 0; i < c; ++i) {
    const float b = has_b ? op.inputs[2]->data->as<float>()[i] : 0.f;
    nb[i] = (b - mean[i]) * s[i] + beta[i];
  }
  op.inputs[1] = g.addConstant(
      wv->name + "_bn", ir::Tensor{ir::DType::F32, ws, ir::Blob::copyOf(nw.data(), nw.size() * 4)});
  ir::Value* bias =
      g.addConstant(op.name + "_bn_bias",
                    ir::Tensor{ir::DType::F32, {c}, ir::Blob::copyOf(nb.data(), nb.size() * 4)});
  op.inputs.resize(3, nullptr);
  op.inputs[2] = bias;
  ctx.log.push_back(fmt::format("fuse-conv-bn: BatchNormalization '{}' folded into {} '{}'",
                                m.bn->name, op.op_type, op.name));
  inheritNames(&op, m.bn);
  takeOutput(&op, m.bn);
}

}  // namespace

Status fuseConvBn(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
