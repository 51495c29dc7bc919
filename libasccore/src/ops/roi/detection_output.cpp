// detection_output.cpp: DetectionOutput, SSD's last layer (from Caffe; no ONNX op; CANN
// SSDDetectionOutput). Inputs: loc [N, P * 4] box offsets (share_location), conf [N, P * C]
// class scores, prior [1, 2, P * 4] (PriorBox: boxes, then variances). Per image: each prior's
// box is decoded (code_type CORNER 1, CENTER_SIZE 2 or CORNER_SIZE 3; the variances scale the
// offsets unless variance_encoded_in_target), then per class other than background_label_id the
// boxes scoring above confidence_threshold are sorted by score, cut to top_k, and suppressed
// greedily where their IoU with a kept box exceeds nms_threshold (lowered by eta after each kept
// box while above 0.5); the survivors of all classes are cut to the keep_top_k best. Rows
// [image, label, score, xmin, ymin, xmax, ymax], classes in ascending order and by descending
// score within a class, as Caffe-SSD writes them. Caffe's top has as many rows as detections;
// here the output has a fixed N * keep_top_k rows and the unused ones are -1 in every field
// (Caffe writes one such row when nothing is detected): docs/caffe.md.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "ops/op_util.h"

namespace asc::ops {
namespace {

struct DetParams {
  int64_t classes = 0, background = 0, top_k = -1, keep_top_k = 0, code = 1;
  float nms = 0.3f, eta = 1.f, confidence = 0.f;
  bool encoded = false;
};

DetParams params(const ir::Attrs& a) {
  DetParams p;
  p.classes = a.getInt("num_classes", 0);
  p.background = a.getInt("background_label_id", 0);
  p.top_k = a.getInt("top_k", -1);
  p.keep_top_k = a.getInt("keep_top_k", -1);
  p.code = a.getInt("code_type", 1);
  p.nms = a.getFloat("nms_threshold", 0.3f);
  p.eta = a.getFloat("eta", 1.f);
  p.confidence = a.getFloat("confidence_threshold", 0.f);
  p.encoded = a.getInt("variance_encoded_in_target", 0) != 0;
  return p;
}

Status inferDetectionOutput(InferContext& ctx) {
  const DetParams p = params(ctx.attrs());
  if (p.classes < 1) return ctx.fail("num_classes {} must be positive", p.classes);
  if (p.keep_top_k < 1)
    return ctx.unsupported(
        "keep_top_k {}: asc-tools gives a fixed N * keep_top_k rows, so "
        "keep_top_k must be set (Caffe-SSD deploy nets use 200)",
        p.keep_top_k);
  if (p.code < 1 || p.code > 3) return ctx.fail("code_type {} is not 1, 2 or 3", p.code);
  const ir::Shape &loc = ctx.shape(0), &conf = ctx.shape(1), &prior = ctx.shape(2);
  if (loc.size() < 2 || conf.size() < 2 || prior.size() != 3 || prior[1] != 2 || prior[2] % 4)
    return ctx.fail("loc [{}], conf [{}] and prior [{}] must be [N, P*4], [N, P*C], [1, 2, P*4]",
                    ir::shapeToString(loc), ir::shapeToString(conf), ir::shapeToString(prior));
  const int64_t priors = prior[2] / 4, n = loc[0];
  if (ir::numElements(loc) != n * priors * 4 || ir::numElements(conf) != n * priors * p.classes ||
      conf[0] != n)
    return ctx.fail("loc [{}] and conf [{}] do not hold {} priors of 4 offsets and {} scores",
                    ir::shapeToString(loc), ir::shapeToString(conf), priors, p.classes);
  for (size_t i = 0; i < 3; ++i)
    if (ctx.dtype(i) != ir::DType::F32) return ctx.fail("input {} must be float32", i);
  ctx.setOutput(0, ir::DType::F32, {1, 1, n * p.keep_top_k, 7});
  return Status::ok();
}

struct Box {
  float x0, y0, x1, y1;
};

float iou(const Box& a, const Box& b) {
  const float iw = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const float ih = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (iw <= 0 || ih <= 0) return 0.f;
  const float inter = iw * ih;
  const float area_a = (a.x1 - a.x0) * (a.y1 - a.y0), area_b = (b.x1 - b.x0) * (b.y1 - b.y0);
  return inter / (area_a + area_b - inter);
}

class DetectionOutputKernel : public Kernel {
 public:
  explicit DetectionOutputKernel(const KernelInit& k)
      : p_(params(k.node.attrs)),
        loc_(k.inputs[0].f32()),
        conf_(k.inputs[1].f32()),
        prior_(k.inputs[2].f32()),
        images_(k.inputs[0].shape()[0]),
        priors_(k.inputs[2].shape()[2] / 4),
        y_(static_cast<float*>(k.outputs[0].data)) {}

