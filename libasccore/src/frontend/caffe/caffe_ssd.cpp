// caffe_ssd.cpp: SSD's DetectionOutput layer (the Caffe-SSD fork) as the IR's DetectionOutput
// op, its detection_output_param as attributes. The op gives a fixed N * keep_top_k rows where
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

}  // namespace asc::frontend::caffe_import
