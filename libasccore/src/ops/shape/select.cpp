// select.cpp: indexing and rearranging ops of the shape family: Concat, Split, Slice, Gather,
// DepthToSpace and SpaceToDepth (Pad is pad.cpp). Like the rest of the family they fold on constant
// inputs, and their constant parameter inputs become attributes (see shape.cpp for the rules).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "ops/op_util.h"
#include "shape_kernel.h"
#include "shape_util.h"

namespace asc::ops {
namespace {

using namespace shape_detail;

// --- Concat, Split ---------------------------------------------------------------------------

Status inferConcat(InferContext& ctx) {
  if (!ctx.attrs().has("axis") && ctx.opset() >= 4) return ctx.fail("attribute axis is required");
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (!ctx.hasInput(i)) return ctx.fail("input {} is empty (omitted)", i);
  const int64_t r = ctx.rank(0);
  int64_t axis_attr = ctx.attrs().getInt("axis", 1);
  auto axis = normalizeAxis(axis_attr, r);
  if (!axis) return ctx.fail("axis {} is out of range for inputs of rank {}", axis_attr, r);
  ir::Shape out = ctx.shape(0);
  for (size_t i = 1; i < ctx.numInputs(); ++i) {
    const ir::Shape& s = ctx.shape(i);
    if (ctx.dtype(i) != ctx.dtype(0))
      return ctx.fail("input {} has dtype {}, input 0 has {}", i, ir::dtypeName(ctx.dtype(i)),
                      ir::dtypeName(ctx.dtype(0)));
    bool ok = static_cast<int64_t>(s.size()) == r;
    for (int64_t d = 0; ok && d < r; ++d) ok = d == *axis || s[d] == out[d];
    if (!ok)
      return ctx.fail("input {} of shape [{}] does not match input 0 [{}] outside axis {}", i,
                      ir::shapeToString(s), ir::shapeToString(ctx.shape(0)), *axis);
    out[*axis] += s[*axis];
  }
  ctx.attrs().set("axis", *axis);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Eval evalConcat(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const int64_t axis = n.attrs.getInt("axis", 0);
  const ir::Shape& os = n.outputs[0]->shape;
  const size_t esz = ir::dtypeSize(in[0].dtype);
  const int64_t outer = product(os, 0, axis);
  const int64_t inner = product(os, axis + 1, os.size());
  TensorBuilder b(in[0].dtype, os);
  uint8_t* dst = b.bytes.data();
  for (int64_t o = 0; o < outer; ++o)
    for (const auto& t : in) {
      size_t chunk = static_cast<size_t>(t.shape[axis] * inner) * esz;
      if (chunk) std::memcpy(dst, t.data->data() + o * chunk, chunk);
      dst += chunk;
    }
  return one(b.finish());
}

Status canonSplit(InferContext& ctx) {
  if (ctx.hasInput(1)) ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "split"));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferSplit(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  int64_t axis_attr = ctx.attrs().getInt("axis", 0);
  auto axis = normalizeAxis(axis_attr, ctx.rank(0));
  if (!axis)
    return ctx.fail("axis {} is out of range for an input of rank {}", axis_attr, x.size());
  const int64_t dim = x[*axis];
  const int64_t n = static_cast<int64_t>(ctx.node().outputs.size());
  std::vector<int64_t> split = ctx.attrs().getInts("split");
  if (!split.empty()) {
    if (static_cast<int64_t>(split.size()) != n)
      return ctx.fail("split [{}] has {} entries for {} outputs", ir::shapeToString(split),
                      split.size(), n);
    int64_t sum = 0;
    for (int64_t s : split) {
      if (s < 0) return ctx.fail("split [{}] has a negative entry", ir::shapeToString(split));
      sum += s;
    }
    if (sum != dim)
      return ctx.fail("split [{}] sums to {}, but axis {} has size {}", ir::shapeToString(split),
                      sum, *axis, dim);
  } else if (ctx.attrs().has("num_outputs")) {
    // Opset 18: equal chunks of ceil(dim / n), the last one smaller.
    if (ctx.attrs().getInt("num_outputs", 0) != n)
      return ctx.fail("num_outputs {} differs from the {} outputs of the node",
                      ctx.attrs().getInt("num_outputs", 0), n);
    int64_t chunk = (dim + n - 1) / n;
    if (chunk * (n - 1) >= dim && n > 1)
      return ctx.fail("axis {} of size {} cannot give {} non-empty chunks", *axis, dim, n);
    split.assign(n, chunk);
    split.back() = dim - chunk * (n - 1);
  } else {
    if (dim % n != 0)
      return ctx.fail("axis {} of size {} does not split into {} equal parts; give 'split'", *axis,
                      dim, n);
    split.assign(n, dim / n);
  }
  ctx.attrs().erase("num_outputs");
  ctx.attrs().set("split", split);
  ctx.attrs().set("axis", *axis);
  for (int64_t i = 0; i < n; ++i) {
    ir::Shape s = x;
    s[*axis] = split[i];
    ctx.setOutput(i, ctx.dtype(0), s);
  }
  return Status::ok();
}

Eval evalSplit(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const int64_t axis = n.attrs.getInt("axis", 0);
  const ir::Shape& x = in[0].shape;
  const size_t esz = ir::dtypeSize(in[0].dtype);
  const int64_t outer = product(x, 0, axis);
  const int64_t inner = product(x, axis + 1, x.size());
  const size_t in_row = static_cast<size_t>(x[axis] * inner) * esz;
  std::vector<ir::Tensor> outs;
  size_t col = 0;
  for (const ir::Value* v : n.outputs) {
    TensorBuilder b(in[0].dtype, v->shape);
    size_t chunk = static_cast<size_t>(v->shape[axis] * inner) * esz;
    for (int64_t o = 0; o < outer && chunk; ++o)
      std::memcpy(b.bytes.data() + o * chunk, in[0].data->data() + o * in_row + col, chunk);
    col += chunk;
    outs.push_back(b.finish());
  }
  return outs;
}

// --- Slice -----------------------------------------------------------------------------------

Status canonSlice(InferContext& ctx) {
  if (ctx.opset() < 10) return Status::ok();  // starts/ends/axes were attributes
  if (ctx.hasInput(1)) {
    if (!ctx.hasInput(2)) return ctx.fail("ends (input 2) are missing");
    ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "starts"));
    ASC_RETURN_IF_ERROR(moveParam(ctx, 2, "ends"));
    ASC_RETURN_IF_ERROR(moveParam(ctx, 3, "axes"));
    ASC_RETURN_IF_ERROR(moveParam(ctx, 4, "steps"));
  } else if (!ctx.attrs().has("starts")) {
    return ctx.fail("starts and ends (inputs 1 and 2) are missing");
  }
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferSlice(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  ir::Attrs& a = ctx.attrs();
  if (!a.has("starts") || !a.has("ends")) return ctx.fail("starts and ends are required");
  std::vector<int64_t> starts = a.getInts("starts"), ends = a.getInts("ends");
  const size_t k = starts.size();
  std::vector<int64_t> raw_axes(k), steps = a.getInts("steps", std::vector<int64_t>(k, 1));
  std::iota(raw_axes.begin(), raw_axes.end(), 0);
  raw_axes = a.getInts("axes", raw_axes);
  if (ends.size() != k || raw_axes.size() != k || steps.size() != k)
    return ctx.fail("starts [{}], ends [{}], axes [{}] and steps [{}] differ in length",
                    ir::shapeToString(starts), ir::shapeToString(ends), ir::shapeToString(raw_axes),
                    ir::shapeToString(steps));
  ASC_TRY(std::vector<int64_t> axes, normalizeAxes(ctx, raw_axes, r, false));
  ir::Shape out = x;
  for (size_t i = 0; i < k; ++i) {
    const int64_t d = x[axes[i]], st = steps[i];
    if (st == 0) return ctx.fail("steps [{}] has a 0 step", ir::shapeToString(steps));
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += d;
    if (e < 0) e += d;
    int64_t len;
    if (d == 0) {
      s = e = len = 0;
    } else if (st > 0) {
      s = std::clamp<int64_t>(s, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      len = e > s ? (e - s - 1) / st + 1 : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      const int64_t mag = st == std::numeric_limits<int64_t>::min() ? d + 1 : -st;
      len = s > e ? (s - e - 1) / mag + 1 : 0;
      if (e == -1) e = -(d + 1);  // "before index 0", stable under re-normalization
    }
    starts[i] = s;
    ends[i] = e;
    out[axes[i]] = len;
  }
  a.set("starts", starts);
  a.set("ends", ends);
  a.set("axes", axes);
  a.set("steps", steps);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Eval evalSlice(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& x = in[0].shape;
  std::vector<int64_t> begin(x.size(), 0), step(x.size(), 1);
  std::vector<int64_t> starts = n.attrs.getInts("starts"), axes = n.attrs.getInts("axes"),
                       steps = n.attrs.getInts("steps");
  for (size_t i = 0; i < axes.size(); ++i) {
    begin[axes[i]] = starts[i];
    step[axes[i]] = steps[i];
  }
  std::vector<int64_t> st = stridesOf(x);
  return one(mapElements(in[0], n.outputs[0]->shape, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t i = 0; i < idx.size(); ++i) off += (begin[i] + idx[i] * step[i]) * st[i];
    return off;
  }));
}

// --- Gather ----------------------------------------------------------------------------------

Status inferGather(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const ir::Shape& ind = ctx.shape(1);
  if (ctx.dtype(1) != ir::DType::I64 && ctx.dtype(1) != ir::DType::I32)
    return ctx.fail("indices have dtype {}, expected int32 or int64", ir::dtypeName(ctx.dtype(1)));
  int64_t axis_attr = ctx.attrs().getInt("axis", 0);
  auto axis = normalizeAxis(axis_attr, ctx.rank(0));
  if (!axis) return ctx.fail("axis {} is out of range for data of rank {}", axis_attr, x.size());
  if (const ir::Value* c = ctx.constInput(1)) {
    const ir::Tensor t = c->tensor();
    for (int64_t i = 0; i < t.numel(); ++i) {
      int64_t v = t.intAt(i);
      if (v < -x[*axis] || v >= x[*axis])
        return ctx.fail("index {} is out of range for axis {} of size {}", v, *axis, x[*axis]);
    }
  }
  ir::Shape out(x.begin(), x.begin() + *axis);
  out.insert(out.end(), ind.begin(), ind.end());
  out.insert(out.end(), x.begin() + *axis + 1, x.end());
  ctx.attrs().set("axis", *axis);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Eval evalGather(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const int64_t axis = n.attrs.getInt("axis", 0);
  const ir::Shape& x = in[0].shape;
  const size_t esz = ir::dtypeSize(in[0].dtype);
  const int64_t outer = product(x, 0, axis), dim = x[axis];
  const size_t inner = static_cast<size_t>(product(x, axis + 1, x.size())) * esz;
  const int64_t count = in[1].numel();
  TensorBuilder b(in[0].dtype, n.outputs[0]->shape);
  uint8_t* dst = b.bytes.data();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < count; ++j) {
      int64_t v = in[1].intAt(j);
      if (v < 0) v += dim;
      if (v < 0 || v >= dim)
        return evalFail(n, "index {} is out of range for axis {} of size {}", in[1].intAt(j), axis,
                        dim);
      if (inner) std::memcpy(dst, in[0].data->data() + (o * dim + v) * inner, inner);
      dst += inner;
    }
  return one(b.finish());
}

// --- DepthToSpace, SpaceToDepth
// -------------------------------------------------------------------

Status inferDepthToSpace(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() != 4)
    return ctx.fail("input must be 4-D (N, C, H, W), it is [{}]", ir::shapeToString(x));
  if (!ctx.attrs().has("blocksize")) return ctx.fail("attribute blocksize is required");
  int64_t b = ctx.attrs().getInt("blocksize", 0);
  if (b <= 0) return ctx.fail("blocksize {} must be positive", b);
  std::string mode = ctx.attrs().getString("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") return ctx.fail("mode '{}' is not DCR or CRD", mode);
  if (x[1] % (b * b) != 0)
    return ctx.fail("channels {} are not divisible by blocksize^2 = {}", x[1], b * b);
  ctx.attrs().set("mode", mode);
  ctx.setOutput(0, ctx.dtype(0), {x[0], x[1] / (b * b), x[2] * b, x[3] * b});
  return Status::ok();
}

