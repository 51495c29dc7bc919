// rnn_own.cpp: the runtime's own LSTM, and GRU with linear_before_reset 1 (PyTorch's, as its
// exporter writes it), for small batches on AVX2 + FMA CPUs, where ONNX's semantics and the
// common case meet (the fused kernel's conditions, rnn_fused.cpp): layout 0, the default
// activations, no clip, no input_forget, no sequence_lens, no peepholes, constant W, R and B,
// and hidden_size a multiple of 8.
//
// Why it exists: at batch 1 a recurrence is a chain of small matrix-vector products, one per
// step, and what costs is each step's overhead, not its arithmetic. oneDNN 2.6's brgemm RNN took
// 4-5 us per step on the benchmarks' LSTM (hidden 128, 2 Zen 4 cores), 1.03-1.05 x ONNX Runtime.
// Here a step is one pass over R (kept in L2) into eight accumulators per pair of 8-unit blocks,
// with the cell's gates applied in registers as soon as a block's four gates are summed.
//
// Layout (made once, at creation): W^T and R^T as one panel per block of 8 hidden units, each
// panel [rows][8G] with the block's G gates side by side in ONNX's order (LSTM i, o, f, c; GRU
// z, r, h: column g * 8 + u % 8 of panel u / 8), so that a step reads each panel front to back;
// the biases likewise, and each step's input share (X W^T + biases) [rows][G H] by block too
// (column (u / 8) * 8G + g * 8 + u % 8). That share is one product over all steps before the
// recurrence. The biases in it are Wb + Rb, except GRU's Rbh, which r scales with h Rh^T:
// h~ = tanh(x Wh^T + Wbh + r (h Rh^T + Rbh)), so the step starts that sum at Rbh instead.
// Threads: each step's work is claimed in units of two blocks from one counter per direction,
// in step order, a unit waiting until the step before is done; two directions start one per
// thread, and a thread done with its own helps the other. No barrier: a thread descheduled on
// a busy machine holds no unit, and the others go on without it.
//
// The gates' functions are vectorized: e^x by avx2::exp8 (ops/avx2_math.h, about 1 ulp),
// sigmoid as 1 / (1 + e^-x), and tanh by Cephes' odd
// polynomial below |x| = 0.625 and 1 - 2 / (e^2|x| + 1) above (a few ulp).
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "cpu/features.h"
#include "cpu/parallel.h"
#include "ops/avx2_math.h"
#include "rnn_kernel.h"

namespace asc::ops {
namespace {

#define ASC_AVX2 __attribute__((target("avx2,fma")))

ASC_AVX2 inline __m256 sigmoid8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.f);
  return _mm256_div_ps(one, _mm256_add_ps(one, avx2::exp8(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}

ASC_AVX2 inline __m256 tanh8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.f), one = _mm256_set1_ps(1.f);
  const __m256 a = _mm256_andnot_ps(sign, x);
  // |x| >= 0.625: 1 - 2 / (e^2|x| + 1), with x's sign
  const __m256 e = avx2::exp8(_mm256_add_ps(a, a));
  __m256 big = _mm256_sub_ps(one, _mm256_div_ps(_mm256_set1_ps(2.f), _mm256_add_ps(e, one)));
  big = _mm256_or_ps(big, _mm256_and_ps(sign, x));
  // |x| < 0.625: x + x z P(z), z = x^2
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(-5.70498872745e-3f);
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(2.06390887954e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-5.37397155531e-2f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.33314422036e-1f));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-3.33332819422e-1f));
  const __m256 small = _mm256_fmadd_ps(_mm256_mul_ps(p, z), x, x);
  return _mm256_blendv_ps(big, small, _mm256_cmp_ps(a, _mm256_set1_ps(0.625f), _CMP_LT_OQ));
}

// The cell of one block of 8 units from its four summed gates (i, o, f, c): c = f c + i g,
// h = o tanh(c). Writes c in place and h to each of its destinations (h_out, y or null).
ASC_AVX2 inline void cell(const __m256 acc[4], float* c, float* h_out, float* y) {
  const __m256 i = sigmoid8(acc[0]), o = sigmoid8(acc[1]), f = sigmoid8(acc[2]);
  const __m256 g = tanh8(acc[3]);
  const __m256 cv = _mm256_fmadd_ps(f, _mm256_loadu_ps(c), _mm256_mul_ps(i, g));
  _mm256_storeu_ps(c, cv);
  const __m256 h = _mm256_mul_ps(o, tanh8(cv));
  _mm256_storeu_ps(h_out, h);
  if (y) _mm256_storeu_ps(y, h);
}

