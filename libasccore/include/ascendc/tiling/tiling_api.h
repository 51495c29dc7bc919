// tiling/tiling_api.h: the host side of the Matmul high-level API (namespace matmul_tiling):
// MatmulApiTiling (one core) and MultiCoreMatmulTiling (the work split over SetDim cores) take
// the operands' positions, formats and types, the shapes and the options CANN's do, and
// GetTiling fills a TCubeTiling (tiling/tcube_tiling.h) that the kernel's Matmul reads
// (lib/matmul_intf.h). The split: M and N over the cores (a split into whole SetFixSplit base
// tiles first, then the smallest block), base tiles of at most 128 x 256 x 64 aligned to 16
// (SetFixSplit overrides them); the CPU layer's Matmul computes any valid tiling exactly, the
// choice only shapes the tiles Iterate walks. The exact split CANN's tiling picks is
// UNCONFIRMED. Also the host side of Pad and UnPad (AscendC::PadTilingFunc, UnPadTilingFunc).
#pragma once

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"
#include "tiling/pad_tiling.h"
#include "tiling/softmax_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tcube_tiling.h"

namespace matmul_tiling {

enum class TPosition : int32_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  MAX,
};
using CubeFormat = ::AscendC::CubeFormat;
enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_BFLOAT16 = 33,
  DT_MAX = 40,
};
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase() : cores_(1) {}
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& platform)
      : cores_(int32_t(std::max<uint32_t>(1, platform.GetCoreNumAic()))) {}
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    (void)pos;
    (void)type;
    (void)isTrans;  // the CPU layer's Matmul takes the transposition from SetTensorA
    a_ = dataType;
    return 0;
  }
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    (void)pos;
    (void)type;
    (void)isTrans;  // ... and from SetTensorB
    b_ = dataType;
    return 0;
  }
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
    (void)pos;
    (void)type;
    c_ = dataType;
    return 0;
  }
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
    (void)pos;
    (void)type;
    (void)dataType;  // the bias is read in its own type, converted to the accumulator's
    return 0;
  }
  /// The shape this op (or, for MatmulApiTiling, this core) computes.
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    if (m <= 0 || n <= 0 || k <= 0) return -1;
    m_ = m;
    n_ = n;
    k_ = k;
    return 0;
  }
  /// The whole matrices in global memory (their row strides).
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
    return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
  }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
    if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
    org_m_ = orgMIn;
    org_n_ = orgNIn;
    org_ka_ = orgKaIn;
    org_kb_ = orgKbIn;
    return 0;
  }
  int32_t EnableBias(bool isBiasIn = false) {
    bias_ = isBiasIn;
    return 0;
  }
  int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
  /// Base tile sizes (-1: the tiling's choice).
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
    fix_m_ = baseMIn;
    fix_n_ = baseNIn;
    fix_k_ = baseKIn;
    return 0;
  }
  /// Buffer sizes the tiling may use (-1: the whole buffer); the CPU layer has no such limits.
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                         int32_t btSize = -1) {
    (void)l1Size;
    (void)l0CSize;
    (void)ubSize;
    (void)btSize;
    return 0;
  }
  int32_t SetTraverse(MatrixTraverse traverse) {
    order_ = traverse == MatrixTraverse::FIRSTN ? 1 : 0;
    return 0;
  }
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true,
                          bool transNZ2ND = true) {
    (void)a, (void)b, (void)c, (void)bias, (void)transND2NZ, (void)transNZ2ND;
    return 0;
  }
  int32_t GetBaseM() const { return base_m_; }
  int32_t GetBaseN() const { return base_n_; }
  int32_t GetBaseK() const { return base_k_; }

  /// Fills `tiling`; -1 (and nothing filled) when a shape or an operand type is missing.
  virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;

 protected:
  static int32_t ceilDiv(int32_t a, int32_t b) { return (a + b - 1) / b; }
  static int32_t align16(int32_t v) { return (v + 15) / 16 * 16; }
  bool ready() const {
    return m_ > 0 && n_ > 0 && k_ > 0 && a_ != DataType::DT_UNDEFINED &&
           b_ != DataType::DT_UNDEFINED && c_ != DataType::DT_UNDEFINED;
  }
  // Fills the fields for one core's block of single_m x single_n (x k_).
  int64_t fill(optiling::TCubeTiling& t, int32_t single_m, int32_t single_n, int32_t used) {
    base_m_ = fix_m_ > 0 ? fix_m_ : std::min(align16(single_m), 128);
    base_n_ = fix_n_ > 0 ? fix_n_ : std::min(align16(single_n), 256);
    base_k_ = fix_k_ > 0 ? fix_k_ : std::min(align16(k_), 64);
    t = optiling::TCubeTiling();
    t.usedCoreNum = used;
    t.M = org_m_ > 0 ? org_m_ : m_;
    t.N = org_n_ > 0 ? org_n_ : n_;
    t.Ka = org_ka_ > 0 ? org_ka_ : k_;
    t.Kb = org_kb_ > 0 ? org_kb_ : k_;
    t.singleCoreM = single_m;
    t.singleCoreN = single_n;
    t.singleCoreK = k_;
    t.baseM = base_m_;
    t.baseN = base_n_;
    t.baseK = base_k_;
    t.depthA1 = t.depthB1 = 1;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    t.isBias = bias_ ? 1 : 0;
    t.iterateOrder = order_;
    t.dbL0A = t.dbL0B = t.dbL0C = 1;
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = t.BatchNum = 1;
    return 0;
  }

  int32_t cores_;
  int32_t m_ = 0, n_ = 0, k_ = 0;
  int32_t org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0;
  int32_t fix_m_ = -1, fix_n_ = -1, fix_k_ = -1;
  int32_t base_m_ = 0, base_n_ = 0, base_k_ = 0;
  int32_t order_ = 0;
  bool bias_ = false;
  DataType a_ = DataType::DT_UNDEFINED, b_ = DataType::DT_UNDEFINED, c_ = DataType::DT_UNDEFINED;
};

