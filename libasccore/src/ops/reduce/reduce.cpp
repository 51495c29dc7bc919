// reduce.cpp: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceSumSquare, ReduceLogSum and ReduceLogSumExp (-> CANN ReduceMeanD, ReduceSumD, ... which
// take the axes as an attribute), ArgMax/ArgMin, TopK and CumSum. The axes are an attribute before
// opset 13 (ReduceSum) or 18 (the others) and an optional input since; both become the attribute
// "axes", normalized and sorted. No axes means all axes, unless noop_with_empty_axes=1 (then the op
// is an identity and "axes" stays empty). keepdims (default 1) is made explicit. All fold on
// constants.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/op_util.h"
#include "reduce_kernel.h"

namespace asc::ops {
namespace {

using Kind = ReduceKind;

Status canonReduce(InferContext& ctx) {
  if (ctx.hasInput(1)) {
    if (ctx.rank(1) > 1 || ir::isFloat(ctx.dtype(1)))
      return ctx.fail("axes (input 1) must be a 1-D integer tensor, it is {} [{}]",
                      ir::dtypeName(ctx.dtype(1)), ir::shapeToString(ctx.shape(1)));
    ASC_RETURN_IF_ERROR(ctx.moveInputToInts(1, "axes"));
  }
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferReduce(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  ir::Attrs& a = ctx.attrs();
  const std::vector<int64_t> raw = a.getInts("axes");
  const bool noop = a.getInt("noop_with_empty_axes", 0) != 0;
  const int64_t keepdims = a.getInt("keepdims", 1);
  if (keepdims != 0 && keepdims != 1) return ctx.fail("keepdims {} must be 0 or 1", keepdims);
  std::vector<int64_t> axes;
  for (int64_t v : raw) {
    auto n = normalizeAxis(v, r);
    if (!n) return ctx.fail("axis {} is out of range for an input of rank {}", v, r);
    if (std::find(axes.begin(), axes.end(), *n) != axes.end())
      return ctx.fail("axes [{}] name axis {} twice", ir::shapeToString(raw), *n);
    axes.push_back(*n);
  }
  if (axes.empty() && !noop)
    for (int64_t i = 0; i < r; ++i) axes.push_back(i);
  std::sort(axes.begin(), axes.end());
  ir::Shape out;
  for (int64_t i = 0; i < r; ++i) {
    bool reduced = std::binary_search(axes.begin(), axes.end(), i);
    if (reduced && x[i] == 0 &&
        (ctx.node().op_type == "ReduceMax" || ctx.node().op_type == "ReduceMin"))
      return ctx.fail("{} over the empty axis {} of shape [{}]", ctx.node().op_type, i,
                      ir::shapeToString(x));
    if (!reduced)
      out.push_back(x[i]);
    else if (keepdims)
      out.push_back(1);
  }
  a.set("axes", axes);
  a.set("keepdims", keepdims);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

// Accumulates every input element into its output slot (the output flat index is the input
// multi-index with the reduced dims dropped).
template <Kind K>
Result<std::vector<ir::Tensor>> evalReduce(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in[0];
  const ir::Value* outv = n.outputs[0];
  const std::vector<int64_t> axes = n.attrs.getInts("axes");
  const size_t r = x.shape.size();
  std::vector<bool> reduced(r, false);
  for (int64_t a : axes) reduced[a] = true;
  // Output strides per input dim (0 on reduced dims).
  std::vector<int64_t> ost(r, 0);
  int64_t s = 1;
  for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d)
    if (!reduced[d]) {
      ost[d] = s;
      s *= x.shape[d];
    }
  const int64_t nout = outv->numel();
  const bool fl = ir::isFloat(x.dtype);
  std::vector<double> facc(nout, reduceInit(K));
  std::vector<int64_t> iacc(nout, K == Kind::Max    ? std::numeric_limits<int64_t>::min()
                                  : K == Kind::Min  ? std::numeric_limits<int64_t>::max()
                                  : K == Kind::Prod ? 1
                                                    : 0);
  std::vector<int64_t> idx(r, 0);
  const int64_t total = x.numel();
  for (int64_t e = 0; e < total; ++e) {
    int64_t o = 0;
    for (size_t d = 0; d < r; ++d) o += idx[d] * ost[d];
    if (fl) {
      facc[o] = reduceStep(K, facc[o], x.floatAt(e));
    } else {
      const uint64_t acc = static_cast<uint64_t>(iacc[o]);
      const int64_t v = x.intAt(e);
      switch (K) {
        case Kind::Max:
          iacc[o] = std::max(iacc[o], v);
          break;
        case Kind::Min:
          iacc[o] = std::min(iacc[o], v);
          break;
        case Kind::Prod:
          iacc[o] = static_cast<int64_t>(acc * static_cast<uint64_t>(v));
          break;
        case Kind::L1:
          iacc[o] = static_cast<int64_t>(acc + static_cast<uint64_t>(v < 0 ? -v : v));
          break;
        case Kind::SumSquare:
          iacc[o] = static_cast<int64_t>(acc + static_cast<uint64_t>(v) * static_cast<uint64_t>(v));
          break;
        default:  // Sum, Mean; L2 and the logarithms go through doubles below
          iacc[o] = static_cast<int64_t>(acc + static_cast<uint64_t>(v));
          break;
      }
    }
    for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
      if (++idx[d] < x.shape[d]) break;
      idx[d] = 0;
    }
  }
  const int64_t count = nout ? total / nout : 0;
  TensorBuilder b(outv->dtype, outv->shape);
  for (int64_t o = 0; o < nout; ++o) {
    if (fl) {
      b.setFloat(o, reduceFinish(K, facc[o], count));
    } else if (K == Kind::L2 || K == Kind::LogSum || K == Kind::LogSumExp) {
      return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): integer input", n.name,
                           n.op_type);
    } else {
      int64_t v = iacc[o];
      if (K == Kind::Mean) v = count ? v / count : 0;
      b.setInt(o, v);
    }
  }
  return std::vector<ir::Tensor>{b.finish()};
}

