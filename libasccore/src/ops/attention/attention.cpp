// attention.cpp: Attention (ONNX opset 23; 24 adds nonpad_kv_seqlen) -> CANN
// FusedInferAttentionScore. Scaled dot-product attention over Q [B, Hq, Sq, D], K [B, Hkv, Skv, D]
// and V [B, Hkv, Skv, Dv] (or their 3-D forms [B, S, H*D] with q_num_heads / kv_num_heads), with
// an optional mask (bool: true attends; float: added), a causal mask, a softcap, grouped-query
// heads (query head h reads key/value head h / (Hq / Hkv)) and a key/value cache (past_key and
// past_value are put before K and V; present_key and present_value are the result), Attention-24's
// nonpad_kv_seqlen (per batch, the keys from that index on are padding) and the qk_matmul_output
// output at the stage qk_matmul_output_mode names (see attention_kernel.cpp).
#include "ops/op_util.h"
#include "attention_kernel.h"

namespace asc::ops {
namespace {

Status inferAttention(InferContext& ctx) {
  const size_t rank = static_cast<size_t>(ctx.rank(0));
  if (rank != 3 && rank != 4) return ctx.fail("Q has rank {}; Attention takes rank 3 or 4", rank);
  for (size_t i = 1; i <= 2; ++i)
    if (static_cast<size_t>(ctx.rank(i)) != rank)
      return ctx.fail("{} has rank {}, Q rank {}; they must match", i == 1 ? "K" : "V", ctx.rank(i),
                      rank);
  for (size_t i = 0; i < 3; ++i)
    if (ctx.dtype(i) != ctx.dtype(0) || !ir::isFloat(ctx.dtype(i)))
      return ctx.fail("Q, K and V must have one float dtype; input {} is {}", i,
                      ir::dtypeName(ctx.dtype(i)));
  const int64_t qk_mode = ctx.attrs().getInt("qk_matmul_output_mode", 0);
  if (qk_mode < 0 || qk_mode > 3)
    return ctx.fail("qk_matmul_output_mode {} is not 0, 1, 2 or 3", qk_mode);
  const ir::Shape &q = ctx.shape(0), &k = ctx.shape(1), &v = ctx.shape(2);
  int64_t b = q[0], hq, hkv, sq, skv, d, dv;
  if (rank == 4) {
    hq = q[1], sq = q[2], d = q[3], hkv = k[1], skv = k[2], dv = v[3];
    if (k[3] != d || v[1] != hkv || v[2] != skv || k[0] != b || v[0] != b)
      return ctx.fail(
          "K [{}] and V [{}] do not fit Q [{}] ([B, H, S, D] with K's head size Q's "
          "and V's heads and length K's)",
          ir::shapeToString(k), ir::shapeToString(v), ir::shapeToString(q));
  } else {
    hq = ctx.attrs().getInt("q_num_heads", 0);
    hkv = ctx.attrs().getInt("kv_num_heads", 0);
    if (hq <= 0 || hkv <= 0)
      return ctx.fail("3-D inputs need the attributes q_num_heads and kv_num_heads");
    if (q[2] % hq || k[2] % hkv || v[2] % hkv)
      return ctx.fail("hidden sizes {}, {}, {} are not multiples of the heads ({} and {})", q[2],
                      k[2], v[2], hq, hkv);
    sq = q[1], d = q[2] / hq, skv = k[1], dv = v[2] / hkv;
    if (k[2] / hkv != d || v[1] != skv || k[0] != b || v[0] != b)
      return ctx.fail("K [{}] and V [{}] do not fit Q [{}] with {} query and {} key/value heads",
                      ir::shapeToString(k), ir::shapeToString(v), ir::shapeToString(q), hq, hkv);
  }
  if (hkv <= 0 || hq % hkv)
    return ctx.fail("{} query heads are not a multiple of {} key/value heads", hq, hkv);
  int64_t past = 0;
  if (ctx.numInputs() > 4 && ctx.hasInput(4)) {
    if (!(ctx.numInputs() > 5 && ctx.hasInput(5)))
      return ctx.fail("past_key is given without past_value");
    const ir::Shape &pk = ctx.shape(4), &pv = ctx.shape(5);
    past = pk.size() == 4 ? pk[2] : -1;
    if (pk != ir::Shape{b, hkv, past, d} || pv != ir::Shape{b, hkv, past, dv})
      return ctx.fail(
          "past_key [{}] / past_value [{}] must be [B, Hkv, P, D] / [B, Hkv, P, Dv] "
          "= [{}, {}, P, {}] / [{}, {}, P, {}]",
          ir::shapeToString(pk), ir::shapeToString(pv), b, hkv, d, b, hkv, dv);
  } else if (ctx.numInputs() > 5 && ctx.hasInput(5)) {
    return ctx.fail("past_value is given without past_key");
  }
  const int64_t total = past + skv;
  if (ctx.numInputs() > 3 && ctx.hasInput(3)) {
    const ir::Shape& m = ctx.shape(3);
    const ir::Shape full{b, hq, sq, total};
    if (m.empty() || m.size() > 4 || m.back() > total)
      return ctx.fail("attn_mask [{}] must broadcast to [B, Hq, Sq, total length] = [{}]",
                      ir::shapeToString(m), ir::shapeToString(full));
    for (size_t i = 0; i + 1 < m.size(); ++i) {
      const int64_t want = full[4 - m.size() + i];
      if (m[i] != 1 && m[i] != want)
        return ctx.fail("attn_mask [{}] must broadcast to [B, Hq, Sq, total length] = [{}]",
                        ir::shapeToString(m), ir::shapeToString(full));
    }
    if (ctx.dtype(3) != ir::DType::Bool && ctx.dtype(3) != ctx.dtype(0))
      return ctx.fail("attn_mask is {}; it is bool or Q's dtype", ir::dtypeName(ctx.dtype(3)));
  }
  if (ctx.numInputs() > 6 && ctx.hasInput(6)) {
    if (ctx.opset() < 24)
      return ctx.fail("nonpad_kv_seqlen (input 6) is Attention-24's; the model's opset is {}",
                      ctx.opset());
    if (ctx.dtype(6) != ir::DType::I64 || ctx.shape(6) != ir::Shape{b})
      return ctx.fail("nonpad_kv_seqlen is {} [{}]; it must be int64 [B] = [{}]",
                      ir::dtypeName(ctx.dtype(6)), ir::shapeToString(ctx.shape(6)), b);
    if (past > 0) return ctx.fail("nonpad_kv_seqlen is for an external cache: not with past_key");
  }
  const float softcap = ctx.attrs().getFloat("softcap", 0.f);
  if (!(softcap >= 0)) return ctx.fail("softcap {} must be >= 0", softcap);
  ctx.attrs().set("q_num_heads", hq);
  ctx.attrs().set("kv_num_heads", hkv);
  ctx.attrs().set("scale", ctx.attrs().getFloat("scale", 1.f / std::sqrt(static_cast<float>(d))));
  if (rank == 4)
    ctx.setOutput(0, ctx.dtype(0), {b, hq, sq, dv});
  else
    ctx.setOutput(0, ctx.dtype(0), {b, sq, hq * dv});
  if (ctx.node().outputs.size() > 1) ctx.setOutput(1, ctx.dtype(0), {b, hkv, total, d});
  if (ctx.node().outputs.size() > 2) ctx.setOutput(2, ctx.dtype(0), {b, hkv, total, dv});
  if (ctx.node().outputs.size() > 3) ctx.setOutput(3, ctx.dtype(0), {b, hq, sq, total});
  return Status::ok();
}

int64_t attentionFlops(const ir::Node& n) {
  const ir::Value* y = n.outputs[0];
  const ir::Value* k = n.inputs[1];
  if (!y || !k) return 0;
  // Two products of [Sq x total] per query head: about 4 flops per output element per key.
  const int64_t keys = k->shape.size() == 4 ? k->shape[2] : k->shape[1];
  const int64_t d = n.inputs[0]->shape.back();
  return 2 * y->numel() * keys + 2 * n.inputs[0]->numel() / std::max<int64_t>(d, 1) * keys * d;
}

}  // namespace

const OpDef& defAttention() {
  static const OpDef d = OpDef("Attention")
                             .precisionClass(PrecisionClass::Sensitive)
                             .kernel(createAttentionKernel)
                             .onnx(23)
                             .cann("FusedInferAttentionScore")
                             .inputs(3, 7)
                             .outputs(1, 4)
                             .inferShape(inferAttention)
                             .flops(attentionFlops)
                             .summary(
                                 "softmax(Q K^T * scale (softcap, mask, causal)) V, with "
                                 "grouped-query heads and a key/value cache");
  return d;
}

}  // namespace asc::ops
