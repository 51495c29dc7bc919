// signal.cpp: the ONNX signal operators (opset 17). DFT transforms one axis of a real
// ([..., 1]) or complex ([..., 2]) signal, forward or inverse (scaled by 1/n), optionally to
// the floor(n/2)+1 bins of a one-sided spectrum, after padding or truncating the axis to
// dft_length. STFT frames a [batch, length, 1|2] signal every frame_step points, multiplies
// each frame by the window and transforms it: [batch, frames, bins, 2]. HannWindow,
// HammingWindow and BlackmanWindow make a window of `size` points (periodic or symmetric);
// MelWeightMatrix makes the [dft_length/2+1, num_mel_bins] triangular mel filter bank.
// Sizes are inputs in ONNX but set output shapes here, so they must be constants; the window
// and mel ops then fold into constants.
#include <cmath>

#include "ops/op_util.h"
#include "ops/shape/shape_kernel.h"
#include "signal_kernel.h"

namespace asc::ops {
namespace {

using Eval = Result<std::vector<ir::Tensor>>;

// The integer scalar held by constant input i; fails when it is not known at compile time.
Result<int64_t> constScalarInput(InferContext& ctx, size_t i, const char* why) {
  const ir::Value* v = ctx.constInput(i);
  if (!v)
    return ctx.fail("input {} ('{}') must be known at compile time (a constant): it sets {}", i,
                    ctx.input(i).name, why);
  if (v->numel() != 1)
    return ctx.fail("input {} ('{}') must be a scalar, it has shape [{}]", i, v->name,
                    ir::shapeToString(v->shape));
  if (ir::isFloat(v->dtype)) return static_cast<int64_t>(v->tensor().floatAt(0));
  return v->tensor().intAt(0);
}

constexpr const char* kSetsShape = "the output's shape";
constexpr int64_t kMaxDftPoints = int64_t{1} << 28;

bool realOrComplex(const ir::Shape& s) { return !s.empty() && (s.back() == 1 || s.back() == 2); }

// DFT (17): input, dft_length (optional); attributes axis (default 1), inverse, onesided.
// From opset 20 the axis is input 2 (default -2), a constant too.
Status inferDft(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  const ir::Shape& x = ctx.shape(0);
  if (x.size() < 3 || !realOrComplex(x))
    return ctx.fail("input [{}] must be [batch, signal dims..., 1 or 2]", ir::shapeToString(x));
  int64_t raw = ctx.attrs().getInt("axis", 1);
  if (ctx.opset() >= 20) {
    raw = -2;
    if (ctx.numInputs() > 2 && ctx.hasInput(2)) {
      ASC_TRY(raw, constScalarInput(ctx, 2, "the transformed axis"));
    }
  }
  const int64_t rank = ctx.rank(0);
  auto axis = normalizeAxis(raw, rank);
  if (!axis || *axis == 0 || *axis == rank - 1)
    return ctx.fail(
        "axis {} must name a signal dim of the input [{}] (not the batch dim or the "
        "last, real/imaginary, dim)",
        raw, ir::shapeToString(x));
  ctx.attrs().set("axis", *axis);
  int64_t n = x[*axis];
  if (ctx.numInputs() > 1 && ctx.hasInput(1)) {
    ASC_TRY(n, constScalarInput(ctx, 1, kSetsShape));
    if (n < 1) return ctx.fail("dft_length {} must be positive", n);
  }
  // The kernel's twiddle table holds 16 bytes per point: bound it (2^28 points = 4 GiB) so a
  // hostile dft_length is an error, not a failed allocation.
  if (n > kMaxDftPoints)
    return ctx.unsupported("a DFT of {} points (over 2^28) is not supported", n);
  const bool inverse = ctx.attrs().getInt("inverse", 0) != 0;
  const bool onesided = ctx.attrs().getInt("onesided", 0) != 0;
  if (inverse && onesided)
    return ctx.unsupported("an inverse one-sided DFT (inverse = 1 with onesided = 1)");
  // The one-sided spectrum relies on the conjugate symmetry of a real signal's transform.
  if (onesided && x.back() == 2)
    return ctx.fail("onesided = 1 needs a real input ([..., 1]), this one is complex [{}]",
                    ir::shapeToString(x));
  ir::Shape out = x;
  out[*axis] = onesided ? n / 2 + 1 : n;
  out.back() = 2;
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

int64_t dftFlops(const ir::Node& n) {
  // A complex multiply-add (8 flops) per input point and output bin.
  const int64_t axis = n.attrs.getInt("axis", 1);
  const int64_t len = n.inputs[0]->shape[axis];
  return 8 * n.outputs[0]->numel() / 2 * len;
}

// STFT (17): signal, frame_step, window (optional), frame_length (optional); onesided (1).
Status inferStft(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("signal dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  const ir::Shape& x = ctx.shape(0);
  if (x.size() != 3 || !realOrComplex(x))
    return ctx.fail("signal [{}] must be [batch, length, 1 or 2]", ir::shapeToString(x));
  ASC_TRY(int64_t step, constScalarInput(ctx, 1, kSetsShape));
  if (step < 1) return ctx.fail("frame_step {} must be positive", step);
  const bool has_window = ctx.numInputs() > 2 && ctx.hasInput(2);
  int64_t frame = 0;
  if (has_window) {
    if (ctx.rank(2) != 1)
      return ctx.fail("window must be 1-D, it has shape [{}]", ir::shapeToString(ctx.shape(2)));
    if (!ir::isFloat(ctx.dtype(2)))
      return ctx.fail("window dtype {} is not a float type", ir::dtypeName(ctx.dtype(2)));
    frame = ctx.shape(2)[0];
  }
  if (ctx.numInputs() > 3 && ctx.hasInput(3)) {
    ASC_TRY(int64_t len, constScalarInput(ctx, 3, kSetsShape));
    if (has_window && len != frame)
      return ctx.fail("frame_length {} differs from the window's length {}", len, frame);
    frame = len;
  } else if (!has_window) {
    return ctx.fail("neither a window nor a frame_length is given: the frame length is unknown");
  }
  if (frame < 1 || frame > x[1])
    return ctx.fail("frame length {} must be in [1, {}] (the signal's length)", frame, x[1]);
  const bool onesided = ctx.attrs().getInt("onesided", 1) != 0;
  if (onesided && x[2] == 2)
    return ctx.fail(
        "onesided = 1 (the default) needs a real signal ([batch, length, 1]), this "
        "one is complex [{}]",
        ir::shapeToString(x));
  ctx.attrs().set("onesided", int64_t{onesided ? 1 : 0});
  const int64_t frames = (x[1] - frame) / step + 1;
  ctx.setOutput(0, ctx.dtype(0), {x[0], frames, onesided ? frame / 2 + 1 : frame, 2});
  return Status::ok();
}

int64_t stftFlops(const ir::Node& n) {
  const ir::Shape& y = n.outputs[0]->shape;
  const int64_t frame = n.inputs[0]->shape[1] - (y[1] - 1);  // an upper bound when step > 1
  return 8 * y[0] * y[1] * y[2] * std::max<int64_t>(frame, 1);
}

// The dtype named by output_datatype (default float).
Result<ir::DType> outputDtype(InferContext& ctx) {
  const int64_t onnx = ctx.attrs().getInt("output_datatype", 1);
  const ir::DType t = ir::dtypeFromOnnx(static_cast<int>(onnx));
  if (t == ir::DType::Undefined || t == ir::DType::Bool)
    return ctx.unsupported("output_datatype {} is not supported", onnx);
  return t;
}

// HannWindow, HammingWindow, BlackmanWindow (17): size (a constant scalar); periodic (1).
Status inferWindow(InferContext& ctx) {
  if (ir::isFloat(ctx.dtype(0)))
    return ctx.fail("size must be an integer, it is {}", ir::dtypeName(ctx.dtype(0)));
  ASC_TRY(int64_t size, constScalarInput(ctx, 0, kSetsShape));
  if (size < 0) return ctx.fail("size {} must be >= 0", size);
  ASC_TRY(ir::DType t, outputDtype(ctx));
  const int64_t periodic = ctx.attrs().getInt("periodic", 1);
  if (periodic != 0 && periodic != 1) return ctx.fail("periodic {} must be 0 or 1", periodic);
  ctx.attrs().set("periodic", periodic);
  ctx.setOutput(0, t, {size});
  return Status::ok();
}

Eval evalWindow(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Value* o = n.outputs[0];
  const int64_t size = o->shape[0];
  const bool periodic = n.attrs.getInt("periodic", 1) != 0;
  TensorBuilder b(o->dtype, o->shape);
  for (int64_t i = 0; i < size; ++i) b.setFloat(i, windowValue(n.op_type, i, size, periodic));
  return std::vector<ir::Tensor>{b.finish()};
}

// MelWeightMatrix (17): num_mel_bins, dft_length, sample_rate (integers), lower_edge_hertz,
// upper_edge_hertz (floats); all constant.
Status inferMel(InferContext& ctx) {
  for (size_t i = 0; i < 3; ++i)
    if (ir::isFloat(ctx.dtype(i)))
      return ctx.fail("input {} must be an integer, it is {}", i, ir::dtypeName(ctx.dtype(i)));
  ASC_TRY(int64_t bins, constScalarInput(ctx, 0, kSetsShape));
  ASC_TRY(int64_t dft_length, constScalarInput(ctx, 1, kSetsShape));
  for (size_t i = 2; i < 5; ++i) {
    ASC_RETURN_IF_ERROR(constScalarInput(ctx, i, "the output's values").status());
  }
  const int64_t rate = ctx.constInput(2)->tensor().intAt(0);
  const double lo = ctx.constInput(3)->tensor().floatAt(0);
  const double hi = ctx.constInput(4)->tensor().floatAt(0);
  if (bins < 1 || dft_length < 1 || rate < 1)
    return ctx.fail("num_mel_bins {}, dft_length {} and sample_rate {} must be positive", bins,
                    dft_length, rate);
  if (!(lo >= 0 && lo < hi && hi <= static_cast<double>(rate) / 2))
    return ctx.fail("the edges [{}, {}] Hz must satisfy 0 <= lower < upper <= sample_rate / 2 ({})",
                    lo, hi, static_cast<double>(rate) / 2);
  ASC_TRY(ir::DType t, outputDtype(ctx));
  ctx.setOutput(0, t, {dft_length / 2 + 1, bins});
  return Status::ok();
}

Eval evalMel(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Value* o = n.outputs[0];
  const std::vector<double> w = melWeights(in[0].intAt(0), in[1].intAt(0), in[2].intAt(0),
                                           in[3].floatAt(0), in[4].floatAt(0));
  TensorBuilder b(o->dtype, o->shape);
  for (size_t i = 0; i < w.size(); ++i) b.setFloat(static_cast<int64_t>(i), w[i]);
  return std::vector<ir::Tensor>{b.finish()};
}

OpDef windowDef(const char* name, const char* summary) {
  return OpDef(name)
      .kernel(createConstKernel)
      .nativeDtypes()
      .onnx(17)
      .inferShape(inferWindow)
      .evalConst(evalWindow)
      .summary(summary);
}

}  // namespace

const OpDef& defDFT() {
  static const OpDef d =
      OpDef("DFT")
          .kernel(createDftKernel)
          .onnx(17)
          .inputs(1, 3)
          .inferShape(inferDft)
          .flops(dftFlops)
          .precisionClass(PrecisionClass::Sensitive)
          .summary(
              "discrete Fourier transform over one axis; real or complex input, inverse, "
              "onesided; constant dft_length");
  return d;
}

const OpDef& defSTFT() {
  static const OpDef d =
      OpDef("STFT")
          .kernel(createStftKernel)
          .onnx(17)
          .inputs(2, 4)
          .inferShape(inferStft)
          .flops(stftFlops)
          .precisionClass(PrecisionClass::Sensitive)
          .summary(
              "short-time Fourier transform of [batch, length, 1|2]; optional window; constant "
              "frame_step and frame_length");
  return d;
}

const OpDef& defHannWindow() {
  static const OpDef d =
      windowDef("HannWindow", "Hann window of a constant size, periodic or symmetric");
  return d;
}

const OpDef& defHammingWindow() {
  static const OpDef d = windowDef(
      "HammingWindow", "Hamming window (25/46) of a constant size, periodic or symmetric");
  return d;
}

const OpDef& defBlackmanWindow() {
  static const OpDef d =
      windowDef("BlackmanWindow", "Blackman window of a constant size, periodic or symmetric");
  return d;
}

const OpDef& defMelWeightMatrix() {
  static const OpDef d =
      OpDef("MelWeightMatrix")
          .kernel(createConstKernel)
          .nativeDtypes()
          .onnx(17)
          .inputs(5, 5)
          .inferShape(inferMel)
          .evalConst(evalMel)
          .summary("[dft_length/2+1, num_mel_bins] mel filter bank; constant inputs");
  return d;
}

}  // namespace asc::ops
