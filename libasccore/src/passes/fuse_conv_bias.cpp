// fuse_conv_bias.cpp: Add(Conv(x), c) where the Conv's only user is the Add and c is an fp32
// constant holding one value per output channel ([C], [C, 1, 1], [1, C, 1, 1], ...) or a single
// value becomes Conv(x, w, b + c). TensorFlow writes its biases this way (Conv2D then BiasAdd),
// and with the Add gone the activation after it can fuse into the Conv too.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* conv;
  ir::Node* add;
  const ir::Value* c;
  std::vector<const ir::Node*> involved() const { return {conv, add}; }
};

bool constF32(const ir::Value* v) { return v && v->isConstant() && v->dtype == ir::DType::F32; }

int64_t outChannels(const ir::Node& op) {
  const ir::Shape& w = op.inputs[1]->shape;
  return op.op_type == "Conv" ? w[0] : w[1] * op.attrs.getInt("group", 1);
}

// c adds one value per channel (dim 1 of the output) or one value to everything.
bool perChannel(const ir::Value* c, const ir::Shape& out) {
  if (c->numel() == 1) return c->shape.size() <= out.size();
  if (c->shape.size() > out.size() || out.size() < 2 || c->numel() != out[1]) return false;
  const size_t lead = out.size() - c->shape.size();
  for (size_t i = 0; i < c->shape.size(); ++i)
    if (lead + i != 1 && c->shape[i] != 1) return false;
  return true;
}

bool match(const ir::Graph& g, const Users& users, ir::Node& add, Match* m) {
  if (add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1) return false;
  for (int k = 0; k < 2; ++k) {
    ir::Value* a = add.inputs[k];
    const ir::Value* c = add.inputs[1 - k];
    ir::Node* conv = producerOf(a, "Conv");
    if (!conv) conv = producerOf(a, "ConvTranspose");
    if (!conv || conv->attrs.has("activation") || conv->inputs.size() > 3) continue;
    if (conv->inputs.size() < 2 || !conv->inputs[1]) continue;
    if (conv->inputs.size() == 3 && conv->inputs[2] && !constF32(conv->inputs[2])) continue;
    if (soleUser(g, users, a) != &add || !constF32(c) || a->dtype != ir::DType::F32) continue;
    if (add.outputs[0]->shape != a->shape || !perChannel(c, a->shape)) continue;
    if (c->numel() != 1 && c->numel() != outChannels(*conv)) continue;
    *m = {conv, &add, c};
    return true;
  }
  return false;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  ir::Node& op = *m.conv;
  const int64_t ch = outChannels(op);
  const bool has_b = op.inputs.size() > 2 && op.inputs[2];
  std::vector<float> b(static_cast<size_t>(ch));
  const float* add = m.c->data->as<float>();
  for (int64_t i = 0; i < ch; ++i)
    b[i] = (has_b ? op.inputs[2]->data->as<float>()[i] : 0.f) + add[m.c->numel() == 1 ? 0 : i];
  ir::Value* bias =
      g.addConstant(op.name + "_bias",
                    ir::Tensor{ir::DType::F32, {ch}, ir::Blob::copyOf(b.data(), b.size() * 4)});
  op.inputs.resize(3, nullptr);
  op.inputs[2] = bias;
  ctx.log.push_back(fmt::format("fuse-conv-bias: Add '{}' folded into {} '{}'", m.add->name,
                                op.op_type, op.name));
  inheritNames(&op, m.add);
  takeOutput(&op, m.add);
}

}  // namespace

Status fuseConvBias(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