Eval evalDepthToSpace(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& x = in[0].shape;
  const int64_t b = n.attrs.getInt("blocksize", 1);
  const bool dcr = n.attrs.getString("mode", "DCR") == "DCR";
  const int64_t oc = x[1] / (b * b);
  std::vector<int64_t> st = stridesOf(x);
  return one(mapElements(in[0], n.outputs[0]->shape, [&](const std::vector<int64_t>& i) {
    int64_t bi = i[2] % b, bj = i[3] % b;
    int64_t c = dcr ? (bi * b + bj) * oc + i[1] : i[1] * b * b + bi * b + bj;
    return i[0] * st[0] + c * st[1] + (i[2] / b) * st[2] + (i[3] / b) * st[3];
  }));
}

Status inferSpaceToDepth(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  if (x.size() != 4)
    return ctx.fail("input must be 4-D (N, C, H, W), it is [{}]", ir::shapeToString(x));
  if (!ctx.attrs().has("blocksize")) return ctx.fail("attribute blocksize is required");
  const int64_t b = ctx.attrs().getInt("blocksize", 0);
  if (b <= 0) return ctx.fail("blocksize {} must be positive", b);
  if (x[2] % b != 0 || x[3] % b != 0)
    return ctx.fail("H {} and W {} must be divisible by blocksize {}", x[2], x[3], b);
  ctx.setOutput(0, ctx.dtype(0), {x[0], x[1] * b * b, x[2] / b, x[3] / b});
  return Status::ok();
}

