// caffe_layers.cpp: one converter per Caffe layer type with parameters (Convolution, Pooling,
// InnerProduct, BatchNorm, Scale, Eltwise, Reshape, ...), each writing IR nodes through
// Converter::node so they are named after the layer and shape-inferred at once. The formulas are
// Caffe's (pooling rounding and divisors, BatchNorm's scale factor, Exp/Log/Power bases).
#include <cmath>

#include "caffe_converter.h"

namespace asc::frontend::caffe_import {
namespace {

// Caffe's kernel/pad/stride spellings: the _h/_w pair, or a repeated value (one for both dims,
// or one per dim).
Result<std::vector<int64_t>> spatial(const caffe::LayerParameter& l, const char* what,
                                     const google::protobuf::RepeatedField<uint32_t>& rep,
                                     bool has_h, uint32_t h, bool has_w, uint32_t w, int64_t def) {
  if (has_h || has_w) {
    if (rep.size())
      return invalid(l,
                     fmt::format("gives {} both as {}_h/{}_w and as {}", what, what, what, what));
    return std::vector<int64_t>{has_h ? int64_t{h} : def, has_w ? int64_t{w} : def};
  }
  if (rep.size() == 0) return std::vector<int64_t>{def, def};
  if (rep.size() == 1) return std::vector<int64_t>{rep[0], rep[0]};
  if (rep.size() == 2) return std::vector<int64_t>{rep[0], rep[1]};
  return Status::error(ErrorCode::NotImplemented,
                       "The operation is not supported. Reason: Caffe layer '{}' ({}): {} has {} "
                       "values; asc-tools converts 2-D convolutions only",
                       l.name(), l.type(), what, rep.size());
}

// Caffe's pooling output: ceil((in + 2p - k) / s) + 1 (floor with round_mode FLOOR), less one
// when the last window would start in the end padding (only checked with padding).
int64_t caffePoolDim(int64_t in, int64_t k, int64_t s, int64_t p, bool ceil_mode) {
  const int64_t span = in + 2 * p - k;
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (p > 0 && (out - 1) * s >= in + p) --out;
  return out;
}

}  // namespace

Status Converter::convolution(const caffe::LayerParameter& l, bool deconv) {
  const auto& p = l.convolution_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (l.bottom_size() != 1 || l.top_size() != 1)
    return unsupported(l, "only one bottom and one top are converted");
  if (p.axis() != 1 && p.axis() != -3) return unsupported(l, "axis other than 1");
  if (x->shape.size() != 4)
    return unsupported(
        l, fmt::format("input of rank {}; 2-D (NCHW) convolution only", x->shape.size()));
  ASC_TRY(auto kernel, spatial(l, "kernel", p.kernel_size(), p.has_kernel_h(), p.kernel_h(),
                               p.has_kernel_w(), p.kernel_w(), 0));
  ASC_TRY(auto pad,
          spatial(l, "pad", p.pad(), p.has_pad_h(), p.pad_h(), p.has_pad_w(), p.pad_w(), 0));
  ASC_TRY(auto stride, spatial(l, "stride", p.stride(), p.has_stride_h(), p.stride_h(),
                               p.has_stride_w(), p.stride_w(), 1));
  std::vector<int64_t> dilation{1, 1};
  if (p.dilation_size() == 1)
    dilation = {p.dilation(0), p.dilation(0)};
  else if (p.dilation_size() == 2)
    dilation = {p.dilation(0), p.dilation(1)};
  else if (p.dilation_size() > 2)
    return unsupported(l, "3-D dilation");
  for (int i = 0; i < 2; ++i)
    if (kernel[i] <= 0 || stride[i] <= 0 || dilation[i] <= 0)
      return invalid(l,
                     "kernel size, stride and dilation must be positive (kernel_size is required)");
  const int64_t group = p.group(), num_output = p.num_output(), c = x->shape[1];
  if (group <= 0 || num_output <= 0 || c % group || num_output % group)
    return invalid(l, fmt::format("num_output {} and the {} input channels must be positive "
                                  "multiples of group {}",
                                  num_output, c, group));
  ASC_TRY(auto blobs, layerBlobs(l, p.bias_term() ? 2 : 1, p.bias_term() ? 2 : 1));
  ir::Shape wshape = deconv ? ir::Shape{c, num_output / group, kernel[0], kernel[1]}
                            : ir::Shape{num_output, c / group, kernel[0], kernel[1]};
  ASC_TRY(ir::Value * w, weight(l, *blobs[0], 0, wshape));
  std::vector<ir::Value*> ins{x, w};
  if (p.bias_term()) {
    ASC_TRY(ir::Value * b, weight(l, *blobs[1], 1, {num_output}));
    ins.push_back(b);
  }
  ir::Attrs a;
  a.set("kernel_shape", kernel);
  a.set("strides", stride);
  a.set("dilations", dilation);
  a.set("pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]});
  a.set("group", group);
  ASC_TRY(ir::Node * n, node(l, deconv ? "ConvTranspose" : "Conv", ins, {top(l, 0)}, std::move(a)));
  (void)n;
  return Status::ok();
}

Status Converter::pooling(const caffe::LayerParameter& l) {
  const auto& p = l.pooling_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (l.top_size() != 1) return unsupported(l, "a second top (the max positions) is not converted");
  if (x->shape.size() != 4) return unsupported(l, "input of rank other than 4");
  if (p.pool() == caffe::PoolingParameter::STOCHASTIC)
    return unsupported(l, "STOCHASTIC pooling (a training-time method)");
  const bool is_max = p.pool() == caffe::PoolingParameter::MAX;
  if (p.global_pooling()) {
    if (p.pad() || p.pad_h() || p.pad_w()) return invalid(l, "global pooling takes no padding");
    return unary(l, is_max ? "GlobalMaxPool" : "GlobalAveragePool");
  }
  std::vector<int64_t> kernel, pad, stride;
  if (p.has_kernel_h() || p.has_kernel_w()) {
    if (p.has_kernel_size()) return invalid(l, "gives kernel_size and kernel_h/kernel_w");
    kernel = {p.kernel_h(), p.kernel_w()};
  } else {
    kernel = {p.kernel_size(), p.kernel_size()};
  }
  if (p.has_pad_h() || p.has_pad_w())
    pad = {p.pad_h(), p.pad_w()};
  else
    pad = {p.pad(), p.pad()};
  if (p.has_stride_h() || p.has_stride_w())
    stride = {p.stride_h(), p.stride_w()};
  else
    stride = {p.stride(), p.stride()};
  const bool ceil_mode = p.round_mode() == caffe::PoolingParameter::CEIL;
  std::vector<int64_t> out(2), floor_out(2), in{x->shape[2], x->shape[3]};
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] <= 0 || stride[i] <= 0)
      return invalid(l, "kernel size and stride must be positive");
    if (pad[i] >= kernel[i]) return invalid(l, "pad must be smaller than the kernel");
    if (in[i] + 2 * pad[i] < kernel[i])
      return invalid(
          l, fmt::format("the input [{}] is smaller than the kernel", ir::shapeToString(x->shape)));
    out[i] = caffePoolDim(in[i], kernel[i], stride[i], pad[i], ceil_mode);
    floor_out[i] = caffePoolDim(in[i], kernel[i], stride[i], pad[i], false);
    // A window entirely past the input (no padding, stride over the kernel): Caffe reads
    // nothing there; no IR pooling produces it.
    if ((out[i] - 1) * stride[i] >= in[i] + pad[i])
      return unsupported(l, "its last window lies entirely outside the input");
  }
  const bool overflow = out != floor_out;  // ceil rounding adds windows past the padding
  const bool padded = pad[0] || pad[1];
  ir::Attrs a;
  a.set("kernel_shape", kernel);
  a.set("strides", stride);
  ir::Value* src = x;
  if (!is_max && padded && overflow) {
    // Caffe divides an average by the window clipped to input + padding: pad explicitly with
    // zeros, then average excluding only the ceil overflow.
    ir::Attrs pa;
    pa.set("pads", std::vector<int64_t>{0, 0, pad[0], pad[1], 0, 0, pad[0], pad[1]});
    pa.set("mode", std::string("constant"));
    ir::Value* padded_v = temp(l.name() + "/pad");
    ASC_TRY(ir::Node * pn, node(l, "Pad", {x}, {padded_v}, std::move(pa)));
    (void)pn;
    src = padded_v;
    a.set("pads", std::vector<int64_t>{0, 0, 0, 0});
    a.set("ceil_mode", int64_t{1});
    a.set("count_include_pad", int64_t{0});
  } else {
    a.set("pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]});
    a.set("ceil_mode", int64_t{overflow ? 1 : 0});
    // With padding and no overflow every window is whole: Caffe divides by the kernel size.
    if (!is_max) a.set("count_include_pad", int64_t{padded ? 1 : 0});
  }
  ir::Value* y = top(l, 0);
  ASC_TRY(ir::Node * n, node(l, is_max ? "MaxPool" : "AveragePool", {src}, {y}, std::move(a)));
  (void)n;
  if (y->shape[2] != out[0] || y->shape[3] != out[1])
    return unsupported(l, fmt::format("Caffe's output {}x{} differs from the IR pooling's {}x{}",
                                      out[0], out[1], y->shape[2], y->shape[3]));
  return Status::ok();
}

