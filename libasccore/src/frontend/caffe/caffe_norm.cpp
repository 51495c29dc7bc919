// caffe_norm.cpp: the Caffe layers that normalize: BatchNorm (mean and variance divided by the
// scale-factor blob), Scale and Bias (a blob or a second bottom along `axis`), MVN, LRN over
// WITHIN_CHANNEL windows, and SSD's Normalize; each written through Converter::node with Caffe's
// formulas.
#include <cmath>

#include "caffe_converter.h"

namespace asc::frontend::caffe_import {

Status Converter::batchNorm(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (x->shape.size() < 2) return invalid(l, "the input needs a channel axis");
  const int64_t c = x->shape[1];
  ASC_TRY(auto blobs, layerBlobs(l, 3, 3));
  ASC_TRY(ir::Value * mean, weight(l, *blobs[0], 0, {c}));
  ASC_TRY(ir::Value * var, weight(l, *blobs[1], 1, {c}));
  ASC_TRY(ir::Value * f, weight(l, *blobs[2], 2, {1}));
  // Caffe stores running sums: the statistics are blob / scale factor (0 means none yet).
  const float factor = blobFloats(f)[0];
  const float inv = factor == 0.f ? 0.f : 1.f / factor;
  std::vector<float> m = blobFloats(mean), v = blobFloats(var);
  for (auto& e : m) e *= inv;
  for (auto& e : v) e *= inv;
  ir::Value* mv = constant(l.name() + "/mean", {c}, m);
  ir::Value* vv = constant(l.name() + "/variance", {c}, v);
  ir::Value* sv = constant(l.name() + "/scale", {c}, std::vector<float>(c, 1.f));
  ir::Value* bv = constant(l.name() + "/bias", {c}, std::vector<float>(c, 0.f));
  ir::Attrs a;
  a.set("epsilon", l.batch_norm_param().eps());
  ASC_TRY(ir::Node * n,
          node(l, "BatchNormalization", {x, sv, bv, mv, vv}, {top(l, 0)}, std::move(a)));
  (void)n;
  return Status::ok();
}

// Scale (x * s [+ b]) and Bias (x + b): s and b cover the dims [axis, axis + num_axes) of x and
// are broadcast over the rest; from the layer's blobs, or from a second bottom.
Status Converter::scale(const caffe::LayerParameter& l, bool bias_only) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  const int64_t axis_raw = bias_only ? l.bias_param().axis() : l.scale_param().axis();
  const int64_t num_axes = bias_only ? l.bias_param().num_axes() : l.scale_param().num_axes();
  const bool bias_term = bias_only || l.scale_param().bias_term();
  ir::Value* factor = nullptr;
  ir::Value* second = nullptr;
  if (l.bottom_size() > 1) {
    ASC_TRY(second, bottom(l, 1));
  }
  ASC_TRY(int64_t axis, caffeAxis(l, axis_raw, r == 0 ? 1 : r));
  ir::Shape pshape;
  if (second) {
    pshape = second->shape;
    if (axis + static_cast<int64_t>(pshape.size()) > r)
      return invalid(l, "the second bottom has too many axes");
  } else {
    int64_t end = num_axes < 0 ? r : axis + num_axes;
    if (num_axes < -1 || end > r)
      return invalid(l, fmt::format("num_axes {} does not fit the input", num_axes));
    pshape.assign(x->shape.begin() + axis, x->shape.begin() + end);
  }
  ir::Shape bshape = pshape;  // broadcast form: trailing 1s up to the input's rank
  while (static_cast<int64_t>(bshape.size()) + axis < r) bshape.push_back(1);
  const int want_blobs =
      (second ? 0 : 1) + (bias_only ? 0 : (bias_term ? 1 : 0)) - (bias_only && second ? 1 : 0);
  std::vector<const caffe::BlobProto*> blobs;
  if (want_blobs > 0) {
    ASC_TRY(blobs, layerBlobs(l, want_blobs, want_blobs));
  }
  size_t next = 0;
  ir::Value* cur = x;
  auto reshaped = [&](ir::Value* v) -> Result<ir::Value*> {
    if (v->shape == bshape) return v;
    ir::Attrs ra;
    ra.set("shape", std::vector<int64_t>(bshape.begin(), bshape.end()));
    ir::Value* o = temp(l.name() + "/reshape");
    ASC_TRY(ir::Node * rn, node(l, "Reshape", {v}, {o}, std::move(ra)));
    (void)rn;
    return o;
  };
  ir::Value* out = top(l, 0);
  if (!bias_only) {
    if (second) {
      ASC_TRY(factor, reshaped(second));
    } else {
      ASC_TRY(factor, weight(l, *blobs[next], static_cast<int>(next), bshape));
      ++next;
    }
    ir::Value* prod = bias_term ? temp(l.name() + "/mul") : out;
    ASC_TRY(ir::Node * mn, node(l, "Mul", {cur, factor}, {prod}));
    (void)mn;
    cur = prod;
  }
  if (bias_term) {
    ir::Value* b;
    if (bias_only && second) {
      ASC_TRY(b, reshaped(second));
    } else {
      ASC_TRY(b, weight(l, *blobs[next], static_cast<int>(next), bshape));
    }
    ASC_TRY(ir::Node * an, node(l, "Add", {cur, b}, {out}));
    (void)an;
  }
  return Status::ok();
}