// GRU's cell (linear_before_reset 1) of one block: z, r from their sums, h~ = tanh(xh + r hh)
// with xh this step's input share of gate h and hh the h Rh^T + Rbh sum, h = h~ + z (h_prev - h~).
ASC_AVX2 inline void gruCell(const __m256 acc[3], const float* xh, const float* h_prev,
                             float* h_out, float* y) {
  const __m256 z = sigmoid8(acc[0]), r = sigmoid8(acc[1]);
  const __m256 hh = tanh8(_mm256_fmadd_ps(r, acc[2], _mm256_loadu_ps(xh)));
  const __m256 h = _mm256_fmadd_ps(z, _mm256_sub_ps(_mm256_loadu_ps(h_prev), hh), hh);
  _mm256_storeu_ps(h_out, h);
  if (y) _mm256_storeu_ps(y, h);
}

struct Dims {
  int64_t T, N, I, H, D;
  int64_t G;  // gates: LSTM 4, GRU 3
  int64_t cols() const { return G * H; }
  int64_t width() const { return 8 * G; }  // of a block's panel
};

// gx [rows][G H] = b + x [rows][I] . w, for rows [r0, r1); w in panels [H / 8][I][8G].
template <int G>
ASC_AVX2 void inputGates(const float* x, const float* w, const float* b, const Dims& d, int64_t r0,
                         int64_t r1, float* gx) {
  const int64_t C = d.cols(), blocks = d.H / 8, P = 8 * G;
  constexpr int64_t kRows = G == 4 ? 3 : 4;  // 12 accumulators
  for (int64_t row = r0; row < r1; row += kRows) {
    const int64_t nr = std::min(kRows, r1 - row);
    for (int64_t blk = 0; blk < blocks; ++blk) {
      const float* panel = w + blk * d.I * P;
      __m256 acc[kRows][G];
      for (int64_t q = 0; q < kRows; ++q)
        for (int j = 0; j < G; ++j) acc[q][j] = _mm256_loadu_ps(b + blk * P + 8 * j);
      for (int64_t i = 0; i < d.I; ++i) {
        __m256 wv[G];
        for (int j = 0; j < G; ++j) wv[j] = _mm256_loadu_ps(panel + i * P + 8 * j);
        for (int64_t q = 0; q < nr; ++q) {
          const __m256 xb = _mm256_broadcast_ss(x + (row + q) * d.I + i);
          for (int j = 0; j < G; ++j) acc[q][j] = _mm256_fmadd_ps(xb, wv[j], acc[q][j]);
        }
      }
      for (int64_t q = 0; q < nr; ++q)
        for (int j = 0; j < G; ++j)
          _mm256_storeu_ps(gx + (row + q) * C + blk * P + 8 * j, acc[q][j]);
    }
  }
}

// The G sums of block blk's gates after one step: LSTM's from this step's input share gx_t,
// GRU's z and r likewise and its h from Rbh (rbh), each plus h_prev . R (panels [H / 8][H][8G]).
template <int G>
ASC_AVX2 inline void startSums(const float* gx_t, const float* rbh, int64_t blk, __m256 a[G]) {
  for (int j = 0; j < G; ++j)
    a[j] = G == 3 && j == 2 ? _mm256_loadu_ps(rbh + blk * 8)
                            : _mm256_loadu_ps(gx_t + blk * 8 * G + 8 * j);
}

// Block blk's cell from its sums: LSTM's c and h, or GRU's h.
template <int G>
ASC_AVX2 inline void finish(const __m256 a[G], const float* gx_t, const float* h_prev, int64_t blk,
                            float* c, float* h_next, float* y_t) {
  float* y = y_t ? y_t + blk * 8 : nullptr;
  if constexpr (G == 4)
    cell(a, c + blk * 8, h_next + blk * 8, y);
  else
    gruCell(a, gx_t + blk * 24 + 16, h_prev + blk * 8, h_next + blk * 8, y);
}

