// prune_conv_taps.cpp: kernel taps of a Conv that never read the input go. With a dilation as
// wide as the feature map (DeepLabV3's ASPP: dilation 24 and 36 on 14x14), every tap but the
// centre lands in the padding for every output position, so the 3x3 convolution is a 1x1 one:
// the same numbers, a ninth of the work. Per spatial dim, the taps kept are those from the
// first to the last that some output position reads inside the input; the weights are sliced to
// them (a new constant) and the pads shrink by the dropped taps' reach, so the output shape is
// unchanged. A dim whose pads would go negative keeps its taps.
#include <fmt/format.h>

#include "pass_util.h"

namespace asc::passes {
namespace {

struct Match {
  ir::Node* conv;
  // Per spatial dim: the first and last tap kept.
  std::vector<int64_t> first, last;
  std::vector<const ir::Node*> involved() const { return {conv}; }
};

bool match(const ir::Graph&, const Users&, ir::Node& n, Match* m) {
  if (n.op_type != "Conv" || n.inputs.size() < 2 || n.outputs.size() != 1) return false;
  const ir::Value* x = n.inputs[0];
  const ir::Value* w = n.inputs[1];
  const ir::Value* y = n.outputs[0];
  if (!x || !w || !y || !w->isConstant() || w->dtype != ir::DType::F32 || !w->data) return false;
  if (n.attrs.getString("auto_pad", "NOTSET") != "NOTSET") return false;
  const size_t r = x->shape.size();
  if (r < 3 || w->shape.size() != r || y->shape.size() != r) return false;
  const size_t sp = r - 2;
  for (size_t i = 0; i < r; ++i)
    if (x->shape[i] <= 0 || y->shape[i] <= 0) return false;  // static shapes only
  const auto strides = n.attrs.getInts("strides", std::vector<int64_t>(sp, 1));
  const auto dil = n.attrs.getInts("dilations", std::vector<int64_t>(sp, 1));
  const auto pads = n.attrs.getInts("pads", std::vector<int64_t>(2 * sp, 0));
  if (strides.size() != sp || dil.size() != sp || pads.size() != 2 * sp) return false;
  Match out{&n, {}, {}};
  bool prunes = false;
  for (size_t j = 0; j < sp; ++j) {
    const int64_t in = x->shape[2 + j], k = w->shape[2 + j], o_n = y->shape[2 + j];
    const int64_t s = strides[j], d = dil[j], pl = pads[j], pr = pads[sp + j];
    int64_t first = -1, last = -1;
    for (int64_t t = 0; t < k; ++t) {
      // Does some output position read tap t inside the input? The positions it reads are
      // o * s - pl + t * d for o in [0, o_n): an arithmetic progression, checked at its ends
      // and at the first one past 0.
      const int64_t lo = t * d - pl, hi = (o_n - 1) * s + lo;
      if (hi < 0 || lo >= in) continue;
      const int64_t o0 = lo >= 0 ? 0 : (-lo + s - 1) / s;  // first o with a position >= 0
      if (o0 >= o_n || o0 * s + lo >= in) continue;
      if (first < 0) first = t;
      last = t;
    }
    if (first < 0 || (first == 0 && last == k - 1) || pl - first * d < 0 ||
        pr - (k - 1 - last) * d < 0) {
      out.first.push_back(0);
      out.last.push_back(k - 1);
      continue;
    }
    out.first.push_back(first);
    out.last.push_back(last);
    prunes = true;
  }
  if (!prunes) return false;
  *m = out;
  return true;
}

void rewrite(ir::Graph& g, const Match& m, PassContext& ctx) {
  ir::Node& n = *m.conv;
  const ir::Value* wv = n.inputs[1];
  const ir::Shape& ws = wv->shape;
  const size_t sp = ws.size() - 2;
  auto pads = n.attrs.getInts("pads", std::vector<int64_t>(2 * sp, 0));
  auto dil = n.attrs.getInts("dilations", std::vector<int64_t>(sp, 1));
  ir::Shape ns = ws;
  for (size_t j = 0; j < sp; ++j) {
    const int64_t k = ws[2 + j];
    ns[2 + j] = m.last[j] - m.first[j] + 1;
    pads[j] -= m.first[j] * dil[j];
    pads[sp + j] -= (k - 1 - m.last[j]) * dil[j];
    if (ns[2 + j] == 1) dil[j] = 1;  // one tap: the dilation no longer matters
  }
  // The kept block of every [O, I/g] kernel, row-major over the spatial dims.
  int64_t outer = ws[0] * ws[1], kept = 1, full = 1;
  for (size_t j = 0; j < sp; ++j) {
    kept *= ns[2 + j];
    full *= ws[2 + j];
  }
  const float* w = wv->data->as<float>();
  std::vector<float> nw(static_cast<size_t>(outer * kept));
  std::vector<int64_t> idx(sp, 0);
  for (int64_t e = 0; e < kept; ++e) {
    int64_t src = 0;  // offset of the kept tap `idx` in the full kernel
    for (size_t j = 0; j < sp; ++j) src = src * ws[2 + j] + m.first[j] + idx[j];
    for (int64_t o = 0; o < outer; ++o) nw[o * kept + e] = w[o * full + src];
    for (size_t j = sp; j-- > 0;) {  // the next kept tap, last dim fastest
      if (++idx[j] < ns[2 + j]) break;
      idx[j] = 0;
    }
  }
  n.inputs[1] = g.addConstant(
      wv->name + "_pruned",
      ir::Tensor{ir::DType::F32, ns, ir::Blob::copyOf(nw.data(), nw.size() * sizeof(float))});
  std::vector<int64_t> kshape(ns.begin() + 2, ns.end());
  n.attrs.set("kernel_shape", kshape);
  n.attrs.set("pads", pads);
  n.attrs.set("dilations", dil);
  ctx.log.push_back(
      fmt::format("prune-conv-taps: Conv '{}' kernel {} -> {} (taps that read "
                  "only padding)",
                  n.name, fmt::join(ws.begin() + 2, ws.end(), "x"), fmt::join(kshape, "x")));
}

}  // namespace

Status pruneConvTaps(ir::Graph& g, PassContext& ctx) {
  return forEachMatch<Match>(g, ctx, match,
                             [](ir::Graph& gr, Match& m, PassContext& c) { rewrite(gr, m, c); });
}

}  // namespace asc::passes
