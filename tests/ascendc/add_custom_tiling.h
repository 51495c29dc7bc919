/**
 * add_custom_tiling.h: the tiling of the vector-add sample, shared by the host program (which
 * fills it) and the kernel (which reads it with GET_TILING_DATA), written as a CANN op project
 * writes op_host/add_custom_tiling.h.
 */
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, TilingData)
}  // namespace optiling
#endif  // ADD_CUSTOM_TILING_H