// One step of one direction for batch row n, blocks [b0, b1): the gates' sums and the cell, h
// to h_next and y_t (or null); c is LSTM's cell state.
template <int G>
ASC_AVX2 void step(const float* gx_t, const float* r, const float* rbh, const float* h_prev,
                   const Dims& d, int64_t b0, int64_t b1, float* c, float* h_next, float* y_t) {
  constexpr int64_t P = 8 * G;
  const int64_t panel = d.H * P, H = d.H;
  int64_t blk = b0;
  for (; blk + 2 <= b1; blk += 2) {  // two blocks: 2G independent sums
    __m256 a[G], b[G];
    startSums<G>(gx_t, rbh, blk, a);
    startSums<G>(gx_t, rbh, blk + 1, b);
    const float *ra = r + blk * panel, *rb = ra + panel;
    for (int64_t k = 0; k < H; ++k) {
      const __m256 hb = _mm256_broadcast_ss(h_prev + k);
      for (int j = 0; j < G; ++j) {
        a[j] = _mm256_fmadd_ps(hb, _mm256_loadu_ps(ra + k * P + 8 * j), a[j]);
        b[j] = _mm256_fmadd_ps(hb, _mm256_loadu_ps(rb + k * P + 8 * j), b[j]);
      }
    }
    finish<G>(a, gx_t, h_prev, blk, c, h_next, y_t);
    finish<G>(b, gx_t, h_prev, blk + 1, c, h_next, y_t);
  }
  if (blk < b1) {  // one block: the sum over k in two halves, for more chains
    __m256 a[G], e[G];
    startSums<G>(gx_t, rbh, blk, a);
    for (int j = 0; j < G; ++j) e[j] = _mm256_setzero_ps();
    const float* ra = r + blk * panel;
    int64_t k = 0;
    for (; k + 2 <= H; k += 2) {
      const __m256 h0 = _mm256_broadcast_ss(h_prev + k), h1 = _mm256_broadcast_ss(h_prev + k + 1);
      for (int j = 0; j < G; ++j) {
        a[j] = _mm256_fmadd_ps(h0, _mm256_loadu_ps(ra + k * P + 8 * j), a[j]);
        e[j] = _mm256_fmadd_ps(h1, _mm256_loadu_ps(ra + k * P + P + 8 * j), e[j]);
      }
    }
    for (; k < H; ++k) {
      const __m256 hb = _mm256_broadcast_ss(h_prev + k);
      for (int j = 0; j < G; ++j)
        a[j] = _mm256_fmadd_ps(hb, _mm256_loadu_ps(ra + k * P + 8 * j), a[j]);
    }
    for (int j = 0; j < G; ++j) a[j] = _mm256_add_ps(a[j], e[j]);
    finish<G>(a, gx_t, h_prev, blk, c, h_next, y_t);
  }
}

class OwnRnn : public Kernel {
 public:
  explicit OwnRnn(const KernelInit& k) {
    const ir::Node& n = k.node;
    const ir::Shape& xs = k.inputs[0].shape();
    lstm_ = cellOf(n) == CellKind::Lstm;
    d_.G = lstm_ ? 4 : 3;
    d_.T = xs[0];
    d_.N = xs[1];
    d_.I = xs[2];
    d_.H = n.attrs.getInt("hidden_size", k.inputs[2].shape()[2]);
    const std::string dir = n.attrs.getString("direction", "forward");
    d_.D = dir == "bidirectional" ? 2 : 1;
    reverse_ = dir == "reverse";
    threads_ = std::max(1, k.threads);
    const int64_t H = d_.H, I = d_.I, C = d_.cols(), D = d_.D, G = d_.G, P = d_.width();
    const float* W = k.inputs[1].f32();
    const float* R = k.inputs[2].f32();
    const float* B = hasTensor(k.inputs, 3) ? k.inputs[3].f32() : nullptr;
    w_.assign(static_cast<size_t>(D * I * C), 0.f);
    r_.assign(static_cast<size_t>(D * H * C), 0.f);
    b_.assign(static_cast<size_t>(D * C), 0.f);
    rbh_.assign(static_cast<size_t>(D * H), 0.f);
    for (int64_t dd = 0; dd < D; ++dd)
      for (int64_t g = 0; g < G; ++g)
        for (int64_t u = 0; u < H; ++u) {
          const int64_t row = dd * C + g * H + u, col = g * 8 + u % 8, blk = u / 8;
          for (int64_t i = 0; i < I; ++i)
            w_[static_cast<size_t>(((dd * (H / 8) + blk) * I + i) * P + col)] = W[row * I + i];
          for (int64_t i = 0; i < H; ++i)
            r_[static_cast<size_t>(((dd * (H / 8) + blk) * H + i) * P + col)] = R[row * H + i];
          if (!B) continue;
          const float wb = B[dd * 2 * C + g * H + u], rb = B[dd * 2 * C + C + g * H + u];
          const bool gru_h = !lstm_ && g == 2;  // Rbh goes inside r's product
          b_[static_cast<size_t>(dd * C + blk * P + col)] = gru_h ? wb : wb + rb;
          if (gru_h) rbh_[static_cast<size_t>(dd * H + u)] = rb;
        }
    gx_.assign(static_cast<size_t>(D * d_.T * d_.N * C), 0.f);
    h_.assign(static_cast<size_t>(D * 2 * d_.N * H), 0.f);
    c_.assign(static_cast<size_t>(D * d_.N * H), 0.f);
    done_ = std::vector<std::atomic<int64_t>>(static_cast<size_t>(D * d_.T));
    x_ = k.inputs[0].f32();
    if (hasTensor(k.inputs, 5)) h0_ = k.inputs[5].f32();
    if (lstm_ && hasTensor(k.inputs, 6)) c0_ = k.inputs[6].f32();
    if (hasTensor(k.outputs, 0)) y_ = static_cast<float*>(k.outputs[0].data);
    if (hasTensor(k.outputs, 1)) yh_ = static_cast<float*>(k.outputs[1].data);
    if (lstm_ && hasTensor(k.outputs, 2)) yc_ = static_cast<float*>(k.outputs[2].data);
  }

