// winograd_avx2.cpp: Winograd F(2x2, 3x3) convolution of fp32 nChw8c tensors on AVX2 + FMA.
//
// Each 2x2 block of outputs (a tile) comes from a 4x4 block of inputs d: Y = A^T [(G g G^T) .
// (B^T d B)] A, with the 16 products of the bracket summed over the input channels. So the
// convolution becomes 16 matrix products, one per position xi of the 4x4 bracket:
// M_xi [tiles x K] = V_xi [tiles x C] . U_xi [C x K], which take 16 multiply-adds per tile and
// channel pair where the direct kernel takes 36: 2.25 x fewer. The transforms are additions only
// (G has halves), so the error stays that of a direct sum (winograd_test checks).
//
// The work is split into blocks of tiles, spread over the threads. For each block: its inputs
// are transformed into V (each thread's scratch: 16 x C x tiles, sized to stay in L2), the 16
// products run 64 output channels at a time into M (scratch beside V) on a 6-tile x 16-channel
// register-blocked FMA kernel, and M's tiles are transformed back, with the bias, a fused
// residual and Relu applied, straight into the output. The weights are transformed on every run
// (into a temporary shared by every kernel) from their plain bytes: that costs 2-10 % of the
// convolution, and keeps the model's resident memory at its plain weights.
//
// Threads. Each thread transforms the weights it uses into its own part of the buffer, so no
// thread reads what another wrote: with more tiles than output channels (SqueezeNet's 55x55
// convolutions) each takes a share of the tiles and transforms all the weights; with fewer
// (ResNet's 14x14 ones) each takes a share of the output channels, their weights, and every
// tile's input transform. The duplicated transform is the smaller of the two. Shared weights
// (each thread transforming a share, every thread reading all of them) cost little while the
// two cores share an L3, but on a VM whose vCPUs were seen moving to cores that do not (a
// cache line's round trip 300 ns instead of 80: scripts/bench/core_latency.cpp) the reads
// across cores made 2-thread runs 11-13 % slower: SqueezeNet under the AVX2 cap 2.97 -> 2.64
// ms, ResNet-18 13.3 -> 11.6, ResNet-50 32.6 -> 31.5 with own weights; on cores that share an
// L3 SqueezeNet 2.26 -> 2.24, ResNet-18 even, ResNet-50 1 % slower (2 Zen 5 cores, 2026-12-06,
// paired runs tagged by the round trip). ASC_WINOGRAD_OWN_U=0 shares them as before.
//
// Why it exists: oneDNN 2.6's direct jit:avx2 kernel reaches 140-150 GFLOP/s on 2 Zen 3 cores on
// ResNet's and GoogLeNet's 3x3 convolutions (75 % of the FMA peak), the ceiling of a direct
// method; ONNX Runtime's im2col + SGEMM is on a par (docs/runtime.md, "Kernels").
#include "ops/conv/winograd_avx2.h"

#include <immintrin.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cpu/features.h"
#include "cpu/parallel.h"
#include "asc/ops/op_def.h"
#include "ops/avx2_product.h"
#include "ops/conv/avx2_conv.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

constexpr int64_t kXi = 16;     // positions of the 4x4 transformed tile
constexpr int64_t kChunk = 64;  // output channels per pass of the products
constexpr int64_t kMaxTiles = 36;

// U's floats per pass over the output channels at most (1 MiB): a convolution of more output
// channels transforms its weights and runs its tiles once per pass. ResNet's 14x14 stage of 256
// channels in and out (U of 4 MiB in one pass, in the session's shared scratchpad) takes 4
// passes: ResNet-50's peak RSS under the AVX2 cap 128.6 -> 124.7 MB, its time within the noise;
// the input's transform is repeated per pass (a few % of the products' work at 256 output
// channels). With each thread its own U the budget is shared out: 1 MiB / threads each, in
// passes of a multiple of 16 channels (so the scratchpad stays as large as before).
constexpr int64_t kMaxUFloats = (1 << 20) / 4;

struct Shape : WinogradTiles {
  int64_t tb;       // tiles per block (at most; a multiple of 6)
  int64_t scratch;  // floats of one thread's scratch
  int64_t kp;       // output channels per pass (K, or a multiple of kChunk; of 16 with own U)
};