/// One core computes the whole SetShape block.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int64_t GetTiling(optiling::TCubeTiling& tiling) override {
    if (!ready()) return -1;
    return fill(tiling, m_, n_, 1);
  }
};

/// The SetShape block split over at most SetDim cores (default: the chip's AI Cores).
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int32_t SetDim(int32_t dim) {
    if (dim <= 0) return -1;
    dim_ = dim;
    return 0;
  }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override {
    return MatmulApiTilingBase::SetShape(m, n, k);
  }
  /// One core's block (-1: the tiling's choice).
  virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1,
                                 int32_t singleKIn = -1) {
    single_m_ = singleMIn;
    single_n_ = singleNIn;
    (void)singleKIn;
    return 0;
  }
  int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) {
    m = got_m_;
    n = got_n_;
    k = k_;
    return 0;
  }
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
    dim = m_dim_ * n_dim_;
    mDim = m_dim_;
    nDim = n_dim_;
    return 0;
  }
  void SetSplitK(bool flag) { (void)flag; }

  int64_t GetTiling(optiling::TCubeTiling& tiling) override {
    if (!ready()) return -1;
    const int32_t cores = dim_ > 0 ? dim_ : cores_;
    int32_t sm = single_m_, sn = single_n_;
    if (sm <= 0 || sn <= 0) {
      // The split of M and N over at most `cores` whose blocks are whole numbers of the fixed
      // base tiles (SetFixSplit), if any is; among those the smallest block (ties: fewer cores).
      // Kernels that walk a core's block base tile by base tile rely on the first rule. (CANN's
      // own heuristics are UNCONFIRMED; any valid split computes the same C here.)
      int64_t best = -1;
      bool best_whole = false;
      for (int32_t md = 1; md <= cores; ++md)
        for (int32_t nd = 1; md * nd <= cores; ++nd) {
          const int32_t bm = align16(ceilDiv(m_, md)), bn = align16(ceilDiv(n_, nd));
          const int64_t area = int64_t(bm) * bn;
          const bool whole = (fix_m_ <= 0 || std::min(bm, m_) % fix_m_ == 0) &&
                             (fix_n_ <= 0 || std::min(bn, n_) % fix_n_ == 0);
          if (best < 0 || (whole && !best_whole) || (whole == best_whole && area < best)) {
            best = area;
            best_whole = whole;
            sm = single_m_ > 0 ? single_m_ : std::min(bm, m_);
            sn = single_n_ > 0 ? single_n_ : std::min(bn, n_);
          }
        }
    }
    m_dim_ = ceilDiv(m_, sm);
    n_dim_ = ceilDiv(n_, sn);
    if (m_dim_ * n_dim_ > cores) return -1;  // the single shape needs more cores than SetDim
    got_m_ = sm;
    got_n_ = sn;
    return fill(tiling, sm, sn, m_dim_ * n_dim_);
  }

 private:
  int32_t dim_ = 0;
  int32_t single_m_ = -1, single_n_ = -1;
  int32_t got_m_ = 0, got_n_ = 0, m_dim_ = 1, n_dim_ = 1;
};

}  // namespace matmul_tiling

