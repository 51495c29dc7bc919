// shape.cpp: shape-manipulation ops (Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
// Expand, Tile, Identity); constant.cpp Dropout, Constant, ConstantOfShape and Range; cast.cpp
// Cast and CastLike;
// select.cpp has the indexing ones (Concat, Split, Slice, Gather, DepthToSpace, Pad). PyTorch
// exports shape arithmetic as Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains, so every op
// of the family folds on constant inputs (Shape even on a runtime input: it needs only the shape).
// Parameters that later opsets turned into inputs (Reshape shape, Squeeze/Unsqueeze axes, Expand
// shape, Tile repeats, Split split, Slice starts/ends/axes/steps, Pad pads/value) must be
// constant and become attributes, resolved and normalized (non-negative axes, explicit
// defaults) so that re-running inference on a canonical node gives the same result. Slice's one
// exception: with a negative step an end before index 0 is stored as -(dim+1), which reads as
// -1 once a negative index is wrapped.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "ops/op_util.h"
#include "shape_kernel.h"
#include "shape_util.h"
#include "asc/support/log.h"

namespace asc::ops {
namespace {

using namespace shape_detail;

// --- Shape ----------------------------------------------------------------------------------

Status inferShapeOp(InferContext& ctx) {
  const int64_t r = ctx.rank(0);
  auto clampDim = [r](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + r : v, 0, r); };
  int64_t start = clampDim(ctx.attrs().getInt("start", 0));
  int64_t end = clampDim(ctx.attrs().getInt("end", r));
  if (start == 0 && end == r) {
    ctx.attrs().erase("start");
    ctx.attrs().erase("end");
  } else {
    ctx.attrs().set("start", start);
    ctx.attrs().set("end", end);
  }
  ctx.setOutput(0, ir::DType::I64, {std::max<int64_t>(0, end - start)});
  return Status::ok();
}

Eval evalShapeOp(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& s = in[0].shape;
  int64_t start = n.attrs.getInt("start", 0);
  int64_t len = n.outputs[0]->shape[0];
  return one(makeInt64Tensor(ir::Shape(s.begin() + start, s.begin() + start + len), {len}));
}

Status inferSizeOp(InferContext& ctx) {
  ctx.setOutput(0, ir::DType::I64, {});
  return Status::ok();
}

Eval evalSizeOp(const ir::Node&, const std::vector<ir::Tensor>& in) {
  return one(makeInt64Tensor({ir::numElements(in[0].shape)}, {}));
}

// --- Reshape, Flatten, Squeeze, Unsqueeze ----------------------------------------------------

Status canonReshape(InferContext& ctx) {
  if (ctx.hasInput(1)) {
    ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "shape"));
    ctx.truncateInputs(1);
  } else if (!ctx.attrs().has("shape")) {
    return ctx.fail("the target shape is missing (input 1 or attribute 'shape')");
  }
  return Status::ok();
}

Status inferReshape(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const std::vector<int64_t> spec = ctx.attrs().getInts("shape");
  const bool allowzero = ctx.attrs().getInt("allowzero", 0) != 0;
  ir::Shape out(spec.size());
  int64_t infer_at = -1, known = 1;
  bool has_zero = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t s = spec[i];
    if (s == -1) {
      if (infer_at >= 0)
        return ctx.fail("shape [{}] has more than one -1", ir::shapeToString(spec));
      infer_at = static_cast<int64_t>(i);
      continue;
    }
    if (s < -1) return ctx.fail("shape [{}] has the invalid dim {}", ir::shapeToString(spec), s);
    if (s == 0 && !allowzero) {
      if (i >= x.size())
        return ctx.fail(
            "shape [{}]: dim {} is 0 (copy the input dim) but the input [{}] has "
            "only {} dims",
            ir::shapeToString(spec), i, ir::shapeToString(x), x.size());
      s = x[i];
    }
    has_zero |= s == 0;
    out[i] = s;
    if (__builtin_mul_overflow(known, s, &known))
      return ctx.fail("shape [{}] holds more elements than int64 can count",
                      ir::shapeToString(spec));
  }
  const int64_t numel = ir::numElements(x);
  if (infer_at >= 0) {
    if (allowzero && has_zero)
      return ctx.fail("shape [{}] has both 0 and -1 with allowzero=1", ir::shapeToString(spec));
    if (known == 0 || numel % known != 0)
      return ctx.fail("cannot reshape [{}] ({} elements) to [{}]: the -1 dim cannot be inferred",
                      ir::shapeToString(x), numel, ir::shapeToString(spec));
    out[infer_at] = numel / known;
  } else if (known != numel) {
    return ctx.fail("cannot reshape [{}] ({} elements) to [{}] ({} elements)", ir::shapeToString(x),
                    numel, ir::shapeToString(out), known);
  }
  ctx.attrs().set("shape", out);
  // A resolved 0 is a real 0: keep it one when inference runs again.
  if (std::find(out.begin(), out.end(), 0) != out.end()) ctx.attrs().set("allowzero", int64_t{1});
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferFlatten(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  int64_t axis = ctx.attrs().getInt("axis", 1);
  int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a > r) return ctx.fail("axis {} is out of range [{}, {}]", axis, -r, r);
  ctx.attrs().set("axis", a);
  ctx.setOutput(0, ctx.dtype(0), {product(x, 0, a), product(x, a, x.size())});
  return Status::ok();
}

