// shape.cpp: shape-manipulation ops (Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
// Expand, Tile, Identity, Dropout, Constant, ConstantOfShape, Range); cast.cpp Cast and CastLike;
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

#include "../op_util.h"
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

// Dropout is the identity at inference (training_mode false or absent), and with a ratio of 0
// whatever training_mode is (nothing is dropped and the scale 1 / (1 - 0) is 1): exporters write
// that for a module in train() mode whose dropout probability is 0.
Status canonDropout(InferContext& ctx) {
  const ir::Value* r = ctx.hasInput(1) ? ctx.constInput(1) : nullptr;
  const bool keeps_all = r && r->numel() == 1 && r->tensor().floatAt(0) == 0.0;
  if (ctx.hasInput(2) && !keeps_all) {
    const ir::Value* tm = ctx.constInput(2);
    if (tm && tm->numel() == 1 && tm->tensor().intAt(0) != 0)
      return ctx.unsupported(
          "training_mode is true with a ratio other than 0: training-mode Dropout is not "
          "supported, only inference or a ratio of 0 (the identity)");
    if (!tm)
      return ctx.unsupported(
          "training_mode is computed at run time; only inference (a constant "
          "false or no training_mode) is supported");
  }
  if (const ir::Value* ratio = ctx.constInput(1); ratio && ratio->numel() == 1)
    ctx.attrs().set("ratio", static_cast<float>(ratio->tensor().floatAt(0)));
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferDropout(InferContext& ctx) {
  ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
  // The mask is bool since opset 10, of the input's type before.
  ctx.setOutput(1, ctx.opset() >= 10 ? ir::DType::Bool : ctx.dtype(0), ctx.shape(0));
  return Status::ok();
}

Eval evalDropout(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  std::vector<ir::Tensor> outs{in[0]};
  if (n.outputs.size() > 1) {
    TensorBuilder mask(n.outputs[1]->dtype, in[0].shape);
    for (int64_t i = 0; i < in[0].numel(); ++i) mask.setInt(i, 1);
    outs.push_back(mask.finish());
  }
  return outs;
}

// --- Constant, ConstantOfShape ---------------------------------------------------------------

Status canonConstant(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  for (const char* unsupported : {"value_string", "value_strings", "sparse_value"})
    if (a.has(unsupported)) return ctx.fail("attribute '{}' is not supported", unsupported);
  if (a.getTensor("value")) return Status::ok();
  ir::Tensor t;
  if (const ir::AttrValue* v = a.find("value_float"); v && std::get_if<float>(v)) {
    float f = std::get<float>(*v);
    t = ir::Tensor{ir::DType::F32, {}, ir::Blob::copyOf(&f, sizeof f)};
  } else if (a.has("value_floats")) {
    std::vector<float> fs = a.getFloats("value_floats");
    t = ir::Tensor{ir::DType::F32,
                   {static_cast<int64_t>(fs.size())},
                   ir::Blob::copyOf(fs.data(), fs.size() * sizeof(float))};
  } else if (a.has("value_int")) {
    int64_t i = a.getInt("value_int", 0);
    t = makeInt64Tensor({i}, {});
  } else if (a.has("value_ints")) {
    std::vector<int64_t> is = a.getInts("value_ints");
    t = makeInt64Tensor(is, {static_cast<int64_t>(is.size())});
  } else {
    return ctx.fail("no value: expected attribute 'value' or value_float(s)/value_int(s)");
  }
  for (const char* k : {"value_float", "value_floats", "value_int", "value_ints"}) a.erase(k);
  a.set("value", t);
  return Status::ok();
}

Status inferConstant(InferContext& ctx) {
  const ir::Tensor* t = ctx.attrs().getTensor("value");
  if (!t) return ctx.fail("attribute 'value' is not a tensor");
  if (t->dtype == ir::DType::Undefined) return ctx.fail("'value' has an unsupported dtype");
  for (int64_t d : t->shape)
    if (d < 0) return ctx.fail("'value' has a negative dim [{}]", ir::shapeToString(t->shape));
  if (!t->data || t->data->size() != t->byteSize())
    return ctx.fail("'value' of shape [{}] {} holds {} bytes, expected {}",
                    ir::shapeToString(t->shape), ir::dtypeName(t->dtype),
                    t->data ? t->data->size() : 0, t->byteSize());
  ctx.setOutput(0, t->dtype, t->shape);
  return Status::ok();
}

Eval evalConstant(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return one(*n.attrs.getTensor("value"));
}

Status inferConstantOfShape(InferContext& ctx) {
  const ir::Value* c = ctx.constInput(0);
  if (!c)
    return ctx.fail(
        "the shape (input 0) must be known at compile time (a constant); dynamic shapes are not "
        "supported");
  if (c->shape.size() != 1 || ir::isFloat(c->dtype))
    return ctx.fail("the shape (input 0) must be a 1-D integer tensor, it is {} [{}]",
                    ir::dtypeName(c->dtype), ir::shapeToString(c->shape));
  ir::Shape out = c->tensor().toInts();
  for (int64_t d : out)
    if (d < 0) return ctx.fail("shape [{}] has a negative dim", ir::shapeToString(out));
  ir::DType dt = ir::DType::F32;
  if (const ir::Tensor* v = ctx.attrs().getTensor("value")) {
    if (v->numel() != 1 || !v->data || v->data->size() != v->byteSize())
      return ctx.fail("'value' must hold exactly one element, it has shape [{}]",
                      ir::shapeToString(v->shape));
    dt = v->dtype;
  } else {
    float zero = 0;
    ctx.attrs().set("value", ir::Tensor{dt, {1}, ir::Blob::copyOf(&zero, sizeof zero)});
  }
  ctx.setOutput(0, dt, out);
  return Status::ok();
}

Eval evalConstantOfShape(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Tensor& v = *n.attrs.getTensor("value");
  TensorBuilder b(v.dtype, n.outputs[0]->shape);
  const size_t esz = ir::dtypeSize(v.dtype);
  for (size_t off = 0; off < b.bytes.size(); off += esz)
    std::memcpy(b.bytes.data() + off, v.data->data(), esz);
  return one(b.finish());
}

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

}  // namespace

