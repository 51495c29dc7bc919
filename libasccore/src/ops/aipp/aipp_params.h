// aipp_params.h: the parameters of one static AIPP op (Aipp, CANN type "Aipp"), resolved, as
// the compiler's AIPP step (src/compiler/aipp.cpp) writes them onto the node and the kernel
// reads them back. Every value is explicit on the node (no defaults left to the kernel), so the
// OM and `atc --mode=1` show exactly what runs. docs/aipp.md describes the computation.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "asc/ir/attr.h"
#include "asc/ir/dtype.h"
#include "asc/support/status.h"

namespace asc::ops::aipp {

/// The input formats static AIPP takes (the public subset of CANN's InputFormat enum).
enum class Format { Yuv420sp, Xrgb8888, Rgb888, Yuv400 };

/// "YUV420SP_U8" ... ; nullptr for an unknown value.
const char* formatName(Format f);
/// Parses a format name; false when it is not one of the four.
bool parseFormat(const std::string& name, Format* f);
/// Bytes per pixel of the raw image's last dim: YUV420SP 1 (NV12 planes), XRGB8888 4,
/// RGB888 3, YUV400 1.
int64_t rawChannels(Format f);
/// Channels a pixel has after the swaps and colour-space conversion: YUV420SP 3 (Y, U, V or
/// R, G, B), XRGB8888 4, RGB888 3, YUV400 1. The op outputs the first C of them.
int64_t pixelChannels(Format f);

struct Params {
  Format format = Format::Rgb888;
  int64_t src_h = 0, src_w = 0;  // the raw image
  // The crop window inside the raw image (the whole image when crop is off).
  int64_t crop_y = 0, crop_x = 0, crop_h = 0, crop_w = 0;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  float pad_value = 0.f;
  bool rbuv_swap = false, ax_swap = false, csc = false;
  std::array<int32_t, 9> matrix{};  // row-major r0c0, r0c1, ... r2c2
  std::array<int32_t, 3> input_bias{}, output_bias{};
  std::array<float, 4> mean{}, min{}, var_reci{1.f, 1.f, 1.f, 1.f};
  int64_t channels = 3;  // C of the output (the model input's channel count)

  int64_t outH() const { return crop_h + pad_top + pad_bottom; }
  int64_t outW() const { return crop_w + pad_left + pad_right; }
  /// The raw input's shape for a batch of n: [n, src_h, src_w, C] (YUV420SP: [n, src_h*3/2,
  /// src_w, 1]).
  ir::Shape rawShape(int64_t n) const;
};

/// Writes every parameter as a node attribute (CANN's field names where there is one).
void toAttrs(const Params& p, ir::Attrs* attrs);
/// Reads them back; E16001 naming the attribute when one is missing or invalid.
Result<Params> fromAttrs(const ir::Attrs& attrs);

}  // namespace asc::ops::aipp