Status canonAxesInput(InferContext& ctx) {
  if (ctx.hasInput(1)) ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "axes"));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferSqueeze(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  std::vector<int64_t> axes;
  if (ctx.attrs().has("axes") && !ctx.attrs().getInts("axes").empty()) {
    ASC_TRY(axes, normalizeAxes(ctx, ctx.attrs().getInts("axes"), ctx.rank(0), true));
    for (int64_t a : axes)
      if (x[a] != 1)
        return ctx.fail("cannot squeeze axis {} of shape [{}]: its size is {}, not 1", a,
                        ir::shapeToString(x), x[a]);
  } else {
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] == 1) axes.push_back(static_cast<int64_t>(i));
  }
  ir::Shape out;
  for (size_t i = 0; i < x.size(); ++i)
    if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(i))) out.push_back(x[i]);
  ctx.attrs().set("axes", axes);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferUnsqueeze(InferContext& ctx) {
  if (!ctx.attrs().has("axes"))
    return ctx.fail("axes are missing (attribute before opset 13, input 1 since)");
  const ir::Shape& x = ctx.shape(0);
  const std::vector<int64_t> raw = ctx.attrs().getInts("axes");
  const int64_t out_rank = ctx.rank(0) + static_cast<int64_t>(raw.size());
  ASC_TRY(std::vector<int64_t> axes, normalizeAxes(ctx, raw, out_rank, true));
  ir::Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (std::binary_search(axes.begin(), axes.end(), i))
      out.push_back(1);
    else
      out.push_back(x[next++]);
  }
  ctx.attrs().set("axes", axes);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

// --- Transpose, Expand, Tile -----------------------------------------------------------------

Status inferTranspose(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  std::vector<int64_t> def(r);
  for (int64_t i = 0; i < r; ++i) def[i] = r - 1 - i;
  std::vector<int64_t> perm = ctx.attrs().getInts("perm", def);
  if (static_cast<int64_t>(perm.size()) != r)
    return ctx.fail("perm [{}] has {} entries, the input has rank {}", ir::shapeToString(perm),
                    perm.size(), r);
  std::vector<bool> seen(r, false);
  ir::Shape out(r);
  for (int64_t i = 0; i < r; ++i) {
    if (perm[i] < 0 || perm[i] >= r || seen[perm[i]])
      return ctx.fail("perm [{}] is not a permutation of 0..{}", ir::shapeToString(perm), r - 1);
    seen[perm[i]] = true;
    out[i] = x[perm[i]];
  }
  ctx.attrs().set("perm", perm);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Eval evalTranspose(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  std::vector<int64_t> perm = n.attrs.getInts("perm");
  std::vector<int64_t> st = stridesOf(in[0].shape), pst(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) pst[i] = st[perm[i]];
  return one(mapElements(in[0], n.outputs[0]->shape, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * pst[i];
    return off;
  }));
}