Status Converter::innerProduct(const caffe::LayerParameter& l) {
  const auto& p = l.inner_product_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  ASC_TRY(int64_t axis, caffeAxis(l, p.axis(), r));
  int64_t k = 1, m = 1;
  for (int64_t i = axis; i < r; ++i) k *= x->shape[i];
  for (int64_t i = 0; i < axis; ++i) m *= x->shape[i];
  const int64_t n_out = p.num_output();
  if (n_out <= 0) return invalid(l, "num_output must be positive");
  ASC_TRY(auto blobs, layerBlobs(l, p.bias_term() ? 2 : 1, p.bias_term() ? 2 : 1));
  ASC_TRY(ir::Value * w,
          weight(l, *blobs[0], 0, p.transpose() ? ir::Shape{k, n_out} : ir::Shape{n_out, k}));
  ir::Value* src = x;
  if (r != 2 || axis != 1) {
    ir::Attrs fa;
    fa.set("axis", axis);
    src = temp(l.name() + "/flatten");
    ASC_TRY(ir::Node * f, node(l, "Flatten", {x}, {src}, std::move(fa)));
    (void)f;
  }
  std::vector<ir::Value*> ins{src, w};
  if (p.bias_term()) {
    ASC_TRY(ir::Value * b, weight(l, *blobs[1], 1, {n_out}));
    ins.push_back(b);
  }
  ir::Attrs a;
  a.set("transB", int64_t{p.transpose() ? 0 : 1});
  if (axis == 1) {
    ASC_TRY(ir::Node * gn, node(l, "Gemm", ins, {top(l, 0)}, std::move(a)));
    (void)gn;
    return Status::ok();
  }
  ir::Value* flat = temp(l.name() + "/gemm");
  ASC_TRY(ir::Node * gn, node(l, "Gemm", ins, {flat}, std::move(a)));
  (void)gn;
  std::vector<int64_t> shape(x->shape.begin(), x->shape.begin() + axis);
  shape.push_back(n_out);
  (void)m;
  ir::Attrs ra;
  ra.set("shape", shape);
  ASC_TRY(ir::Node * rn, node(l, "Reshape", {flat}, {top(l, 0)}, std::move(ra)));
  (void)rn;
  return Status::ok();
}

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

