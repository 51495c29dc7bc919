// tf_ops_nn.cpp: TensorFlow's neural-network ops as IR ops: convolutions (filters HWIO ->
// OIHW; SAME/VALID/EXPLICIT padding -> explicit pads), pooling, FusedBatchNorm, BiasAdd,
// MatMul, activations, element-wise arithmetic, Softmax and Resize. Ops the runtime computes in
// NCHW read and give NCHW (see tf_convert.h); element-wise ops follow their inputs' layout.
#include <algorithm>

#include "tf_convert.h"

namespace asc::frontend::tf {
namespace {

// --- layout and window attributes ---------------------------------------------------------------

/// data_format: true for NHWC (TensorFlow's default), false for NCHW.
Result<bool> nhwcFormat(Converter& c) {
  const std::string f = c.strAttr("data_format", "NHWC");
  if (f == "NHWC") return true;
  if (f == "NCHW") return false;
  return c.unsupported("data_format '{}' (asc-tools takes NHWC and NCHW)", f);
}

/// The 4-D input i in NCHW, whatever the op's data_format.
Result<ir::Value*> nchwInput(Converter& c, size_t i, bool nhwc) {
  if (nhwc) return c.nchw(i);
  ir::Value* v = c.x(i);
  if (v->shape.size() != 4)
    return c.fail("input {} is [{}], the op needs a 4-D tensor", i, ir::shapeToString(v->shape));
  return v;
}

/// The op's NCHW result as output 0, in the layout TensorFlow gives it.
Status finish(Converter& c, bool nhwc, ir::Value* y) {
  if (nhwc) return c.setOutNchw(0, y);
  c.setOut(0, y);
  return Status::ok();
}

/// The H and W entries of a 4-entry strides/ksize/dilations list; the N and C entries must be 1.
Result<std::pair<int64_t, int64_t>> spatial(Converter& c, const char* key, bool nhwc, int64_t def) {
  std::vector<int64_t> v = c.intsAttr(key);
  if (v.empty()) return std::make_pair(def, def);
  if (v.size() != 4) return c.fail("{} has {} entries, expected 4", key, v.size());
  const int64_t n = v[0], ch = nhwc ? v[3] : v[1];
  const int64_t h = nhwc ? v[1] : v[2], w = nhwc ? v[2] : v[3];
  if (n != 1 || ch != 1)
    return c.unsupported("{} [{}] acts on the batch or channel dim", key, ir::shapeToString(v));
  // Bounded so that window arithmetic ((k - 1) * d + 1, ...) cannot overflow.
  constexpr int64_t kMaxWindow = int64_t(1) << 24;
  if (h < 1 || w < 1 || h > kMaxWindow || w > kMaxWindow)
    return c.fail("{} [{}] must be positive and at most {}", key, ir::shapeToString(v), kMaxWindow);
  return std::make_pair(h, w);
}

struct Window {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  std::vector<int64_t> pads;  // ONNX order: h_begin, w_begin, h_end, w_end
};

/// The window of a convolution filter [kh, kw, ...] with the node's strides and dilations (pads
/// still to resolve).
Result<Window> filterWindow(Converter& c, const ir::Value* f, bool nhwc) {
  Window win;
  win.kh = f->shape[0];
  win.kw = f->shape[1];
  ASC_TRY(std::tie(win.sh, win.sw), spatial(c, "strides", nhwc, 1));
  ASC_TRY(std::tie(win.dh, win.dw), spatial(c, "dilations", nhwc, 1));
  return win;
}

/// TensorFlow's padding for input dims (h, w): SAME puts the odd pixel at the end.
Status resolvePads(Converter& c, bool nhwc, int64_t h, int64_t w, Window& win) {
  const std::string padding = c.strAttr("padding", "");
  if (padding == "VALID") {
    win.pads = {0, 0, 0, 0};
    return Status::ok();
  }
  if (padding == "SAME") {
    auto same = [](int64_t in, int64_t k, int64_t s, int64_t d, int64_t* b, int64_t* e) {
      const int64_t out = (in + s - 1) / s, keff = (k - 1) * d + 1;
      const int64_t total = std::max<int64_t>((out - 1) * s + keff - in, 0);
      *b = total / 2;
      *e = total - *b;
    };
    win.pads.assign(4, 0);
    same(h, win.kh, win.sh, win.dh, &win.pads[0], &win.pads[2]);
    same(w, win.kw, win.sw, win.dw, &win.pads[1], &win.pads[3]);
    return Status::ok();
  }
  if (padding == "EXPLICIT") {
    std::vector<int64_t> e = c.intsAttr("explicit_paddings");
    if (e.size() != 8) return c.fail("explicit_paddings has {} entries, expected 8", e.size());
    const size_t hi = nhwc ? 2 : 4, wi = nhwc ? 4 : 6, ci = nhwc ? 6 : 2;
    if (e[0] || e[1] || e[ci] || e[ci + 1])
      return c.unsupported("explicit_paddings [{}] pad the batch or channel dim",
                           ir::shapeToString(e));
    win.pads = {e[hi], e[wi], e[hi + 1], e[wi + 1]};
    for (int64_t p : win.pads)
      if (p < 0) return c.fail("explicit_paddings [{}] are negative", ir::shapeToString(e));
    return Status::ok();
  }
  return c.fail("padding '{}' is not SAME, VALID or EXPLICIT", padding);
}

ir::Attrs windowAttrs(const Window& w, bool dilations) {
  ir::Attrs a;
  a.set("kernel_shape", std::vector<int64_t>{w.kh, w.kw});
  a.set("strides", std::vector<int64_t>{w.sh, w.sw});
  if (dilations) a.set("dilations", std::vector<int64_t>{w.dh, w.dw});
  a.set("pads", w.pads);
  return a;
}

Result<ir::Value*> filter4d(Converter& c, size_t i) {
  ir::Value* f = c.x(i);
  if (f->shape.size() != 4)
    return c.fail("the filter (input {}) is [{}], expected [height, width, in, out]", i,
                  ir::shapeToString(f->shape));
  return f;
}

// --- convolutions -------------------------------------------------------------------------------

Status convConv2D(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(bool nhwc, nhwcFormat(c));
  ASC_TRY(ir::Value * xin, nchwInput(c, 0, nhwc));
  ASC_TRY(ir::Value * f, filter4d(c, 1));
  const int64_t channels = xin->shape[1], fin = f->shape[2];
  if (fin <= 0 || channels % fin != 0 || f->shape[3] % (channels / fin) != 0)
    return c.fail("the input has {} channels and the filter [{}] takes {} per group", channels,
                  ir::shapeToString(f->shape), fin);
  ASC_TRY(Window win, filterWindow(c, f, nhwc));
  ASC_RETURN_IF_ERROR(resolvePads(c, nhwc, xin->shape[2], xin->shape[3], win));
  ASC_TRY(ir::Value * w, c.transpose(f, {3, 2, 0, 1}, "weight"));  // HWIO -> OIHW
  ir::Attrs a = windowAttrs(win, true);
  a.set("group", channels / fin);
  ASC_TRY(ir::Value * y, c.emit1("Conv", {xin, w}, std::move(a)));
  return finish(c, nhwc, y);
}

Status convDepthwise(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(bool nhwc, nhwcFormat(c));
  ASC_TRY(ir::Value * xin, nchwInput(c, 0, nhwc));
  ASC_TRY(ir::Value * f, filter4d(c, 1));  // [kh, kw, in, multiplier]
  const int64_t channels = xin->shape[1];
  if (f->shape[2] != channels)
    return c.fail("the input has {} channels, the depthwise filter [{}] {}", channels,
                  ir::shapeToString(f->shape), f->shape[2]);
  ASC_TRY(Window win, filterWindow(c, f, nhwc));
  ASC_RETURN_IF_ERROR(resolvePads(c, nhwc, xin->shape[2], xin->shape[3], win));
  // Output channel c*multiplier+m of group c: weight [in * multiplier, 1, kh, kw].
  ASC_TRY(ir::Value * t, c.transpose(f, {2, 3, 0, 1}, "weight_t"));
  ASC_TRY(ir::Value * w, c.reshape(t, {channels * f->shape[3], 1, win.kh, win.kw}, "weight"));
  ir::Attrs a = windowAttrs(win, true);
  a.set("group", channels);
  ASC_TRY(ir::Value * y, c.emit1("Conv", {xin, w}, std::move(a)));
  return finish(c, nhwc, y);
}

// Conv2DBackpropInput(input_sizes, filter, out_backprop): the transposed convolution.
Status convBackpropInput(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(3));
  ASC_TRY(bool nhwc, nhwcFormat(c));
  ASC_TRY(std::vector<int64_t> sizes, c.constInts(0));
  if (sizes.size() != 4) return c.fail("input_sizes has {} entries, expected 4", sizes.size());
  for (int64_t d : sizes)
    if (d < 1 || d > (int64_t(1) << 31))
      return c.fail("input_sizes [{}] must be positive sizes", ir::shapeToString(sizes));
  ASC_TRY(ir::Value * f, filter4d(c, 1));  // [kh, kw, out channels, in channels]
  ASC_TRY(ir::Value * xin, nchwInput(c, 2, nhwc));
  if (f->shape[3] != xin->shape[1])
    return c.fail("out_backprop has {} channels, the filter [{}] {}", xin->shape[1],
                  ir::shapeToString(f->shape), f->shape[3]);
  const int64_t oh = nhwc ? sizes[1] : sizes[2], ow = nhwc ? sizes[2] : sizes[3];
  const int64_t oc = nhwc ? sizes[3] : sizes[1];
  if (oc != f->shape[2])
    return c.fail("input_sizes [{}] has {} channels, the filter {}", ir::shapeToString(sizes), oc,
                  f->shape[2]);
  ASC_TRY(Window win, filterWindow(c, f, nhwc));
  // The padding is that of the forward convolution from the output (oh, ow) to the input.
  ASC_RETURN_IF_ERROR(resolvePads(c, nhwc, oh, ow, win));
  const int64_t ih = xin->shape[2], iw = xin->shape[3];
  std::vector<int64_t> extra(2);
  const int64_t in[2] = {ih, iw}, out[2] = {oh, ow}, k[2] = {win.kh, win.kw},
                s[2] = {win.sh, win.sw}, d[2] = {win.dh, win.dw};
  for (int i = 0; i < 2; ++i) {
    extra[i] =
        out[i] - ((in[i] - 1) * s[i] + (k[i] - 1) * d[i] + 1 - win.pads[i] - win.pads[i + 2]);
    if (extra[i] < 0 || extra[i] >= std::max(s[i], d[i]))
      return c.fail("input_sizes [{}] does not fit out_backprop [{}] with this filter and stride",
                    ir::shapeToString(sizes), ir::shapeToString(xin->shape));
  }
  ASC_TRY(ir::Value * w, c.transpose(f, {3, 2, 0, 1}, "weight"));  // [in, out, kh, kw]
  ir::Attrs a = windowAttrs(win, true);
  a.set("output_padding", extra);
  ASC_TRY(ir::Value * y, c.emit1("ConvTranspose", {xin, w}, std::move(a)));
  return finish(c, nhwc, y);
}

// --- normalization, bias, pooling ---------------------------------------------------------------

Status convFusedBatchNorm(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(5));
  ASC_TRY(bool nhwc, nhwcFormat(c));
  if (c.boolAttr("is_training", true))
    return c.unsupported(
        "is_training is true (batch statistics); asc-tools runs inference graphs: freeze the "
        "model with is_training=false");
  ASC_TRY(ir::Value * xin, nchwInput(c, 0, nhwc));
  ir::Attrs a;
  a.set("epsilon", c.floatAttr("epsilon", 1e-4f));
  ASC_TRY(ir::Value * y,
          c.emit1("BatchNormalization", {xin, c.x(1), c.x(2), c.x(3), c.x(4)}, std::move(a)));
  ASC_RETURN_IF_ERROR(finish(c, nhwc, y));
  // batch_mean, batch_variance and the reserve spaces: in inference, the given statistics.
  for (size_t i = 1; i < 6; ++i) c.setOut(i, c.x(i % 2 ? 3 : 4));
  return Status::ok();
}

