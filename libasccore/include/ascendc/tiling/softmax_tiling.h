// tiling/softmax_tiling.h: SoftMaxTiling, what the SoftMax kernel API (kernel_operator.h) reads
// and AscendC::SoftMaxTilingFunc (tiling/tiling_api.h) fills; embed it in an operator's tiling
// with TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, field). CANN's field names and order; the CPU
// layer reads srcM and srcK (a [srcM, srcK] tensor) and fills the rest for one pass over all rows.
#pragma once

#include "register/tilingdata_base.h"

namespace optiling {
// clang-format off
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
// clang-format on
}  // namespace optiling

using SoftMaxTiling = ::optiling::SoftMaxTiling;