Status Converter::eltwise(const caffe::LayerParameter& l) {
  const auto& p = l.eltwise_param();
  if (l.bottom_size() < 2) return invalid(l, "needs at least two bottoms");
  std::vector<ir::Value*> xs;
  for (int i = 0; i < l.bottom_size(); ++i) {
    ASC_TRY(ir::Value * v, bottom(l, i));
    xs.push_back(v);
  }
  if (p.coeff_size() &&
      (p.operation() != caffe::EltwiseParameter::SUM || p.coeff_size() != l.bottom_size()))
    return invalid(
        l, fmt::format("coeff takes one value per bottom ({}) and only with SUM", l.bottom_size()));
  if (p.operation() == caffe::EltwiseParameter::MAX) {
    ASC_TRY(ir::Node * n, node(l, "Max", xs, {top(l, 0)}));
    (void)n;
    return Status::ok();
  }
  const std::string op = p.operation() == caffe::EltwiseParameter::PROD ? "Mul" : "Add";
  if (p.coeff_size())
    for (size_t i = 0; i < xs.size(); ++i) {
      const float c = p.coeff(static_cast<int>(i));
      if (c == 1.f) continue;
      ir::Value* cv = constant(fmt::format("{}/coeff{}", l.name(), i), {}, {c});
      ir::Value* o = temp(fmt::format("{}/scaled{}", l.name(), i));
      ASC_TRY(ir::Node * n, node(l, "Mul", {xs[i], cv}, {o}));
      (void)n;
      xs[i] = o;
    }
  ir::Value* acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) {
    ir::Value* o = i + 1 == xs.size() ? top(l, 0) : temp(fmt::format("{}/partial{}", l.name(), i));
    ASC_TRY(ir::Node * n, node(l, op, {acc, xs[i]}, {o}));
    (void)n;
    acc = o;
  }
  return Status::ok();
}