// ArgMax/ArgMin: the index along `axis` (normalized into the attribute) of the first (or with
// select_last_index the last) extreme element; int64 output, the axis kept as 1 or dropped.
Status inferArgReduce(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  ir::Attrs& a = ctx.attrs();
  const int64_t raw = a.getInt("axis", 0);
  auto axis = normalizeAxis(raw, std::max<int64_t>(r, 1));
  if (!axis || r == 0) return ctx.fail("axis {} is out of range for an input of rank {}", raw, r);
  const int64_t keepdims = a.getInt("keepdims", 1);
  if (keepdims != 0 && keepdims != 1) return ctx.fail("keepdims {} must be 0 or 1", keepdims);
  const int64_t last = a.getInt("select_last_index", 0);
  if (last != 0 && last != 1) return ctx.fail("select_last_index {} must be 0 or 1", last);
  if (x[*axis] == 0) return ctx.fail("{} over the empty axis {}", ctx.node().op_type, *axis);
  if (ctx.dtype(0) == ir::DType::Bool) return ctx.fail("bool input is not supported");
  ir::Shape out;
  for (int64_t i = 0; i < r; ++i)
    if (i != *axis)
      out.push_back(x[i]);
    else if (keepdims)
      out.push_back(1);
  a.set("axis", *axis);
  a.set("keepdims", keepdims);
  ctx.setOutput(0, ir::DType::I64, out);
  return Status::ok();
}

template <bool kMax>
Result<std::vector<ir::Tensor>> evalArgReduce(const ir::Node& n,
                                              const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in[0];
  const int64_t axis = n.attrs.getInt("axis", 0);
  const bool last = n.attrs.getInt("select_last_index", 0) != 0;
  int64_t outer = 1, len = 1, inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(x.shape.size()); ++d)
    (d < axis ? outer : d > axis ? inner : len) *= x.shape[d];
  std::vector<int64_t> out(outer * inner);
  for (int64_t o = 0; o < outer * inner; ++o) {
    const int64_t base = (o / inner) * len * inner + o % inner;
    double best = x.floatAt(base);
    int64_t at = 0;
    for (int64_t j = 1; j < len; ++j) {
      const double v = x.floatAt(base + j * inner);
      if (kMax ? (last ? v >= best : v > best) : (last ? v <= best : v < best)) {
        best = v;
        at = j;
      }
    }
    out[o] = at;
  }
  return std::vector<ir::Tensor>{makeInt64Tensor(out, n.outputs[0]->shape)};
}

// ArgMax/ArgMin with a constant axis are CANN's ArgMaxD/ArgMinD (dimension, the index dtype);
// TopKV2's attributes (k stays the IR's: CANN takes it as an input).
CannSpelling argSpelling(const ir::Node& n) {
  CannSpelling c;
  c.type = n.op_type == "ArgMax" ? "ArgMaxD" : "ArgMinD";
  const ir::Value* y = n.outputs.empty() ? nullptr : n.outputs[0];
  c.attrs = {{"dimension", n.attrs.getInt("axis", 0)},
             {"dtype", static_cast<int64_t>(ir::dtypeToGe(y ? y->dtype : ir::DType::I64))}};
  return c;
}

