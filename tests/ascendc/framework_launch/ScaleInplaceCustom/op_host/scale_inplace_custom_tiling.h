// scale_inplace_custom_tiling.h: what the host's tiling hands the ScaleInplaceCustom kernel.
#ifndef SCALE_INPLACE_CUSTOM_TILING_H
#define SCALE_INPLACE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleInplaceCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of y
TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per pass through the unified buffer
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleInplaceCustom, ScaleInplaceCustomTilingData)
}  // namespace optiling
#endif