Status Converter::reshape(const caffe::LayerParameter& l) {
  const auto& p = l.reshape_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const ir::Shape& in = x->shape;
  const int64_t r = static_cast<int64_t>(in.size());
  int64_t start = p.axis() < 0 ? p.axis() + r + 1 : p.axis();
  if (start < 0 || start > r) return invalid(l, fmt::format("axis {} is out of range", p.axis()));
  int64_t end = p.num_axes() == -1 ? r : start + p.num_axes();
  if (p.num_axes() < -1 || end > r)
    return invalid(l, fmt::format("num_axes {} is out of range", p.num_axes()));
  std::vector<int64_t> spec(p.shape().dim().begin(), p.shape().dim().end());
  if (spec.size() > ir::kMaxRank) return invalid(l, "the shape has too many dims");
  ir::Shape out(in.begin(), in.begin() + start);
  int64_t infer_at = -1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0) {
      if (start + static_cast<int64_t>(i) >= r)
        return invalid(l, "a 0 dim copies past the input's axes");
      d = in[start + i];
    } else if (d == -1) {
      if (infer_at >= 0) return invalid(l, "the shape has more than one -1");
      infer_at = static_cast<int64_t>(out.size());
    } else if (d < -1) {
      return invalid(l, fmt::format("the shape has the dim {}", d));
    }
    out.push_back(d);
  }
  out.insert(out.end(), in.begin() + end, in.end());
  if (infer_at >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < out.size(); ++i)
      if (static_cast<int64_t>(i) != infer_at) known *= out[i];
    if (known == 0 || ir::numElements(in) % known)
      return invalid(l, fmt::format("cannot infer the -1 dim of [{}] from [{}]",
                                    ir::shapeToString(out), ir::shapeToString(in)));
    out[infer_at] = ir::numElements(in) / known;
  }
  if (ir::numElements(out) != ir::numElements(in))
    return invalid(
        l, fmt::format("the shape [{}] does not hold the {} values of [{}]", ir::shapeToString(out),
                       ir::numElements(in), ir::shapeToString(in)));
  ir::Attrs a;
  a.set("shape", std::vector<int64_t>(out.begin(), out.end()));
  return unaryOn(l, x, "Reshape", std::move(a));
}

Status Converter::flatten(const caffe::LayerParameter& l) {
  const auto& p = l.flatten_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  ASC_TRY(int64_t a0, caffeAxis(l, p.axis(), r));
  ASC_TRY(int64_t a1, caffeAxis(l, p.end_axis(), r, "end_axis"));
  if (a1 < a0) return invalid(l, "end_axis comes before axis");
  ir::Shape out(x->shape.begin(), x->shape.begin() + a0);
  int64_t prod = 1;
  for (int64_t i = a0; i <= a1; ++i) prod *= x->shape[i];
  out.push_back(prod);
  out.insert(out.end(), x->shape.begin() + a1 + 1, x->shape.end());
  ir::Attrs a;
  a.set("shape", std::vector<int64_t>(out.begin(), out.end()));
  return unaryOn(l, x, "Reshape", std::move(a));
}

