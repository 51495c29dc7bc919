// winograd_avx512.cpp: Winograd F(2x2, 3x3) convolution of fp32 channels-last (NHWC) tensors on
// AVX-512, the AVX-512 CPU's Blocked layout.
//
// The method is winograd_avx2.cpp's (read its header first): each 2x2 output tile comes from a
// 4x4 input tile, and the convolution becomes 16 matrix products, one per position xi of the
// transformed 4x4 tile, M_xi [tiles x K] = V_xi [tiles x C] . U_xi [C x K], summed over the input
// channels with 16 multiply-adds per tile and channel pair instead of 36. Here a vector holds 16
// channels of one position, which NHWC stores side by side, so the transforms load and store
// whole vectors with no reorder of the activations, and the product is 12 tiles x 32 output
// channels of 24 zmm accumulators.
//
// The weights are transformed on every run, one chunk of output channels at a time, from the
// layout atc stores (oneDNN's Abcd16a, the plain size) into a buffer the session's kernels share.
// That costs a few per cent of the convolution and keeps the model's memory at its plain weights.
// oneDNN's own Winograd kernel (which this one replaced) wants its transformed weights stored
// (16/9 the plain size: ResNet-50's OM held 131.7 MB instead of 102.9), an 11 MB scratchpad, and
// nChw16c activations, reordered in and out of the NHWC ones on every call. Measured on 2 Zen 4
// cores (msame --loop 20, 5 alternating rounds, medians): ResNet-18 11.8 ms against 13.3, U-Net
// 14.4 against 17.5, Inception-v3 47.8 against 48.7, GoogLeNet even, ResNet-50 33.5 against 33.0
// (its 14x14 stage of 256 channels pays most for the per-run weight transform); ResNet-50's peak
// RSS 128 MB against 148. Zen 4 runs a 512-bit multiply-add at half rate; on CPUs that do not
// (Zen 5, Intel's server cores) oneDNN's direct kernel is twice as fast, and this one serves
// only outputs of 28x28 and more (kMinOutputFullRate).
#include "ops/conv/winograd_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "asc/ops/op_def.h"
#include "cpu/features.h"
#include "cpu/parallel.h"
#include "ops/conv/avx2_conv.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

constexpr int64_t kXi = 16;      // positions of the 4x4 transformed tile
constexpr int64_t kRows = 12;    // tiles per call of the product
constexpr int64_t kChunk = 128;  // output channels per pass (a multiple of the 32-wide panels)

struct Shape : WinogradTiles {
  int64_t tb;       // tiles per block (at most)
  int64_t scratch;  // floats of one thread's scratch
};

// U [16][kc/16][C][16] of the output channels [base, base + kc), from the weights g in oneDNN's
// Abcd16a layout ([K/16][C][3][3][16], the kernel's packed weights): the part [k0, k1) of them
// (multiples of 16). U_xi = G g G^T with G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1], one output
// channel per lane, so each load and store moves 16 neighbours.
ASC_AVX512 void transformWeights(const float* w, const Shape& s, int64_t base, int64_t kc,
                                 int64_t k0, int64_t k1, float* u) {
  const int64_t xi_stride = kc * s.c;
  const __m512 half = _mm512_set1_ps(0.5f);
  for (int64_t k16 = k0; k16 < k1; k16 += 16)
    for (int64_t c = 0; c < s.c; ++c) {
      const float* g = w + ((k16 / 16) * s.c + c) * 9 * 16;
      __m512 gv[9];
      for (int i = 0; i < 9; ++i) gv[i] = _mm512_loadu_ps(g + i * 16);
      __m512 t[4][3];
      for (int j = 0; j < 3; ++j) {
        const __m512 a = gv[j], b = gv[3 + j], cc = gv[6 + j];
        t[0][j] = a;
        t[1][j] = _mm512_mul_ps(half, _mm512_add_ps(_mm512_add_ps(a, b), cc));
        t[2][j] = _mm512_mul_ps(half, _mm512_add_ps(_mm512_sub_ps(a, b), cc));
        t[3][j] = cc;
      }
      float* dst = u + ((k16 - base) / 16 * s.c + c) * 16;
      for (int i = 0; i < 4; ++i) {
        const __m512 a = t[i][0], b = t[i][1], cc = t[i][2];
        _mm512_storeu_ps(dst + (i * 4 + 0) * xi_stride, a);
        _mm512_storeu_ps(dst + (i * 4 + 1) * xi_stride,
                         _mm512_mul_ps(half, _mm512_add_ps(_mm512_add_ps(a, b), cc)));
        _mm512_storeu_ps(dst + (i * 4 + 2) * xi_stride,
                         _mm512_mul_ps(half, _mm512_add_ps(_mm512_sub_ps(a, b), cc)));
        _mm512_storeu_ps(dst + (i * 4 + 3) * xi_stride, cc);
      }
    }
}

