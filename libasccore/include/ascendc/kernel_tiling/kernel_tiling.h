// kernel_tiling/kernel_tiling.h: the tiling structures of the high-level APIs as kernels and
// their host programs name them (TCubeTiling for the Matmul API: tiling/tcube_tiling.h; PadTiling
// and UnPadTiling: tiling/pad_tiling.h; SoftMaxTiling: tiling/softmax_tiling.h), which
// CANN generates into this header. The samples' host programs include it for sizeof(TCubeTiling).
#pragma once

#include "tiling/pad_tiling.h"
#include "tiling/softmax_tiling.h"
#include "tiling/tcube_tiling.h"