Status Converter::slice(const caffe::LayerParameter& l) {
  const auto& p = l.slice_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  const int64_t axis_raw = p.has_axis() || !p.has_slice_dim() ? p.axis() : p.slice_dim();
  ASC_TRY(int64_t axis, caffeAxis(l, axis_raw, r));
  const int64_t dim = x->shape[axis], n = l.top_size();
  if (n < 1) return invalid(l, "has no tops");
  std::vector<int64_t> sizes;
  if (p.slice_point_size()) {
    if (p.slice_point_size() != n - 1)
      return invalid(
          l, fmt::format("{} slice points for {} tops (give one less)", p.slice_point_size(), n));
    int64_t prev = 0;
    for (auto s : p.slice_point()) {
      if (s <= prev || s >= dim)
        return invalid(l, fmt::format("slice points must increase within (0, {})", dim));
      sizes.push_back(s - prev);
      prev = s;
    }
    sizes.push_back(dim - prev);
  } else {
    if (dim % n)
      return invalid(
          l, fmt::format("axis {} of size {} does not split into {} equal parts", axis, dim, n));
    sizes.assign(n, dim / n);
  }
  std::vector<ir::Value*> outs;
  for (int i = 0; i < n; ++i) outs.push_back(top(l, i));
  ir::Attrs a;
  a.set("axis", axis);
  a.set("split", sizes);
  ASC_TRY(ir::Node * sn, node(l, "Split", {x}, outs, std::move(a)));
  (void)sn;
  return Status::ok();
}

Status Converter::crop(const caffe::LayerParameter& l) {
  const auto& p = l.crop_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  ASC_TRY(ir::Value * ref, bottom(l, 1));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  if (static_cast<int64_t>(ref->shape.size()) != r)
    return invalid(l, "the two bottoms differ in rank");
  ASC_TRY(int64_t axis, caffeAxis(l, p.axis(), r));
  const int64_t n = r - axis;
  if (p.offset_size() > 1 && p.offset_size() != n)
    return invalid(l, fmt::format("gives {} offsets for {} cropped axes", p.offset_size(), n));
  std::vector<int64_t> starts, ends, axes;
  for (int64_t i = axis; i < r; ++i) {
    int64_t off =
        p.offset_size() == 0 ? 0 : p.offset(p.offset_size() == 1 ? 0 : static_cast<int>(i - axis));
    if (off + ref->shape[i] > x->shape[i])
      return invalid(l, fmt::format("offset {} + size {} exceeds axis {} of size {}", off,
                                    ref->shape[i], i, x->shape[i]));
    starts.push_back(off);
    ends.push_back(off + ref->shape[i]);
    axes.push_back(i);
  }
  ir::Attrs a;
  a.set("starts", starts);
  a.set("ends", ends);
  a.set("axes", axes);
  return unaryOn(l, x, "Slice", std::move(a));
}

Status Converter::argmax(const caffe::LayerParameter& l) {
  const auto& p = l.argmax_param();
  if (p.out_max_val() || p.top_k() != 1) return unsupported(l, "out_max_val or top_k other than 1");
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  ir::Value* src = x;
  int64_t axis = 1;
  if (p.has_axis()) {
    ASC_TRY(axis, caffeAxis(l, p.axis(), r));
  } else {
    ir::Attrs fa;
    fa.set("axis", int64_t{1});
    src = temp(l.name() + "/flatten");
    ASC_TRY(ir::Node * f, node(l, "Flatten", {x}, {src}, std::move(fa)));
    (void)f;
  }
  ir::Attrs a;
  a.set("axis", axis);
  a.set("keepdims", int64_t{1});
  ir::Value* idx = temp(l.name() + "/index");
  ASC_TRY(ir::Node * an, node(l, "ArgMax", {src}, {idx}, std::move(a)));
  (void)an;
  ir::Attrs ca;
  ca.set("to", int64_t{1});  // float, as Caffe's blobs are
  if (p.has_axis()) {
    ASC_TRY(ir::Node * cn, node(l, "Cast", {idx}, {top(l, 0)}, std::move(ca)));
    (void)cn;
    return Status::ok();
  }
  ir::Value* f = temp(l.name() + "/cast");
  ASC_TRY(ir::Node * cn, node(l, "Cast", {idx}, {f}, std::move(ca)));
  (void)cn;
  ir::Attrs ra;
  ra.set("shape", std::vector<int64_t>{x->shape[0], 1, 1});
  ASC_TRY(ir::Node * rn, node(l, "Reshape", {f}, {top(l, 0)}, std::move(ra)));
  (void)rn;
  return Status::ok();
}

