// gemm_avx2.cpp: C = A . B (+ bias, Relu or GELU) with constant weights B on AVX2 + FMA, the 6 x 16
// register-blocked product of avx2_product.h over A's plain rows.
//
// B is packed in panels of 16 columns, [ceil(n/16)][k][16], the last one zero-padded (described
// to oneDNN as a blocked layout of B's own dims, so atc stores it packed and another CPU unpacks
// it to the plain bytes). The padded panel's product goes to a side buffer whose valid columns
// are then copied, so C's rows are never written past n. Each
// thread owns a run of panels; the sum runs in slices of 256 (a panel's slice, 16 KiB, stays in
// L1 across all of A's row groups, whose slice stays in L2), accumulating into C.
//
// Why it exists: oneDNN 2.6's gemm-based matmul (its only fp32 matmul on AVX2) reached 114
// GFLOP/s, 60 % of the FMA peak, on the benchmark transformer's 128 x 256 x 1024 products on 2
// Zen 3 cores. With AVX-512, oneDNN's brgemm matmul serves, except for products of a few rows
// (a classifier's last layer): those are bound by reading B, and this kernel reads it as fast
// without the primitive's heap, JIT code and code pages (ResNet-50's FC at batch 1: 0.58 MB of
// heap).
#include "ops/matmul/gemm_avx2.h"

#include <immintrin.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cpu/features.h"
#include "cpu/parallel.h"
#include "ops/avx2_math.h"
#include "ops/avx2_product.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

using dnnl::memory;

constexpr int64_t kSlice = 256;  // of the sum per call of the product: a panel's 16 KiB
constexpr int64_t kFewRows = 4;  // a product of at most this many rows is served on any ISA

int64_t panelsOf(int64_t n) { return (n + 15) / 16; }

// B's panels, [n/16][k][16], as a blocked layout of B's dims ([k, n], or [n, k] transposed).
memory::desc panels(const GemmAvx2Shape& s) {
  dnnl_memory_desc_t d{};
  d.ndims = 2;
  d.data_type = dnnl_f32;
  d.format_kind = dnnl_blocked;
  const int kd = s.b_transposed ? 1 : 0, nd = 1 - kd;
  d.dims[kd] = d.padded_dims[kd] = s.k;
  d.dims[nd] = s.n;
  d.padded_dims[nd] = panelsOf(s.n) * 16;
  d.format_desc.blocking.strides[kd] = 16;
  d.format_desc.blocking.strides[nd] = s.k * 16;
  d.format_desc.blocking.inner_nblks = 1;
  d.format_desc.blocking.inner_blks[0] = 16;
  d.format_desc.blocking.inner_idxs[0] = nd;
  return memory::desc(d);
}

// c's columns [16 j0, min(16 j1, n)) of every row += bias, then Relu or GELU.
__attribute__((target("avx2,fma"))) void finish(float* c, const GemmAvx2Shape& s, int64_t j0,
                                                int64_t j1) {
  const __m256 zero = _mm256_setzero_ps();
  const int64_t end = std::min(j1 * 16, s.n), vec_end = j0 * 16 + (end - j0 * 16) / 8 * 8;
  for (int64_t r = 0; r < s.m; ++r) {
    float* row = c + r * s.n;
    for (int64_t j = j0 * 16; j < vec_end; j += 8) {
      __m256 v = _mm256_loadu_ps(row + j);
      if (s.bias) v = _mm256_add_ps(v, _mm256_loadu_ps(s.bias + j));
      if (s.relu) v = _mm256_max_ps(v, zero);
      if (s.gelu) v = avx2::geluErf8(v);
      _mm256_storeu_ps(row + j, v);
    }
    for (int64_t j = vec_end; j < end; ++j) {
      float v = row[j] + (s.bias ? s.bias[j] : 0.f);
      row[j] = s.relu ? std::max(v, 0.f) : s.gelu ? avx2::geluErf1(v) : v;
    }
  }
}

