// leaky_relu_custom_tiling.h: what the host passes the kernel (a plain struct, as the
// KernelLaunch samples do).
#ifndef LEAKY_RELU_CUSTOM_TILING_H
#define LEAKY_RELU_CUSTOM_TILING_H
#include <cstdint>

struct LeakyReluCustomTilingData {
  uint32_t totalLength;  // elements in all
  uint32_t tileLength;   // elements per tile (a multiple of 8: 32-byte copies)
  float alpha;
};
#endif
