// caffe_ssd.cpp: the Caffe-SSD fork's PriorBox (the prior boxes computed at conversion, a
// constant) and DetectionOutput layer (the IR's DetectionOutput op, its detection_output_param
// as attributes). The op gives a fixed N * keep_top_k rows where
// Caffe gives as many as were detected (docs/caffe.md).
#include <fmt/format.h>

#include "caffe_converter.h"

namespace asc::frontend::caffe_import {

Status Converter::detectionOutput(const caffe::LayerParameter& l) {
  const auto& p = l.detection_output_param();
  if (l.bottom_size() != 3)
    return invalid(
        l, fmt::format("takes 3 bottoms (loc, conf, prior boxes), it has {}", l.bottom_size()));
  if (!p.share_location())
    return unsupported(l, "share_location false (one box per class) is not converted");
  if (p.keep_top_k() < 1)
    return unsupported(l, fmt::format("keep_top_k {}: asc-tools gives a fixed keep_top_k rows per "
                                      "image, so keep_top_k must be set",
                                      p.keep_top_k()));
  std::vector<ir::Value*> ins;
  for (int i = 0; i < 3; ++i) {
    ASC_TRY(ir::Value * v, bottom(l, i));
    ins.push_back(v);
  }
  ir::Attrs a;
  a.set("num_classes", static_cast<int64_t>(p.num_classes()));
  a.set("background_label_id", static_cast<int64_t>(p.background_label_id()));
  a.set("code_type", static_cast<int64_t>(p.code_type()));
  a.set("variance_encoded_in_target", int64_t{p.variance_encoded_in_target() ? 1 : 0});
  a.set("keep_top_k", static_cast<int64_t>(p.keep_top_k()));
  a.set("confidence_threshold", p.confidence_threshold());
  a.set("nms_threshold", p.nms_param().nms_threshold());
  a.set("top_k", static_cast<int64_t>(p.nms_param().has_top_k() ? p.nms_param().top_k() : -1));
  a.set("eta", p.nms_param().eta());
  ASC_TRY(ir::Node * n, node(l, "DetectionOutput", ins, {top(l, 0)}, std::move(a)));
  (void)n;
  return Status::ok();
}

// SSD's PriorBox: the default boxes of a feature map, which depend only on shapes and parameters,
// so they are computed here into a constant [1, 2, H * W * priors * 4]: the boxes (xmin, ymin,
// xmax, ymax, relative to the image), then their variances.
Status Converter::priorBox(const caffe::LayerParameter& l) {
  const auto& p = l.prior_box_param();
  ASC_TRY(ir::Value * feat, bottom(l, 0));
  ir::Value* img = nullptr;
  if (l.bottom_size() > 1) {
    ASC_TRY(img, bottom(l, 1));
  }
  if (feat->shape.size() != 4 || (img && img->shape.size() != 4))
    return invalid(l, "its bottoms must be 4-D (feature map, image)");
  if (p.min_size_size() == 0) return invalid(l, "min_size is required");
  if (p.max_size_size() && p.max_size_size() != p.min_size_size())
    return invalid(l, "max_size takes one value per min_size");
  const int64_t lh = feat->shape[2], lw = feat->shape[3];
  float img_h = p.has_img_h() ? p.img_h() : p.img_size(),
        img_w = p.has_img_w() ? p.img_w() : p.img_size();
  if (img_h == 0 || img_w == 0) {
    if (!img) return invalid(l, "give img_size (or img_h/img_w), or the image as a second bottom");
    img_h = static_cast<float>(img->shape[2]);
    img_w = static_cast<float>(img->shape[3]);
  }
  float step_h = p.has_step_h() ? p.step_h() : p.step(),
        step_w = p.has_step_w() ? p.step_w() : p.step();
  if (step_h == 0 || step_w == 0) {
    step_h = img_h / static_cast<float>(lh);
    step_w = img_w / static_cast<float>(lw);
  }
  std::vector<float> ratios{1.f};
  for (float r : p.aspect_ratio()) {
    if (!(r > 0.f)) return invalid(l, fmt::format("aspect_ratio {} must be positive", r));
    bool seen = false;
    for (float e : ratios) seen |= std::fabs(r - e) < 1e-6f;
    if (seen) continue;
    ratios.push_back(r);
    if (p.flip()) ratios.push_back(1.f / r);
  }
  const int64_t priors =
      static_cast<int64_t>(ratios.size()) * p.min_size_size() + p.max_size_size();
  const int64_t count = lh * lw * priors * 4;
  if (count > (int64_t{1} << 28)) return invalid(l, "too many prior boxes");
  if (p.variance_size() != 0 && p.variance_size() != 1 && p.variance_size() != 4)
    return invalid(l, "variance takes 1 or 4 values");
  std::vector<float> out(static_cast<size_t>(2 * count));
  size_t k = 0;
  auto box = [&](float cx, float cy, float bw, float bh) {
    const float v[4] = {(cx - bw / 2) / img_w, (cy - bh / 2) / img_h, (cx + bw / 2) / img_w,
                        (cy + bh / 2) / img_h};
    for (float e : v) out[k++] = p.clip() ? std::min(std::max(e, 0.f), 1.f) : e;
  };
  for (int64_t h = 0; h < lh; ++h)
    for (int64_t w = 0; w < lw; ++w) {
      const float cx = (static_cast<float>(w) + p.offset()) * step_w;
      const float cy = (static_cast<float>(h) + p.offset()) * step_h;
      for (int s = 0; s < p.min_size_size(); ++s) {
        const float mn = p.min_size(s);
        if (!(mn > 0.f)) return invalid(l, "min_size must be positive");
        box(cx, cy, mn, mn);
        if (p.max_size_size()) {
          const float mx = p.max_size(s);
          if (!(mx > mn)) return invalid(l, "max_size must be above min_size");
          box(cx, cy, std::sqrt(mn * mx), std::sqrt(mn * mx));
        }
        for (float r : ratios)
          if (std::fabs(r - 1.f) >= 1e-6f) box(cx, cy, mn * std::sqrt(r), mn / std::sqrt(r));
      }
    }
  for (int64_t i = 0; i < count; ++i)
    out[k++] = p.variance_size() == 0   ? 0.1f
               : p.variance_size() == 1 ? p.variance(0)
                                        : p.variance(static_cast<int>(i % 4));
  // The boxes are a constant: the top blob is that constant (no node runs).
  ir::Value* c = constant(l.top(0), {1, 2, count}, out);
  blobs_[l.top(0)] = c;
  return Status::ok();
}

}  // namespace asc::frontend::caffe_import