// y = (shift + scale * x) ^ power, as Mul, Add and Pow (each only when it changes something).
Status Converter::power(const caffe::LayerParameter& l, float pw, float sc, float sh) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  struct Step {
    const char* op;
    float v;
  };
  std::vector<Step> steps;
  if (sc != 1.f) steps.push_back({"Mul", sc});
  if (sh != 0.f) steps.push_back({"Add", sh});
  if (pw != 1.f) steps.push_back({"Pow", pw});
  if (steps.empty()) return unaryOn(l, x, "Identity", {});
  ir::Value* cur = x;
  for (size_t i = 0; i < steps.size(); ++i) {
    ir::Value* c = constant(fmt::format("{}/{}", l.name(), steps[i].op), {}, {steps[i].v});
    ir::Value* o =
        i + 1 == steps.size() ? top(l, 0) : temp(fmt::format("{}/{}", l.name(), steps[i].op));
    ASC_TRY(ir::Node * n, node(l, steps[i].op, {cur, c}, {o}));
    (void)n;
    cur = o;
  }
  return Status::ok();
}

// Exp: y = base ^ (shift + scale * x); Log: y = log_base(shift + scale * x). base -1 is e.
Status Converter::expLog(const caffe::LayerParameter& l, bool is_log) {
  const float base = is_log ? l.log_param().base() : l.exp_param().base();
  const float sc = is_log ? l.log_param().scale() : l.exp_param().scale();
  const float sh = is_log ? l.log_param().shift() : l.exp_param().shift();
  if (base != -1.f && base <= 0.f)
    return invalid(l, fmt::format("base {} must be positive (or -1 for e)", base));
  const float ln_base = base == -1.f ? 1.f : std::log(base);
  ASC_TRY(ir::Value * x, bottom(l, 0));
  ir::Value* cur = x;
  auto step = [&](const char* op, float v, bool last) -> Status {
    ir::Value* o = last ? top(l, 0) : temp(fmt::format("{}/{}", l.name(), op));
    std::vector<ir::Value*> ins{cur};
    if (std::string(op) != "Exp" && std::string(op) != "Log")
      ins.push_back(constant(fmt::format("{}/{}", l.name(), op), {}, {v}));
    ASC_TRY(ir::Node * n, node(l, op, ins, {o}));
    (void)n;
    cur = o;
    return Status::ok();
  };
  if (!is_log) {
    const float a = sc * ln_base, b = sh * ln_base;
    if (a != 1.f) ASC_RETURN_IF_ERROR(step("Mul", a, false));
    if (b != 0.f) ASC_RETURN_IF_ERROR(step("Add", b, false));
    return step("Exp", 0, true);
  }
  if (sc != 1.f) ASC_RETURN_IF_ERROR(step("Mul", sc, false));
  if (sh != 0.f) ASC_RETURN_IF_ERROR(step("Add", sh, false));
  if (ln_base == 1.f) return step("Log", 0, true);
  ASC_RETURN_IF_ERROR(step("Log", 0, false));
  return step("Mul", 1.f / ln_base, true);
}