// U [16][kp/16][C][16] of the pass from output channel `base` from the plain weights g
// [K][C][3][3], output channels [k0, k1) (multiples of 16): U_xi = G g G^T with G = [1 0 0;
// .5 .5 .5; .5 -.5 .5; 0 0 1]. Eight output channels at a time, one per lane (gathered), so each
// store writes 8 neighbours of U.
__attribute__((target("avx2,fma"))) void transformWeights(const float* w, const Shape& s,
                                                          int64_t base, int64_t k0, int64_t k1,
                                                          float* u) {
  const int64_t xi_stride = s.kp / 16 * s.c * 16;
  const __m256i lanes = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                           _mm256_set1_epi32(static_cast<int>(s.c * 9)));
  const __m256 half = _mm256_set1_ps(0.5f);
  for (int64_t k16 = k0; k16 < k1; k16 += 16)
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t k = k16; k < k16 + 16; k += 8) {  // both halves of U's 64-byte rows
        const float* g = w + (k * s.c + c) * 9;
        __m256 gv[9];
        for (int i = 0; i < 9; ++i) gv[i] = _mm256_i32gather_ps(g + i, lanes, 4);
        __m256 t[4][3];
        for (int j = 0; j < 3; ++j) {
          const __m256 a = gv[j], b = gv[3 + j], cc = gv[6 + j];
          t[0][j] = a;
          t[1][j] = _mm256_mul_ps(half, _mm256_add_ps(_mm256_add_ps(a, b), cc));
          t[2][j] = _mm256_mul_ps(half, _mm256_add_ps(_mm256_sub_ps(a, b), cc));
          t[3][j] = cc;
        }
        float* dst = u + (((k - base) / 16) * s.c + c) * 16 + k % 16;
        for (int i = 0; i < 4; ++i) {
          const __m256 a = t[i][0], b = t[i][1], cc = t[i][2];
          _mm256_storeu_ps(dst + (i * 4 + 0) * xi_stride, a);
          _mm256_storeu_ps(dst + (i * 4 + 1) * xi_stride,
                           _mm256_mul_ps(half, _mm256_add_ps(_mm256_add_ps(a, b), cc)));
          _mm256_storeu_ps(dst + (i * 4 + 2) * xi_stride,
                           _mm256_mul_ps(half, _mm256_add_ps(_mm256_sub_ps(a, b), cc)));
          _mm256_storeu_ps(dst + (i * 4 + 3) * xi_stride, cc);
        }
      }
}

// V [16][C/8][tb][8] for tiles [t0, t0 + nt) of one image x [C/8][H][W][8]: B^T d B with
// B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]; inputs outside the image (the padding) are 0.
__attribute__((target("avx2,fma"))) void transformInput(const float* x, const Shape& s, int64_t t0,
                                                        int64_t nt, float* v) {
  const int64_t cb_n = s.c / 8;
  const int64_t xi_stride = cb_n * s.tb * 8;
  for (int64_t cb = 0; cb < cb_n; ++cb) {
    const float* plane = x + cb * s.h * s.w * 8;
    for (int64_t j = 0; j < nt; ++j) {
      const int64_t t = t0 + j, ty = t / s.tw, tx = t % s.tw;
      const int64_t iy0 = 2 * ty - s.pt, ix0 = 2 * tx - s.pl;
      __m256 d[4][4];
      if (iy0 >= 0 && iy0 + 4 <= s.h && ix0 >= 0 && ix0 + 4 <= s.w) {
        for (int r = 0; r < 4; ++r)
          for (int q = 0; q < 4; ++q)
            d[r][q] = _mm256_loadu_ps(plane + ((iy0 + r) * s.w + ix0 + q) * 8);
      } else {
        for (int r = 0; r < 4; ++r)
          for (int q = 0; q < 4; ++q) {
            const int64_t iy = iy0 + r, ix = ix0 + q;
            d[r][q] = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w
                          ? _mm256_loadu_ps(plane + (iy * s.w + ix) * 8)
                          : _mm256_setzero_ps();
          }
      }
      __m256 e[4][4];
      for (int q = 0; q < 4; ++q) {  // rows: B^T d
        e[0][q] = _mm256_sub_ps(d[0][q], d[2][q]);
        e[1][q] = _mm256_add_ps(d[1][q], d[2][q]);
        e[2][q] = _mm256_sub_ps(d[2][q], d[1][q]);
        e[3][q] = _mm256_sub_ps(d[1][q], d[3][q]);
      }
      float* out = v + (cb * s.tb + j) * 8;
      for (int r = 0; r < 4; ++r) {  // columns: (B^T d) B
        _mm256_storeu_ps(out + (r * 4 + 0) * xi_stride, _mm256_sub_ps(e[r][0], e[r][2]));
        _mm256_storeu_ps(out + (r * 4 + 1) * xi_stride, _mm256_add_ps(e[r][1], e[r][2]));
        _mm256_storeu_ps(out + (r * 4 + 2) * xi_stride, _mm256_sub_ps(e[r][2], e[r][1]));
        _mm256_storeu_ps(out + (r * 4 + 3) * xi_stride, _mm256_sub_ps(e[r][1], e[r][3]));
      }
    }
  }
}