// SSD's Normalize: x / sqrt(sum of squares + eps) over the channels (or the whole sample with
// across_spatial), times a learned scale per channel (or one shared).
Status Converter::normalize(const caffe::LayerParameter& l) {
  const auto& p = l.norm_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (x->shape.size() != 4) return unsupported(l, "input of rank other than 4");
  const int64_t c = x->shape[1];
  ASC_TRY(auto blobs, layerBlobs(l, 1, 1));
  ASC_TRY(ir::Value * s,
          weight(l, *blobs[0], 0, p.channel_shared() ? ir::Shape{1} : ir::Shape{c, 1, 1}));
  ir::Attrs ra;
  ra.set("axes", p.across_spatial() ? std::vector<int64_t>{1, 2, 3} : std::vector<int64_t>{1});
  ra.set("keepdims", int64_t{1});
  ir::Value* ss = temp(l.name() + "/sumsq");
  ASC_TRY(ir::Node * n1, node(l, "ReduceSumSquare", {x}, {ss}, std::move(ra)));
  ir::Value* se = temp(l.name() + "/eps");
  ASC_TRY(ir::Node * n2, node(l, "Add", {ss, constant(l.name() + "/eps", {}, {p.eps()})}, {se}));
  ir::Value* nr = temp(l.name() + "/norm");
  ASC_TRY(ir::Node * n3, node(l, "Sqrt", {se}, {nr}));
  ir::Value* dv = temp(l.name() + "/div");
  ASC_TRY(ir::Node * n4, node(l, "Div", {x, nr}, {dv}));
  ASC_TRY(ir::Node * n5, node(l, "Mul", {dv, s}, {top(l, 0)}));
  (void)n1, (void)n2, (void)n3, (void)n4, (void)n5;
  return Status::ok();
}

// MVN: Caffe's mean-variance normalization over each map (or each sample, across_channels):
// y = x - mean, divided by (sqrt(variance) + eps) with normalize_variance. Built from the IR's
// ops so that eps sits where Caffe puts it (on the standard deviation).
Status Converter::mvn(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const auto& p = l.mvn_param();
  std::vector<int64_t> axes;
  for (int64_t i = p.across_channels() ? 1 : 2; i < static_cast<int64_t>(x->shape.size()); ++i)
    axes.push_back(i);
  if (axes.empty())
    return invalid(l, fmt::format("its bottom of shape [{}] has no dims to normalize over",
                                  ir::shapeToString(x->shape)));
  auto mean = [&](ir::Value* v, const char* what) -> Result<ir::Value*> {
    ir::Attrs a;
    a.set("axes", axes);
    a.set("keepdims", int64_t{1});
    ir::Value* m = temp(l.name() + "/" + what);
    ASC_TRY(ir::Node * n, node(l, "ReduceMean", {v}, {m}, std::move(a)));
    (void)n;
    return m;
  };
  ASC_TRY(ir::Value * mu, mean(x, "mean"));
  if (!p.normalize_variance()) {
    ASC_TRY(ir::Node * n, node(l, "Sub", {x, mu}, {top(l, 0)}));
    (void)n;
    return Status::ok();
  }
  ir::Value* d = temp(l.name() + "/centered");
  ASC_TRY(ir::Node * sub, node(l, "Sub", {x, mu}, {d}));
  ir::Value* sq = temp(l.name() + "/squared");
  ASC_TRY(ir::Node * mul, node(l, "Mul", {d, d}, {sq}));
  ASC_TRY(ir::Value * var, mean(sq, "variance"));
  ir::Value* sd = temp(l.name() + "/std");
  ASC_TRY(ir::Node * root, node(l, "Sqrt", {var}, {sd}));
  ir::Value* den = temp(l.name() + "/std_eps");
  ASC_TRY(ir::Node * add, node(l, "Add", {sd, constant(l.name() + "/eps", {}, {p.eps()})}, {den}));
  ASC_TRY(ir::Node * div, node(l, "Div", {d, den}, {top(l, 0)}));
  (void)sub, (void)mul, (void)root, (void)add, (void)div;
  return Status::ok();
}

// LRN over a local_size x local_size window of each map (WITHIN_CHANNEL), as Caffe builds it:
// the squares averaged over the window (zero padding counted, (local_size - 1) / 2 each side),
// then x * (1 + alpha * average)^-beta. (Caffe's k is not used in this mode.)
Status Converter::lrnWithinChannel(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (x->shape.size() != 4)
    return invalid(l, fmt::format("WITHIN_CHANNEL needs a 4-D bottom, it is [{}]",
                                  ir::shapeToString(x->shape)));
  const auto& p = l.lrn_param();
  const int64_t size = p.local_size(), pad = (size - 1) / 2;
  ir::Value* sq = temp(l.name() + "/squared");
  ASC_TRY(ir::Node * mul, node(l, "Mul", {x, x}, {sq}));
  ir::Attrs a;
  a.set("kernel_shape", std::vector<int64_t>{size, size});
  a.set("pads", std::vector<int64_t>{pad, pad, pad, pad});
  a.set("count_include_pad", int64_t{1});
  ir::Value* avg = temp(l.name() + "/window_mean");
  ASC_TRY(ir::Node * pool, node(l, "AveragePool", {sq}, {avg}, std::move(a)));
  ir::Value* scaled = temp(l.name() + "/scaled");
  ASC_TRY(ir::Node * scale,
          node(l, "Mul", {avg, constant(l.name() + "/alpha", {}, {p.alpha()})}, {scaled}));
  ir::Value* base = temp(l.name() + "/base");
  ASC_TRY(ir::Node * add, node(l, "Add", {scaled, constant(l.name() + "/one", {}, {1.f})}, {base}));
  ir::Value* factor = temp(l.name() + "/factor");
  ASC_TRY(ir::Node * pow,
          node(l, "Pow", {base, constant(l.name() + "/minus_beta", {}, {-p.beta()})}, {factor}));
  ASC_TRY(ir::Node * out, node(l, "Mul", {x, factor}, {top(l, 0)}));
  (void)mul, (void)pool, (void)scale, (void)add, (void)pow, (void)out;
  return Status::ok();
}

}  // namespace asc::frontend::caffe_import