Status convBiasAdd(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(bool nhwc, nhwcFormat(c));
  ir::Value* bias = c.x(1);
  if (bias->shape.size() != 1)
    return c.fail("the bias is [{}], expected 1-D", ir::shapeToString(bias->shape));
  const int64_t ch = bias->shape[0];
  TfValue& t = c.in(0);
  if (nhwc && t.nchw) {
    ASC_TRY(ir::Value * b, c.reshape(bias, {ch, 1, 1}, "bias"));
    ASC_TRY(ir::Value * y, c.emit1("Add", {t.nchw, b}));
    return c.setOutNchw(0, y);
  }
  const size_t r = t.v->shape.size();
  if (r < 2) return c.fail("the input is [{}], BiasAdd needs rank 2 or more", r);
  ir::Value* b = bias;
  if (!nhwc && r > 2) {
    std::vector<int64_t> s(r - 1, 1);
    s[0] = ch;
    ASC_TRY(b, c.reshape(bias, s, "bias"));
  }
  ASC_TRY(ir::Value * y, c.emit1("Add", {t.v, b}));
  c.setOut(0, y);
  return Status::ok();
}

Status pool(Converter& c, const char* op_type) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ASC_TRY(bool nhwc, nhwcFormat(c));
  ASC_TRY(ir::Value * xin, nchwInput(c, 0, nhwc));
  Window win;
  ASC_TRY(std::tie(win.kh, win.kw), spatial(c, "ksize", nhwc, 0));
  if (win.kh < 1) return c.fail("ksize is missing");
  ASC_TRY(std::tie(win.sh, win.sw), spatial(c, "strides", nhwc, 1));
  ASC_RETURN_IF_ERROR(resolvePads(c, nhwc, xin->shape[2], xin->shape[3], win));
  ir::Attrs a = windowAttrs(win, false);
  // TensorFlow's average leaves the padding out of the count.
  if (std::string(op_type) == "AveragePool") a.set("count_include_pad", int64_t{0});
  ASC_TRY(ir::Value * y, c.emit1(op_type, {xin}, std::move(a)));
  return finish(c, nhwc, y);
}

