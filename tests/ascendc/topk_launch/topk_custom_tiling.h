// topk_custom_tiling.h: what the host passes the kernel (a plain struct, as the KernelLaunch
// samples do): each block sorts its slice and writes the largest k values with their indices.
#ifndef TOPK_CUSTOM_TILING_H
#define TOPK_CUSTOM_TILING_H
#include <cstdint>

struct TopkCustomTilingData {
  uint32_t lengthPerBlock;  // a multiple of 32: Sort works on runs of 32
  uint32_t k;               // a multiple of 8 (32-byte copies), at most lengthPerBlock
};
#endif
