// tf_ops_shape.cpp: TensorFlow's shape and data-movement ops as IR ops: Identity and its
// kin, Reshape, Squeeze, ExpandDims, ConcatV2, Pack, Unpack, Pad/PadV2/MirrorPad, Transpose,
// StridedSlice (all five masks), Slice, Split/SplitV, Cast, Shape and the reductions. Shape
// arguments must be constants; a chain such as Shape -> StridedSlice -> Pack -> Reshape folds
// while importing, since every node is inferred (and folded) as soon as it is built.
#include <algorithm>
#include <climits>
#include <numeric>

#include "tf_convert.h"

namespace asc::frontend::tf {
namespace {

Result<int64_t> normAxis(Converter& c, int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank)
    return c.fail("{} {} is out of range for rank {}", what, axis, rank);
  return axis < 0 ? axis + rank : axis;
}

int64_t rankOf(const ir::Value* v) { return static_cast<int64_t>(v->shape.size()); }

// Identity, StopGradient, Snapshot, PlaceholderWithDefault (a frozen graph reads its default):
// an IR Identity, so that the TensorFlow name stays a node (--out_nodes, dumps).
Status convIdentity(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  TfValue& t = c.in(0);
  ASC_TRY(ir::Value * y, c.emit1("Identity", {t.v}));
  c.setOut(0, TfValue{y, t.nchw});
  return Status::ok();
}

Status convIdentityN(Converter& c) {
  for (size_t i = 0; i < c.numInputs(); ++i) {
    ASC_TRY(ir::Value * y, c.emit1("Identity", {c.x(i)}, {}, i ? fmt::format("{}", i) : ""));
    c.setOut(i, TfValue{y, c.in(i).nchw});
  }
  return Status::ok();
}

Status convReshape(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> shape, c.constInts(1));
  ASC_TRY(ir::Value * y, c.reshape(c.x(0), shape, ""));
  c.setOut(0, y);
  return Status::ok();
}