Status Converter::prelu(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  if (r < 2) return invalid(l, "the input needs a channel axis");
  const bool shared = l.prelu_param().channel_shared();
  const int64_t c = shared ? 1 : x->shape[1];
  ASC_TRY(auto blobs, layerBlobs(l, 1, 1));
  ir::Shape s{c};
  while (static_cast<int64_t>(s.size()) < r - 1) s.push_back(1);
  ASC_TRY(ir::Value * slope, weight(l, *blobs[0], 0, s));
  ASC_TRY(ir::Node * n, node(l, "PRelu", {x, slope}, {top(l, 0)}));
  (void)n;
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

// SSD's PriorBox: the default boxes of a feature map, which depend only on shapes and parameters,
// so they are computed here into a constant [1, 2, H * W * priors * 4]: the boxes (xmin, ymin,
// xmax, ymax, relative to the image), then their variances.
Status Converter::priorBox(const caffe::LayerParameter& l) {
  const auto& p = l.prior_box_param();
  ASC_TRY(ir::Value * feat, bottom(l, 0));
  ir::Value* img = nullptr;
  if (l.bottom_size() > 1) {
    ASC_TRY(img, bottom(l, 1));
  }
  if (feat->shape.size() != 4 || (img && img->shape.size() != 4))
    return invalid(l, "its bottoms must be 4-D (feature map, image)");
  if (p.min_size_size() == 0) return invalid(l, "min_size is required");
  if (p.max_size_size() && p.max_size_size() != p.min_size_size())
    return invalid(l, "max_size takes one value per min_size");
  const int64_t lh = feat->shape[2], lw = feat->shape[3];
  float img_h = p.has_img_h() ? p.img_h() : p.img_size(),
        img_w = p.has_img_w() ? p.img_w() : p.img_size();
  if (img_h == 0 || img_w == 0) {
    if (!img) return invalid(l, "give img_size (or img_h/img_w), or the image as a second bottom");
    img_h = static_cast<float>(img->shape[2]);
    img_w = static_cast<float>(img->shape[3]);
  }
  float step_h = p.has_step_h() ? p.step_h() : p.step(),
        step_w = p.has_step_w() ? p.step_w() : p.step();
  if (step_h == 0 || step_w == 0) {
    step_h = img_h / static_cast<float>(lh);
    step_w = img_w / static_cast<float>(lw);
  }
  std::vector<float> ratios{1.f};
  for (float r : p.aspect_ratio()) {
    if (!(r > 0.f)) return invalid(l, fmt::format("aspect_ratio {} must be positive", r));
    bool seen = false;
    for (float e : ratios) seen |= std::fabs(r - e) < 1e-6f;
    if (seen) continue;
    ratios.push_back(r);
    if (p.flip()) ratios.push_back(1.f / r);
  }
  const int64_t priors =
      static_cast<int64_t>(ratios.size()) * p.min_size_size() + p.max_size_size();
  const int64_t count = lh * lw * priors * 4;
  if (count > (int64_t{1} << 28)) return invalid(l, "too many prior boxes");
  if (p.variance_size() != 0 && p.variance_size() != 1 && p.variance_size() != 4)
    return invalid(l, "variance takes 1 or 4 values");
  std::vector<float> out(static_cast<size_t>(2 * count));
  size_t k = 0;
  auto box = [&](float cx, float cy, float bw, float bh) {
    const float v[4] = {(cx - bw / 2) / img_w, (cy - bh / 2) / img_h, (cx + bw / 2) / img_w,
                        (cy + bh / 2) / img_h};
    for (float e : v) out[k++] = p.clip() ? std::min(std::max(e, 0.f), 1.f) : e;
  };
  for (int64_t h = 0; h < lh; ++h)
    for (int64_t w = 0; w < lw; ++w) {
      const float cx = (static_cast<float>(w) + p.offset()) * step_w;
      const float cy = (static_cast<float>(h) + p.offset()) * step_h;
      for (int s = 0; s < p.min_size_size(); ++s) {
        const float mn = p.min_size(s);
        if (!(mn > 0.f)) return invalid(l, "min_size must be positive");
        box(cx, cy, mn, mn);
        if (p.max_size_size()) {
          const float mx = p.max_size(s);
          if (!(mx > mn)) return invalid(l, "max_size must be above min_size");
          box(cx, cy, std::sqrt(mn * mx), std::sqrt(mn * mx));
        }
        for (float r : ratios)
          if (std::fabs(r - 1.f) >= 1e-6f) box(cx, cy, mn * std::sqrt(r), mn / std::sqrt(r));
      }
    }
  for (int64_t i = 0; i < count; ++i)
    out[k++] = p.variance_size() == 0   ? 0.1f
               : p.variance_size() == 1 ? p.variance(0)
                                        : p.variance(static_cast<int>(i % 4));
  // The boxes are a constant: the top blob is that constant (no node runs).
  ir::Value* c = constant(l.top(0), {1, 2, count}, out);
  blobs_[l.top(0)] = c;
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
