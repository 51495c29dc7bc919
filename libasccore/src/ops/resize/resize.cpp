// resize.cpp: Resize (opset 10: X, scales; opset 11+: X, roi, scales, sizes) and the older
// Upsample (opset 7: scales attribute; 9: scales input). The constant scales/sizes inputs
// become the attributes "scales" (floats, one per dim) or "sizes" (ints); the resolved output
// shape is always stored as "sizes", so downstream stages never recompute it. Opset 18's axes
// and keep_aspect_ratio_policy are expanded to full-rank values; roi is kept (attribute "roi")
// only for tf_crop_and_resize. mode, coordinate_transformation_mode, nearest_mode and
// cubic_coeff_a are made explicit with the defaults of the model's opset (opset 10 resized
// with asymmetric coordinates and floor rounding, as Upsample did).
// An OpDef has one CANN type: Resize is registered as ResizeNearestNeighborV2; the OM writer
// must pick ResizeBilinearV2 for mode linear/cubic.
#include <algorithm>
#include <cmath>

#include "ops/op_util.h"
#include "resize_kernel.h"

namespace asc::ops {
namespace {

// Constant input i as floats into attribute `attr`; empty inputs (numel 0) are skipped.
// Returns whether a non-empty value was moved.
Result<bool> moveFloats(InferContext& ctx, size_t i, const char* attr) {
  if (!ctx.hasInput(i)) return false;
  const ir::Value* c = ctx.constInput(i);
  if (!c)
    return ctx.fail(
        "input {} ('{}') must be known at compile time (a constant); dynamic {} are not supported",
        i, ctx.input(i).name, attr);
  if (c->numel() == 0) return false;
  if (c->shape.size() != 1)
    return ctx.fail("input {} ('{}') must be 1-D, it is [{}]", i, c->name,
                    ir::shapeToString(c->shape));
  ir::Tensor t = c->tensor();
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = static_cast<float>(t.floatAt(static_cast<int64_t>(k)));
  ctx.attrs().set(attr, v);
  return true;
}

Result<bool> moveInts(InferContext& ctx, size_t i, const char* attr) {
  if (!ctx.hasInput(i)) return false;
  const ir::Value* c = ctx.constInput(i);
  if (!c)
    return ctx.fail(
        "input {} ('{}') must be known at compile time (a constant); dynamic {} are not supported",
        i, ctx.input(i).name, attr);
  if (c->numel() == 0) return false;
  if (c->shape.size() != 1 || ir::isFloat(c->dtype))
    return ctx.fail("input {} ('{}') must be a 1-D integer tensor, it is {} [{}]", i, c->name,
                    ir::dtypeName(c->dtype), ir::shapeToString(c->shape));
  ctx.attrs().set(attr, c->tensor().toInts());
  return true;
}

// Opset 18 `axes`: scales/sizes name only these dims; fill the others with 1 / the input dim.
Status expandAxes(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  if (!a.has("axes")) return Status::ok();
  const int64_t r = ctx.rank(0);
  std::vector<int64_t> axes;
  for (int64_t v : a.getInts("axes")) {
    auto n = normalizeAxis(v, r);
    if (!n || std::find(axes.begin(), axes.end(), *n) != axes.end())
      return ctx.fail("axes [{}] are out of range for rank {} or repeat",
                      ir::shapeToString(a.getInts("axes")), r);
    axes.push_back(*n);
  }
  if (a.has("scales")) {
    std::vector<float> s = a.getFloats("scales"), full(r, 1.0f);
    if (s.size() != axes.size()) return ctx.fail("{} scales for {} axes", s.size(), axes.size());
    for (size_t i = 0; i < axes.size(); ++i) full[axes[i]] = s[i];
    a.set("scales", full);
  }
  if (a.has("sizes")) {
    std::vector<int64_t> s = a.getInts("sizes"), full = ctx.shape(0);
    if (s.size() != axes.size()) return ctx.fail("{} sizes for {} axes", s.size(), axes.size());
    for (size_t i = 0; i < axes.size(); ++i) full[axes[i]] = s[i];
    a.set("sizes", full);
  }
  if (a.has("roi")) {
    std::vector<float> roi = a.getFloats("roi"), full(2 * r, 0.0f);
    if (roi.size() != 2 * axes.size()) return ctx.fail("roi must have 2 values per axis");
    for (int64_t i = 0; i < r; ++i) full[r + i] = 1.0f;
    for (size_t i = 0; i < axes.size(); ++i) {
      full[axes[i]] = roi[i];
      full[r + axes[i]] = roi[axes.size() + i];
    }
    a.set("roi", full);
  }
  a.erase("axes");
  return Status::ok();
}

Status canonResize(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  const bool v10 = ctx.opset() < 11;
  a.set("mode", a.getString("mode", "nearest"));
  a.set("coordinate_transformation_mode",
        a.getString("coordinate_transformation_mode", v10 ? "asymmetric" : "half_pixel"));
  a.set("nearest_mode", a.getString("nearest_mode", v10 ? "floor" : "round_prefer_floor"));
  a.set("cubic_coeff_a", a.getFloat("cubic_coeff_a", -0.75f));
  if (ctx.numInputs() > 1) {
    bool has_scales = false, has_sizes = false;
    if (v10) {
      ASC_TRY(has_scales, moveFloats(ctx, 1, "scales"));
    } else {
      if (a.getString("coordinate_transformation_mode", "") == "tf_crop_and_resize") {
        ASC_TRY(bool has_roi, moveFloats(ctx, 1, "roi"));
        if (!has_roi) return ctx.fail("tf_crop_and_resize needs roi (input 1)");
      }
      ASC_TRY(has_scales, moveFloats(ctx, 2, "scales"));
      ASC_TRY(has_sizes, moveInts(ctx, 3, "sizes"));
    }
    if (has_scales == has_sizes)
      return ctx.fail("exactly one of scales and sizes must be given (non-empty)");
    ctx.truncateInputs(1);
  }
  ASC_RETURN_IF_ERROR(expandAxes(ctx));
  // antialias (opset 18) widens the linear and cubic filters when downscaling; nearest ignores
  // it. It stays on the node only where it acts.
  if (a.getInt("antialias", 0) == 0 || a.getString("mode", "nearest") == "nearest")
    a.erase("antialias");
  else if (a.getString("coordinate_transformation_mode", "") == "tf_crop_and_resize")
    return ctx.unsupported(
        "antialias=1 with tf_crop_and_resize is not supported; export with antialias=0 or "
        "another coordinate_transformation_mode");
  // keep_aspect_ratio_policy (opset 18) turns the given sizes into one common scale.
  std::string policy = a.getString("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && a.has("sizes") && !a.has("scales")) {
    if (policy != "not_larger" && policy != "not_smaller")
      return ctx.fail("keep_aspect_ratio_policy '{}' is not stretch, not_larger or not_smaller",
                      policy);
    const ir::Shape& x = ctx.shape(0);
    std::vector<int64_t> sizes = a.getInts("sizes");
    if (sizes.size() != x.size()) return ctx.fail("sizes must have one entry per dim");
    double scale = policy == "not_larger" ? 1e300 : 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (sizes[i] == x[i] || x[i] == 0) continue;
      double s = static_cast<double>(sizes[i]) / static_cast<double>(x[i]);
      scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
    }
    if (scale == 1e300 || scale == 0) scale = 1;
    std::vector<float> scales(x.size(), 1.0f);
    for (size_t i = 0; i < x.size(); ++i)
      if (sizes[i] != x[i]) {
        scales[i] = static_cast<float>(scale);
        sizes[i] = static_cast<int64_t>(std::floor(scale * static_cast<double>(x[i]) + 0.5));
      }
    a.set("scales", scales);
    a.set("sizes", sizes);
  }
  a.erase("keep_aspect_ratio_policy");
  return Status::ok();
}

// Output shape from "sizes" (wins) or "scales" (floor(dim * scale)); stores it as "sizes".
Status resolveSizes(InferContext& ctx, float min_scale) {
  ir::Attrs& a = ctx.attrs();
  const ir::Shape& x = ctx.shape(0);
  const size_t r = x.size();
  ir::Shape out;
  if (a.has("scales")) {
    std::vector<float> s = a.getFloats("scales");
    if (s.size() != r)
      return ctx.fail("scales have {} entries, the input has rank {}", s.size(), r);
    for (size_t i = 0; i < r; ++i)
      if (!(s[i] > 0) || s[i] < min_scale)
        return ctx.fail("scale {} of dim {} must be {}", s[i], i,
                        min_scale > 0 ? ">= 1" : "positive");
    std::vector<float> roi = a.getFloats("roi");
    for (size_t i = 0; i < r; ++i) {
      double extent = roi.size() == 2 * r ? roi[r + i] - roi[i] : 1.0;
      out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(x[i]) * extent * s[i])));
    }
  }
  if (a.has("sizes")) {  // given sizes, or the output resolved by an earlier run
    out = a.getInts("sizes");
    if (out.size() != r)
      return ctx.fail("sizes [{}] have {} entries, the input has rank {}", ir::shapeToString(out),
                      out.size(), r);
  }
  if (!a.has("scales") && !a.has("sizes")) return ctx.fail("scales or sizes are required");
  for (int64_t d : out)
    if (d < 0) return ctx.fail("output sizes [{}] have a negative dim", ir::shapeToString(out));
  a.set("sizes", out);
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Status inferResize(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  const std::string mode = a.getString("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return ctx.fail("mode '{}' is not nearest, linear or cubic", mode);
  const std::string ctm = a.getString("coordinate_transformation_mode", "half_pixel");
  static const char* kCtm[] = {"half_pixel", "pytorch_half_pixel",   "align_corners",
                               "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  const bool symmetric = ctm == "half_pixel_symmetric" && ctx.opset() >= 19;  // Resize-19
  if (!symmetric &&
      std::none_of(std::begin(kCtm), std::end(kCtm), [&](const char* c) { return ctm == c; }))
    return ctx.fail("coordinate_transformation_mode '{}' is not supported", ctm);
  const std::string nm = a.getString("nearest_mode", "round_prefer_floor");
  if (nm != "round_prefer_floor" && nm != "round_prefer_ceil" && nm != "floor" && nm != "ceil")
    return ctx.fail(
        "nearest_mode '{}' is not round_prefer_floor, round_prefer_ceil, floor or "
        "ceil",
        nm);
  if (ctx.rank(0) < 1) return ctx.fail("input must have rank >= 1");
  return resolveSizes(ctx, 0.0f);
}

Status canonUpsample(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  std::string mode = a.getString("mode", "nearest");
  if (mode == "bilinear") mode = "linear";
  a.set("mode", mode);
  if (ctx.hasInput(1)) {
    ASC_TRY(bool moved, moveFloats(ctx, 1, "scales"));
    if (!moved) return ctx.fail("scales (input 1) are empty");
  }
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferUpsample(InferContext& ctx) {
  const std::string mode = ctx.attrs().getString("mode", "nearest");
  if (mode != "nearest" && mode != "linear")
    return ctx.fail("mode '{}' is not nearest or linear", mode);
  if (!ctx.attrs().has("scales") && !ctx.attrs().has("sizes"))
    return ctx.fail("scales are required (attribute at opset 7, input 1 since opset 9)");
  return resolveSizes(ctx, 1.0f);
}

int64_t resizeFlops(const ir::Node& n) {
  const std::string mode = n.attrs.getString("mode", "nearest");
  int64_t per = mode == "nearest" ? 1 : mode == "linear" ? 8 : 32;
  return n.outputs[0]->numel() * per;
}

}  // namespace

namespace {
// A 4-D nearest or linear Resize is CANN's ResizeNearestNeighborV2D / ResizeBilinearV2D (the
// output size, align_corners, half_pixel_centers); any other keeps ONNX's own attributes on
// CANN's ONNX-like Resize.
CannSpelling resizeSpelling(const ir::Node& n) {
  CannSpelling c;
  const std::string mode = n.attrs.getString("mode", "nearest");
  const std::string ctm = n.attrs.getString("coordinate_transformation_mode", "half_pixel");
  const ir::Value* y = n.outputs.empty() ? nullptr : n.outputs[0];
  const int64_t antialias = n.attrs.getInt("antialias", 0);
  if (y && y->shape.size() == 4 && (mode == "nearest" || mode == "linear") && !antialias) {
    c.type = mode == "nearest" ? "ResizeNearestNeighborV2D" : "ResizeBilinearV2D";
    c.attrs = {{"size", std::vector<int64_t>{y->shape[2], y->shape[3]}},
               {"align_corners", ctm == "align_corners"},
               {"half_pixel_centers", ctm == "half_pixel" || ctm == "pytorch_half_pixel"}};
    return c;
  }
  c.type = "Resize";
  c.attrs = {{"mode", mode},
             {"coordinate_transformation_mode", ctm},
             {"nearest_mode", n.attrs.getString("nearest_mode", "round_prefer_floor")},
             {"cubic_coeff_a", n.attrs.getFloat("cubic_coeff_a", -0.75f)},
             {"exclude_outside", n.attrs.getInt("exclude_outside", 0)}};
  if (antialias) c.attrs.push_back({"antialias", antialias});
  return c;
}
}  // namespace

const OpDef& defResize() {
  static const OpDef d = OpDef("Resize")
                             .works5hd(FiveHd::Windowed)
                             .kernel(createResizeKernel)
                             .layout(resizeLayout)
                             .onnx(10)
                             .cann("ResizeNearestNeighborV2")
                             .cannSpelling(resizeSpelling)
                             .inputs(1, 4)
                             .canonicalize(canonResize)
                             .inferShape(inferResize)
                             .flops(resizeFlops)
                             .summary("nearest/linear/cubic resize to constant scales or sizes");
  return d;
}

const OpDef& defUpsample() {
  static const OpDef d =
      OpDef("Upsample")
          .kernel(createResizeKernel)
          .onnx(7)
          .cann("Upsample")
          .inputs(1, 2)
          .canonicalize(canonUpsample)
          .inferShape(inferUpsample)
          .flops(resizeFlops)
          .summary("nearest/linear upsampling by constant scales >= 1 (deprecated by Resize)");
  return d;
}

}  // namespace asc::ops