// --- element-wise -------------------------------------------------------------------------------

/// A unary element-wise op, computed in the layout its input has.
Status unary(Converter& c, const char* op_type, ir::Attrs a = {}) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  TfValue& t = c.in(0);
  if (t.nchw) {
    ASC_TRY(ir::Value * y, c.emit1(op_type, {t.nchw}, std::move(a)));
    return c.setOutNchw(0, y);
  }
  ASC_TRY(ir::Value * y, c.emit1(op_type, {t.v}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

/// A broadcasting binary op: in NCHW when an operand has an NCHW form and the other can join it.
Status binary(Converter& c, const char* op_type) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  TfValue& a = c.in(0);
  TfValue& b = c.in(1);
  if ((a.nchw || b.nchw) && a.v->shape.size() <= 4 && b.v->shape.size() <= 4) {
    ASC_TRY(ir::Value * an, c.nchwOperand(a));
    ir::Value* bn = nullptr;
    if (an) {
      ASC_TRY(bn, c.nchwOperand(b));
    }
    if (an && bn) {
      ASC_TRY(ir::Value * y, c.emit1(op_type, {an, bn}));
      return c.setOutNchw(0, y);
    }
  }
  ASC_TRY(ir::Value * y, c.emit1(op_type, {a.v, b.v}));
  c.setOut(0, y);
  return Status::ok();
}

/// A function of the input built from two IR ops (Rsqrt = Reciprocal(Sqrt), Square = x * x).
Status twoStep(Converter& c, const char* first, const char* second, bool square) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  TfValue& t = c.in(0);
  ir::Value* x = t.nchw ? t.nchw : t.v;
  ir::Value* y = nullptr;
  if (square) {
    ASC_TRY(y, c.emit1("Mul", {x, x}));
  } else {
    ASC_TRY(ir::Value * mid, c.emit1(first, {x}, {}, "step1"));
    ASC_TRY(y, c.emit1(second, {mid}));
  }
  if (t.nchw) return c.setOutNchw(0, y);
  c.setOut(0, y);
  return Status::ok();
}

