// aipp.cpp: Aipp (CANN type "Aipp"), static AI pre-processing. No model names it: the compiler's
// AIPP step (atc --insert_op_conf) puts one in front of a model input, which then takes the raw
// uint8 image. Its parameters are node attributes (aipp_params.h); shape inference checks the
// raw input against them and gives the fp32 NCHW image the model's first layer reads.
#include <fmt/format.h>

#include "ops/op_util.h"
#include "aipp_kernel.h"
#include "aipp_params.h"

namespace asc::ops {
namespace aipp {

namespace {
struct FormatInfo {
  Format f;
  const char* name;
  int64_t raw_c, pixel_c;
};
constexpr FormatInfo kFormats[] = {
    {Format::Yuv420sp, "YUV420SP_U8", 1, 3},
    {Format::Xrgb8888, "XRGB8888_U8", 4, 4},
    {Format::Rgb888, "RGB888_U8", 3, 3},
    {Format::Yuv400, "YUV400_U8", 1, 1},
};
const FormatInfo& info(Format f) {
  for (const auto& i : kFormats)
    if (i.f == f) return i;
  return kFormats[0];
}
}  // namespace

const char* formatName(Format f) { return info(f).name; }
int64_t rawChannels(Format f) { return info(f).raw_c; }
int64_t pixelChannels(Format f) { return info(f).pixel_c; }
bool parseFormat(const std::string& name, Format* f) {
  for (const auto& i : kFormats)
    if (name == i.name) {
      *f = i.f;
      return true;
    }
  return false;
}

ir::Shape Params::rawShape(int64_t n) const {
  if (format == Format::Yuv420sp) return {n, src_h * 3 / 2, src_w, 1};
  return {n, src_h, src_w, rawChannels(format)};
}

void toAttrs(const Params& p, ir::Attrs* a) {
  a->set("input_format", std::string(formatName(p.format)));
  a->set("src_image_size_h", p.src_h);
  a->set("src_image_size_w", p.src_w);
  a->set("load_start_pos_h", p.crop_y);
  a->set("load_start_pos_w", p.crop_x);
  a->set("crop_size_h", p.crop_h);
  a->set("crop_size_w", p.crop_w);
  a->set("top_padding_size", p.pad_top);
  a->set("bottom_padding_size", p.pad_bottom);
  a->set("left_padding_size", p.pad_left);
  a->set("right_padding_size", p.pad_right);
  a->set("padding_value", p.pad_value);
  a->set("rbuv_swap_switch", int64_t{p.rbuv_swap});
  a->set("ax_swap_switch", int64_t{p.ax_swap});
  a->set("csc_switch", int64_t{p.csc});
  a->set("csc_matrix", std::vector<int64_t>(p.matrix.begin(), p.matrix.end()));
  a->set("input_bias", std::vector<int64_t>(p.input_bias.begin(), p.input_bias.end()));
  a->set("output_bias", std::vector<int64_t>(p.output_bias.begin(), p.output_bias.end()));
  a->set("mean_chn", std::vector<float>(p.mean.begin(), p.mean.end()));
  a->set("min_chn", std::vector<float>(p.min.begin(), p.min.end()));
  a->set("var_reci_chn", std::vector<float>(p.var_reci.begin(), p.var_reci.end()));
  a->set("channels", p.channels);
}

Result<Params> fromAttrs(const ir::Attrs& a) {
  auto bad = [](const char* what) {
    return Status::error(ErrorCode::InvalidModel, "Aipp: attribute '{}' is missing or invalid",
                         what);
  };
  Params p;
  if (!parseFormat(a.getString("input_format", ""), &p.format)) return bad("input_format");
  auto geti = [&](const char* name, int64_t* v) {
    if (!a.has(name)) return false;
    *v = a.getInt(name, 0);
    return *v >= 0 && *v <= 65536;
  };
  int64_t rb = 0, ax = 0, cs = 0;
  const std::pair<const char*, int64_t*> ints[] = {{"src_image_size_h", &p.src_h},
                                                   {"src_image_size_w", &p.src_w},
                                                   {"load_start_pos_h", &p.crop_y},
                                                   {"load_start_pos_w", &p.crop_x},
                                                   {"crop_size_h", &p.crop_h},
                                                   {"crop_size_w", &p.crop_w},
                                                   {"top_padding_size", &p.pad_top},
                                                   {"bottom_padding_size", &p.pad_bottom},
                                                   {"left_padding_size", &p.pad_left},
                                                   {"right_padding_size", &p.pad_right},
                                                   {"rbuv_swap_switch", &rb},
                                                   {"ax_swap_switch", &ax},
                                                   {"csc_switch", &cs},
                                                   {"channels", &p.channels}};
  for (const auto& [name, v] : ints)
    if (!geti(name, v)) return bad(name);
  p.rbuv_swap = rb != 0;
  p.ax_swap = ax != 0;
  p.csc = cs != 0;
  p.pad_value = a.getFloat("padding_value", 0.f);
  auto copyInts = [&](const char* name, auto& dst) {
    const auto v = a.getInts(name);
    if (v.size() != dst.size()) return false;
    for (size_t i = 0; i < v.size(); ++i) dst[i] = static_cast<int32_t>(v[i]);
    return true;
  };
  auto copyFloats = [&](const char* name, std::array<float, 4>& dst) {
    const auto v = a.getFloats(name);
    if (v.size() != dst.size()) return false;
    std::copy(v.begin(), v.end(), dst.begin());
    return true;
  };
  if (!copyInts("csc_matrix", p.matrix)) return bad("csc_matrix");
  if (!copyInts("input_bias", p.input_bias)) return bad("input_bias");
  if (!copyInts("output_bias", p.output_bias)) return bad("output_bias");
  if (!copyFloats("mean_chn", p.mean)) return bad("mean_chn");
  if (!copyFloats("min_chn", p.min)) return bad("min_chn");
  if (!copyFloats("var_reci_chn", p.var_reci)) return bad("var_reci_chn");
  if (p.src_h < 1 || p.src_w < 1 || p.crop_h < 1 || p.crop_w < 1 || p.crop_y + p.crop_h > p.src_h ||
      p.crop_x + p.crop_w > p.src_w)
    return Status::error(ErrorCode::InvalidModel,
                         "Aipp: the crop window ({}, {}) + {}x{} does not fit the {}x{} image",
                         p.crop_y, p.crop_x, p.crop_h, p.crop_w, p.src_h, p.src_w);
  if (p.format == Format::Yuv420sp && (p.src_h % 2 || p.src_w % 2))
    return Status::error(ErrorCode::InvalidModel,
                         "Aipp: a YUV420SP image has even sizes, not {}x{}", p.src_h, p.src_w);
  if (p.channels < 1 || p.channels > pixelChannels(p.format)) return bad("channels");
  return p;
}

}  // namespace aipp

namespace {

Status inferAipp(InferContext& ctx) {
  auto p = aipp::fromAttrs(ctx.attrs());
  if (!p) return ctx.fail("{}", p.status().message());
  if (ctx.dtype(0) != ir::DType::U8 || ctx.rank(0) != 4)
    return ctx.fail("the input is the raw image, uint8 of rank 4, not {} of rank {}",
                    ir::dtypeName(ctx.dtype(0)), ctx.rank(0));
  const int64_t n = ctx.shape(0)[0];
  const ir::Shape want = p->rawShape(n);
  if (ctx.shape(0) != want)
    return ctx.fail("the raw {} image is [{}], not [{}]", aipp::formatName(p->format),
                    ir::shapeToString(want), ir::shapeToString(ctx.shape(0)));
  ctx.setOutput(0, ir::DType::F32, {n, p->channels, p->outH(), p->outW()});
  return Status::ok();
}

// Per output element: the normalisation (2 subtractions, 1 multiply); per pixel with CSC: 9
// multiply-adds.
int64_t flopsAipp(const ir::Node& n) {
  const ir::Shape& s = n.outputs[0]->shape;
  const int64_t pixels = s[0] * s[2] * s[3];
  return pixels * s[1] * 3 + (n.attrs.getInt("csc_switch", 0) ? pixels * 18 : 0);
}

}  // namespace

const OpDef& defAipp() {
  static const OpDef d =
      OpDef("Aipp")
          .internal()
          .kernel(createAippKernel)
          .inferShape(inferAipp)
          .flops(flopsAipp)
          .summary(
              "static AI pre-processing of a raw uint8 image (atc --insert_op_conf): crop, "
              "channel swap, colour-space conversion, normalisation, padding; fp32 NCHW out");
  return d;
}

}  // namespace asc::ops