// The outputs of tiles [t0, t0 + nt), channels [k0, k0 + kc), from M [16][kc/8][tb][8]:
// A^T m A with A^T = [1 1 1 0; 0 1 -1 -1], plus the bias, the residual (res: the output's layout,
// may be y itself), then Relu.
__attribute__((target("avx2,fma"))) void transformOutput(const float* m, const Shape& s, int64_t t0,
                                                         int64_t nt, int64_t k0, int64_t kc,
                                                         const float* bias, const float* res,
                                                         bool relu, float* y) {
  const int64_t kb_n = kc / 8;
  const int64_t xi_stride = kb_n * s.tb * 8;
  const __m256 zero = _mm256_setzero_ps();
  for (int64_t kb = 0; kb < kb_n; ++kb) {
    const int64_t gkb = k0 / 8 + kb;
    const __m256 b = bias ? _mm256_loadu_ps(bias + gkb * 8) : zero;
    const int64_t plane = gkb * s.oh * s.ow * 8;
    for (int64_t j = 0; j < nt; ++j) {
      const float* in = m + (kb * s.tb + j) * 8;
      __m256 q[2][4];
      for (int c = 0; c < 4; ++c) {  // rows: A^T m
        const __m256 m0 = _mm256_loadu_ps(in + (0 * 4 + c) * xi_stride);
        const __m256 m1 = _mm256_loadu_ps(in + (1 * 4 + c) * xi_stride);
        const __m256 m2 = _mm256_loadu_ps(in + (2 * 4 + c) * xi_stride);
        const __m256 m3 = _mm256_loadu_ps(in + (3 * 4 + c) * xi_stride);
        q[0][c] = _mm256_add_ps(_mm256_add_ps(m0, m1), m2);
        q[1][c] = _mm256_sub_ps(_mm256_sub_ps(m1, m2), m3);
      }
      const int64_t t = t0 + j, oy0 = 2 * (t / s.tw), ox0 = 2 * (t % s.tw);
      for (int r = 0; r < 2; ++r) {
        const int64_t oy = oy0 + r;
        if (oy >= s.oh) break;
        __m256 o[2] = {_mm256_add_ps(_mm256_add_ps(q[r][0], q[r][1]), q[r][2]),
                       _mm256_sub_ps(_mm256_sub_ps(q[r][1], q[r][2]), q[r][3])};
        for (int c = 0; c < 2; ++c) {
          const int64_t ox = ox0 + c;
          if (ox >= s.ow) break;
          const int64_t at = plane + (oy * s.ow + ox) * 8;
          __m256 val = _mm256_add_ps(o[c], b);
          if (res) val = _mm256_add_ps(val, _mm256_loadu_ps(res + at));
          if (relu) val = _mm256_max_ps(val, zero);
          _mm256_storeu_ps(y + at, val);
        }
      }
    }
  }
}

// One block of tiles of one image: V, then the products and the output, 64 channels at a time,
// for the output channels [base, end) of one pass (U holds them).
__attribute__((target("avx2,fma"))) void runBlock(const float* x, const float* u, const Shape& s,
                                                  int64_t t0, int64_t nt, int64_t base, int64_t end,
                                                  const float* bias, const float* res, bool relu,
                                                  float* y, float* scratch) {
  float* v = scratch;
  float* m = scratch + kXi * s.c * s.tb;
  transformInput(x, s, t0, nt, v);
  const int64_t cb_n = s.c / 8, k16_n = s.kp / 16;
  for (int64_t k0 = base; k0 < end; k0 += kChunk) {
    const int64_t kc = std::min(kChunk, end - k0);
    const int64_t kb_n = kc / 8;
    for (int64_t xi = 0; xi < kXi; ++xi) {
      const float* vx = v + xi * cb_n * s.tb * 8;
      float* mx = m + xi * kb_n * s.tb * 8;
      for (int64_t k16 = k0 / 16; k16 < (k0 + kc) / 16; ++k16) {
        const float* ux = u + (xi * k16_n + k16 - base / 16) * s.c * 16;
        float* mk = mx + (k16 - k0 / 16) * 2 * s.tb * 8;
        for (int64_t i = 0; i < nt; i += 6) {
          const int64_t nr = std::min<int64_t>(6, nt - i);
          avx2::productFor(nr, false)(vx + i * 8, s.tb * 8, cb_n, ux, mk + i * 8, s.tb * 8);
        }
      }
    }
    transformOutput(m, s, t0, nt, k0, kc, bias, res, relu, y);
  }
}