// out[n][(bi * b + bj) * C + c][i][j] = x[n][c][i * b + bi][j * b + bj]
Eval evalSpaceToDepth(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& x = in[0].shape;
  const int64_t b = n.attrs.getInt("blocksize", 1);
  const int64_t c_in = x[1];
  std::vector<int64_t> st = stridesOf(x);
  return one(mapElements(in[0], n.outputs[0]->shape, [&](const std::vector<int64_t>& i) {
    const int64_t c = i[1] % c_in, blk = i[1] / c_in, bi = blk / b, bj = blk % b;
    return i[0] * st[0] + c * st[1] + (i[2] * b + bi) * st[2] + (i[3] * b + bj) * st[3];
  }));
}

// Split with its sizes as attributes is CANN's SplitVD: size_splits, split_dim, num_split.
CannSpelling splitSpelling(const ir::Node& n) {
  CannSpelling c;
  c.type = "SplitVD";
  const std::vector<int64_t> split = n.attrs.getInts("split");
  c.attrs = {{"size_splits", split},
             {"split_dim", n.attrs.getInt("axis", 0)},
             {"num_split", static_cast<int64_t>(split.size())}};
  return c;
}

// With their parameters constant, CANN writes these ops' attribute ("D") forms: GatherV2D's
// axis, StridedSliceD's full-rank begin/end/strides, PadD's paddings (constant mode; PadV3 keeps
// the others' mode).
CannSpelling gatherSpelling(const ir::Node& n) {
  CannSpelling c;
  c.type = "GatherV2D";
  c.attrs = {{"axis", n.attrs.getInt("axis", 0)}, {"batch_dims", int64_t{0}}};
  return c;
}

