// blocked.h: fp32 conversions between the plain NCHW layout and nChw8c (channels in blocks of
// 8, the last block zero-padded), the two layouts an AVX2 CPU's activations take: 8x8 register
// transposes where oneDNN's reorder spent 30-60 us on ShuffleNet's 45-90 KB tensors (2 Zen 3
// cores), mostly its per-call overhead.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>

namespace asc::cpu {

/// Which of the two conversions turns `from` into `to`, if either: both fp32 4-D of the same
/// dims, one nchw and the other nChw8c, with no offsets.
enum class BlockedConversion { None, ToPlain, ToBlocked };
BlockedConversion blockedConversion(const dnnl::memory::desc& from, const dnnl::memory::desc& to);

/// Whether this CPU runs the two conversions (AVX2; ASC_FAST_REORDER=0 turns them off).
bool fastConversions();

/// y [N][C][HW] from x [N][ceil(C/8)][HW][8].
void blockedToPlain(const float* x, float* y, int64_t n, int64_t c, int64_t hw);
/// y [N][ceil(C/8)][HW][8] from x [N][C][HW]; the last block's lanes past C are written 0.
void plainToBlocked(const float* x, float* y, int64_t n, int64_t c, int64_t hw);

/// The 8 x 8 block at src (rows src_ld floats apart) transposed into dst (rows dst_ld apart):
/// dst[c][r] = src[r][c], through registers (AVX2; the strided copies' tiled transpose).
void transposeTile8(const float* src, int64_t src_ld, float* dst, int64_t dst_ld);

}  // namespace asc::cpu
