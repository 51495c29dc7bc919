// gemm_conv_avx2.cpp: convolutions with small outputs (at most 14x14) as one matrix product,
// Y [P x K] = A [P x taps*C] . B [taps*C x K], on fp32 nChw8c tensors with AVX2 + FMA.
//
// A is the input gathered per output position and kernel tap (im2col). In nChw8c each 8
// channels of one position are 32 contiguous bytes, so A is stored in blocks of 8 along its
// columns, [taps*C/8][P][8], built by 32-byte copies. B is the weights in oneDNN's Ohwi16o
// layout, [K/16][KH][KW][C][16]: atc stores them that way (packed weights, read in place from
// the mapped OM; another CPU reorders them at load). The product is the 6 x 16 register-blocked
// kernel of avx2_product.h writing straight into Y's nChw8c buffer; the sum over taps*C runs in
// chunks whose part of A (<= 256 KiB) stays in L2 while each thread streams its columns of B.
// Then the bias, a fused residual and Relu in one pass.
//
// Why it exists: on ResNet's 7x7 convolutions of 512 channels oneDNN 2.6's direct jit:avx2 kernel
// reached 90 GFLOP/s on 2 Zen 3 cores (46 % of the FMA peak): too few output positions for its
// blocking. The product keeps all 6 x 16 accumulators busy whatever the image size.
#include "ops/conv/gemm_conv_avx2.h"

#include <immintrin.h>

#include <algorithm>
#include <string>

#include "asc/ops/op_def.h"
#include "cpu/features.h"
#include "cpu/parallel.h"
#include "ops/avx2_product.h"
#include "ops/conv/avx2_conv.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

using dnnl::memory;

constexpr int64_t kMaxOutput = 7 * 7;
constexpr int64_t kChunkFloats = (256 << 10) / 4;  // A's part per chunk of the sum (L2)
constexpr int64_t kSlice = 32;  // column blocks of B per call of the product (16 KiB: L1)

struct Geometry : ConvExtents {
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t p;         // output positions
  int64_t kb_total;  // A's column blocks of 8: taps * C / 8
  int64_t kb_chunk;  // of those, per chunk of the sum
};

// A's column block kb for image x [C/8][H][W][8]: tap kb / (C/8) (row-major over the kernel)
// of channel block kb % (C/8), into a chunk of A stored for the product: [row group of 6][column
// block][6][8], `blocks` column blocks per row group (so each group's slice is contiguous).
__attribute__((target("avx2,fma"))) void gather(const float* x, const Geometry& g, int64_t kb,
                                                int64_t blocks, float* a) {
  const int64_t cb_n = g.c / 8, tap = kb / cb_n, cb = kb % cb_n;
  const int64_t ky = tap / g.kw, kx = tap % g.kw;
  const float* plane = x + cb * g.h * g.w * 8;
  const __m256 zero = _mm256_setzero_ps();
  for (int64_t oy = 0; oy < g.oh; ++oy) {
    const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
    const float* in = plane + iy * g.w * 8;
    for (int64_t ox = 0; ox < g.ow; ++ox) {
      const int64_t ix = ox * g.sw - g.pl + kx * g.dw, pos = oy * g.ow + ox;
      const bool inside = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w;
      _mm256_storeu_ps(a + (pos / 6 * blocks * 6 + pos % 6) * 8,
                       inside ? _mm256_loadu_ps(in + ix * 8) : zero);
    }
  }
}

// y's channel blocks [ob0, ob1) += bias, (+ res), then Relu.
__attribute__((target("avx2,fma"))) void finish(float* y, const Geometry& g, int64_t ob0,
                                                int64_t ob1, const float* bias, const float* res,
                                                bool relu) {
  const __m256 zero = _mm256_setzero_ps();
  for (int64_t ob = ob0; ob < ob1; ++ob) {
    const __m256 b = bias ? _mm256_loadu_ps(bias + ob * 8) : zero;
    float* out = y + ob * g.p * 8;
    const float* r = res ? res + ob * g.p * 8 : nullptr;
    for (int64_t i = 0; i < g.p; ++i) {
      __m256 v = _mm256_add_ps(_mm256_loadu_ps(out + i * 8), b);
      if (r) v = _mm256_add_ps(v, _mm256_loadu_ps(r + i * 8));
      if (relu) v = _mm256_max_ps(v, zero);
      _mm256_storeu_ps(out + i * 8, v);
    }
  }
}