  void run() override {
    std::fill(y_, y_ + images_ * p_.keep_top_k * 7, -1.f);
    float* row = y_;
    std::vector<Box> boxes(static_cast<size_t>(priors_));
    for (int64_t n = 0; n < images_; ++n) {
      for (int64_t i = 0; i < priors_; ++i) boxes[static_cast<size_t>(i)] = decode(n, i);
      std::map<int64_t, std::vector<std::pair<float, int64_t>>> kept;  // label -> (score, prior)
      std::vector<std::tuple<float, int64_t, int64_t>> all;            // (score, label, prior)
      for (int64_t c = 0; c < p_.classes; ++c) {
        if (c == p_.background) continue;
        for (auto& d : nms(n, c, boxes)) all.emplace_back(d.first, c, d.second);
      }
      // The keep_top_k best over all classes (stable: equal scores keep class, then NMS order).
      std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return std::get<0>(a) > std::get<0>(b);
      });
      if (static_cast<int64_t>(all.size()) > p_.keep_top_k)
        all.resize(static_cast<size_t>(p_.keep_top_k));
      for (const auto& [score, c, i] : all) kept[c].emplace_back(score, i);
      for (const auto& [c, dets] : kept)
        for (const auto& [score, i] : dets) {
          const Box& b = boxes[static_cast<size_t>(i)];
          const float v[7] = {
              static_cast<float>(n), static_cast<float>(c), score, b.x0, b.y0, b.x1, b.y1};
          std::copy(v, v + 7, row);
          row += 7;
        }
    }
  }
  std::string implName() const override { return "ssd-detection-output"; }

 private:
  Box decode(int64_t n, int64_t i) const {
    const float* pb = prior_ + i * 4;
    const float* pv = prior_ + priors_ * 4 + i * 4;
    const float* l = loc_ + (n * priors_ + i) * 4;
    float v[4] = {1, 1, 1, 1};
    if (!p_.encoded) std::copy(pv, pv + 4, v);
    const float pw = pb[2] - pb[0], ph = pb[3] - pb[1];
    if (p_.code == 1)  // CORNER
      return {pb[0] + v[0] * l[0], pb[1] + v[1] * l[1], pb[2] + v[2] * l[2], pb[3] + v[3] * l[3]};
    if (p_.code == 3)  // CORNER_SIZE
      return {pb[0] + v[0] * l[0] * pw, pb[1] + v[1] * l[1] * ph, pb[2] + v[2] * l[2] * pw,
              pb[3] + v[3] * l[3] * ph};
    const float cx = (pb[0] + pb[2]) / 2 + v[0] * l[0] * pw;  // CENTER_SIZE
    const float cy = (pb[1] + pb[3]) / 2 + v[1] * l[1] * ph;
    const float w = std::exp(v[2] * l[2]) * pw, h = std::exp(v[3] * l[3]) * ph;
    return {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
  }

  // Class c's boxes above the threshold, best first, cut to top_k, suppressed greedily.
  std::vector<std::pair<float, int64_t>> nms(int64_t n, int64_t c,
                                             const std::vector<Box>& boxes) const {
    std::vector<std::pair<float, int64_t>> cand;
    for (int64_t i = 0; i < priors_; ++i) {
      const float s = conf_[(n * priors_ + i) * p_.classes + c];
      if (s > p_.confidence) cand.emplace_back(s, i);
    }
    std::stable_sort(cand.begin(), cand.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (p_.top_k > -1 && static_cast<int64_t>(cand.size()) > p_.top_k)
      cand.resize(static_cast<size_t>(p_.top_k));
    std::vector<std::pair<float, int64_t>> keep;
    float threshold = p_.nms;
    for (const auto& d : cand) {
      bool ok = true;
      for (const auto& kd : keep)
        if (iou(boxes[static_cast<size_t>(d.second)], boxes[static_cast<size_t>(kd.second)]) >
            threshold) {
          ok = false;
          break;
        }
      if (!ok) continue;
      keep.push_back(d);
      if (p_.eta < 1 && threshold > 0.5f) threshold *= p_.eta;
    }
    return keep;
  }

  DetParams p_;
  const float *loc_, *conf_, *prior_;
  int64_t images_, priors_;
  float* y_;
};

Result<std::unique_ptr<Kernel>> createDetectionOutputKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<DetectionOutputKernel>(k));
}

}  // namespace

const OpDef& defDetectionOutput() {
  static const OpDef d = OpDef("DetectionOutput")
                             .kernel(createDetectionOutputKernel)
                             .internal()
                             .cann("SSDDetectionOutput")
                             .inputs(3, 3)
                             .inferShape(inferDetectionOutput)
                             .summary(
                                 "SSD: decode boxes, per-class NMS, keep_top_k rows of "
                                 "[image, label, score, box] (-1 rows unused; from Caffe)");
  return d;
}

}  // namespace asc::ops
