// reduce.cpp: ReduceMean, ReduceSum and ReduceMax (-> CANN ReduceMeanD/ReduceSumD/ReduceMaxD,
// which take the axes as an attribute). The axes are an attribute before opset 13 (ReduceSum)
// or 18 (the others) and an optional input since; both become the attribute "axes", normalized
// and sorted. No axes means all axes, unless noop_with_empty_axes=1 (then the op is an identity
// and "axes" stays empty). keepdims (default 1) is made explicit. All three fold on constants.
#include <algorithm>
#include <cmath>
#include <limits>

#include "../op_util.h"
#include "reduce_kernel.h"

namespace asc::ops {
namespace {

enum class Kind { Sum, Mean, Max };

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
    if (reduced && x[i] == 0 && ctx.node().op_type == "ReduceMax")
      return ctx.fail("ReduceMax over the empty axis {} of shape [{}]", i, ir::shapeToString(x));
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
  std::vector<double> facc(nout, K == Kind::Max ? -std::numeric_limits<double>::infinity() : 0);
  std::vector<int64_t> iacc(nout, K == Kind::Max ? std::numeric_limits<int64_t>::min() : 0);
  std::vector<int64_t> idx(r, 0);
  const int64_t total = x.numel();
  for (int64_t e = 0; e < total; ++e) {
    int64_t o = 0;
    for (size_t d = 0; d < r; ++d) o += idx[d] * ost[d];
    if (fl) {
      double v = x.floatAt(e);
      if (K == Kind::Max)
        facc[o] = std::isnan(v) || v > facc[o] ? v : facc[o];
      else
        facc[o] += v;
    } else {
      int64_t v = x.intAt(e);
      if (K == Kind::Max)
        iacc[o] = std::max(iacc[o], v);
      else
        iacc[o] = static_cast<int64_t>(static_cast<uint64_t>(iacc[o]) + uint64_t(v));
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
      double v = facc[o];
      if (K == Kind::Mean)
        v = count ? v / static_cast<double>(count) : std::numeric_limits<double>::quiet_NaN();
      b.setFloat(o, v);
    } else {
      int64_t v = iacc[o];
      if (K == Kind::Mean) v = count ? v / count : 0;
      b.setInt(o, v);
    }
  }
  return std::vector<ir::Tensor>{b.finish()};
}

int64_t reduceFlops(const ir::Node& n) { return n.inputs[0]->numel(); }

OpDef reduceOp(const char* name, const char* cann, EvalFn eval, const char* summary) {
  return OpDef(name)
      .kernel(createReduceKernel)
      .onnx(1)
      .cann(cann)
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

const OpDef& defReduceMax() {
  static const OpDef d = reduceOp("ReduceMax", "ReduceMaxD", evalReduce<Kind::Max>,
                                  "maximum over axes (keepdims default 1)");
  return d;
}

}  // namespace asc::ops
