// sum_list_custom_tiling.h: what the host's tiling hands the SumListCustom kernel.
#ifndef SUM_LIST_CUSTOM_TILING_H
#define SUM_LIST_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumListCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);        // tensors in the list
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of each
TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // elements per block (a multiple of 8)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per pass through the unified buffer
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SumListCustom, SumListCustomTilingData)
}  // namespace optiling
#endif