Status convSquaredDifference(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(ir::Value * d, c.emit1("Sub", {c.x(0), c.x(1)}, {}, "diff"));
  ASC_TRY(ir::Value * y, c.emit1("Mul", {d, d}));
  c.setOut(0, y);
  return Status::ok();
}

Status convAddN(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  std::vector<ir::Value*> ins;
  bool all_nchw = true;
  for (size_t i = 0; i < c.numInputs(); ++i) all_nchw &= c.in(i).nchw != nullptr;
  for (size_t i = 0; i < c.numInputs(); ++i) ins.push_back(all_nchw ? c.in(i).nchw : c.x(i));
  ASC_TRY(ir::Value * y, c.emit1("Sum", ins));
  if (all_nchw) return c.setOutNchw(0, y);
  c.setOut(0, y);
  return Status::ok();
}

// --- MatMul, Softmax, Resize --------------------------------------------------------------------

Result<ir::Value*> swapLast(Converter& c, ir::Value* v, const char* suffix) {
  const size_t r = v->shape.size();
  if (r < 2) return c.fail("'{}' is [{}]; a matrix needs rank 2 or more", v->name, r);
  std::vector<int64_t> perm(r);
  for (size_t i = 0; i < r; ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[r - 1], perm[r - 2]);
  return c.transpose(v, perm, suffix);
}

