// cast.cpp: Cast and CastLike, their kernel and their constant folding, over one element rule
// (castElements). Float to integer truncates toward zero (NaN and out-of-range values give 0,
// as asc-tools has always done: ONNX leaves them undefined); to bool is "not zero"; to float16,
// bfloat16 and float8 rounds to nearest even; to float8 with `saturate` (Cast-19, default 1)
// clamps what is beyond the largest finite value, without it gives infinity (E5M2) or NaN; to
// int4/uint4 (Cast-21) clips to [-8, 7] / [0, 15], then rounds half to even, as ONNX's
// reference does.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ops/op_util.h"
#include "asc/support/fp16.h"
#include "cpu/convert.h"
#include "cpu/parallel.h"
#include "shape_kernel.h"
#include "shape_util.h"

namespace asc::ops {
using shape_detail::Eval;
using shape_detail::one;

void castElements(const ir::Tensor& in, ir::DType to, bool saturate, void* out, int64_t b,
                  int64_t e) {
  using DT = ir::DType;
  const bool from_float = ir::isFloat(in.dtype) || ir::isFloat8(in.dtype);
  auto* d = static_cast<uint8_t*>(out);
  auto asInt = [&](int64_t i) -> int64_t {
    if (!from_float) return in.intAt(i);
    const double f = in.floatAt(i);
    return std::isfinite(f) && std::fabs(f) < 9.2e18 ? static_cast<int64_t>(f) : 0;
  };
  auto int4 = [&](int64_t i, int64_t lo, int64_t hi) -> int64_t {
    if (!from_float) return std::clamp(in.intAt(i), lo, hi);
    const double f = in.floatAt(i);
    if (std::isnan(f)) return 0;
    return static_cast<int64_t>(
        std::nearbyint(std::clamp(f, static_cast<double>(lo), static_cast<double>(hi))));
  };
  auto put = [&](int64_t i, auto v) { std::memcpy(d + i * sizeof(v), &v, sizeof(v)); };
  for (int64_t i = b; i < e; ++i) {
    switch (to) {
      case DT::F32:
        put(i, static_cast<float>(in.floatAt(i)));
        break;
      case DT::F64:
        put(i, in.floatAt(i));
        break;
      case DT::F16:
        put(i, floatToHalf(static_cast<float>(in.floatAt(i))));
        break;
      case DT::BF16:
        put(i, floatToBf16(static_cast<float>(in.floatAt(i))));
        break;
      case DT::F8E4M3FN:
      case DT::F8E4M3FNUZ:
      case DT::F8E5M2:
      case DT::F8E5M2FNUZ:
        d[i] = floatToFloat8(static_cast<float>(in.floatAt(i)), ir::float8Kind(to), saturate);
        break;
      case DT::Bool:
        d[i] = from_float ? in.floatAt(i) != 0 : in.intAt(i) != 0;
        break;
      case DT::I4:
        put(i, static_cast<int8_t>(int4(i, -8, 7)));
        break;
      case DT::U4:
        d[i] = static_cast<uint8_t>(int4(i, 0, 15));
        break;
      case DT::I64:
        put(i, asInt(i));
        break;
      case DT::I32:
        put(i, static_cast<int32_t>(asInt(i)));
        break;
      case DT::I16:
        put(i, static_cast<int16_t>(asInt(i)));
        break;
      case DT::I8:
        put(i, static_cast<int8_t>(asInt(i)));
        break;
      case DT::U8:
        d[i] = static_cast<uint8_t>(asInt(i));
        break;
      case DT::U16:
        put(i, static_cast<uint16_t>(asInt(i)));
        break;
      case DT::U32:
        put(i, static_cast<uint32_t>(asInt(i)));
        break;
      case DT::U64:
        put(i, static_cast<uint64_t>(asInt(i)));
        break;
      case DT::Undefined:
      case DT::C64:  // no model makes complex tensors (ir/dtype.h): never a Cast's target
      case DT::C128:
        break;
    }
  }
}

namespace {

Status canonCast(InferContext& ctx) {
  // Cast-1 names the type as a string ("FLOAT").
  const ir::AttrValue* v = ctx.attrs().find("to");
  const std::string* s = v ? std::get_if<std::string>(v) : nullptr;
  if (!s) return Status::ok();
  static const std::pair<const char*, int64_t> kNames[] = {
      {"FLOAT", 1},   {"UINT8", 2},   {"INT8", 3},     {"UINT16", 4},   {"INT16", 5},
      {"INT32", 6},   {"INT64", 7},   {"BOOL", 9},     {"FLOAT16", 10}, {"DOUBLE", 11},
      {"UINT32", 12}, {"UINT64", 13}, {"BFLOAT16", 16}};
  for (const auto& [name, num] : kNames)
    if (*s == name) {
      ctx.attrs().set("to", num);
      return Status::ok();
    }
  return ctx.fail("'to' names the unsupported type '{}'", *s);
}

// CastLike (opset 15) is Cast to the dtype of its second input: that dtype becomes `to` and the
// input is dropped, so the node runs and folds as Cast does.
Status canonCastLike(InferContext& ctx) {
  if (ctx.numInputs() < 2 || !ctx.hasInput(1)) return Status::ok();
  const int to = ir::dtypeToOnnx(ctx.dtype(1));
  if (to <= 0)
    return ctx.unsupported("target dtype {} is not supported", ir::dtypeName(ctx.dtype(1)));
  ctx.attrs().set("to", static_cast<int64_t>(to));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferCast(InferContext& ctx) {
  if (!ctx.attrs().has("to")) return ctx.fail("attribute 'to' is required");
  int64_t to = ctx.attrs().getInt("to", 0);
  ir::DType t = ir::dtypeFromOnnx(static_cast<int>(to));
  if (t == ir::DType::Undefined)
    return ctx.unsupported(
        "'to' = {} is not a supported ONNX data type (string, complex, float4 and e8m0 are "
        "not supported)",
        to);
  const int64_t sat = ctx.attrs().getInt("saturate", 1);
  if (sat != 0 && sat != 1) return ctx.fail("saturate {} must be 0 or 1", sat);
  ctx.setOutput(0, t, ctx.shape(0));
  return Status::ok();
}

bool saturates(const ir::Node& n) { return n.attrs.getInt("saturate", 1) != 0; }

Eval evalCast(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::DType to = n.outputs[0]->dtype;
  TensorBuilder b(to, in[0].shape);
  castElements(in[0], to, saturates(n), b.bytes.data(), 0, in[0].numel());
  return one(b.finish());
}

// Cast's target as GE's DataType (dst_type), where the IR keeps ONNX's `to`.
CannSpelling castSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"dst_type", static_cast<int64_t>(ir::dtypeToGe(
                              ir::dtypeFromOnnx(static_cast<int>(n.attrs.getInt("to", 1)))))}};
  return c;
}

}  // namespace

