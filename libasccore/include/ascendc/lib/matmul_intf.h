// lib/matmul_intf.h: the Matmul high-level API on the CPU. A kernel declares
//   Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<..., half>,
//          MatmulType<..., float>, MatmulType<..., float>> mm;
// registers it with REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling) (tiling: a TCubeTiling,
// tiling/tcube_tiling.h, filled by the host's matmul_tiling API), sets its operands (already at
// this core's block) and computes C[singleCoreM, singleCoreN] = A * B (+ bias on every row),
// accumulating in float (int32 for int8 operands): all at once (IterateAll) or one
// [baseM, baseN] tile at a time (Iterate, then GetTensorC), tiles walked M first (iterateOrder
// 0) or N first (1). Row strides come from the original shape (SetOrgShape, else the tiling's
// M, N, Ka, Kb): A is [M, Ka] ([Ka, M] transposed), B [Kb, N] ([N, Kb] transposed), C [M, N].
// Only ND operands are supported; another CubeFormat fails to compile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_operator.h"
#include "tiling/tcube_tiling.h"

// Kernel wrappers register a kernel that includes this header as mixed (ophost.h,
// addMixedKernelEntry).
#define ASC_KERNEL_USES_CUBE 1

namespace asc::ascendc::detail {
// A kernel that uses the Matmul API is mixed (cube + vector): ICPU_RUN_KF launches the program's
// kernels as MIX unless it calls SetKernelMode (kernel_context.h, kernelMode).
[[maybe_unused]] static const bool kCubeApiNoted = (noteCubeApi(), true);
}  // namespace asc::ascendc::detail

namespace AscendC {

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false,
          TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
  constexpr static TPosition srcPos = SRCPOS;
};

/// The Matmul configurations (the CPU layer computes every one the same way).
struct MatmulConfig {
  bool doNorm = true;
  bool doMultiDataLoad = false;
};
constexpr MatmulConfig GetNormalConfig() { return MatmulConfig{true, false}; }
constexpr MatmulConfig GetMDLConfig() { return MatmulConfig{false, true}; }
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();

namespace detail_cpu {
template <typename A, typename B>
using MatmulAcc =
    typename std::conditional<std::is_integral<typename A::T>::value, int32_t, float>::type;
}  // namespace detail_cpu

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM, class... POLICY>
class Matmul {
  static_assert(A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
                    C_TYPE::format == CubeFormat::ND,
                "the CPU layer's Matmul takes ND operands only");
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using Acc = detail_cpu::MatmulAcc<A_TYPE, B_TYPE>;