// V [16][C/16][tb][16] for tiles [t0, t0 + nt) of one image x [H][W][C]: B^T d B with
// B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]; inputs outside the image (the padding) are 0.
ASC_AVX512 void transformInput(const float* x, const Shape& s, int64_t t0, int64_t nt, float* v) {
  const int64_t cb_n = s.c / 16;
  const int64_t xi_stride = cb_n * s.tb * 16;
  for (int64_t j = 0; j < nt; ++j) {
    const int64_t t = t0 + j, ty = t / s.tw, tx = t % s.tw;
    const int64_t iy0 = 2 * ty - s.pt, ix0 = 2 * tx - s.pl;
    const bool inside = iy0 >= 0 && iy0 + 4 <= s.h && ix0 >= 0 && ix0 + 4 <= s.w;
    for (int64_t cb = 0; cb < cb_n; ++cb) {
      __m512 d[4][4];
      for (int r = 0; r < 4; ++r)
        for (int q = 0; q < 4; ++q) {
          const int64_t iy = iy0 + r, ix = ix0 + q;
          d[r][q] = inside || (iy >= 0 && iy < s.h && ix >= 0 && ix < s.w)
                        ? _mm512_loadu_ps(x + (iy * s.w + ix) * s.c + cb * 16)
                        : _mm512_setzero_ps();
        }
      __m512 e[4][4];
      for (int q = 0; q < 4; ++q) {  // rows: B^T d
        e[0][q] = _mm512_sub_ps(d[0][q], d[2][q]);
        e[1][q] = _mm512_add_ps(d[1][q], d[2][q]);
        e[2][q] = _mm512_sub_ps(d[2][q], d[1][q]);
        e[3][q] = _mm512_sub_ps(d[1][q], d[3][q]);
      }
      float* out = v + (cb * s.tb + j) * 16;
      for (int r = 0; r < 4; ++r) {  // columns: (B^T d) B
        _mm512_storeu_ps(out + (r * 4 + 0) * xi_stride, _mm512_sub_ps(e[r][0], e[r][2]));
        _mm512_storeu_ps(out + (r * 4 + 1) * xi_stride, _mm512_add_ps(e[r][1], e[r][2]));
        _mm512_storeu_ps(out + (r * 4 + 2) * xi_stride, _mm512_sub_ps(e[r][2], e[r][1]));
        _mm512_storeu_ps(out + (r * 4 + 3) * xi_stride, _mm512_sub_ps(e[r][1], e[r][3]));
      }
    }
  }
}

// m [NR tiles][32] = v [NR][C] . u [C][32]: v in blocks of 16 along C ([C/16][.. vs ..][16], tile
// i at i * 16 of each), u as two panels of 16 columns ([C][16] each, u1 - u0 apart), m's two
// halves ms floats apart, tile i at i * 16 of each.
template <int NR>
ASC_AVX512 void product(const float* v, int64_t vs, int64_t cb_n, const float* u0, const float* u1,
                        float* m, int64_t ms) {
  __m512 a0[NR], a1[NR];
#pragma GCC unroll 12
  for (int i = 0; i < NR; ++i) a0[i] = a1[i] = _mm512_setzero_ps();
  for (int64_t cb = 0; cb < cb_n; ++cb) {
    const float* vp = v + cb * vs;
    const float *p0 = u0 + cb * 256, *p1 = u1 + cb * 256;
#pragma GCC unroll 4
    for (int ci = 0; ci < 16; ++ci) {
      const __m512 w0 = _mm512_loadu_ps(p0 + ci * 16), w1 = _mm512_loadu_ps(p1 + ci * 16);
#pragma GCC unroll 12
      for (int i = 0; i < NR; ++i) {
        const __m512 b = _mm512_set1_ps(vp[i * 16 + ci]);
        a0[i] = _mm512_fmadd_ps(b, w0, a0[i]);
        a1[i] = _mm512_fmadd_ps(b, w1, a1[i]);
      }
    }
  }
#pragma GCC unroll 12
  for (int i = 0; i < NR; ++i) {
    _mm512_storeu_ps(m + i * 16, a0[i]);
    _mm512_storeu_ps(m + ms + i * 16, a1[i]);
  }
}