  void run() override {
    const Dims& d = d_;
    const int64_t C = d.cols(), NH = d.N * d.H, rows = d.T * d.N, blocks = d.H / 8;
    // Initial states, then the input's share of every step (rows of all directions split
    // evenly over the threads).
    for (int64_t dd = 0; dd < d.D; ++dd) {
      float* h = h_.data() + dd * 2 * NH;
      float* c = c_.data() + dd * NH;
      if (h0_)
        std::memcpy(h, h0_ + dd * NH, static_cast<size_t>(NH) * sizeof(float));
      else
        std::fill(h, h + NH, 0.f);
      if (c0_)
        std::memcpy(c, c0_ + dd * NH, static_cast<size_t>(NH) * sizeof(float));
      else
        std::fill(c, c + NH, 0.f);
    }
    cpu::parallelFor(d.D * rows, 1, [&](int64_t b, int64_t e) {
      for (int64_t dd = b / rows; dd * rows < e; ++dd) {
        const int64_t r0 = std::max(b, dd * rows) - dd * rows,
                      r1 = std::min(e, (dd + 1) * rows) - dd * rows;
        if (r0 < r1)
          (lstm_ ? inputGates<4> : inputGates<3>)(x_, w_.data() + dd * d.I * C, b_.data() + dd * C,
                                                  d, r0, r1, gx_.data() + dd * rows * C);
      }
    });
    const int64_t units = (blocks + 1) / 2;  // of a step's work, claimed by the threads (recur)
    const int threads = static_cast<int>(std::min<int64_t>(threads_, d.D == 2 ? 2 : units));
    for (int64_t dd = 0; dd < d.D; ++dd) {
      next_[static_cast<size_t>(dd)].store(0, std::memory_order_relaxed);
      for (int64_t s = 0; s < d.T; ++s) done_[static_cast<size_t>(dd * d.T + s)].store(0);
    }
#pragma omp parallel num_threads(threads)
    {
      const auto [tid, nt] = cpu::threadSlot();
      if (d.D == 2 && nt == 2) {
        recur(tid);  // a direction per thread, the other's units once its own are done
        recur(1 - tid);
      } else {
        for (int64_t dd = 0; dd < d.D; ++dd) recur(dd);
      }
    }
    for (int64_t dd = 0; dd < d.D; ++dd) {
      const float* h = h_.data() + dd * 2 * NH + (d.T % 2) * NH;  // the last step's h
      if (yh_) std::memcpy(yh_ + dd * NH, h, static_cast<size_t>(NH) * sizeof(float));
      if (yc_)
        std::memcpy(yc_ + dd * NH, c_.data() + dd * NH, static_cast<size_t>(NH) * sizeof(float));
    }
  }

  std::string implName() const override {
    return lstm_ ? "rnn:lstm_avx2:own" : "rnn:gru_lbr_avx2:own";
  }