 public:
  // The operand types, as CANN's Matmul names them (cube-group callbacks read AType::T).
  using AType = A_TYPE;
  using BType = B_TYPE;
  using CType = C_TYPE;
  using BiasType = BIAS_TYPE;
  void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr) {
    (void)tpipe;
    if (!cubeTiling) asc::ascendc::detail::failf("Matmul::Init", "the tiling is null");
    tiling_ = *cubeTiling;
    const TCubeTiling& t = tiling_;
    if (t.M <= 0 || t.N <= 0 || t.Ka <= 0 || t.singleCoreM <= 0 || t.singleCoreN <= 0 ||
        t.singleCoreK <= 0 || t.baseM <= 0 || t.baseN <= 0)
      asc::ascendc::detail::failf("Matmul::Init", "the tiling holds no shape (M ", t.M, ", N ", t.N,
                                  ", Ka ", t.Ka, ", singleCoreM ", t.singleCoreM, ", baseM ",
                                  t.baseM, "): fill it with matmul_tiling's GetTiling on the host");
    org_m_ = t.M;
    org_n_ = t.N;
    org_ka_ = t.Ka;
    org_kb_ = t.Kb > 0 ? t.Kb : t.Ka;
    m_ = t.singleCoreM;
    n_ = t.singleCoreN;
    k_ = t.singleCoreK;
    bias_on_ = t.isBias != 0;
    inited_ = true;
  }
  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    (void)orgKc;
    org_m_ = orgM;
    org_n_ = orgN;
    org_ka_ = orgKa;
    org_kb_ = orgKb;
  }
  void SetSingleShape(int singleM, int singleN, int singleK) { SetTail(singleM, singleN, singleK); }
  /// This core's block (-1 keeps a dimension).
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) m_ = tailM;
    if (tailN > 0) n_ = tailN;
    if (tailK > 0) k_ = tailK;
    restart();
  }
  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    a_gm_ = gm;
    a_local_ = false;
    trans_a_ = isTransposeA;
    restart();
  }
  void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) {
    a_ub_ = leftMatrix;
    a_local_ = true;
    trans_a_ = isTransposeA;
    restart();
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    b_gm_ = gm;
    b_local_ = false;
    trans_b_ = isTransposeB;
    restart();
  }
  void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) {
    b_ub_ = rightMatrix;
    b_local_ = true;
    trans_b_ = isTransposeB;
    restart();
  }
  void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
    bias_gm_ = biasGlobal;
    bias_local_ = false;
    has_bias_ = true;
    bias_on_ = true;
  }
  void SetBias(const LocalTensor<BiasT>& inputBias) {
    bias_ub_ = inputBias;
    bias_local_ = true;
    has_bias_ = true;
    bias_on_ = true;
  }
  void DisableBias() { bias_on_ = false; }
  void ClearBias() { bias_on_ = false; }
  void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer) { (void)tmpBuffer; }
  /// Which vector core of a MIX kernel receives the results; here the block that calls the
  /// Matmul computes and writes them all, so the index changes nothing.
  void SetSubBlockIdx(uint8_t subBlockIdx) { (void)subBlockIdx; }
  template <class T>
  void SetWorkspace(GlobalTensor<T>& addr) {
    (void)addr;
  }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    (void)addr;
    (void)size;
  }

  /// C = A * B (+ bias) into gm, rows org N apart (enAtomic: 0 overwrite, 1 add, 2 max, 3 min).
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)waitIterateAll;
    (void)fakeMsg;
    compute(0, 0, m_, n_);
    const int ld = enSequentialWrite ? n_ : org_n_;
    DstT* c = gm.ascData("Matmul::IterateAll", 0, span(m_, n_, ld));
    store(c, ld, m_, n_, enAtomic);
  }
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0) {
    compute(0, 0, m_, n_);
    DstT* c = ubCmatrix.ascData("Matmul::IterateAll", "ubCmatrix", uint64_t(m_) * n_);
    store(c, n_, m_, n_, enAtomic);
  }

  /// Computes the next [baseM, baseN] tile (smaller at the edges); false when all are done.
  /// Iterate<false> starts the asynchronous form: every tile, one per GetTensorC<false> call, in
  /// the same order.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    (void)enPartialSum;
    if constexpr (!sync) {
      require();
      if (async_) return false;  // started already: GetTensorC<false> fetches the tiles
      async_ = true;
      return ceilDiv(m_, tiling_.baseM) * ceilDiv(n_, tiling_.baseN) > tile_;
    }
    return nextTile();
  }
  /// The current tile into a local tensor: dense [baseM, baseN].
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    if constexpr (!sync) asyncNext("GetTensorC");
    requireTile("GetTensorC");
    DstT* c =
        co2Local.ascData("Matmul::GetTensorC", "co2Local", uint64_t(tiling_.baseM) * tiling_.baseN);
    store(c, tiling_.baseN, tile_rows_, tile_cols_, enAtomic);
  }
  /// The current tile into global memory: at its place in C (rows org N apart), or dense
  /// [baseM, baseN] with enSequentialWrite.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    if constexpr (!sync) asyncNext("GetTensorC");
    requireTile("GetTensorC");
    if (enSequentialWrite) {
      DstT* c = gm.ascData("Matmul::GetTensorC", 0, uint64_t(tiling_.baseM) * tiling_.baseN);
      store(c, tiling_.baseN, tile_rows_, tile_cols_, enAtomic);
      return;
    }
    const uint64_t at = uint64_t(tile_m0_) * org_n_ + tile_n0_;
    DstT* c = gm.ascData("Matmul::GetTensorC", 0, at + span(tile_rows_, tile_cols_, org_n_));
    store(c + at, org_n_, tile_rows_, tile_cols_, enAtomic);
  }
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                  uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    GetTensorC<sync>(co2Local, enAtomic, enSequentialWrite);
    GetTensorC<true>(gm, enAtomic, enSequentialWrite);  // the same tile
  }
  void End() {
    restart();
    has_bias_ = false;
  }

 private:
  // The asynchronous form's next tile.
  void asyncNext(const char* call) {
    if (!async_)
      asc::ascendc::detail::failf(call,
                                  "GetTensorC<false> without Iterate<false>: start the "
                                  "asynchronous form with Iterate<false>() first");
    if (!nextTile())
      asc::ascendc::detail::failf(call,
                                  "every tile of the asynchronous Iterate<false> was fetched "
                                  "already");
  }
  bool nextTile() {
    require();
    const int tm = ceilDiv(m_, tiling_.baseM), tn = ceilDiv(n_, tiling_.baseN);
    if (tile_ >= tm * tn) return false;
    // M first: the row tile changes fastest.
    const int mi = tiling_.iterateOrder == 1 ? tile_ / tn : tile_ % tm;
    const int ni = tiling_.iterateOrder == 1 ? tile_ % tn : tile_ / tm;
    ++tile_;
    tile_m0_ = mi * tiling_.baseM;
    tile_n0_ = ni * tiling_.baseN;
    tile_rows_ = std::min(tiling_.baseM, m_ - tile_m0_);
    tile_cols_ = std::min(tiling_.baseN, n_ - tile_n0_);
    compute(tile_m0_, tile_n0_, tile_rows_, tile_cols_);
    return true;
  }
  static int ceilDiv(int a, int b) { return (a + b - 1) / b; }
  static uint64_t span(int rows, int cols, int ld) {
    return rows > 0 && cols > 0 ? uint64_t(rows - 1) * ld + cols : 0;
  }
  void restart() {
    tile_ = 0;
    async_ = false;
    tile_rows_ = tile_cols_ = 0;
  }
  void require() const {
    if (!inited_)
      asc::ascendc::detail::failf("Matmul",
                                  "the object was not registered: call "
                                  "REGIST_MATMUL_OBJ (or Init) with its tiling first");
  }
  void requireTile(const char* call) const {
    if (tile_rows_ <= 0)
      asc::ascendc::detail::failf(call,
                                  "no tile: call Iterate() first (and only while it "
                                  "returns true)");
  }
  // acc_ = rows x cols of C starting at (m0, n0) of this core's block.
  void compute(int m0, int n0, int rows, int cols) {
    require();
    const char* call = "Matmul";
    if (m_ > org_m_ || n_ > org_n_ || k_ > org_ka_)
      asc::ascendc::detail::failf(call, "the block ", m_, "x", n_, "x", k_,
                                  " is larger than the original shape ", org_m_, "x", org_n_, "x",
                                  org_ka_,
                                  ": SetOrgShape leaves the tiling's singleCore shape, and a "
                                  "block past the shape reads A and B and writes C beyond it; "
                                  "call SetTail(m, n, k) (or SetSingleShape) for the smaller "
                                  "block");
    // A: [M, Ka] rows Ka apart, or transposed [Ka, M] rows M apart; B: [Kb, N] or [N, Kb].
    const uint64_t a_len = trans_a_ ? span(k_, m_, org_m_) : span(m_, k_, org_ka_);
    const uint64_t b_len = trans_b_ ? span(n_, k_, org_kb_) : span(k_, n_, org_n_);
    const SrcAT* a = a_local_ ? a_ub_.ascData(call, "A", a_len) : a_gm_.ascData(call, 0, a_len);
    const SrcBT* b = b_local_ ? b_ub_.ascData(call, "B", b_len) : b_gm_.ascData(call, 0, b_len);
    const BiasT* bias = nullptr;
    if (bias_on_) {
      if (!has_bias_)
        asc::ascendc::detail::failf(call, "the tiling says isBias but SetBias was not called");
      bias = bias_local_ ? bias_ub_.ascData(call, "bias", n_) : bias_gm_.ascData(call, 0, n_);
    }
    acc_.assign(size_t(rows) * cols, Acc(0));
    using CA = detail_cpu::CalcT<SrcAT>;
    using CB = detail_cpu::CalcT<SrcBT>;
    for (int i = 0; i < rows; ++i)
      for (int kk = 0; kk < k_; ++kk) {
        const uint64_t ai =
            trans_a_ ? uint64_t(kk) * org_m_ + (m0 + i) : uint64_t(m0 + i) * org_ka_ + kk;
        const Acc av = Acc(CA(a[ai]));
        for (int j = 0; j < cols; ++j) {
          const uint64_t bi =
              trans_b_ ? uint64_t(n0 + j) * org_kb_ + kk : uint64_t(kk) * org_n_ + (n0 + j);
          acc_[size_t(i) * cols + j] += av * Acc(CB(b[bi]));
        }
      }
    if (bias)
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
          acc_[size_t(i) * cols + j] += Acc(detail_cpu::CalcT<BiasT>(bias[n0 + j]));
    acc_cols_ = cols;
  }
  void store(DstT* c, int ld, int rows, int cols, uint8_t atomic) const {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const Acc v = acc_[size_t(i) * acc_cols_ + j];
        DstT& out = c[uint64_t(i) * ld + j];
        using CD = detail_cpu::CalcT<DstT>;
        switch (atomic) {
          case 1:
            out = DstT(CD(out) + CD(v));
            break;
          case 2:
            out = DstT(std::max(CD(out), CD(v)));
            break;
          case 3:
            out = DstT(std::min(CD(out), CD(v)));
            break;
          default:
            out = DstT(CD(v));
        }
      }
  }

  TCubeTiling tiling_{};
  bool inited_ = false;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, m_ = 0, n_ = 0, k_ = 0;
  GlobalTensor<SrcAT> a_gm_;
  LocalTensor<SrcAT> a_ub_;
  GlobalTensor<SrcBT> b_gm_;
  LocalTensor<SrcBT> b_ub_;
  GlobalTensor<BiasT> bias_gm_;
  LocalTensor<BiasT> bias_ub_;
  bool a_local_ = false, b_local_ = false, bias_local_ = false;
  bool trans_a_ = false, trans_b_ = false, has_bias_ = false, bias_on_ = false;
  int tile_ = 0, tile_m0_ = 0, tile_n0_ = 0, tile_rows_ = 0, tile_cols_ = 0;
  bool async_ = false;  // Iterate<false> started: GetTensorC<false> takes the next tile
  std::vector<Acc> acc_;
  int acc_cols_ = 0;
};