using ProductFn = void (*)(const float*, int64_t, int64_t, const float*, const float*, float*,
                           int64_t);

template <int... NR>
constexpr std::array<ProductFn, sizeof...(NR)> productTable(std::integer_sequence<int, NR...>) {
  return {product<NR + 1>...};
}
const std::array<ProductFn, kRows> kProducts =
    productTable(std::make_integer_sequence<int, kRows>());

// The outputs of tiles [t0, t0 + nt), channels [k0, k0 + kc), from M [16][kc/16][tb][16]:
// A^T m A with A^T = [1 1 1 0; 0 1 -1 -1], plus the bias, the residual (res: the output's layout,
// may be y itself), then Relu.
ASC_AVX512 void transformOutput(const float* m, const Shape& s, int64_t t0, int64_t nt, int64_t k0,
                                int64_t kc, const float* bias, const float* res, bool relu,
                                float* y) {
  const int64_t kb_n = kc / 16;
  const int64_t xi_stride = kb_n * s.tb * 16;
  const __m512 zero = _mm512_setzero_ps();
  for (int64_t kb = 0; kb < kb_n; ++kb) {
    const int64_t ch = k0 + kb * 16;
    const __m512 b = bias ? _mm512_loadu_ps(bias + ch) : zero;
    for (int64_t j = 0; j < nt; ++j) {
      const float* in = m + (kb * s.tb + j) * 16;
      __m512 q[2][4];
      for (int c = 0; c < 4; ++c) {  // rows: A^T m
        const __m512 m0 = _mm512_loadu_ps(in + (0 * 4 + c) * xi_stride);
        const __m512 m1 = _mm512_loadu_ps(in + (1 * 4 + c) * xi_stride);
        const __m512 m2 = _mm512_loadu_ps(in + (2 * 4 + c) * xi_stride);
        const __m512 m3 = _mm512_loadu_ps(in + (3 * 4 + c) * xi_stride);
        q[0][c] = _mm512_add_ps(_mm512_add_ps(m0, m1), m2);
        q[1][c] = _mm512_sub_ps(_mm512_sub_ps(m1, m2), m3);
      }
      const int64_t t = t0 + j, oy0 = 2 * (t / s.tw), ox0 = 2 * (t % s.tw);
      for (int r = 0; r < 2; ++r) {
        const int64_t oy = oy0 + r;
        if (oy >= s.oh) break;
        const __m512 o[2] = {_mm512_add_ps(_mm512_add_ps(q[r][0], q[r][1]), q[r][2]),
                             _mm512_sub_ps(_mm512_sub_ps(q[r][1], q[r][2]), q[r][3])};
        for (int c = 0; c < 2; ++c) {
          const int64_t ox = ox0 + c;
          if (ox >= s.ow) break;
          const int64_t at = (oy * s.ow + ox) * s.k + ch;
          __m512 val = _mm512_add_ps(o[c], b);
          if (res) val = _mm512_add_ps(val, _mm512_loadu_ps(res + at));
          // (the masked forms: GCC 12 warns of _mm512_max_ps's undefined pass-through)
          if (relu) val = _mm512_maskz_max_ps(0xFFFF, val, zero);
          _mm512_storeu_ps(y + at, val);
        }
      }
    }
  }
}