Status convSqueeze(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  std::vector<int64_t> axes = c.intsAttr("squeeze_dims");
  if (axes.empty()) axes = c.intsAttr("axis");
  ir::Attrs a;
  if (!axes.empty()) a.set("axes", axes);  // none: every dim of size 1
  ASC_TRY(ir::Value * y, c.emit1("Squeeze", {c.x(0)}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status convExpandDims(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> dim, c.constInts(1));
  if (dim.size() != 1) return c.fail("dim must hold one value, it holds {}", dim.size());
  ir::Attrs a;
  a.set("axes", dim);  // counted in the output's rank, as TensorFlow counts it
  ASC_TRY(ir::Value * y, c.emit1("Unsqueeze", {c.x(0)}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

/// Concat of inputs [first, first + n) along `axis`, in NCHW when every input has that form.
Status concat(Converter& c, size_t first, size_t n, int64_t axis) {
  if (n == 0) return c.fail("has no tensors to concatenate");
  bool all_nchw = true;
  for (size_t i = first; i < first + n; ++i) all_nchw &= c.in(i).nchw != nullptr;
  std::vector<ir::Value*> ins;
  if (all_nchw) {
    ASC_TRY(int64_t a, normAxis(c, axis, 4, "axis"));
    for (size_t i = first; i < first + n; ++i) ins.push_back(c.in(i).nchw);
    ir::Attrs attrs;
    attrs.set("axis", nhwcAxisToNchw(a));
    ASC_TRY(ir::Value * y, c.emit1("Concat", ins, std::move(attrs)));
    return c.setOutNchw(0, y);
  }
  for (size_t i = first; i < first + n; ++i) ins.push_back(c.x(i));
  ASC_TRY(int64_t a, normAxis(c, axis, rankOf(ins[0]), "axis"));
  ir::Attrs attrs;
  attrs.set("axis", a);
  ASC_TRY(ir::Value * y, c.emit1("Concat", ins, std::move(attrs)));
  c.setOut(0, y);
  return Status::ok();
}

Status convConcatV2(Converter& c) {  // values..., axis
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> axis, c.constInts(c.numInputs() - 1));
  if (axis.size() != 1) return c.fail("axis must hold one value");
  return concat(c, 0, c.numInputs() - 1, axis[0]);
}

Status convConcat(Converter& c) {  // axis, values...
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> axis, c.constInts(0));
  if (axis.size() != 1) return c.fail("concat_dim must hold one value");
  return concat(c, 1, c.numInputs() - 1, axis[0]);
}

Status convPack(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  const int64_t r = rankOf(c.x(0));
  ASC_TRY(int64_t axis, normAxis(c, c.intAttr("axis", 0), r + 1, "axis"));
  std::vector<ir::Value*> parts;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    if (c.x(i)->shape != c.x(0)->shape)
      return c.fail("input {} is [{}], input 0 [{}]; Pack needs equal shapes", i,
                    ir::shapeToString(c.x(i)->shape), ir::shapeToString(c.x(0)->shape));
    ir::Attrs a;
    a.set("axes", std::vector<int64_t>{axis});
    ASC_TRY(ir::Value * u, c.emit1("Unsqueeze", {c.x(i)}, std::move(a), fmt::format("in{}", i)));
    parts.push_back(u);
  }
  ir::Attrs a;
  a.set("axis", axis);
  ASC_TRY(ir::Value * y, c.emit1("Concat", parts, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status convUnpack(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ir::Value* x = c.x(0);
  ASC_TRY(int64_t axis, normAxis(c, c.intAttr("axis", 0), rankOf(x), "axis"));
  const int64_t num = x->shape[axis];
  if (c.intAttr("num", num) != num)
    return c.fail("num is {}, the input has {} along axis {}", c.intAttr("num", num), num, axis);
  if (num < 1 || num > 65536) return c.unsupported("unpacking into {} tensors", num);
  ir::Attrs a;
  a.set("axis", axis);
  a.set("split", std::vector<int64_t>(num, 1));
  ASC_TRY(ir::Node * s, c.emit("Split", {x}, std::move(a), static_cast<size_t>(num), "split"));
  for (int64_t i = 0; i < num; ++i) {
    ir::Attrs sq;
    sq.set("axes", std::vector<int64_t>{axis});
    ASC_TRY(ir::Value * y,
            c.emit1("Squeeze", {s->outputs[i]}, std::move(sq), i ? fmt::format("{}", i) : ""));
    c.setOut(static_cast<size_t>(i), y);
  }
  return Status::ok();
}

// MirrorPad SYMMETRIC (the edge repeated: [a b c] padded by 2 gives [b a a b c c b]): per
// padded dim, reversed slices of the borders concatenated around the tensor.
Status symmetricPad(Converter& c, ir::Value* x, const std::vector<int64_t>& pv) {
  const int64_t r = rankOf(x);
  ir::Value* y = x;
  for (int64_t i = 0; i < r; ++i) {
    const int64_t b = pv[2 * i], e = pv[2 * i + 1], dim = y->shape[i];
    if (b < 0 || e < 0 || b > dim || e > dim)
      return c.fail("SYMMETRIC padding ({}, {}) of dim {} needs 0 to {} on each side", b, e, i,
                    dim);
    if (!b && !e) continue;
    std::vector<ir::Value*> parts;
    auto reversed = [&](int64_t start, int64_t count, const char* side) -> Result<ir::Value*> {
      ir::Attrs a;
      a.set("starts", std::vector<int64_t>{start});
      a.set("ends", std::vector<int64_t>{start - count < 0 ? INT64_MIN : start - count});
      a.set("axes", std::vector<int64_t>{i});
      a.set("steps", std::vector<int64_t>{-1});
      return c.emit1("Slice", {y}, std::move(a), fmt::format("{}{}", side, i));
    };
    if (b) {
      ASC_TRY(ir::Value * head, reversed(b - 1, b, "head"));
      parts.push_back(head);
    }
    parts.push_back(y);
    if (e) {
      ASC_TRY(ir::Value * tail, reversed(dim - 1, e, "tail"));
      parts.push_back(tail);
    }
    ir::Attrs a;
    a.set("axis", i);
    ASC_TRY(y, c.emit1("Concat", parts, std::move(a), fmt::format("dim{}", i)));
  }
  ASC_TRY(ir::Value * out, c.emit1("Identity", {y}));
  c.setOut(0, out);
  return Status::ok();
}

Status convPad(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(ir::Tensor p, c.constIn(1));
  TfValue& t = c.in(0);
  const int64_t r = rankOf(t.v);
  if (p.shape != ir::Shape{r, 2} || ir::isFloat(p.dtype))
    return c.fail("paddings are {} [{}], expected integers [{}, 2]", ir::dtypeName(p.dtype),
                  ir::shapeToString(p.shape), r);
  const std::vector<int64_t> pv = p.toInts();
  for (int64_t v : pv)
    if (v < 0 || v > (int64_t(1) << 31))
      return c.fail("paddings [{}] must be non-negative sizes", ir::shapeToString(pv));
  ir::Attrs a;
  std::string mode = "constant";
  if (c.op() == "MirrorPad") {
    const std::string m = c.strAttr("mode", "");
    if (m == "SYMMETRIC") return symmetricPad(c, t.v, pv);
    if (m != "REFLECT")
      return c.fail("mode '{}' is not REFLECT or SYMMETRIC", m.empty() ? "(none)" : m);
    mode = "reflect";
  }
  a.set("mode", mode);
  if (c.op() == "PadV2") {
    ASC_RETURN_IF_ERROR(c.needInputs(3));
    ASC_TRY(ir::Tensor v, c.constIn(2));
    if (v.numel() != 1) return c.fail("constant_values must hold one value");
    a.set("value", static_cast<float>(v.floatAt(0)));
  }
  const bool nchw = t.nchw && r == 4;
  std::vector<int64_t> pads(2 * r);
  for (int64_t i = 0; i < r; ++i) {
    const int64_t d = nchw ? nhwcAxisToNchw(i) : i;
    pads[d] = pv[2 * i];
    pads[r + d] = pv[2 * i + 1];
  }
  a.set("pads", pads);
  ASC_TRY(ir::Value * y, c.emit1("Pad", {nchw ? t.nchw : t.v}, std::move(a)));
  if (nchw) return c.setOutNchw(0, y);
  c.setOut(0, y);
  return Status::ok();
}

Status convTranspose(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> perm, c.constInts(1));
  TfValue& t = c.in(0);
  // NHWC -> NCHW of a tensor that already has its NCHW form: that form.
  if (t.nchw && perm == std::vector<int64_t>{0, 3, 1, 2}) {
    ASC_TRY(ir::Value * y, c.emit1("Identity", {t.nchw}));
    c.setOut(0, y);
    return Status::ok();
  }
  ir::Attrs a;
  a.set("perm", perm);
  ASC_TRY(ir::Value * y, c.emit1("Transpose", {t.v}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

// StridedSlice(input, begin, end, strides) with begin/end/ellipsis/new_axis/shrink_axis masks:
// one Slice over the input dims the spec names, then a Reshape that inserts the new axes and
// drops the shrunk ones.
Status convStridedSlice(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(4));
  ir::Value* x = c.x(0);
  const ir::Shape& xs = x->shape;
  const int64_t r = rankOf(x);
  ASC_TRY(std::vector<int64_t> begin, c.constInts(1));
  ASC_TRY(std::vector<int64_t> end, c.constInts(2));
  ASC_TRY(std::vector<int64_t> strides, c.constInts(3));
  const size_t n = begin.size();
  if (end.size() != n || strides.size() != n)
    return c.fail("begin, end and strides have {}, {} and {} entries", n, end.size(),
                  strides.size());
  if (n > 64) return c.fail("the slice spec has {} entries, more than 64", n);
  const uint64_t bm = c.intAttr("begin_mask", 0), em = c.intAttr("end_mask", 0),
                 ell = c.intAttr("ellipsis_mask", 0), nm = c.intAttr("new_axis_mask", 0),
                 sm = c.intAttr("shrink_axis_mask", 0);
  auto bit = [](uint64_t m, size_t i) { return ((m >> i) & 1) != 0; };
  // Dims the non-ellipsis, non-new-axis entries consume; the ellipsis covers the rest.
  int64_t consumed = 0, ellipses = 0;
  for (size_t i = 0; i < n; ++i) {
    if (bit(ell, i))
      ++ellipses;
    else if (!bit(nm, i))
      ++consumed;
  }
  if (ellipses > 1) return c.fail("ellipsis_mask has more than one bit set");
  if (consumed > r) return c.fail("the slice spec names {} dims of a rank-{} input", consumed, r);
  std::vector<int64_t> starts, ends, axes, steps;
  // The output dims: -1 for a dim the slice keeps (its size comes from the Slice), -2 for a
  // new axis, and dims a shrink removes are left out.
  std::vector<std::pair<int64_t, int>> out;  // (input dim or -1, kind 0 keep / 1 new)
  bool reshaped = false;                     // a new axis or a shrunk dim
  int64_t d = 0;
  for (size_t i = 0; i < n; ++i) {
    if (bit(ell, i)) {
      for (int64_t k = 0; k < r - consumed; ++k) out.push_back({d++, 0});
      continue;
    }
    if (bit(nm, i)) {
      out.push_back({-1, 1});
      reshaped = true;
      continue;
    }
    const int64_t dim = xs[d];
    if (bit(sm, i)) {
      int64_t b = begin[i] < 0 ? begin[i] + dim : begin[i];
      if (b < 0 || b >= dim)
        return c.fail("index {} is out of range for dim {} of size {}", begin[i], d, dim);
      starts.push_back(b);
      ends.push_back(b + 1);
      axes.push_back(d);
      steps.push_back(1);
      ++d;
      reshaped = true;
      continue;
    }
    const int64_t s = strides[i];
    if (s == 0) return c.fail("stride {} is 0", i);
    starts.push_back(bit(bm, i) ? (s > 0 ? 0 : INT64_MAX) : begin[i]);
    ends.push_back(bit(em, i) ? (s > 0 ? INT64_MAX : INT64_MIN) : end[i]);
    axes.push_back(d);
    steps.push_back(s);
    out.push_back({d++, 0});
  }
  for (; d < r; ++d) out.push_back({d, 0});
  ir::Value* y = x;
  if (!axes.empty()) {
    ir::Attrs a;
    a.set("starts", starts);
    a.set("ends", ends);
    a.set("axes", axes);
    a.set("steps", steps);
    ASC_TRY(y, c.emit1("Slice", {x}, std::move(a), reshaped ? "slice" : ""));
  }
  if (reshaped || y == x) {
    std::vector<int64_t> shape;
    for (const auto& [dim, kind] : out) shape.push_back(kind == 1 ? 1 : y->shape[dim]);
    ASC_TRY(y, c.reshape(y, shape, ""));
  }
  c.setOut(0, y);
  return Status::ok();
}

Status convSlice(Converter& c) {  // input, begin, size (-1: to the end)
  ASC_RETURN_IF_ERROR(c.needInputs(3));
  ir::Value* x = c.x(0);
  ASC_TRY(std::vector<int64_t> begin, c.constInts(1));
  ASC_TRY(std::vector<int64_t> size, c.constInts(2));
  const int64_t r = rankOf(x);
  if (static_cast<int64_t>(begin.size()) != r || static_cast<int64_t>(size.size()) != r)
    return c.fail("begin and size need {} entries, they have {} and {}", r, begin.size(),
                  size.size());
  std::vector<int64_t> ends(r), axes(r);
  for (int64_t i = 0; i < r; ++i) {
    if (begin[i] < 0 || begin[i] > x->shape[i] || size[i] < -1 ||
        (size[i] >= 0 && size[i] > x->shape[i] - begin[i]))
      return c.fail("begin {} and size {} do not fit dim {} of size {}", begin[i], size[i], i,
                    x->shape[i]);
    ends[i] = size[i] == -1 ? x->shape[i] : begin[i] + size[i];
    axes[i] = i;
  }
  ir::Attrs a;
  a.set("starts", begin);
  a.set("ends", ends);
  a.set("axes", axes);
  ASC_TRY(ir::Value * y, c.emit1("Slice", {x}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status split(Converter& c, ir::Value* x, int64_t axis, std::vector<int64_t> sizes) {
  ASC_TRY(int64_t a, normAxis(c, axis, rankOf(x), "axis"));
  const int64_t dim = x->shape[a];
  int64_t known = 0, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && infer < 0) {
      infer = static_cast<int64_t>(i);
    } else if (sizes[i] < 0 || sizes[i] > dim) {
      return c.fail("size_splits [{}] do not fit dim {} of size {}", ir::shapeToString(sizes), a,
                    dim);
    } else {
      known += sizes[i];
    }
  }
  if (infer >= 0) sizes[infer] = dim - known;
  if ((infer >= 0 && known > dim) || (infer < 0 && known != dim))
    return c.fail("the parts [{}] do not add up to the dim {} of size {}", ir::shapeToString(sizes),
                  a, dim);
  ir::Attrs attrs;
  attrs.set("axis", a);
  attrs.set("split", sizes);
  ASC_TRY(ir::Node * s, c.emit("Split", {x}, std::move(attrs), sizes.size()));
  for (size_t i = 0; i < sizes.size(); ++i) c.setOut(i, s->outputs[i]);
  return Status::ok();
}

Status convSplit(Converter& c) {  // split_dim, value; num_split
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> axis, c.constInts(0));
  if (axis.size() != 1) return c.fail("split_dim must hold one value");
  ir::Value* x = c.x(1);
  const int64_t num = c.intAttr("num_split", 0);
  if (num < 1 || num > 65536) return c.fail("num_split {} is invalid", num);
  ASC_TRY(int64_t a, normAxis(c, axis[0], rankOf(x), "split_dim"));
  if (x->shape[a] % num)
    return c.fail("dim {} of size {} does not split into {} equal parts", a, x->shape[a], num);
  return split(c, x, a, std::vector<int64_t>(num, x->shape[a] / num));
}

Status convSplitV(Converter& c) {  // value, size_splits, split_dim
  ASC_RETURN_IF_ERROR(c.needInputs(3));
  ASC_TRY(std::vector<int64_t> sizes, c.constInts(1));
  ASC_TRY(std::vector<int64_t> axis, c.constInts(2));
  if (axis.size() != 1) return c.fail("split_dim must hold one value");
  if (sizes.empty() || sizes.size() > 65536) return c.fail("size_splits is empty or too long");
  return split(c, c.x(0), axis[0], sizes);
}

Status convCast(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ASC_TRY(ir::DType to, c.typeAttr("DstT"));
  ir::Attrs a;
  a.set("to", static_cast<int64_t>(ir::dtypeToOnnx(to)));
  TfValue& t = c.in(0);
  ASC_TRY(ir::Value * y, c.emit1("Cast", {t.nchw ? t.nchw : t.v}, std::move(a)));
  if (t.nchw) return c.setOutNchw(0, y);
  c.setOut(0, y);
  return Status::ok();
}

Status convShape(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ir::DType to = ir::DType::I32;
  if (c.attr("out_type")) {
    ASC_TRY(to, c.typeAttr("out_type"));
  }
  ASC_TRY(ir::Value * y, c.emit1("Shape", {c.x(0)}, {}, to == ir::DType::I64 ? "" : "i64"));
  if (to != ir::DType::I64) {
    ir::Attrs a;
    a.set("to", static_cast<int64_t>(ir::dtypeToOnnx(to)));
    ASC_TRY(y, c.emit1("Cast", {y}, std::move(a)));
  }
  c.setOut(0, y);
  return Status::ok();
}

// Mean, Sum, Max, Min, Prod(input, reduction_indices; keep_dims). On an input with an NCHW form
// the reduction runs there when the result's dims come out in TensorFlow's order.
Status reduce(Converter& c, const char* op_type) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> raw, c.constInts(1));
  TfValue& t = c.in(0);
  const int64_t r = rankOf(t.v);
  const bool keep = c.boolAttr("keep_dims", false);
  std::vector<int64_t> axes;
  for (int64_t a : raw) {
    ASC_TRY(int64_t n, normAxis(c, a, r, "reduction index"));
    if (std::find(axes.begin(), axes.end(), n) == axes.end()) axes.push_back(n);
  }
  if (axes.empty()) {  // TensorFlow reduces nothing
    ASC_TRY(ir::Value * y, c.emit1("Identity", {t.v}));
    c.setOut(0, TfValue{y, t.nchw});
    return Status::ok();
  }
  bool in_nchw = t.nchw != nullptr;
  std::vector<int64_t> nchw_axes;
  if (in_nchw) {
    for (int64_t a : axes) nchw_axes.push_back(nhwcAxisToNchw(a));
    if (!keep) {  // the kept dims, in NCHW positions, must stay in TensorFlow's order
      std::vector<int64_t> kept;
      for (int64_t a = 0; a < 4; ++a)
        if (std::find(axes.begin(), axes.end(), a) == axes.end()) kept.push_back(nhwcAxisToNchw(a));
      in_nchw = std::is_sorted(kept.begin(), kept.end());
    }
  }
  ir::Attrs a;
  a.set("axes", in_nchw ? nchw_axes : axes);
  a.set("keepdims", int64_t{keep ? 1 : 0});
  ASC_TRY(ir::Value * y, c.emit1(op_type, {in_nchw ? t.nchw : t.v}, std::move(a)));
  if (in_nchw && keep) return c.setOutNchw(0, y);
  c.setOut(0, y);
  return Status::ok();
}

}  // namespace

void addShapeConverters(OpTable& m) {
  m["Identity"] = {convIdentity, "Identity", "Identity",
                   "removed by `eliminate-identity`; the name stays for `--out_nodes`"};
  m["StopGradient"] = {convIdentity, "Identity", "Identity", "as Identity"};
  m["Snapshot"] = {convIdentity, "Identity", "Identity", "as Identity"};
  m["PreventGradient"] = {convIdentity, "Identity", "Identity", "as Identity"};
  m["PlaceholderWithDefault"] = {convIdentity, "Identity", "Identity", "its default, as Identity"};
  m["CheckNumerics"] = {convIdentity, "Identity", "Identity", "as Identity (no check at run time)"};
  m["IdentityN"] = {convIdentityN, "Identity", "Identity", "each output its input"};
  m["Reshape"] = {convReshape, "Reshape", "Reshape",
                  "constant shape (TensorFlow's 0 is a zero dim, not a copy)"};
  m["Squeeze"] = {convSqueeze, "Squeeze", "Squeeze", ""};
  m["ExpandDims"] = {convExpandDims, "Unsqueeze", "Unsqueeze", ""};
  m["ConcatV2"] = {convConcatV2, "Concat", "Concat", "constant axis"};
  m["Concat"] = {convConcat, "Concat", "Concat", "constant axis (the first input)"};
  m["Pack"] = {convPack, "Unsqueeze Concat", "Unsqueeze + Concat", ""};
  m["Unpack"] = {convUnpack, "Split Squeeze", "Split + Squeeze", ""};
  m["Pad"] = {convPad, "Pad", "Pad (constant)", ""};
  m["PadV2"] = {convPad, "Pad", "Pad (constant)", "`constant_values`"};
  m["MirrorPad"] = {convPad, "Pad Slice Concat",
                    "Pad (reflect); SYMMETRIC: reversed border Slices + Concat", ""};
  m["Transpose"] = {convTranspose, "Transpose", "Transpose", "constant perm"};
  m["StridedSlice"] = {convStridedSlice, "Slice Reshape", "Slice (+ Reshape)",
                       "begin, end, ellipsis, new-axis and shrink-axis masks; negative strides"};
  m["Slice"] = {convSlice, "Slice", "Slice", "`size=-1` to the end"};
  m["Split"] = {convSplit, "Split", "Split", "constant axis, equal parts"};
  m["SplitV"] = {convSplitV, "Split", "Split", "one `-1` in `size_splits`"};
  m["Cast"] = {convCast, "Cast", "Cast", "`DstT`"};
  m["Shape"] = {convShape, "Shape Cast", "Shape (+ Cast to `out_type`)", "folds at conversion"};
  m["Mean"] = {[](Converter& c) { return reduce(c, "ReduceMean"); }, "ReduceMean", "ReduceMean",
               "constant axes; `keep_dims`; no axes = identity"};
  m["Sum"] = {[](Converter& c) { return reduce(c, "ReduceSum"); }, "ReduceSum", "ReduceSum",
              "constant axes; `keep_dims`; no axes = identity"};
  m["Max"] = {[](Converter& c) { return reduce(c, "ReduceMax"); }, "ReduceMax", "ReduceMax",
              "constant axes; `keep_dims`; no axes = identity"};
  m["Min"] = {[](Converter& c) { return reduce(c, "ReduceMin"); }, "ReduceMin", "ReduceMin",
              "constant axes; `keep_dims`; no axes = identity"};
  m["Prod"] = {[](Converter& c) { return reduce(c, "ReduceProd"); }, "ReduceProd", "ReduceProd",
               "constant axes; `keep_dims`; no axes = identity"};
}

}  // namespace asc::frontend::tf