Status matmul(Converter& c, const char* ta, const char* tb, bool batch) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ir::Value* a = c.x(0);
  ir::Value* b = c.x(1);
  if (!batch && (a->shape.size() != 2 || b->shape.size() != 2))
    return c.fail("MatMul takes matrices, the inputs are [{}] and [{}]",
                  ir::shapeToString(a->shape), ir::shapeToString(b->shape));
  if (c.boolAttr(ta, false)) {
    ASC_TRY(a, swapLast(c, a, "a_t"));
  }
  if (c.boolAttr(tb, false)) {
    ASC_TRY(b, swapLast(c, b, "b_t"));
  }
  ASC_TRY(ir::Value * y, c.emit1("MatMul", {a, b}));
  c.setOut(0, y);
  return Status::ok();
}

Status convSoftmax(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ir::Attrs a;
  a.set("axis", int64_t{-1});
  ASC_TRY(ir::Value * y, c.emit1("Softmax", {c.x(0)}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status resize(Converter& c, bool bilinear) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> size, c.constInts(1));
  if (size.size() != 2 || size[0] < 1 || size[1] < 1)
    return c.fail("size [{}] must be two positive values (height, width)", ir::shapeToString(size));
  ASC_TRY(ir::Value * xin, c.nchw(0));
  const bool corners = c.boolAttr("align_corners", false);
  const bool half = c.boolAttr("half_pixel_centers", false);
  if (corners && half) return c.fail("align_corners and half_pixel_centers are both set");
  ir::Attrs a;
  a.set("mode", std::string(bilinear ? "linear" : "nearest"));
  std::string ctm = corners ? "align_corners" : "asymmetric";
  if (half) ctm = bilinear ? "half_pixel" : "tf_half_pixel_for_nn";
  a.set("coordinate_transformation_mode", ctm);
  // TensorFlow rounds half away from zero with align_corners, and floors otherwise.
  a.set("nearest_mode", std::string(corners ? "round_prefer_ceil" : "floor"));
  a.set("sizes", std::vector<int64_t>{xin->shape[0], xin->shape[1], size[0], size[1]});
  ASC_TRY(ir::Value * y, c.emit1("Resize", {xin}, std::move(a)));
  return c.setOutNchw(0, y);
}

ir::Attrs floatAttrs(const char* key, float v) {
  ir::Attrs a;
  a.set(key, v);
  return a;
}

}  // namespace