// One block of tiles of one image, output channels [k0, k0 + kc) with their U: V, the products,
// the outputs.
void runBlock(const float* x, const float* u, const Shape& s, int64_t k0, int64_t kc, int64_t t0,
              int64_t nt, const float* bias, const float* res, bool relu, float* y,
              float* scratch) {
  float* v = scratch;
  float* m = scratch + kXi * s.c * s.tb;
  transformInput(x, s, t0, nt, v);
  const int64_t cb_n = s.c / 16, kb_n = kc / 16;
  for (int64_t xi = 0; xi < kXi; ++xi) {
    const float* vx = v + xi * cb_n * s.tb * 16;
    float* mx = m + xi * kb_n * s.tb * 16;
    for (int64_t kb = 0; kb < kb_n; kb += 2) {
      const float* ux = u + (xi * kb_n + kb) * s.c * 16;
      float* mk = mx + kb * s.tb * 16;
      for (int64_t i = 0; i < nt; i += kRows) {
        const int64_t nr = std::min(kRows, nt - i);
        kProducts[nr - 1](vx + i * 16, s.tb * 16, cb_n, ux, ux + s.c * 16, mk + i * 16, s.tb * 16);
      }
    }
  }
  transformOutput(m, s, t0, nt, k0, kc, bias, res, relu, y);
}

// Below this many output positions (ResNet's 7x7 stage) too few tiles pay for the transforms,
// the weights' above all; at 14x14 with 256 channels this kernel took 0.72 ms against oneDNN's
// direct 0.94 ms.
constexpr int64_t kMinOutput = 10 * 10;
// On CPUs with full-width 512-bit units (Zen 5, Intel's) the direct kernel runs twice a Zen 4's
// speed, and Winograd pays only on large images. On 2 Zen 5 cores (ResNet-50, --debug): 56x56 x
// 64 channels 0.34 ms against brgconv's 0.44, 28x28 x 128 0.40 against 0.41, 14x14 x 256 0.77
// against 0.40. Whole models from 28x28 up, alternating with it off (3 rounds of 30 runs):
// 2-14 % faster on a quiet host (GoogLeNet 6.0 -> 5.2 ms, ResNet-50 17.2 -> 15.9), from 8 %
// slower to 5 % faster while other tenants load the host's memory. From 10x10 it was faster
// still when quiet and lost most under that load (docs/runtime.md): 28x28 is the hedge.
constexpr int64_t kMinOutputFullRate = 28 * 28;

class WinogradAvx512 : public Kernel {
 public:
  Status init(const KernelInit& k) {
    const TensorRef &x = k.inputs[0], &w = k.inputs[1], &y = k.outputs[0];
    x_ = x.f32();
    y_ = static_cast<float*>(y.data);
    if (k.inputs.size() > 2 && k.inputs[2].data) bias_ = k.inputs[2].f32();
    if (k.inputs.size() > 3 && k.inputs[3].data) res_ = k.inputs[3].f32();
    relu_ = k.node.attrs.getString("activation", "") == "Relu";
    Shape& s = s_;
    static_cast<WinogradTiles&>(s) = winogradTiles(k);
    // Tiles per block: each thread's share of the tiles in one block where V and M (16 x (C +
    // kc) x tiles floats, kc the channels of a chunk) fit in about 256 KiB, so that each slice of
    // U, once loaded, serves all of them: on ResNet's 14x14 convolutions (49 tiles, 256 channels) a
    // block per thread.
    threads_ = std::max(1, k.threads);
    const int64_t share = (s.n * s.tiles + threads_ - 1) / threads_, kc = std::min(kChunk, s.k);
    // At 64 + 64 channels a block of 8 tiles (V and M in 64 KiB) runs as fast as one of 32
    // (ResNet-50's three 56x56 ones: 1.75-1.84 against 1.80-1.85 ms, 2 threads), and the buffer (U
    // + each thread's V and M) is 384 KiB instead of 768: it fits in the arena's free bytes beside
    // layer1's activations instead of sizing a workspace of its own. Wider ones lose with small
    // blocks (8.2 against 7.0 ms over all of ResNet-50's Winograd convolutions at 64 KiB).
    const int64_t block_floats = s.c + kc <= 128 ? 1024 : 4096;
    s.tb = std::max<int64_t>(1, std::min(share, block_floats / (s.c + kc)));
    s.scratch = (kXi * s.c * s.tb + kXi * kc * s.tb + 15) / 16 * 16;
    // One buffer for the transformed weights and each thread's V and M: the scratchpad the
    // session's primitives share (kernels run one at a time).
    u_floats_ = kXi * s.c * kc;
    const int64_t floats = u_floats_ + s.scratch * threads_;
    buffer_ = cpu::sharedScratchpad(
        dnnl::memory::desc({floats}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a),
        implName(), k.env);
    // The weights in Abcd16a, 16 output channels side by side: atc stores them so (packed, the
    // plain size), and the per-run transform reads whole vectors instead of gathering.
    using tag = dnnl::memory::format_tag;
    const dnnl::memory::dims wd = cpu::dimsOf(w.shape());
    w_plain_ = dnnl::memory::desc(wd, dnnl::memory::data_type::f32, tag::abcd);
    try {
      ASC_TRY(wei_, cpu::constantWeights(
                        k.node, w, w_plain_,
                        dnnl::memory::desc(wd, dnnl::memory::data_type::f32, tag::Abcd16a), k.env));
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(k.node, e);
    }
    return Status::ok();
  }

