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
// blocking. The product keeps all 6 x 16 accumulators busy whatever the image size. It serves
// 1x1 convolutions of such outputs too (A is then the input, or its strided positions): on 2 Zen 5
// cores under ONEDNN_MAX_CPU_ISA=AVX2, six 1x1 convolutions of 2048 <-> 512 channels on 7x7 took
// 2.76-2.80 ms on oneDNN's jit_1x1:avx2 and 2.71-2.73 here (ONNX Runtime 2.75-2.85), ResNet-50
// 1-2 % less in all.
// B streams from memory once per convolution (ResNet's 3x3 ones of 512 channels: 9.4 MB), so
// each call of the product prefetches a part of B's next slice: those convolutions 8 % faster.
//
// Taps that read only padding. Where a tap reads padding for many outputs (dilated convolutions
// with wide pads: DeepLab's ASPP, dilation 12 on 14x14, where 82 % of the output-tap pairs read
// zeros), the outputs are split into classes by the taps that read inside the input for them:
// the rows of the output by which kernel rows stay inside, the columns likewise, a class for each
// pair. Each class is its own product over its own taps (A gathered for its positions, B's rows
// of those taps), into a scratch that is then copied to the class's positions. It serves when
// that takes at most half the product's steps of the whole matrix (zeros included), also for
// outputs larger than 7x7 (up to 32x32), where oneDNN's AVX2 kernel would multiply every zero:
// it refuses pads that wide, and runs on a zero-bordered copy of the input (conv_kernel.cpp).
#include "ops/conv/gemm_conv_avx2.h"

#include <immintrin.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

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
constexpr int64_t kMaxSparseOutput = 32 * 32;
// Output channels below which a dense convolution of more than one tap stays with oneDNN: each
// thread's one or two 16-column blocks of the product do not repay the gather of A. DenseNet-121's
// sixteen 3x3 -> 32 convolutions at 7x7 under ONEDNN_MAX_CPU_ISA=AVX2 (2 Zen 5 cores) took
// 650 us here against 392 on oneDNN's jit:avx2; its 1x1 -> 128 ones 930 against 970.
constexpr int64_t kMinDenseChannels = 64;
constexpr int64_t kChunkFloats = (256 << 10) / 4;  // A's part per chunk of the sum (L2)
constexpr int64_t kSlice = 32;  // column blocks of B per call of the product (16 KiB: L1)

struct Geometry : ConvExtents {
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t p;         // output positions
  int64_t kb_total;  // B's row blocks of 8: taps * C / 8
};

// A run of a class's column blocks of A whose rows of B lie side by side: A's blocks [kb, kb +
// n) read B's row blocks [b, b + n).
struct Run {
  int64_t kb, n, b;
};

// Outputs that the same taps read inside the input for (all of them, zeros gathered, when the
// convolution is dense), and how their product runs.
struct TapClass {
  std::vector<int32_t> pos;   // output positions oy * ow + ox, ascending
  std::vector<int32_t> taps;  // ky * kw + kx, ascending
  std::vector<Run> runs;
  int64_t rows = 0;         // pos rounded up to the product's 6 rows
  int64_t kb_n = 0;         // taps * C / 8
  int64_t kb_chunk = 0;     // of those, per chunk of the sum
  bool contiguous = false;  // pos is one range: the product writes straight into y
};

// The product's steps (rows rounded up to 6, times taps) of the classes.
int64_t steps(const std::vector<TapClass>& classes) {
  int64_t n = 0;
  for (const TapClass& c : classes)
    n += (static_cast<int64_t>(c.pos.size()) + 5) / 6 * 6 * static_cast<int64_t>(c.taps.size());
  return n;
}

// For each output index along one dim, the mask of the kernel's taps along it that read inside
// the input (extent `in`, stride s, pad `pad`, dilation d, k taps <= 64).
std::vector<uint64_t> insideMasks(int64_t out, int64_t in, int64_t k, int64_t s, int64_t pad,
                                  int64_t d) {
  std::vector<uint64_t> m(static_cast<size_t>(out), 0);
  for (int64_t o = 0; o < out; ++o)
    for (int64_t t = 0; t < k; ++t) {
      const int64_t i = o * s - pad + t * d;
      if (i >= 0 && i < in) m[static_cast<size_t>(o)] |= uint64_t{1} << t;
    }
  return m;
}