Status canonExpand(InferContext& ctx) {
  if (ctx.hasInput(1)) {
    ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "shape"));
    ctx.truncateInputs(1);
  } else if (!ctx.attrs().has("shape")) {
    return ctx.fail("the target shape (input 1) is missing");
  }
  return Status::ok();
}

Status inferExpand(InferContext& ctx) {
  std::vector<int64_t> shape = ctx.attrs().getInts("shape");
  for (int64_t d : shape)
    if (d < 0) return ctx.fail("shape [{}] has a negative dim", ir::shapeToString(shape));
  auto out = broadcastShapes(ctx.shape(0), shape);
  if (!out)
    return ctx.fail("input of shape [{}] cannot be expanded to [{}]",
                    ir::shapeToString(ctx.shape(0)), ir::shapeToString(shape));
  ctx.attrs().set("shape", *out);
  ctx.setOutput(0, ctx.dtype(0), *out);
  return Status::ok();
}

Eval evalExpand(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  auto r = evalBroadcast(
      {in[0]}, in[0].dtype, n.outputs[0]->shape, [](const double* a) { return a[0]; },
      [](const int64_t* a) { return a[0]; });
  if (!r) return r.status();
  return one(*r);
}

Status canonTile(InferContext& ctx) {
  if (ctx.opset() < 6 && ctx.hasInput(2)) {
    // Tile-1: a scalar count `tiles` along one `axis`.
    const ir::Value* tiles = ctx.constInput(1);
    const ir::Value* axis = ctx.constInput(2);
    if (!tiles || !axis || tiles->numel() != 1 || axis->numel() != 1)
      return ctx.fail("tiles and axis (inputs 1 and 2) must be constant scalars");
    auto a = normalizeAxis(axis->tensor().intAt(0), ctx.rank(0));
    if (!a) return ctx.fail("axis {} is out of range", axis->tensor().intAt(0));
    std::vector<int64_t> repeats(ctx.rank(0), 1);
    repeats[*a] = tiles->tensor().intAt(0);
    ctx.attrs().set("repeats", repeats);
    ctx.truncateInputs(1);
    return Status::ok();
  }
  if (ctx.hasInput(1)) {
    ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "repeats"));
    ctx.truncateInputs(1);
  } else if (!ctx.attrs().has("repeats")) {
    return ctx.fail("repeats (input 1) are missing");
  }
  return Status::ok();
}

Status inferTile(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  std::vector<int64_t> rep = ctx.attrs().getInts("repeats");
  if (rep.size() != x.size())
    return ctx.fail("repeats [{}] has {} entries, the input has rank {}", ir::shapeToString(rep),
                    rep.size(), x.size());
  ir::Shape out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (rep[i] < 0) return ctx.fail("repeats [{}] has a negative entry", ir::shapeToString(rep));
    out[i] = x[i] * rep[i];
  }
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Eval evalTile(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& x = in[0].shape;
  std::vector<int64_t> st = stridesOf(x);
  return one(mapElements(in[0], n.outputs[0]->shape, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t i = 0; i < idx.size(); ++i) off += (idx[i] % x[i]) * st[i];
    return off;
  }));
}

// --- Identity, Dropout -----------------------------------------------------------------

Eval evalIdentity(const ir::Node& n, const std::vector<ir::Tensor>& in) { return one(in[0]); }

// Squeeze's axes are CANN's axis; ExpandD keeps shape.
CannSpelling squeezeSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"axis", n.attrs.getInts("axes")}};
  return c;
}

// TileD's repeats are CANN's multiples.
CannSpelling tileSpelling(const ir::Node& n) {
  CannSpelling c;
  c.attrs = {{"multiples", n.attrs.getInts("repeats")}};
  return c;
}

/// Reshape, Flatten, Squeeze, Unsqueeze and Identity: the output is the input's bytes seen with
/// another shape, so the runtime gives it the input's buffer and the kernel copies only when it
/// cannot.
OpDef viewOp(const char* name, int since) {
  return OpDef(name).kernel(createCopyKernel).nativeDtypes().aliasesInput().onnx(since);
}

/// Shape and Size: computed from the input's shape alone, folded even on a run-time input.
OpDef shapeInfoOp(const char* name, InferFn infer, EvalFn eval, const char* summary) {
  return OpDef(name)
      .kernel(createConstKernel)
      .nativeDtypes()
      .onnx(1)
      .inferShape(infer)
      .evalConst(eval)
      .evalFromShapes()
      .summary(summary);
}

}  // namespace