CannSpelling topKSpelling(const ir::Node& n) {
  CannSpelling c;
  const int32_t k = static_cast<int32_t>(n.attrs.getInt("k", 0));
  c.const_inputs.emplace_back("k", ir::Tensor{ir::DType::I32, {}, ir::Blob::copyOf(&k, 4)});
  c.attrs = {{"sorted", n.attrs.getInt("sorted", 1) != 0},
             {"dim", n.attrs.getInt("axis", -1)},
             {"largest", n.attrs.getInt("largest", 1) != 0}};
  return c;
}

OpDef argReduceOp(const char* name, const char* cann, EvalFn eval, const char* summary) {
  return OpDef(name)
      .kernel(createArgReduceKernel)
      .onnx(1)
      .cann(cann)
      .cannSpelling(argSpelling)
      .inferShape(inferArgReduce)
      .evalConst(eval)
      .flops([](const ir::Node& n) { return n.inputs[0]->numel(); })
      .summary(summary);
}

// CumSum: x of a numeric type, axis an int32/int64 scalar (or one element); the output has x's
// shape, so a run-time axis is fine (the kernel reads it); a constant one is range-checked.
Status inferCumSum(InferContext& ctx) {
  const ir::DType t = ctx.dtype(0);
  if (t != ir::DType::F32 && t != ir::DType::F64 && t != ir::DType::F16 && t != ir::DType::BF16 &&
      t != ir::DType::I32 && t != ir::DType::I64 && t != ir::DType::U32 && t != ir::DType::U64)
    return ctx.fail("input dtype {} is not supported (float, int32/64, uint32/64)",
                    ir::dtypeName(t));
  if ((ctx.dtype(1) != ir::DType::I64 && ctx.dtype(1) != ir::DType::I32) ||
      ctx.input(1).numel() != 1)
    return ctx.fail("axis (input 1) must be one int32 or int64, it is {} [{}]",
                    ir::dtypeName(ctx.dtype(1)), ir::shapeToString(ctx.shape(1)));
  if (const ir::Value* a = ctx.constInput(1)) {
    const int64_t v = a->tensor().intAt(0);
    if (!normalizeAxis(v, ctx.rank(0)))
      return ctx.fail("axis {} is out of range for an input of rank {}", v, ctx.rank(0));
  }
  return inferSameAsInput0(ctx);
}

Result<std::vector<ir::Tensor>> evalCumSum(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& x = in[0];
  const int64_t axis = *normalizeAxis(in[1].intAt(0), static_cast<int64_t>(x.shape.size()));
  const bool excl = n.attrs.getInt("exclusive", 0) != 0, rev = n.attrs.getInt("reverse", 0) != 0;
  TensorBuilder b(x.dtype, x.shape);
  const int64_t count = x.numel();
  if (ir::isFloat(x.dtype)) {
    std::vector<double> v(count), o(count);
    for (int64_t i = 0; i < count; ++i) v[i] = x.floatAt(i);
    cumsum(v.data(), o.data(), x.shape, axis, excl, rev);
    for (int64_t i = 0; i < count; ++i) b.setFloat(i, o[i]);
  } else {
    std::vector<int64_t> v(count), o(count);
    for (int64_t i = 0; i < count; ++i) v[i] = x.intAt(i);
    cumsum(v.data(), o.data(), x.shape, axis, excl, rev);
    for (int64_t i = 0; i < count; ++i) b.setInt(i, o[i]);
  }
  return std::vector<ir::Tensor>{b.finish()};
}

// TopK: k is an attribute before opset 10 and a 1-element input since; it must be a constant
// (it is a dim of the outputs) and becomes the int attribute "k". Values keep x's dtype, Indices
// are int64; both have x's shape with dim[axis] = k.
Status canonTopK(InferContext& ctx) {
  if (ctx.numInputs() < 2 || !ctx.hasInput(1)) return Status::ok();
  const ir::Value* kv = ctx.constInput(1);
  if (!kv)
    return ctx.fail(
        "input 1 ('{}') must be known at compile time (constant): it is a dim of the "
        "outputs",
        ctx.input(1).name);
  if (kv->numel() != 1) return ctx.fail("k must hold one value, it holds {}", kv->numel());
  ctx.attrs().set("k", kv->tensor().intAt(0));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferTopK(InferContext& ctx) {
  if (!ctx.attrs().has("k")) return ctx.fail("k is missing (attribute or input 1)");
  const int64_t r = ctx.rank(0);
  const int64_t raw = ctx.attrs().getInt("axis", -1);
  auto axis = normalizeAxis(raw, r);
  if (!axis) return ctx.fail("axis {} is out of range for an input of rank {}", raw, r);
  const int64_t k = ctx.attrs().getInt("k", 0);
  if (k < 0 || k > ctx.shape(0)[*axis])
    return ctx.fail("k {} is out of range for axis {} of size {}", k, *axis, ctx.shape(0)[*axis]);
  if (ctx.dtype(0) == ir::DType::Bool) return ctx.fail("bool input is not supported");
  ctx.attrs().set("axis", *axis);
  ir::Shape out = ctx.shape(0);
  out[*axis] = k;
  ctx.setOutput(0, ctx.dtype(0), out);
  ctx.setOutput(1, ir::DType::I64, out);
  return Status::ok();
}

int64_t reduceFlops(const ir::Node& n) { return n.inputs[0]->numel(); }

// The Reduce*D ops as CANN spells them: axes (normalised by shape inference) and keep_dims.
CannSpelling reduceSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"axes", n.attrs.getInts("axes")}, {"keep_dims", n.attrs.getInt("keepdims", 1) != 0}};
  return c;
}