// The classes of g's outputs: one per pair of a row mask and a column mask (insideMasks), when
// they take at most half the steps of one dense product; else the one dense class.
std::vector<TapClass> tapClasses(const Geometry& g) {
  std::vector<TapClass> dense(1);
  for (int32_t i = 0; i < g.p; ++i) dense[0].pos.push_back(i);
  for (int32_t t = 0; t < g.kh * g.kw; ++t) dense[0].taps.push_back(t);
  std::vector<TapClass> sparse;
  if (g.kh <= 64 && g.kw <= 64) {
    const auto rows = insideMasks(g.oh, g.h, g.kh, g.sh, g.pt, g.dh);
    const auto cols = insideMasks(g.ow, g.w, g.kw, g.sw, g.pl, g.dw);
    std::map<std::pair<uint64_t, uint64_t>, size_t> index;
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const auto key = std::make_pair(rows[size_t(oy)], cols[size_t(ox)]);
        auto [it, fresh] = index.emplace(key, sparse.size());
        if (fresh) {
          sparse.emplace_back();
          for (int32_t ky = 0; ky < g.kh; ++ky)
            for (int32_t kx = 0; kx < g.kw; ++kx)
              if ((key.first >> ky & 1) && (key.second >> kx & 1))
                sparse.back().taps.push_back(ky * static_cast<int32_t>(g.kw) + kx);
        }
        sparse[it->second].pos.push_back(static_cast<int32_t>(oy * g.ow + ox));
      }
  }
  std::vector<TapClass> out =
      !sparse.empty() && 2 * steps(sparse) <= steps(dense) ? std::move(sparse) : std::move(dense);
  const int64_t cb_n = g.c / 8;
  for (TapClass& c : out) {
    const int64_t np = static_cast<int64_t>(c.pos.size());
    c.rows = (np + 5) / 6 * 6;
    c.kb_n = static_cast<int64_t>(c.taps.size()) * cb_n;
    // Whole slices per chunk (a short last slice per chunk costs the product its efficiency).
    c.kb_chunk =
        std::clamp<int64_t>(kChunkFloats / (c.rows * 8) / kSlice * kSlice, kSlice, 1 << 30);
    c.kb_chunk = std::min(c.kb_chunk, std::max<int64_t>(c.kb_n, 1));
    c.contiguous = np > 0 && c.pos.back() - c.pos.front() == np - 1;
    for (size_t i = 0; i < c.taps.size(); ++i) {
      const int64_t kb = static_cast<int64_t>(i) * cb_n, b = c.taps[i] * cb_n;
      if (!c.runs.empty() && c.runs.back().b + c.runs.back().n == b)
        c.runs.back().n += cb_n;
      else
        c.runs.push_back(Run{kb, cb_n, b});
    }
  }
  return out;
}

