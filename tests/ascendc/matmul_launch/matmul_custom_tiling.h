// matmul_custom_tiling.h: what the host passes the kernel: the Matmul API's tiling, filled by
// matmul_tiling::MultiCoreMatmulTiling (a plain struct, as the KernelLaunch samples use).
#ifndef MATMUL_CUSTOM_TILING_H
#define MATMUL_CUSTOM_TILING_H
#include <cstdint>

#include "tiling/tcube_tiling.h"

struct MatmulCustomTilingData {
  TCubeTiling cubeTilingData;
};
#endif
