// tiling/pad_tiling.h: PadTiling and UnPadTiling, what the Pad and UnPad kernel APIs
// (kernel_operator.h) read and AscendC::PadTilingFunc / UnPadTilingFunc (tiling/tiling_api.h)
// fill: a [srcHeight, srcWidth] tensor whose rows hold srcOriWidth elements of data. CANN's
// structures carry more fields (its vector code's loop counts); these are the ones the CPU layer
// needs, shared by host and kernel, so the host's bytes are the kernel's.
#pragma once

#include "register/tilingdata_base.h"

namespace optiling {
// clang-format off
BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
END_TILING_DATA_DEF;
// clang-format on
}  // namespace optiling

using PadTiling = ::optiling::PadTiling;
using UnPadTiling = ::optiling::UnPadTiling;