  void run() override {
    const Shape& s = s_;
    float* u = static_cast<float*>(buffer_.get_data_handle());
    float* scratch = u + u_floats_;
    const int64_t all = s.n * s.tiles;
    const int64_t in_image = s.h * s.w * s.c, out_image = s.oh * s.ow * s.k;
    // Output channels kChunk at a time: the threads transform that chunk's weights together,
    // then each takes an equal run of the tiles, in blocks of at most tb that do not cross an
    // image, its own scratch for their V and M. The input transform is redone per chunk (a few
    // per cent of the products), so U is one chunk's, not all of K's.
#pragma omp parallel num_threads(threads_)
    {
      const auto [tid, nt] = cpu::threadSlot();
      float* mine = scratch + tid * s.scratch;
      const int64_t t_end = all * (tid + 1) / nt;
      for (int64_t k0 = 0; k0 < s.k; k0 += kChunk) {
        const int64_t kc = std::min(kChunk, s.k - k0), n16 = kc / 16;
        transformWeights(static_cast<const float*>(wei_.get_data_handle()), s, k0, kc,
                         k0 + n16 * tid / nt * 16, k0 + n16 * (tid + 1) / nt * 16, u);
#pragma omp barrier
        for (int64_t t = all * tid / nt; t < t_end;) {
          const int64_t img = t / s.tiles, t0 = t % s.tiles;
          const int64_t t1 = std::min({t0 + s.tb, s.tiles, t_end - img * s.tiles});
          runBlock(x_ + img * in_image, u, s, k0, kc, t0, t1 - t0, bias_,
                   res_ ? res_ + img * out_image : nullptr, relu_, y_ + img * out_image, mine);
          t = img * s.tiles + t1;
        }
#pragma omp barrier
      }
    }
  }
  std::string implName() const override { return "winograd_2x2_3x3:avx512:nhwc"; }
  std::vector<PackedInput> packedInputs() const override {
    std::vector<PackedInput> r;
    cpu::notePacked(1, w_plain_, wei_, &r);
    return r;
  }

 private:
  Shape s_{};
  int threads_ = 1;
  const float *x_ = nullptr, *bias_ = nullptr, *res_ = nullptr;
  float* y_ = nullptr;
  bool relu_ = false;
  int64_t u_floats_ = 0;  // U's part of the buffer, then the threads' scratch
  dnnl::memory buffer_;
  dnnl::memory::desc w_plain_;  // the weights' stored layout
  dnnl::memory wei_;            // and in Abcd16a
};

}  // namespace

bool winogradAvx512Serves(const KernelInit& k) {
  // Read on every call (a session's build), so that a test can force the kernel on any
  // AVX-512 CPU: ASC_CONV_WINOGRAD=1 takes it down to 10x10, 0 leaves every convolution to
  // oneDNN. By default it serves down to 10x10 where 512-bit multiply-adds run at half rate
  // (cpu::avx512HalfRate), and down to 28x28 elsewhere (kMinOutputFullRate).
  const int setting = cpu::switchSetting("ASC_CONV_WINOGRAD");
  if (setting == 0 || !cpu::hasAvx512() || !channelsLast() || !ownConvOperands(k)) return false;
  const int64_t min_output =
      setting == 1 || cpu::avx512HalfRate() ? kMinOutput : kMinOutputFullRate;
  return k.inputs[0].shape()[1] % 16 == 0 && k.outputs[0].shape()[1] % 32 == 0 &&
         winogradGeometry(k, min_output);
}

Result<std::unique_ptr<Kernel>> createWinogradAvx512(const KernelInit& k) {
  auto kernel = std::make_unique<WinogradAvx512>();
  ASC_RETURN_IF_ERROR(kernel->init(k));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

}  // namespace asc::ops