// Below this many output positions the direct kernel is as fast: too few tiles to pay for the
// transforms, the weights' above all (made on every run, their cost is the tiles' per 1/tiles).
// ResNet-18's 14x14 convolutions of 256 channels took 2.5-3.2 ms here against 1.9 ms direct;
// its 28x28 ones of 128 channels 1.1-1.6 ms against 1.7-1.9 (2 Zen 3 cores, 512 KiB of L2 a
// core, in the model). On cores with 1 MiB of L2 or more it pays down to 10x10: on 2 Zen 5
// cores under ONEDNN_MAX_CPU_ISA=AVX2 (2 rounds of 30 runs, 28x28 against 10x10) ResNet-18
// 12.75/12.39 -> 11.93/12.05 ms, ResNet-50 31.76/32.09 -> 31.17/30.95, SqueezeNet 2.67/2.79 ->
// 2.39/2.42, GoogLeNet 10.25/10.40 -> 9.93/9.93, DenseNet-121 even; ResNet-50's 14x14
// convolutions 0.90-0.92 -> 0.73-0.88 ms. (The L2 size is the proxy that separates the CPUs
// measured; the weights' transform, 4 MiB for 256 x 256 channels, fits neither.)
constexpr int64_t kMinOutput = 28 * 28;
constexpr int64_t kMinOutputLargeL2 = 10 * 10;

int64_t minOutput() {
  static const int64_t v = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 >= (1L << 20) ? kMinOutputLargeL2 : kMinOutput;
  }();
  return v;
}

class WinogradAvx2 : public Kernel {
 public:
  explicit WinogradAvx2(const KernelInit& k) {
    const TensorRef &x = k.inputs[0], &y = k.outputs[0];
    x_ = x.f32();
    w_ = k.inputs[1].f32();
    y_ = static_cast<float*>(y.data);
    if (k.inputs.size() > 2 && k.inputs[2].data) bias_ = k.inputs[2].f32();
    if (k.inputs.size() > 3 && k.inputs[3].data) res_ = k.inputs[3].f32();
    relu_ = k.node.attrs.getString("activation", "") == "Relu";
    Shape& s = s_;
    static_cast<WinogradTiles&>(s) = winogradTiles(k);
    // Tiles per block: V (16 x C x tiles floats) within about 192 KiB, a multiple of the
    // product's 6 rows. The threads take equal runs of 6-tile groups (run()).
    threads_ = std::max(1, k.threads);
    s.tb = std::clamp<int64_t>((3072 / s.c) / 6 * 6, 6, kMaxTiles);
    s.scratch = (kXi * s.c * s.tb + kXi * kChunk * s.tb + 15) / 16 * 16;
    // One buffer for the transformed weights and each thread's V and M: the scratchpad the
    // session's primitives share (kernels run one at a time), so it adds no memory where a
    // larger oneDNN scratchpad exists (ResNet-50's strided 1x1 convolutions take 1.6 MB).
    // Each thread its own transformed weights (see "Threads" above), unless ASC_WINOGRAD_OWN_U=0.
    static const bool own_u = cpu::switchedOn("ASC_WINOGRAD_OWN_U");
    private_u_ = threads_ > 1 && own_u;
    by_channels_ = private_u_ && s.n * s.tiles < s.k && s.k / 16 >= threads_;
    const int64_t budget = private_u_ ? kMaxUFloats / threads_ : kMaxUFloats;
    const int64_t step = private_u_ ? 16 : kChunk;
    s.kp = kXi * s.c * s.k <= budget ? s.k : std::max(step, budget / (kXi * s.c) / step * step);
    u_floats_ = (kXi * s.c * s.kp + 15) / 16 * 16;
    const int64_t floats =
        private_u_ ? (u_floats_ + s.scratch) * threads_ : u_floats_ + s.scratch * threads_;
    buffer_ = cpu::sharedScratchpad(
        dnnl::memory::desc({floats}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a),
        implName(), k.env);
  }

