// layout_convert.h: device tensor layouts of Ascend dumps (NC1HWC0, FRACTAL_Z, FRACTAL_NZ)
// turned back into the origin layout a framework golden uses, as msaccucmp does before it
// compares. Formulas (public definitions: CANN aclFormat docs, GE format transfers,
// msaccucmp's builtin_format_convert; the code here is the project's own):
//
//   NC1HWC0, stored [N, C1, H, W, C0], origin NCHW [N, C, H, W] (or NHWC / HWCN):
//     C0 = stored[4] (16 for fp16/fp32, 32 for int8), C1 = ceil(C / C0)
//     origin(n, c, h, w) = stored[n][c / C0][h][w][c % C0]
//   FRACTAL_Z (convolution weight), stored [C1*H*W, N1, N0, C0], origin NCHW (OIHW; or NHWC /
//   HWCN), N0 = stored[2] (16), C0 = stored[3], N1 = ceil(N / N0), C1 = ceil(C / C0):
//     origin(n, c, h, w) = stored[(c / C0) * H * W + h * W + w][n / N0][n % N0][c % C0]
//   FRACTAL_NZ, stored [B..., N1, M1, M0, N0], origin ND [B..., M, N] (rank 1: M = 1),
//   M0 = stored[-2] (16), N0 = stored[-1] (16; 32 for int8), N1 = ceil(N / N0),
//   M1 = ceil(M / M0), the batch dims' products equal:
//     origin(b, m, n) = stored[b][n / N0][m / M0][m % M0][n % N0]
//
// Padding (c >= C, n >= N, m >= M) is dropped. The stored shape must be exactly the one the
// origin shape gives for that format; anything else is refused (E13005), never guessed.
// NDC1HWC0, FRACTAL_Z_3D, NC1HWC0_C04 and the other device layouts are refused (E10055).
#pragma once

#include <string>

#include "asc/asc.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::tensorio {

/// The GE / dump_data.proto OutputFormat numbers this module names (the dump header's
/// `format`; the same numbers as `aclFormat`). dump_file.cpp checks them against the proto.
enum DumpFormat : int {
  kFormatNCHW = 0,
  kFormatNHWC = 1,
  kFormatND = 2,
  kFormatNC1HWC0 = 3,
  kFormatFractalZ = 4,
  kFormatNC1HWC0_C04 = 12,
  kFormatFractalZ_C04 = 13,
  kFormatHWCN = 16,
  kFormatNDHWC = 27,
  kFormatFractalNZ = 29,
  kFormatNCDHW = 30,
  kFormatDHWCN = 31,
  kFormatNDC1HWC0 = 32,
  kFormatFractalZ3D = 33,
  kFormatNC = 35,
};

/// "NC1HWC0", "FRACTAL_Z", ... (the proto's name without FORMAT_), or "format <n>".
ASC_API std::string dumpFormatName(int format);

/// True when data in `format` is already row-major in its own shape (ND, NCHW, NHWC, HWCN,
/// NCDHW, NDHWC, DHWCN, NC): nothing to convert.
ASC_API bool isPlainFormat(int format);

/// The stored tensor `stored` (dtype, shape in device format `format`, bytes) rearranged into
/// `origin_shape`, laid out in `origin_format` (NCHW when it is not NHWC or HWCN; ND for
/// FRACTAL_NZ). A plain `format` returns `stored` unchanged. `where` names the tensor in
/// messages (e.g. "'dump' output 0"). E13005 when the stored shape does not fit the origin
/// shape; E10055 for a device format this module does not convert.
ASC_API Result<ir::Tensor> toOriginLayout(const ir::Tensor& stored, int format,
                                          const ir::Shape& origin_shape, int origin_format,
                                          const std::string& where);

}  // namespace asc::tensorio
