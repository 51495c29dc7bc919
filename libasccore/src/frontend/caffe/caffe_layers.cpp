// caffe_layers.cpp: the converters of the Caffe layer types with parameters (Convolution, Pooling,
// InnerProduct, Eltwise, Reshape, Slice, Crop, ArgMax, Power, Exp, Log, PReLU; the normalizing ones
// are caffe_norm.cpp, SSD's caffe_ssd.cpp), each writing IR nodes through Converter::node so they
// are named after the layer and shape-inferred at once. The formulas are Caffe's (pooling rounding
// and divisors, BatchNorm's scale factor, Exp/Log/Power bases).
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

Status Converter::convolutionLike(const caffe::LayerParameter& l, bool deconv) {
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

}  // namespace asc::frontend::caffe_import