// --- Pad and UnPad (kernel_operator.h: AscendC::Pad / UnPad) -------------------------------------
namespace AscendC {

namespace detail {
/// A shape as Pad and UnPad see it: rows (all dims but the last) of the last dim's width.
inline uint32_t rowsOf(const ge::Shape& s) {
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < s.GetDimNum(); ++i) rows *= s.GetDim(i);
  return uint32_t(s.GetDimNum() > 0 ? rows : 0);
}
inline uint32_t widthOf(const ge::Shape& s) {
  return uint32_t(s.GetDimNum() > 0 ? s.GetDim(s.GetDimNum() - 1) : 0);
}
}  // namespace detail

/// The temporary buffer Pad needs for `srcShape`, in bytes: none on the CPU (0 and 0).
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                uint32_t& maxValue, uint32_t& minValue) {
  (void)srcShape, (void)typeSize;
  maxValue = minValue = 0;
}
/// Pad's tiling: srcShape [height, width] is the tensor in the unified buffer, oriSrcShape
/// [height, width of data] what its rows hold.
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize,
                          optiling::PadTiling& tiling) {
  (void)stackBufferSize, (void)typeSize;
  tiling.set_srcHeight(detail::rowsOf(srcShape));
  tiling.set_srcWidth(detail::widthOf(srcShape));
  const size_t on = oriSrcShape.GetDimNum();
  tiling.set_srcOriWidth(uint32_t(on > 0 ? oriSrcShape.GetDim(on - 1) : 0));
}
/// The temporary buffer BroadCast needs: none on the CPU (0 and 0).
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                      const ge::Shape& srcShape, const ge::Shape& dstShape,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform, (void)srcShape, (void)dstShape, (void)typeSize, (void)isReuseSource;
  maxValue = minValue = 0;
}
/// The temporary buffer UnPad needs: none on the CPU (0 and 0).
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const ge::Shape& srcShape, const uint32_t typeSize,
                                  uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform, (void)srcShape, (void)typeSize;
  maxValue = minValue = 0;
}
/// The temporary buffer SoftMax may be given for a [rows, last dim] source, in bytes: the CPU
/// layer uses none; these are one row's float values plus a 32-byte block per row for the
/// reductions (min), or every row's (max), so that a kernel sizing a buffer by them gets one.
/// CANN's own figures are UNCONFIRMED.
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)dataTypeSize, (void)isReuseSource;
  return (detail::widthOf(srcShape) * 4 + 31) / 32 * 32 + 64;
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  const uint32_t rows = std::max<uint32_t>(1, detail::rowsOf(srcShape));
  return rows * GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
/// SoftMax's tiling for a source of srcShape (rows = all dims but the last): all rows in one pass.
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& tiling) {
  (void)localWorkSpaceSize;
  const uint32_t m = detail::rowsOf(srcShape), k = detail::widthOf(srcShape);
  const uint32_t block = dataTypeSize > 0 ? 32 / dataTypeSize : 8;
  tiling.set_srcM(m);
  tiling.set_srcK(k);
  tiling.set_srcSize(m * k);
  tiling.set_outMaxM(m);
  tiling.set_outMaxK(block);
  tiling.set_outMaxSize(m * block);
  tiling.set_splitM(m);
  tiling.set_splitK(k);
  tiling.set_splitSize(m * k);
  tiling.set_reduceM(m);
  tiling.set_reduceK(block);
  tiling.set_reduceSize(m * block);
  tiling.set_rangeM(1);
  tiling.set_tailM(0);
  tiling.set_tailSplitSize(0);
  tiling.set_tailReduceSize(0);
}

/// UnPad's tiling: srcShape [height, width] is the tensor in the unified buffer.
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, optiling::UnPadTiling& tiling) {
  (void)stackBufferSize, (void)typeSize;
  tiling.set_srcHeight(detail::rowsOf(srcShape));
  tiling.set_srcWidth(detail::widthOf(srcShape));
}

}  // namespace AscendC