Result<std::unique_ptr<Kernel>> createCastKernel(const KernelInit& k) {
  const TensorRef in = k.inputs[0];
  const TensorRef out = k.outputs[0];
  const int64_t n = in.numel();
  // fp32 <-> fp16/bf16, the casts --precision_mode inserts: the bulk F16C conversions.
  using DT = ir::DType;
  const DT a = in.dtype(), b = out.dtype();
  const auto* s16 = static_cast<const uint16_t*>(in.data);
  auto* d16 = static_cast<uint16_t*>(out.data);
  const auto* s32 = static_cast<const float*>(in.data);
  auto* d32 = static_cast<float*>(out.data);
  const size_t count = static_cast<size_t>(n);
  if (a == DT::F32 && b == DT::F16)
    return fnKernel([=] { cpu::floatToHalf(s32, d16, count); }, "cast-f16c");
  if (a == DT::F16 && b == DT::F32)
    return fnKernel([=] { cpu::halfToFloat(s16, d32, count); }, "cast-f16c");
  if (a == DT::F32 && b == DT::BF16)
    return fnKernel([=] { cpu::floatToBf16(s32, d16, count); }, "cast-bf16");
  if (a == DT::BF16 && b == DT::F32)
    return fnKernel([=] { cpu::bf16ToFloat(s16, d32, count); }, "cast-bf16");
  if (a == b) return fnKernel([=] { std::memcpy(out.data, in.data, out.bytes); }, "copy");
  auto blob = std::make_shared<ir::Blob>(in.data, in.bytes, nullptr);
  const bool sat = saturates(k.node);
  return fnKernel(
      [=] {
        const ir::Tensor t{in.dtype(), in.shape(), blob};
        cpu::parallelFor(n, 1 << 14, [&](int64_t b, int64_t e) {
          castElements(t, out.dtype(), sat, out.data, b, e);
        });
      },
      "cast");
}

const OpDef& defCast() {
  static const OpDef d =
      OpDef("Cast")
          .kernel(createCastKernel)
          .cannSpelling(castSpelling)
          .nativeDtypes()
          .onnx(6)  // "to" is a type name string before opset 6: that form is not read
          .canonicalize(canonCast)
          .inferShape(inferCast)
          .evalConst(evalCast)
          .summary("converts to the element type `to` (float8 with `saturate`)");
  return d;
}

const OpDef& defCastLike() {
  static const OpDef d = OpDef("CastLike")
                             .kernel(createCastKernel)
                             .nativeDtypes()
                             .onnx(15)
                             .inputs(1, 2)
                             .canonicalize(canonCastLike)
                             .inferShape(inferCast)
                             .evalConst(evalCast)
                             .summary("converts to the element type of the second input");
  return d;
}

}  // namespace asc::ops