class GemmAvx2 : public Kernel {
 public:
  Status init(const KernelInit& k, const GemmAvx2Shape& s) {
    s_ = s;
    a_ = k.inputs[0].f32();
    c_ = static_cast<float*>(k.outputs[0].data);
    threads_ = std::max(1, k.threads);
    // Row groups of 6 (the product's register block); when 1 or 2 rows would be left over, the
    // last 7 or 8 rows go as 4 + 3 or 4 + 4: a 1- or 2-row product has too few independent sums
    // to keep the FMA units busy (128 rows: 20 x 6 + 4 + 4 rather than 21 x 6 + 2).
    for (int64_t r = 0; r < s.m; r += 6) rows_.push_back(r);
    rows_.push_back(s.m);
    const int64_t left = s.m % 6;
    if (s.m > 6 && (left == 1 || left == 2)) rows_[rows_.size() - 2] = s.m - (6 + left) / 2;
    if (s.n % 16) tail_.assign(static_cast<size_t>(s.m) * 16, 0.f);
    try {
      b_plain_ = s.b_transposed
                     ? memory::desc({s.n, s.k}, memory::data_type::f32, memory::format_tag::ab)
                     : memory::desc({s.k, s.n}, memory::data_type::f32, memory::format_tag::ab);
      ASC_TRY(b_, cpu::constantWeights(k.node, k.inputs[1], b_plain_, panels(s), k.env));
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(k.node, e);
    }
    return Status::ok();
  }

  void run() override {
    const GemmAvx2Shape& s = s_;
    const float* b = static_cast<const float*>(b_.get_data_handle());
    const int64_t panels = panelsOf(s.n), full = s.n / 16;
    const bool epilogue = s.bias || s.relu || s.gelu;
#pragma omp parallel num_threads(threads_)
    {
      const auto [tid, nt] = cpu::threadSlot();
      const int64_t j0 = panels * tid / nt, j1 = panels * (tid + 1) / nt;
      for (int64_t ks = 0; ks < s.k; ks += kSlice) {
        const int64_t kn = std::min(kSlice, s.k - ks);
        for (int64_t j = j0; j < j1; ++j) {
          const float* bj = b + (j * s.k + ks) * 16;
          // The padded panel sums into the side buffer, 16 wide.
          float* cj = j < full ? c_ + j * 16 : tail_.data();
          const int64_t ldc = j < full ? s.n : 16;
          // The thread's next panel's slice is fetched while this one runs.
          const int64_t next_bytes = j + 1 < j1 ? kn * 16 * 4 : 0;
          for (size_t g = 0; g + 1 < rows_.size(); ++g) {
            const int64_t r = rows_[g];
            avx2::prefetchPart(bj + s.k * 16, next_bytes, int64_t(g), int64_t(rows_.size() - 1));
            avx2::productRowsFor(rows_[g + 1] - r, ks > 0)(a_ + r * s.k + ks, s.k, kn, bj,
                                                           cj + r * ldc, ldc);
          }
        }
      }
      if (j1 > full)
        for (int64_t r = 0; r < s.m; ++r)
          std::copy_n(tail_.data() + r * 16, s.n - full * 16, c_ + r * s.n + full * 16);
      if (epilogue) finish(c_, s, j0, j1);
    }
  }
  std::string implName() const override { return "gemm:avx2:own"; }
  std::vector<PackedInput> packedInputs() const override {
    std::vector<PackedInput> r;
    cpu::notePacked(1, b_plain_, b_, &r);
    return r;
  }

 private:
  GemmAvx2Shape s_;
  std::vector<int64_t> rows_;  // the row groups' first rows, then m
  int threads_ = 1;
  const float* a_ = nullptr;
  float* c_ = nullptr;
  std::vector<float> tail_;  // [m][16]: the padded panel's sums
  memory::desc b_plain_;
  memory b_;
};

}  // namespace

bool gemmAvx2Serves(const GemmAvx2Shape& s) {
  // Where oneDNN's kernels stop below AVX-512 (an AVX2 CPU, or ONEDNN_MAX_CPU_ISA=AVX2 on a
  // newer one): above it oneDNN's brgemm matmul serves all but products of a few rows.
  static const bool enabled = cpu::switchedOn("ASC_GEMM_AVX2") && cpu::hasAvx2Fma();
  static const bool below_avx512 = !cpu::avx512Isa();
  return enabled && s.m > 0 && s.k > 0 && s.n > 0 && (below_avx512 || s.m <= kFewRows);
}

Result<std::unique_ptr<Kernel>> createGemmAvx2(const KernelInit& k, const GemmAvx2Shape& s) {
  auto kernel = std::make_unique<GemmAvx2>();
  ASC_RETURN_IF_ERROR(kernel->init(k, s));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

}  // namespace asc::ops
