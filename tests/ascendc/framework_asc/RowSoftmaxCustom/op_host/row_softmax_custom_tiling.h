// row_softmax_custom_tiling.h: rows of `cols` elements split over the blocks, rowsPerBlock each;
// the SoftMax API's own tiling for one row. The last field has no ';' after it, as some
// projects write it.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSoftmaxCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerBlock);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowSoftmaxCustom, RowSoftmaxCustomTilingData)
}  // namespace optiling