const OpDef& defShape() {
  static const OpDef d = OpDef("Shape")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .inferShape(inferShapeOp)
                             .evalConst(evalShapeOp)
                             .evalFromShapes()
                             .summary("the input's shape as int64 (opset 15: dims [start, end))");
  return d;
}

const OpDef& defSize() {
  static const OpDef d = OpDef("Size")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .inferShape(inferSizeOp)
                             .evalConst(evalSizeOp)
                             .evalFromShapes()
                             .summary("the input's element count as an int64 scalar");
  return d;
}

const OpDef& defReshape() {
  static const OpDef d =
      OpDef("Reshape")
          .kernel(createCopyKernel)
          .nativeDtypes()
          .aliasesInput()
          .onnx(5)  // the shape is an attribute before opset 5: that form is not read
          .inputs(1, 2)
          .canonicalize(canonReshape)
          .inferShape(inferReshape)
          .evalConst(evalReshapeLike)
          .summary("new shape (constant; 0 copies a dim unless allowzero, -1 is inferred)");
  return d;
}

const OpDef& defFlatten() {
  static const OpDef d = OpDef("Flatten")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .aliasesInput()
                             .onnx(1)
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
      OpDef("Squeeze")
          .cannSpelling(squeezeSpelling)
          .kernel(createCopyKernel)
          .nativeDtypes()
          .aliasesInput()
          .onnx(1)
          .inputs(1, 2)
          .canonicalize(canonAxesInput)
          .inferShape(inferSqueeze)
          .evalConst(evalReshapeLike)
          .summary("removes size-1 dims (axes: attribute before opset 13, input since)");
  return d;
}

const OpDef& defUnsqueeze() {
  static const OpDef d = OpDef("Unsqueeze")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .aliasesInput()
                             .onnx(1)
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
  static const OpDef d = OpDef("Identity")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .aliasesInput()
                             .onnx(1)
                             .inferShape(inferSameAsInput0)
                             .evalConst(evalIdentity)
                             .summary("output = input");
  return d;
}

const OpDef& defDropout() {
  static const OpDef d = OpDef("Dropout")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .inputs(1, 3)
                             .outputs(1, 2)
                             .canonicalize(canonDropout)
                             .inferShape(inferDropout)
                             .evalConst(evalDropout)
                             .summary("inference: identity (optional all-true mask)");
  return d;
}

const OpDef& defConstant() {
  static const OpDef d = OpDef("Constant")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(1)
                             .cann("Const")
                             .inputs(0, 0)
                             .canonicalize(canonConstant)
                             .inferShape(inferConstant)
                             .evalConst(evalConstant)
                             .summary("a constant tensor (value or value_float(s)/value_int(s))");
  return d;
}

// Range (opset 11): start, limit and delta (scalars of one numeric type) must be constants (the
// output's length depends on them); the node folds to max(ceil((limit - start) / delta), 0)
// values start + i * delta.
Status inferRange(InferContext& ctx) {
  for (size_t i = 0; i < 3; ++i) {
    if (!ctx.constInput(i))
      return ctx.fail(
          "input {} ('{}') must be known at compile time (constant): the output's length depends "
          "on it",
          i, ctx.input(i).name);
    if (ctx.input(i).numel() != 1) return ctx.fail("input {} must be a scalar", i);
    if (ctx.dtype(i) != ctx.dtype(0)) return ctx.fail("inputs must share one dtype");
  }
  const double start = ctx.constInput(0)->tensor().floatAt(0);
  const double limit = ctx.constInput(1)->tensor().floatAt(0);
  const double delta = ctx.constInput(2)->tensor().floatAt(0);
  if (delta == 0) return ctx.fail("delta is 0");
  const int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  ctx.setOutput(0, ctx.dtype(0), {n});
  return Status::ok();
}

Eval evalRange(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Value* o = n.outputs[0];
  TensorBuilder b(o->dtype, o->shape);
  if (ir::isFloat(o->dtype)) {
    const double start = in[0].floatAt(0), delta = in[2].floatAt(0);
    for (int64_t i = 0; i < o->shape[0]; ++i) b.setFloat(i, start + static_cast<double>(i) * delta);
  } else {
    const int64_t start = in[0].intAt(0), delta = in[2].intAt(0);
    for (int64_t i = 0; i < o->shape[0]; ++i) b.setInt(i, start + i * delta);
  }
  return one(b.finish());
}

const OpDef& defRange() {
  static const OpDef d = OpDef("Range")
                             .kernel(createConstKernel)
                             .nativeDtypes()
                             .onnx(11)
                             .inputs(3, 3)
                             .inferShape(inferRange)
                             .evalConst(evalRange)
                             .summary("start, start + delta, ... below limit; constant inputs");
  return d;
}

const OpDef& defConstantOfShape() {
  static const OpDef d =
      OpDef("ConstantOfShape")
          .kernel(createConstKernel)
          .nativeDtypes()
          .onnx(9)
          .cann("Fill")
          .inferShape(inferConstantOfShape)
          .evalConst(evalConstantOfShape)
          .summary("a tensor of a constant shape filled with `value` (default float 0)");
  return d;
}

}  // namespace asc::ops