class GemmConvAvx2 : public Kernel {
 public:
  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const TensorRef &x = k.inputs[0], &w = k.inputs[1], &y = k.outputs[0];
    const auto strides = n.attrs.getInts("strides", {1, 1});
    const auto dil = n.attrs.getInts("dilations", {1, 1});
    Geometry& g = g_;
    static_cast<ConvExtents&>(g) = convExtents(k);
    g.kh = w.shape()[2];
    g.kw = w.shape()[3];
    g.sh = strides[0];
    g.sw = strides[1];
    g.dh = dil[0];
    g.dw = dil[1];
    g.p = g.oh * g.ow;
    g.kb_total = g.kh * g.kw * g.c / 8;
    const int64_t rows = (g.p + 5) / 6 * 6;
    // Whole slices per chunk (a short last slice per chunk costs the product its efficiency).
    g.kb_chunk = std::clamp<int64_t>(kChunkFloats / (rows * 8) / kSlice * kSlice, kSlice, 1 << 30);
    g.kb_chunk = std::min(g.kb_chunk, g.kb_total);
    x_ = x.f32();
    y_ = static_cast<float*>(y.data);
    if (k.inputs.size() > 2 && k.inputs[2].data) bias_ = k.inputs[2].f32();
    if (k.inputs.size() > 3 && k.inputs[3].data) res_ = k.inputs[3].f32();
    in_place_ = res_ && res_ == y_;
    relu_ = n.attrs.getString("activation", "") == "Relu";
    threads_ = std::max(1, k.threads);
    try {
      w_plain_ =
          memory::desc({g.k, g.c, g.kh, g.kw}, memory::data_type::f32, memory::format_tag::abcd);
      const memory::desc packed({g.k, g.c, g.kh, g.kw}, memory::data_type::f32,
                                memory::format_tag::Ohwi16o);
      ASC_TRY(wei_, cpu::constantWeights(n, w, w_plain_, packed, k.env));
      a_ = cpu::sharedScratchpad(
          memory::desc({g.kb_chunk * rows * 8}, memory::data_type::f32, memory::format_tag::a),
          implName(), k.env);
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }

  void run() override {
    const Geometry& g = g_;
    const float* b = static_cast<const float*>(wei_.get_data_handle());
    float* a = static_cast<float*>(a_.get_data_handle());
    const int64_t k_total = g.kb_total * 8, k16_n = g.k / 16;
    const int64_t in_image = g.c * g.h * g.w, out_image = g.k * g.p;
    const bool epilogue = bias_ || relu_ || (res_ && !in_place_);
    for (int64_t img = 0; img < g.n; ++img) {
      const float* x = x_ + img * in_image;
      float* y = y_ + img * out_image;
      const float* res = res_ && !in_place_ ? res_ + img * out_image : nullptr;
#pragma omp parallel num_threads(threads_)
      {
        const auto [tid, nt] = cpu::threadSlot();
        const int64_t j0 = k16_n * tid / nt, j1 = k16_n * (tid + 1) / nt;  // this thread's columns
        for (int64_t kb0 = 0; kb0 < g.kb_total; kb0 += g.kb_chunk) {
          const int64_t kb1 = std::min(g.kb_total, kb0 + g.kb_chunk), blocks = kb1 - kb0;
#pragma omp for schedule(static)
          for (int64_t kb = kb0; kb < kb1; ++kb) gather(x, g, kb, blocks, a + (kb - kb0) * 48);
          // (the loop's barrier: A's chunk is complete.) Each column block's B in slices of
          // kSlice column blocks (16 KiB: they stay in L1 across the row groups).
          for (int64_t j = j0; j < j1; ++j) {
            float* yj = y + 2 * j * g.p * 8;
            for (int64_t ks = kb0; ks < kb1; ks += kSlice) {
              const int64_t kn = std::min(kSlice, kb1 - ks);
              const float* bj = b + (j * k_total + ks * 8) * 16;
              const bool acc = ks > 0 || in_place_;
              for (int64_t r = 0; r < g.p; r += 6)
                avx2::productFor(std::min<int64_t>(6, g.p - r), acc)(
                    a + (r * blocks + (ks - kb0) * 6) * 8, 48, kn, bj, yj + r * 8, g.p * 8);
            }
          }
#pragma omp barrier
        }
        if (epilogue) finish(y, g, 2 * j0, 2 * j1, bias_, res, relu_);
      }
    }
  }
  std::string implName() const override { return "gemm_conv:avx2:nChw8c"; }
  std::vector<PackedInput> packedInputs() const override {
    std::vector<PackedInput> r;
    cpu::notePacked(1, w_plain_, wei_, &r);
    return r;
  }

 private:
  Geometry g_{};
  int threads_ = 1;
  const float *x_ = nullptr, *bias_ = nullptr, *res_ = nullptr;
  float* y_ = nullptr;
  bool relu_ = false, in_place_ = false;
  memory::desc w_plain_;
  memory wei_, a_;
};

}  // namespace

bool gemmConvAvx2Serves(const KernelInit& k) {
  static const bool enabled = cpu::switchedOn("ASC_CONV_GEMM");
  if (!enabled || !avx2BlockedConv(k)) return false;
  const ir::Shape &ws = k.inputs[1].shape(), &ys = k.outputs[0].shape();
  const int64_t p = ys[2] * ys[3];
  return ws[2] * ws[3] > 1 && p > 0 && p <= kMaxOutput;
}

Result<std::unique_ptr<Kernel>> createGemmConvAvx2(const KernelInit& k) {
  auto kernel = std::make_unique<GemmConvAvx2>();
  ASC_RETURN_IF_ERROR(kernel->init(k));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

}  // namespace asc::ops