  void run() override {
    const Shape& s = s_;
    float* u = static_cast<float*>(buffer_.get_data_handle());
    float* scratch = u + u_floats_;
    const int64_t all = s.n * ((s.tiles + 5) / 6);  // 6-tile groups
    if (private_u_) {  // each thread its own U: its share of the tiles, or of the channels
#pragma omp parallel num_threads(threads_)
      {
        const auto [tid, nt] = cpu::threadSlot();
        float* my_u = u + tid * (u_floats_ + s.scratch);
        float* mine = my_u + u_floats_;
        const int64_t g0 = by_channels_ ? 0 : all * tid / nt;
        const int64_t g1 = by_channels_ ? all : all * (tid + 1) / nt;
        const int64_t k16_n = s.k / 16;
        const int64_t kb = by_channels_ ? k16_n * tid / nt * 16 : 0;
        const int64_t ke = by_channels_ ? k16_n * (tid + 1) / nt * 16 : s.k;
        for (int64_t base = kb; base < ke && g0 < g1; base += s.kp) {
          const int64_t end = std::min(ke, base + s.kp);
          transformWeights(w_, s, base, base, end, my_u);
          runGroups(g0, g1, my_u, base, end, mine);
        }
      }
      return;
    }
    for (int64_t base = 0; base < s.k; base += s.kp) {
      const int64_t end = std::min(s.k, base + s.kp);
      cpu::parallelFor((end - base) / 16, 1, [&](int64_t b, int64_t e) {
        transformWeights(w_, s, base, base + b * 16, base + e * 16, u);
      });
      // Each thread its own scratch: the region has exactly threads_ threads (or fewer), and
      // each takes an equal run of groups, in blocks that do not cross an image.
#pragma omp parallel num_threads(threads_)
      {
        const auto [tid, nt] = cpu::threadSlot();
        runGroups(all * tid / nt, all * (tid + 1) / nt, u, base, end, scratch + tid * s.scratch);
      }
    }
  }
  std::string implName() const override { return "winograd_2x2_3x3:avx2:nChw8c"; }

 private:
  // The 6-tile groups [g0, g1) of the batch (numbered image by image) for the output channels
  // [base, end) with the transformed weights u of that pass, in blocks of at most tb tiles
  // that do not cross an image; mine is the calling thread's scratch.
  void runGroups(int64_t g0, int64_t g1, const float* u, int64_t base, int64_t end,
                 float* mine) const {
    const Shape& s = s_;
    const int64_t groups = (s.tiles + 5) / 6;
    const int64_t in_image = s.c / 8 * s.h * s.w * 8, out_image = s.k / 8 * s.oh * s.ow * 8;
    for (int64_t g = g0; g < g1;) {
      const int64_t img = g / groups, first = g % groups;
      const int64_t last = std::min({g1 - img * groups, groups, first + s.tb / 6});
      const int64_t t0 = first * 6, t1 = std::min(s.tiles, last * 6);
      runBlock(x_ + img * in_image, u, s, t0, t1 - t0, base, end, bias_,
               res_ ? res_ + img * out_image : nullptr, relu_, y_ + img * out_image, mine);
      g = img * groups + last;
    }
  }

  Shape s_{};
  int threads_ = 1;
  const float *x_ = nullptr, *w_ = nullptr, *bias_ = nullptr, *res_ = nullptr;
  float* y_ = nullptr;
  bool relu_ = false;
  bool private_u_ = false, by_channels_ = false;
  int64_t u_floats_ = 0;  // U's part of the buffer, then the threads' scratch
  dnnl::memory buffer_;
};

}  // namespace

bool winogradAvx2Serves(const KernelInit& k) {
  static const bool enabled = cpu::switchedOn("ASC_CONV_WINOGRAD");
  return enabled && avx2BlockedConv(k) && winogradGeometry(k, minOutput());
}

std::unique_ptr<Kernel> createWinogradAvx2(const KernelInit& k) {
  return std::make_unique<WinogradAvx2>(k);
}

}  // namespace asc::ops