CannSpelling sliceSpelling(const ir::Node& n) {
  CannSpelling c;
  c.type = "StridedSliceD";
  const ir::Shape x = n.input(0) ? n.input(0)->shape : ir::Shape{};
  std::vector<int64_t> begin(x.size(), 0), end(x.begin(), x.end()), strides(x.size(), 1);
  const std::vector<int64_t> starts = n.attrs.getInts("starts"), ends = n.attrs.getInts("ends");
  const std::vector<int64_t> axes = n.attrs.getInts("axes"), steps = n.attrs.getInts("steps");
  for (size_t k = 0; k < axes.size() && k < starts.size() && k < ends.size(); ++k) {
    const int64_t a = axes[k] < 0 ? axes[k] + static_cast<int64_t>(x.size()) : axes[k];
    if (a < 0 || a >= static_cast<int64_t>(x.size())) continue;
    begin[static_cast<size_t>(a)] = starts[k];
    end[static_cast<size_t>(a)] = ends[k];
    if (k < steps.size()) strides[static_cast<size_t>(a)] = steps[k];
  }
  c.attrs = {{"begin", begin},
             {"end", end},
             {"strides", strides},
             {"begin_mask", int64_t{0}},
             {"end_mask", int64_t{0}},
             {"ellipsis_mask", int64_t{0}},
             {"new_axis_mask", int64_t{0}},
             {"shrink_axis_mask", int64_t{0}}};
  return c;
}