const OpDef& defShape() {
  static const OpDef d = shapeInfoOp("Shape", inferShapeOp, evalShapeOp,
                                     "the input's shape as int64 (opset 15: dims [start, end))");
  return d;
}

const OpDef& defSize() {
  static const OpDef d =
      shapeInfoOp("Size", inferSizeOp, evalSizeOp, "the input's element count as an int64 scalar");
  return d;
}

const OpDef& defReshape() {
  static const OpDef d =
      viewOp("Reshape", 5)  // the shape is an attribute before opset 5: that form is not read
          .inputs(1, 2)
          .canonicalize(canonReshape)
          .inferShape(inferReshape)
          .evalConst(evalReshapeLike)
          .summary("new shape (constant; 0 copies a dim unless allowzero, -1 is inferred)");
  return d;
}

const OpDef& defFlatten() {
  static const OpDef d = viewOp("Flatten", 1)
                             .inferShape(inferFlatten)
                             .evalConst(evalReshapeLike)
                             .summary("2-D [prod(dims < axis), prod(dims >= axis)]");
  return d;
}

const OpDef& defTranspose() {
  static const OpDef d = OpDef("Transpose")
                             .kernel(createTransposeKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .cann("TransposeD")
                             .inferShape(inferTranspose)
                             .evalConst(evalTranspose)
                             .summary("permutes dims by perm (default: reversed)");
  return d;
}

const OpDef& defSqueeze() {
  static const OpDef d =
      viewOp("Squeeze", 1)
          .cannSpelling(squeezeSpelling)
          .inputs(1, 2)
          .canonicalize(canonAxesInput)
          .inferShape(inferSqueeze)
          .evalConst(evalReshapeLike)
          .summary("removes size-1 dims (axes: attribute before opset 13, input since)");
  return d;
}

const OpDef& defUnsqueeze() {
  static const OpDef d = viewOp("Unsqueeze", 1)
                             .inputs(1, 2)
                             .canonicalize(canonAxesInput)
                             .inferShape(inferUnsqueeze)
                             .evalConst(evalReshapeLike)
                             .summary("inserts size-1 dims at axes of the output");
  return d;
}

const OpDef& defExpand() {
  static const OpDef d = OpDef("Expand")
                             .kernel(createExpandKernel)
                             .nativeDtypes()
                             .onnx(8)
                             .cann("ExpandD")
                             .inputs(1, 2)
                             .canonicalize(canonExpand)
                             .inferShape(inferExpand)
                             .evalConst(evalExpand)
                             .summary("broadcasts the input to a constant shape");
  return d;
}

const OpDef& defTile() {
  static const OpDef d =
      OpDef("Tile")
          .kernel(createTileKernel)
          .nativeDtypes()
          .onnx(6)  // tiles and axis inputs before opset 6: that form is not read
          .cann("TileD")
          .cannSpelling(tileSpelling)
          .inputs(1, 3)
          .canonicalize(canonTile)
          .inferShape(inferTile)
          .evalConst(evalTile)
          .summary("repeats the input `repeats[i]` times along each dim");
  return d;
}

static Layout keepLayout(const ir::Node&, const std::vector<Layout>& in) { return in[0]; }

// TransData comes only from atc's layout step (NCHW <-> NC1HWC0 at the edges of AI Core
// regions); the logical tensor does not change, so the runtime gives its output the input's
// buffer.
const OpDef& defTransData() {
  static const OpDef d =
      OpDef("TransData")
          .internal()
          .kernel(createCopyKernel)
          .layout(keepLayout)
          .nativeDtypes()
          .aliasesInput()
          .inferShape(inferSameAsInput0)
          .summary("format conversion NCHW <-> NC1HWC0 (from atc's layout step; free on the CPU)");
  return d;
}

const OpDef& defIdentity() {
  static const OpDef d = viewOp("Identity", 1)
                             .inferShape(inferSameAsInput0)
                             .evalConst(evalIdentity)
                             .summary("output = input");
  return d;
}

}  // namespace asc::ops