void addNnConverters(OpTable& m) {
  m["Conv2D"] = {convConv2D, "Conv Transpose", "Conv",
                 "filter HWIO -> OIHW; grouped when the input has a multiple of the filter's "
                 "channels; strides, dilations"};
  m["DepthwiseConv2dNative"] = {convDepthwise, "Conv Transpose", "Conv (group = channels)",
                                "channel multiplier m: weight `[C*m, 1, kh, kw]`"};
  m["Conv2DBackpropInput"] = {
      convBackpropInput, "ConvTranspose Transpose", "ConvTranspose",
      "`input_sizes` constant; pads and output_padding from the forward convolution"};
  m["FusedBatchNorm"] = {convFusedBatchNorm, "BatchNormalization Transpose", "BatchNormalization",
                         "`is_training=false` only; outputs 1-5 are the given mean/variance"};
  m["FusedBatchNormV2"] = {convFusedBatchNorm, "BatchNormalization Transpose", "BatchNormalization",
                           "as FusedBatchNorm"};
  m["FusedBatchNormV3"] = {convFusedBatchNorm, "BatchNormalization Transpose", "BatchNormalization",
                           "as FusedBatchNorm"};
  m["BiasAdd"] = {convBiasAdd, "Add", "Add", "NHWC and NCHW `data_format`"};
  m["MaxPool"] = {[](Converter& c) { return pool(c, "MaxPool"); }, "MaxPool Transpose", "MaxPool",
                  "`ksize`/`strides` attributes, SAME/VALID"};
  m["AvgPool"] = {[](Converter& c) { return pool(c, "AveragePool"); }, "AveragePool Transpose",
                  "AveragePool", "`ksize`/`strides` attributes, SAME/VALID"};
  m["Relu"] = {[](Converter& c) { return unary(c, "Relu"); }, "Relu", "Relu", ""};
  m["Relu6"] = {[](Converter& c) {
                  ir::Attrs a;
                  a.set("min", 0.0f);
                  a.set("max", 6.0f);
                  return unary(c, "Clip", std::move(a));
                },
                "Clip", "Clip(0, 6)", ""};
  m["Elu"] = {[](Converter& c) { return unary(c, "Elu", floatAttrs("alpha", 1.0f)); }, "Elu", "Elu",
              ""};
  m["LeakyRelu"] = {[](Converter& c) {
                      return unary(c, "LeakyRelu", floatAttrs("alpha", c.floatAttr("alpha", 0.2f)));
                    },
                    "LeakyRelu", "LeakyRelu", "`alpha`"};
  m["Sigmoid"] = {[](Converter& c) { return unary(c, "Sigmoid"); }, "Sigmoid", "Sigmoid", ""};
  m["Tanh"] = {[](Converter& c) { return unary(c, "Tanh"); }, "Tanh", "Tanh", ""};
  m["Softplus"] = {[](Converter& c) { return unary(c, "Softplus"); }, "Softplus", "Softplus", ""};
  m["Sqrt"] = {[](Converter& c) { return unary(c, "Sqrt"); }, "Sqrt", "Sqrt", ""};
  m["Exp"] = {[](Converter& c) { return unary(c, "Exp"); }, "Exp", "Exp", ""};
  m["Log"] = {[](Converter& c) { return unary(c, "Log"); }, "Log", "Log", ""};
  m["Neg"] = {[](Converter& c) { return unary(c, "Neg"); }, "Neg", "Neg", ""};
  m["Abs"] = {[](Converter& c) { return unary(c, "Abs"); }, "Abs", "Abs", ""};
  m["Floor"] = {[](Converter& c) { return unary(c, "Floor"); }, "Floor", "Floor", ""};
  m["Reciprocal"] = {[](Converter& c) { return unary(c, "Reciprocal"); }, "Reciprocal",
                     "Reciprocal", ""};
  m["Rsqrt"] = {[](Converter& c) { return twoStep(c, "Sqrt", "Reciprocal", false); },
                "Sqrt Reciprocal", "Reciprocal(Sqrt)", ""};
  m["Square"] = {[](Converter& c) { return twoStep(c, nullptr, nullptr, true); }, "Mul",
                 "Mul(x, x)", ""};
  m["Add"] = {[](Converter& c) { return binary(c, "Add"); }, "Add", "Add", "numpy broadcasting"};
  m["AddV2"] = {[](Converter& c) { return binary(c, "Add"); }, "Add", "Add", "numpy broadcasting"};
  m["Sub"] = {[](Converter& c) { return binary(c, "Sub"); }, "Sub", "Sub", "numpy broadcasting"};
  m["Mul"] = {[](Converter& c) { return binary(c, "Mul"); }, "Mul", "Mul", "numpy broadcasting"};
  m["RealDiv"] = {[](Converter& c) { return binary(c, "Div"); }, "Div", "Div",
                  "numpy broadcasting"};
  m["Maximum"] = {[](Converter& c) { return binary(c, "Max"); }, "Max", "Max",
                  "numpy broadcasting"};
  m["Minimum"] = {[](Converter& c) { return binary(c, "Min"); }, "Min", "Min",
                  "numpy broadcasting"};
  m["Pow"] = {[](Converter& c) { return binary(c, "Pow"); }, "Pow", "Pow", "numpy broadcasting"};
  m["SquaredDifference"] = {convSquaredDifference, "Sub Mul", "Sub, Mul",
                            "(x - y)^2, numpy broadcasting"};
  m["AddN"] = {convAddN, "Sum", "Sum", ""};
  m["MatMul"] = {[](Converter& c) { return matmul(c, "transpose_a", "transpose_b", false); },
                 "MatMul Transpose", "MatMul (+ Transpose for `transpose_a/b`)", ""};
  m["BatchMatMul"] = {[](Converter& c) { return matmul(c, "adj_x", "adj_y", true); },
                      "MatMul Transpose", "MatMul (+ Transpose for `adj_x/y`)", ""};
  m["BatchMatMulV2"] = {[](Converter& c) { return matmul(c, "adj_x", "adj_y", true); },
                        "MatMul Transpose", "MatMul (+ Transpose for `adj_x/y`)",
                        "numpy broadcasting of the batch dims"};
  m["Softmax"] = {convSoftmax, "Softmax", "Softmax (last axis)", ""};
  m["ResizeBilinear"] = {[](Converter& c) { return resize(c, true); }, "Resize Transpose", "Resize",
                         "`align_corners`, `half_pixel_centers` as TensorFlow computes them"};
  m["ResizeNearestNeighbor"] = {
      [](Converter& c) { return resize(c, false); }, "Resize Transpose", "Resize",
      "`align_corners`, `half_pixel_centers` as TensorFlow computes them"};
}

}  // namespace asc::frontend::tf