// ConcatD: CANN's concat_dim and input count N.
CannSpelling concatSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"concat_dim", n.attrs.getInt("axis", 0)},
             {"N", static_cast<int64_t>(n.inputs.size())}};
  return c;
}

}  // namespace

const OpDef& defConcat() {
  static const OpDef d =
      OpDef("Concat")
          .works5hd(FiveHd::Windowed)
          .kernel(createConcatKernel)
          .layout(concatLayout)
          .joinsInputs(concatJoins)
          .nativeDtypes()
          .onnx(4)  // axis may be absent (default 1) before opset 4: that form is not read
          .cann("ConcatD")
          .cannSpelling(concatSpelling)
          .inputs(1, 1 << 20)
          .inferShape(inferConcat)
          .evalConst(evalConcat)
          .summary("joins inputs along axis");
  return d;
}

const OpDef& defSplit() {
  static const OpDef d =
      OpDef("Split")
          .kernel(createSplitKernel)
          .nativeDtypes()
          .onnx(2)  // split may be an input before opset 2: that form is not read
          .cann("SplitV")
          .cannSpelling(splitSpelling)
          .inputs(1, 2)
          .outputs(1, 1 << 20)
          .canonicalize(canonSplit)
          .inferShape(inferSplit)
          .evalConst(evalSplit)
          .summary("splits along axis into parts of sizes `split` (default: equal)");
  return d;
}

const OpDef& defSlice() {
  static const OpDef d = OpDef("Slice")
                             .kernel(createSliceKernel)
                             .layout(sliceLayout)
                             .nativeDtypes()
                             .onnx(1)
                             .cann("StridedSliceV2")
                             .cannSpelling(sliceSpelling)
                             .inputs(1, 5)
                             .canonicalize(canonSlice)
                             .inferShape(inferSlice)
                             .evalConst(evalSlice)
                             .summary("strided slice by constant starts/ends/axes/steps");
  return d;
}

const OpDef& defGather() {
  static const OpDef d = OpDef("Gather")
                             .kernel(createGatherKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .cann("GatherV2")
                             .cannSpelling(gatherSpelling)
                             .inputs(2, 2)
                             .inferShape(inferGather)
                             .evalConst(evalGather)
                             .summary("takes entries of data along axis at indices (negative ok)");
  return d;
}

const OpDef& defSpaceToDepth() {
  static const OpDef d = OpDef("SpaceToDepth")
                             .kernel(createSpaceToDepthKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .inferShape(inferSpaceToDepth)
                             .evalConst(evalSpaceToDepth)
                             .summary(
                                 "moves spatial blocks into channels (DepthToSpace's DCR "
                                 "inverse)");
  return d;
}

const OpDef& defDepthToSpace() {
  static const OpDef d = OpDef("DepthToSpace")
                             .kernel(createDepthToSpaceKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .inferShape(inferDepthToSpace)
                             .evalConst(evalDepthToSpace)
                             .summary("moves channel blocks into spatial blocks (DCR or CRD)");
  return d;
}

// ShuffleChannel (CANN's op) only comes from the fuse-channel-shuffle pass; it is no ONNX op.
const OpDef& defShuffleChannel() {
  static const OpDef d = OpDef("ShuffleChannel")
                             .kernel(createShuffleChannelKernel)
                             .layout(shuffleChannelLayout)
                             .nativeDtypes()
                             .internal()
                             .cann("ShuffleChannel")
                             .inferShape(inferSameAsInput0)
                             .summary(
                                 "fused: channel i*g+j <- channel j*(C/g)+i, for group g "
                                 "(from the fuse-channel-shuffle pass)");
  return d;
}

}  // namespace asc::ops