namespace detail_cpu {
inline void registMatmul(TPipe*, GM_ADDR) {}
/// The older form, REGIST_MATMUL_OBJ(&pipe, workspace, mm) with no tiling: the kernel calls
/// mm.Init(&tiling) itself next (Matmul's calls before that Init stop, naming it).
template <class MM>
void registMatmul(TPipe*, GM_ADDR, MM&) {}
template <class MM, class... Rest>
void registMatmul(TPipe* pipe, GM_ADDR workspace, MM& mm, const TCubeTiling* tiling,
                  Rest&&... rest) {
  mm.Init(tiling, pipe);
  registMatmul(pipe, workspace, std::forward<Rest>(rest)...);
}
}  // namespace detail_cpu

/// Kernels' spelling of the system workspace pointer that REGIST_MATMUL_OBJ takes.
inline GM_ADDR GetSysWorkSpacePtr() { return GetSysWorkspacePtr(); }

}  // namespace AscendC

namespace matmul = AscendC;

/// Registers Matmul objects with their tilings: REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling
/// [, mm2, &tiling2 ...]), or one object without its tiling (REGIST_MATMUL_OBJ(&pipe,
/// workspace, mm), then mm.Init(&tiling)).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
  ::AscendC::detail_cpu::registMatmul((tpipe), (GM_ADDR)(workspace), __VA_ARGS__)
