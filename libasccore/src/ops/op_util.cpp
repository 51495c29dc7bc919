// op_util.cpp: shared op helpers.
#include "op_util.h"

#include <algorithm>
#include <cmath>

#include "asc/ops/registry.h"
#include "asc/support/fp16.h"

namespace asc::ops {

int64_t windowExtent(int64_t k, int64_t d) { return (k - 1) * d + 1; }

int64_t windowOutDim(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pad_begin,
                     int64_t pad_end, bool ceil_mode) {
  const int64_t span = in + pad_begin + pad_end - windowExtent(k, d);
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (out - 1) * s >= in + pad_begin) --out;
  return out;
}

void samePads(int64_t in, int64_t extent, int64_t s, bool upper, int64_t* begin, int64_t* end) {
  const int64_t out = (in + s - 1) / s;
  const int64_t total = std::max<int64_t>(0, (out - 1) * s + extent - in);
  const int64_t small = total / 2, big = total - small;
  *begin = upper ? small : big;
  *end = upper ? big : small;
}

const OpDef& defOf(const ir::Node& n) {
  static const OpDef kNone("");
  const OpDef* d = lookup(n.op_type);
  return d ? *d : kNone;
}

std::optional<ir::Shape> broadcastShapes(const ir::Shape& a, const ir::Shape& b) {
  size_t r = std::max(a.size(), b.size());
  ir::Shape out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da == db || db == 1)
      out[i] = da;
    else if (da == 1)
      out[i] = db;
    else
      return std::nullopt;
  }
  return out;
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> stridesOf(const ir::Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int64_t i = static_cast<int64_t>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

TensorBuilder::TensorBuilder(ir::DType t, ir::Shape s)
    : dtype(t),
      shape(std::move(s)),
      bytes(static_cast<size_t>(ir::numElements(shape)) * ir::dtypeSize(t)) {}

void TensorBuilder::setFloat(int64_t i, double v) {
  switch (dtype) {
    case ir::DType::F32:
      as<float>()[i] = static_cast<float>(v);
      break;
    case ir::DType::F64:
      as<double>()[i] = v;
      break;
    case ir::DType::F16:
      as<uint16_t>()[i] = floatToHalf(static_cast<float>(v));
      break;
    case ir::DType::BF16:
      as<uint16_t>()[i] = floatToBf16(static_cast<float>(v));
      break;
    case ir::DType::F8E4M3FN:
    case ir::DType::F8E4M3FNUZ:
    case ir::DType::F8E5M2:
    case ir::DType::F8E5M2FNUZ:
      as<uint8_t>()[i] = floatToFloat8(static_cast<float>(v), ir::float8Kind(dtype), true);
      break;
    default:
      setInt(i, static_cast<int64_t>(v));
      break;
  }
}

void TensorBuilder::setInt(int64_t i, int64_t v) {
  switch (dtype) {
    case ir::DType::I64:
      as<int64_t>()[i] = v;
      break;
    case ir::DType::I32:
      as<int32_t>()[i] = static_cast<int32_t>(v);
      break;
    case ir::DType::I16:
      as<int16_t>()[i] = static_cast<int16_t>(v);
      break;
    case ir::DType::I8:
      as<int8_t>()[i] = static_cast<int8_t>(v);
      break;
    case ir::DType::U8:
      as<uint8_t>()[i] = static_cast<uint8_t>(v);
      break;
    case ir::DType::I4:  // saturated: a byte must hold a value of the type
      as<int8_t>()[i] = static_cast<int8_t>(std::clamp<int64_t>(v, -8, 7));
      break;
    case ir::DType::U4:
      as<uint8_t>()[i] = static_cast<uint8_t>(std::clamp<int64_t>(v, 0, 15));
      break;
    case ir::DType::U16:
      as<uint16_t>()[i] = static_cast<uint16_t>(v);
      break;
    case ir::DType::U32:
      as<uint32_t>()[i] = static_cast<uint32_t>(v);
      break;
    case ir::DType::U64:
      as<uint64_t>()[i] = static_cast<uint64_t>(v);
      break;
    case ir::DType::Bool:
      as<uint8_t>()[i] = v != 0;
      break;
    default:
      setFloat(i, static_cast<double>(v));
      break;
  }
}

ir::Tensor TensorBuilder::finish() {
  return ir::Tensor{dtype, shape, ir::Blob::fromVector(std::move(bytes))};
}

ir::Tensor makeInt64Tensor(const std::vector<int64_t>& values, ir::Shape shape) {
  TensorBuilder b(ir::DType::I64, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) b.as<int64_t>()[i] = values[i];
  return b.finish();
}

Result<ir::Tensor> evalBroadcast(const std::vector<ir::Tensor>& ins, ir::DType out,
                                 const ir::Shape& out_shape,
                                 const std::function<double(const double*)>& ff,
                                 const std::function<int64_t(const int64_t*)>& fi) {
  TensorBuilder b(out, out_shape);
  const int64_t n = ir::numElements(out_shape);
  const size_t r = out_shape.size();
  // Per input: strides aligned to the output rank, 0 on broadcast dims.
  std::vector<std::vector<int64_t>> bst;
  for (const auto& t : ins) {
    auto st = stridesOf(t.shape);
    std::vector<int64_t> s(r, 0);
    for (size_t k = 0; k < t.shape.size(); ++k) {
      size_t o = r - t.shape.size() + k;
      s[o] = t.shape[k] == 1 ? 0 : st[k];
    }
    bst.push_back(std::move(s));
  }
  const bool use_float =
      std::any_of(ins.begin(), ins.end(), [](const ir::Tensor& t) { return ir::isFloat(t.dtype); });
  std::vector<int64_t> idx(r, 0);
  std::vector<double> fargs(ins.size());
  std::vector<int64_t> iargs(ins.size());
  for (int64_t e = 0; e < n; ++e) {
    for (size_t k = 0; k < ins.size(); ++k) {
      int64_t off = 0;
      for (size_t d = 0; d < r; ++d) off += idx[d] * bst[k][d];
      if (use_float)
        fargs[k] = ins[k].floatAt(off);
      else
        iargs[k] = ins[k].intAt(off);
    }
    if (use_float) {
      double v = ff(fargs.data());
      if (ir::isFloat(out))
        b.setFloat(e, v);
      else
        b.setInt(e, static_cast<int64_t>(v));
    } else {
      b.setInt(e, fi(iargs.data()));
    }
    for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return b.finish();
}

Status inferSameAsInput0(InferContext& ctx) {
  for (size_t i = 0; i < ctx.node().outputs.size(); ++i)
    ctx.setOutput(i, ctx.dtype(0), ctx.shape(0));
  return Status::ok();
}

Status inferBroadcast(InferContext& ctx) {
  ir::Shape s = ctx.shape(0);
  for (size_t i = 1; i < ctx.numInputs(); ++i) {
    if (!ctx.hasInput(i)) continue;
    auto b = broadcastShapes(s, ctx.shape(i));
    if (!b)
      return ctx.fail("inputs of shapes [{}] and [{}] do not broadcast", ir::shapeToString(s),
                      ir::shapeToString(ctx.shape(i)));
    s = *b;
  }
  ctx.setOutput(0, ctx.dtype(0), s);
  return Status::ok();
}

ir::Tensor reshapeTensor(const ir::Tensor& t, ir::Shape shape) {
  return ir::Tensor{t.dtype, std::move(shape), t.data};
}

const char* cannDataFormat(size_t rank) { return rank == 4 ? "NCHW" : rank == 5 ? "NCDHW" : "ND"; }

std::vector<int64_t> cannSpatialList(const std::vector<int64_t>& v) {
  std::vector<int64_t> out = {1, 1};
  out.insert(out.end(), v.begin(), v.end());
  return out;
}

std::vector<int64_t> cannPads(const std::vector<int64_t>& onnx_pads) {
  const size_t n = onnx_pads.size() / 2;
  std::vector<int64_t> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(onnx_pads[i]);
    out.push_back(onnx_pads[i + n]);
  }
  return out;
}

}  // namespace asc::ops