OpDef reduceOp(const char* name, const char* cann, EvalFn eval, const char* summary) {
  return OpDef(name)
      .kernel(createReduceKernel)
      .onnx(1)
      .cann(cann)
      .cannSpelling(reduceSpelling)
      .inputs(1, 2)
      .canonicalize(canonReduce)
      .inferShape(inferReduce)
      .evalConst(eval)
      .flops(reduceFlops)
      .summary(summary);
}

}  // namespace

const OpDef& defReduceMean() {
  static const OpDef d = reduceOp("ReduceMean", "ReduceMeanD", evalReduce<Kind::Mean>,
                                  "mean over axes (keepdims default 1)")
                             .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceSum() {
  static const OpDef d = reduceOp("ReduceSum", "ReduceSumD", evalReduce<Kind::Sum>,
                                  "sum over axes (axes an input since opset 13)")
                             .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defArgMax() {
  static const OpDef d =
      argReduceOp("ArgMax", "ArgMaxV2", evalArgReduce<true>,
                  "int64 index of the maximum along axis (keepdims, select_last_index)");
  return d;
}

const OpDef& defArgMin() {
  static const OpDef d =
      argReduceOp("ArgMin", "ArgMin", evalArgReduce<false>,
                  "int64 index of the minimum along axis (keepdims, select_last_index)");
  return d;
}

const OpDef& defCumSum() {
  static const OpDef d = OpDef("CumSum")
                             .kernel(createCumSumKernel)
                             .precisionClass(PrecisionClass::Sensitive)
                             .onnx(11)
                             .inputs(2, 2)
                             .inferShape(inferCumSum)
                             .evalConst(evalCumSum)
                             .flops([](const ir::Node& n) { return n.inputs[0]->numel(); })
                             .summary("running sum along axis (input 1); exclusive, reverse");
  return d;
}

const OpDef& defTopK() {
  static const OpDef d = OpDef("TopK")
                             .kernel(createTopKKernel)
                             .onnx(1)
                             .cann("TopKV2")
                             .cannSpelling(topKSpelling)
                             .inputs(1, 2)
                             .outputs(2, 2)
                             .canonicalize(canonTopK)
                             .inferShape(inferTopK)
                             .flops([](const ir::Node& n) { return n.inputs[0]->numel(); })
                             .summary(
                                 "the k largest (or smallest) values along axis and their "
                                 "int64 indices; ties keep the lower index first");
  return d;
}

const OpDef& defReduceMin() {
  static const OpDef d = reduceOp("ReduceMin", "ReduceMinD", evalReduce<Kind::Min>,
                                  "minimum over axes (keepdims default 1)");
  return d;
}

const OpDef& defReduceProd() {
  static const OpDef d = reduceOp("ReduceProd", "ReduceProdD", evalReduce<Kind::Prod>,
                                  "product over axes (keepdims default 1)")
                             .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceL1() {
  static const OpDef d =
      reduceOp("ReduceL1", "ReduceL1", evalReduce<Kind::L1>, "sum of |x| over axes")
          .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceL2() {
  static const OpDef d =
      reduceOp("ReduceL2", "ReduceL2", evalReduce<Kind::L2>, "sqrt of the sum of x^2 over axes")
          .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceSumSquare() {
  static const OpDef d = reduceOp("ReduceSumSquare", "SquareSumV1", evalReduce<Kind::SumSquare>,
                                  "sum of x^2 over axes")
                             .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceLogSum() {
  static const OpDef d =
      reduceOp("ReduceLogSum", "ReduceLogSum", evalReduce<Kind::LogSum>, "log of the sum over axes")
          .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceLogSumExp() {
  static const OpDef d = reduceOp("ReduceLogSumExp", "ReduceLogSumExp", evalReduce<Kind::LogSumExp>,
                                  "log of the sum of e^x over axes")
                             .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defReduceMax() {
  static const OpDef d = reduceOp("ReduceMax", "ReduceMaxD", evalReduce<Kind::Max>,
                                  "maximum over axes (keepdims default 1)");
  return d;
}

}  // namespace asc::ops