// A's column block kb of class c for image x [C/8][H][W][8]: the class's tap kb / (C/8) of
// channel block kb % (C/8), into a chunk of A stored for the product: [row group of 6][column
// block][6][8], `blocks` column blocks per row group (so each group's slice is contiguous).
__attribute__((target("avx2,fma"))) void gather(const float* x, const Geometry& g,
                                                const TapClass& c, int64_t kb, int64_t blocks,
                                                float* a) {
  const int64_t cb_n = g.c / 8, tap = c.taps[size_t(kb / cb_n)], cb = kb % cb_n;
  const int64_t ky = tap / g.kw, kx = tap % g.kw;
  const float* plane = x + cb * g.h * g.w * 8;
  const __m256 zero = _mm256_setzero_ps();
  for (size_t i = 0; i < c.pos.size(); ++i) {
    const int64_t pos = c.pos[i], oy = pos / g.ow, ox = pos % g.ow;
    const int64_t iy = oy * g.sh - g.pt + ky * g.dh, ix = ox * g.sw - g.pl + kx * g.dw;
    const bool inside = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w;
    const int64_t r = static_cast<int64_t>(i);
    _mm256_storeu_ps(a + (r / 6 * blocks * 6 + r % 6) * 8,
                     inside ? _mm256_loadu_ps(plane + (iy * g.w + ix) * 8) : zero);
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

// The geometry of node k (an avx2BlockedConv).
Geometry geometry(const KernelInit& k) {
  const ir::Node& n = k.node;
  const ir::Shape& ws = k.inputs[1].shape();
  const auto strides = n.attrs.getInts("strides", {1, 1});
  const auto dil = n.attrs.getInts("dilations", {1, 1});
  Geometry g{};
  static_cast<ConvExtents&>(g) = convExtents(k);
  g.kh = ws[2];
  g.kw = ws[3];
  g.sh = strides[0];
  g.sw = strides[1];
  g.dh = dil[0];
  g.dw = dil[1];
  g.p = g.oh * g.ow;
  g.kb_total = g.kh * g.kw * g.c / 8;
  return g;
}

class GemmConvAvx2 : public Kernel {
 public:
  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const TensorRef &x = k.inputs[0], &w = k.inputs[1], &y = k.outputs[0];
    const Geometry& g = g_ = geometry(k);
    classes_ = tapClasses(g);
    int64_t a_floats = 8, s_floats = 8;
    for (const TapClass& c : classes_) {
      a_floats = std::max(a_floats, c.kb_chunk * c.rows * 8);
      if (!c.contiguous) s_floats = std::max(s_floats, c.rows * g.k);
    }
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
      // A's chunk and the classes' outputs in one shared scratch.
      a_ = cpu::sharedScratchpad(
          memory::desc({a_floats + s_floats}, memory::data_type::f32, memory::format_tag::a),
          implName(), k.env);
      a_floats_ = a_floats;
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }

  void run() override {
    const Geometry& g = g_;
    const float* b = static_cast<const float*>(wei_.get_data_handle());
    float* a = static_cast<float*>(a_.get_data_handle());
    float* scratch = a + a_floats_;
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
        for (const TapClass& c : classes_) {
          // A contiguous class writes into y, the others into the scratch, [K/8][rows][8].
          const int64_t np = static_cast<int64_t>(c.pos.size());
          float* out = c.contiguous ? y + c.pos.front() * 8 : scratch;
          const int64_t ld = c.contiguous ? g.p * 8 : c.rows * 8;  // floats per 8 channels
          for (int64_t kb0 = 0; kb0 < c.kb_n; kb0 += c.kb_chunk) {
            const int64_t kb1 = std::min(c.kb_n, kb0 + c.kb_chunk), blocks = kb1 - kb0;
#pragma omp for schedule(static)
            for (int64_t kb = kb0; kb < kb1; ++kb) gather(x, g, c, kb, blocks, a + (kb - kb0) * 48);
            // (the loop's barrier: A's chunk is complete.) Each column block's B in slices of
            // at most kSlice column blocks (16 KiB: they stay in L1 across the row groups).
            for (int64_t j = j0; j < j1; ++j) {
              float* yj = out + 2 * j * ld;
              for (const Run& run : c.runs) {
                const int64_t lo = std::max(run.kb, kb0), hi = std::min(run.kb + run.n, kb1);
                for (int64_t ks = lo; ks < hi; ks += kSlice) {
                  const int64_t kn = std::min(kSlice, hi - ks);
                  const float* bj = b + (j * k_total + (run.b + ks - run.kb) * 8) * 16;
                  const bool acc = ks > 0 || (c.contiguous && in_place_);
                  // The next slice of B (next in memory) is fetched while this one runs.
                  const int64_t groups = (np + 5) / 6;
                  for (int64_t r = 0; r < np; r += 6) {
                    avx2::prefetchPart(bj + kn * 128, kn * 128 * 4, r / 6, groups);
                    avx2::productFor(std::min<int64_t>(6, np - r), acc)(
                        a + (r * blocks + (ks - kb0) * 6) * 8, 48, kn, bj, yj + r * 8, ld);
                  }
                }
              }
            }
#pragma omp barrier
          }
          if (!c.contiguous || c.kb_n == 0) place(c, out, c.kb_n == 0, 2 * j0, 2 * j1, y);
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
  // Class c's outputs in y's channel blocks [ob0, ob1): its scratch s copied in (added to a
  // residual y holds), or zeros when no tap reads inside the input for it.
  __attribute__((target("avx2,fma"))) void place(const TapClass& c, const float* s, bool zeros,
                                                 int64_t ob0, int64_t ob1, float* y) const {
    const int64_t p = g_.p;
    for (int64_t ob = ob0; ob < ob1; ++ob)
      for (size_t i = 0; i < c.pos.size(); ++i) {
        float* dst = y + (ob * p + c.pos[i]) * 8;
        if (zeros) {
          if (!in_place_) _mm256_storeu_ps(dst, _mm256_setzero_ps());
          continue;
        }
        __m256 v = _mm256_loadu_ps(s + (ob * c.rows + static_cast<int64_t>(i)) * 8);
        if (in_place_) v = _mm256_add_ps(v, _mm256_loadu_ps(dst));
        _mm256_storeu_ps(dst, v);
      }
  }

  Geometry g_{};
  std::vector<TapClass> classes_;
  int64_t a_floats_ = 0;
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
  if (p <= 0 || p > kMaxSparseOutput) return false;
  // Dense ones of at most 7x7 outputs, but not a 3x3 (or larger) one of few output channels,
  // where gathering A weighs more than the product.
  if (p <= kMaxOutput && (ws[2] * ws[3] == 1 || ys[1] >= kMinDenseChannels)) return true;
  // Else only when taps that read padding alone leave at most half the product.
  const std::vector<TapClass> classes = tapClasses(geometry(k));
  return classes.size() > 1 || classes[0].taps.size() < static_cast<size_t>(ws[2] * ws[3]);
}

Result<std::unique_ptr<Kernel>> createGemmConvAvx2(const KernelInit& k) {
  auto kernel = std::make_unique<GemmConvAvx2>();
  ASC_RETURN_IF_ERROR(kernel->init(k));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

}  // namespace asc::ops
