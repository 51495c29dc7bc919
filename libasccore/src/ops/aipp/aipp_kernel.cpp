// aipp_kernel.cpp: static AIPP on the CPU, one output pixel at a time, in the order of CANN's
// AIPP unit: crop (read the pixel at load_start_pos + (y, x)) -> channel swaps -> colour-space
// conversion (integer, >> 8, saturated to [0, 255]) -> normalisation per channel -> padding
// around the result. YUV420SP is NV12: the Y plane (src_h x src_w), then src_h/2 rows of
// interleaved U, V pairs; rbuv_swap_switch reads them as V, U (NV21). docs/aipp.md gives the
// formulas and marks what is UNCONFIRMED against the real hardware.
#include "aipp_kernel.h"

#include <algorithm>
#include <utility>

#include "cpu/parallel.h"

namespace asc::ops {
namespace aipp {
namespace {

// The pixel at (sy, sx) of the raw image, after the swaps: up to 4 channels.
inline void fetch(const Params& p, const uint8_t* img, int64_t sy, int64_t sx, int32_t px[4]) {
  const int64_t w = p.src_w;
  switch (p.format) {
    case Format::Yuv420sp: {
      const uint8_t* uv = img + p.src_h * w + (sy / 2) * w + (sx / 2) * 2;
      px[0] = img[sy * w + sx];
      px[1] = uv[0];
      px[2] = uv[1];
      px[3] = 0;
      if (p.rbuv_swap) std::swap(px[1], px[2]);
      break;
    }
    case Format::Yuv400:
      px[0] = img[sy * w + sx];
      px[1] = px[2] = px[3] = 0;
      break;
    case Format::Rgb888: {
      const uint8_t* s = img + (sy * w + sx) * 3;
      px[0] = s[0];
      px[1] = s[1];
      px[2] = s[2];
      px[3] = 0;
      if (p.rbuv_swap) std::swap(px[0], px[2]);
      break;
    }
    case Format::Xrgb8888: {
      const uint8_t* s = img + (sy * w + sx) * 4;
      // ax_swap_switch moves the first byte (X/A) to the end: XRGB -> RGBX.
      const int o = p.ax_swap ? 1 : 0;
      for (int c = 0; c < 4; ++c) px[c] = s[(c + o) & 3];
      if (p.rbuv_swap) std::swap(px[0], px[2]);
      break;
    }
  }
}

// Colour-space conversion of channels 0..2: out_i = sat8(((sum_j M_ij (in_j - ib_j)) >> 8) +
// ob_i). The right shift is arithmetic (floor).
inline void csc(const Params& p, int32_t px[4]) {
  int32_t in[3];
  for (int j = 0; j < 3; ++j) in[j] = px[j] - p.input_bias[j];
  for (int i = 0; i < 3; ++i) {
    const int32_t acc =
        p.matrix[i * 3] * in[0] + p.matrix[i * 3 + 1] * in[1] + p.matrix[i * 3 + 2] * in[2];
    px[i] = std::clamp((acc >> 8) + p.output_bias[i], 0, 255);
  }
}

}  // namespace

void run(const Params& p, int64_t n, const uint8_t* in, float* out) {
  const int64_t H = p.outH(), W = p.outW(), C = p.channels;
  const int64_t plane = H * W;
  const ir::Shape raw = p.rawShape(1);
  const int64_t image_bytes = raw[1] * raw[2] * raw[3];
  cpu::parallelFor(n * H, 16, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int64_t img = row / H, oy = row % H;
      const uint8_t* src = in + img * image_bytes;
      float* dst = out + img * C * plane + oy * W;
      const int64_t iy = oy - p.pad_top;
      for (int64_t ox = 0; ox < W; ++ox) {
        const int64_t ix = ox - p.pad_left;
        if (iy < 0 || iy >= p.crop_h || ix < 0 || ix >= p.crop_w) {
          for (int64_t c = 0; c < C; ++c) dst[c * plane + ox] = p.pad_value;
          continue;
        }
        int32_t px[4];
        fetch(p, src, p.crop_y + iy, p.crop_x + ix, px);
        if (p.csc) csc(p, px);
        for (int64_t c = 0; c < C; ++c)
          dst[c * plane + ox] = (static_cast<float>(px[c]) - p.mean[c] - p.min[c]) * p.var_reci[c];
      }
    }
  });
}

}  // namespace aipp

namespace {

struct AippKernel : Kernel {
  aipp::Params p;
  int64_t n = 1;
  const uint8_t* in = nullptr;
  float* out = nullptr;
  void run() override { aipp::run(p, n, in, out); }
  std::string implName() const override { return "aipp-cpu"; }
};

}  // namespace

Result<std::unique_ptr<Kernel>> createAippKernel(const KernelInit& k) {
  ASC_TRY(aipp::Params p, aipp::fromAttrs(k.node.attrs));
  if (k.inputs[0].dtype() != ir::DType::U8 || k.outputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::Internal, "Aipp '{}': expects uint8 in and fp32 out",
                         k.node.name);
  auto kern = std::make_unique<AippKernel>();
  kern->p = p;
  kern->n = k.inputs[0].shape()[0];
  kern->in = static_cast<const uint8_t*>(k.inputs[0].data);
  kern->out = static_cast<float*>(k.outputs[0].data);
  return std::unique_ptr<Kernel>(std::move(kern));
}

}  // namespace asc::ops