 private:
  // Direction dd's recurrence, by every thread of the region at once. The work of a step is
  // claimed in units of two blocks from one counter that runs through the steps in order; a
  // unit of step s starts once all of step s - 1's units are done (each step reads all of h).
  // A thread that is descheduled between claims holds nothing, so on a busy machine the others
  // take its share and carry on instead of waiting for it at a barrier each step (2.3 ms for
  // the benchmarks' LSTM on a loaded machine with barriers, 0.3 ms alone).
  void recur(int64_t dd) {
    const Dims& d = d_;
    const int64_t C = d.cols(), NH = d.N * d.H, rows = d.T * d.N, blocks = d.H / 8;
    const int64_t units = (blocks + 1) / 2, all = d.T * units;
    const bool backward = reverse_ || dd == 1;
    float* h = h_.data() + dd * 2 * NH;
    float* c = c_.data() + dd * NH;
    const float* r = r_.data() + dd * d.H * C;
    const float* rbh = rbh_.data() + dd * d.H;
    const float* gx = gx_.data() + dd * rows * C;
    const auto one = lstm_ ? step<4> : step<3>;
    std::atomic<int64_t>& next = next_[static_cast<size_t>(dd)];
    std::atomic<int64_t>* done = done_.data() + dd * d.T;
    for (int64_t u = next.fetch_add(1, std::memory_order_relaxed); u < all;
         u = next.fetch_add(1, std::memory_order_relaxed)) {
      const int64_t s = u / units, b0 = (u % units) * 2, b1 = std::min(blocks, b0 + 2);
      if (s > 0) waitFor(done[s - 1], units);
      const int64_t t = backward ? d.T - 1 - s : s;
      const float* h_prev = h + (s % 2) * NH;
      float* h_next = h + ((s + 1) % 2) * NH;
      for (int64_t n = 0; n < d.N; ++n)
        one(gx + (t * d.N + n) * C, r, rbh, h_prev + n * d.H, d, b0, b1, c + n * d.H,
            h_next + n * d.H, y_ ? y_ + ((t * d.D + dd) * d.N + n) * d.H : nullptr);
      done[s].fetch_add(1, std::memory_order_release);
    }
  }

  // Until `count` reaches `want`: a short spin, then yielding the core (the thread being
  // waited for may need it).
  static void waitFor(const std::atomic<int64_t>& count, int64_t want) {
    for (int spin = 0; count.load(std::memory_order_acquire) < want; ++spin) {
      if (spin < 100)
        _mm_pause();
      else
        std::this_thread::yield();
    }
  }

  Dims d_{};
  bool lstm_ = true;  // else GRU with linear_before_reset 1
  bool reverse_ = false;
  int threads_ = 1;
  const float *x_ = nullptr, *h0_ = nullptr, *c0_ = nullptr;
  float *y_ = nullptr, *yh_ = nullptr, *yc_ = nullptr;
  std::vector<float> w_, r_, b_;  // W^T, R^T (panels by block) and the input share's biases
  std::vector<float> rbh_;        // GRU: Rbh per direction
  std::vector<float> gx_;         // [D][T * N][G H]: each step's input share
  std::vector<float> h_, c_;      // [D][2][N][H] (this step's and the next), LSTM's [D][N][H]
  std::atomic<int64_t> next_[2];  // per direction: the next unit of work to claim
  std::vector<std::atomic<int64_t>> done_;  // [D][T]: units done per step
};

}  // namespace

std::unique_ptr<Kernel> tryOwnRnnKernel(const KernelInit& k) {
  static const bool enabled = cpu::switchedOn("ASC_RNN_OWN");
  static const bool cpu_ok = cpu::hasAvx2Fma();
  const ir::Node& n = k.node;
  const bool gru_lbr = cellOf(n) == CellKind::Gru && n.attrs.getInt("linear_before_reset", 0) != 0;
  if (!enabled || !cpu_ok || (cellOf(n) != CellKind::Lstm && !gru_lbr) || !fusedRnnSemantics(k))
    return nullptr;
  const ir::Shape& xs = k.inputs[0].shape();
  const int64_t H = n.attrs.getInt("hidden_size", k.inputs[2].shape()[2]);
  // Small batches: a larger one is a matrix product per step, oneDNN's strength.
  if (xs.size() != 3 || xs[1] > 4 || H % 8 != 0 || H <= 0) return nullptr;
  return std::make_unique<OwnRnn>(k);
}

}  // namespace asc::ops
