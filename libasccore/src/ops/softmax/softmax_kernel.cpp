// softmax_kernel.cpp: oneDNN softmax_v2 (accurate / log) along one axis of a plain tensor, and a
// loop for Hardmax (one-hot of the first maximum) on the same view.
// Before opset 13 the op coerces the input to 2-D at `axis`; that is the same computation as a
// softmax over the last axis of the [prod(d[:axis]), prod(d[axis:])] view.
//
// Softmax over contiguous rows (the axis is the innermost of the view: attention scores) runs on
// the runtime's own AVX2 loop where the CPU has AVX2 and FMA: per row the maximum, then
// e^(x - max) (avx2::exp8) stored and summed in 8 lanes, then the row times 1 / sum; rows split
// over the threads in contiguous runs, each row by one thread (the results do not depend on the
// thread count). oneDNN 2.6's jit softmax took 48-58 us for the benchmark transformer's
// [8, 128, 128] scores on 2 Zen 5 cores (AVX-512 and AVX2 alike), the own loop ~15 us
// (docs/runtime.md). ASC_SOFTMAX_OWN=0 gives them back to oneDNN.
#include "softmax_kernel.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

#include "cpu/features.h"
#include "cpu/parallel.h"
#include "ops/avx2_math.h"
#include "ops/op_util.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

class SoftmaxKernel : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const ir::Shape& s = k.inputs[0].shape();
    const int64_t rank = static_cast<int64_t>(s.size());
    const bool coerce = n.attrs.getInt("coerce_2d", 0) != 0;
    int64_t axis = n.attrs.getInt("axis", coerce ? 1 : -1);
    if (axis < 0) axis += rank;
    ir::Shape view = s;
    if (view.empty()) view = {1};
    if (coerce) {
      int64_t outer = 1, inner = 1;
      for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= s[i];
      view = {outer, inner};
      axis = 1;
    }
    try {
      dnnl::memory::desc md(cpu::dimsOf(view), dnnl::memory::data_type::f32,
                            cpu::plainTag(view.size()));
      auto alg = n.op_type == "LogSoftmax" ? dnnl::algorithm::softmax_log
                                           : dnnl::algorithm::softmax_accurate;
      dnnl::softmax_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, md, md,
                                       static_cast<int>(axis));
      dnnl::softmax_v2_forward::primitive_desc pd(d, env_.engine);
      set(dnnl::softmax_v2_forward(pd), pd,
          {{DNNL_ARG_SRC, dnnl::memory(md, env_.engine, k.inputs[0].data)},
           {DNNL_ARG_DST, dnnl::memory(md, env_.engine, k.outputs[0].data)}});
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }
};

// y = softmax(x) along rows of n contiguous floats.
__attribute__((target("avx2,fma"))) void softmaxRows(const float* x, float* y, int64_t rows,
                                                     int64_t n) {
  const int64_t vn = n / 8 * 8;
  const __m256 low = _mm256_set1_ps(-87.3f), zero = _mm256_setzero_ps();
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * n;
    float* yr = y + r * n;
    __m256 mv = _mm256_set1_ps(-INFINITY);
    for (int64_t i = 0; i < vn; i += 8) mv = _mm256_max_ps(mv, _mm256_loadu_ps(xr + i));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, mv);
    float m = *std::max_element(lanes, lanes + 8);
    for (int64_t i = vn; i < n; ++i) m = std::max(m, xr[i]);
    if (std::isinf(m) && m > 0) {  // +inf in the row: NaN, as e^(x - max) gives elsewhere
      std::fill(yr, yr + n, NAN);
      continue;
    }
    const __m256 mb = _mm256_set1_ps(m);
    __m256 sv = zero;
    for (int64_t i = 0; i < vn; i += 8) {
      const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(xr + i), mb);
      // e^d, and 0 below e^-87.3 (a masked score of -inf or -1e9 contributes nothing)
      const __m256 e = _mm256_and_ps(avx2::exp8(d), _mm256_cmp_ps(d, low, _CMP_GE_OQ));
      _mm256_storeu_ps(yr + i, e);
      sv = _mm256_add_ps(sv, e);
    }
    _mm256_store_ps(lanes, sv);
    float sum = 0.f;
    for (float l : lanes) sum += l;
    for (int64_t i = vn; i < n; ++i) {
      yr[i] = std::exp(xr[i] - m);
      sum += yr[i];
    }
    const float inv = 1.f / sum;
    const __m256 iv = _mm256_set1_ps(inv);
    for (int64_t i = 0; i < vn; i += 8)
      _mm256_storeu_ps(yr + i, _mm256_mul_ps(_mm256_loadu_ps(yr + i), iv));
    for (int64_t i = vn; i < n; ++i) yr[i] *= inv;
  }
}

class SoftmaxAvx2 : public Kernel {
 public:
  SoftmaxAvx2(const KernelInit& k, int64_t rows, int64_t n)
      : x_(k.inputs[0].f32()),
        y_(static_cast<float*>(k.outputs[0].data)),
        rows_(rows),
        n_(n),
        threads_(std::max(1, k.threads)) {}
  void run() override {
#pragma omp parallel num_threads(threads_) if (threads_ > 1 && rows_ * n_ >= 16384)
    {
      const auto [tid, nt] = cpu::threadSlot();
      const int64_t r0 = rows_ * tid / nt, r1 = rows_ * (tid + 1) / nt;
      softmaxRows(x_ + r0 * n_, y_ + r0 * n_, r1 - r0, n_);
    }
  }
  std::string implName() const override { return "rows:avx2:own"; }

 private:
  const float* x_;
  float* y_;
  int64_t rows_, n_;
  int threads_;
};

template <typename T>
class HardmaxKernel : public Kernel {
 public:
  explicit HardmaxKernel(const KernelInit& k)
      : in_(static_cast<const T*>(k.inputs[0].data)), out_(static_cast<T*>(k.outputs[0].data)) {
    softmaxView(k.node, k.inputs[0].shape(), &outer_, &n_, &inner_);
  }
  void run() override { hardmax(in_, out_, outer_, n_, inner_); }
  std::string implName() const override { return "hardmax"; }

 private:
  const T* in_;
  T* out_;
  int64_t outer_ = 1, n_ = 1, inner_ = 1;
};

}  // namespace

void softmaxView(const ir::Node& node, const ir::Shape& s, int64_t* outer, int64_t* n,
                 int64_t* inner) {
  const int64_t rank = static_cast<int64_t>(s.size());
  const bool coerce = node.attrs.getInt("coerce_2d", 0) != 0;
  int64_t axis = node.attrs.getInt("axis", coerce ? 1 : -1);
  if (axis < 0) axis += rank;
  *outer = *n = *inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    if (i < axis)
      *outer *= s[i];
    else if (i == axis || coerce)
      *n *= s[i];
    else
      *inner *= s[i];
  }
}

Result<std::unique_ptr<Kernel>> createHardmaxKernel(const KernelInit& k) {
  switch (k.inputs[0].dtype()) {
    case ir::DType::F32:
      return std::unique_ptr<Kernel>(std::make_unique<HardmaxKernel<float>>(k));
    case ir::DType::F64:
      return std::unique_ptr<Kernel>(std::make_unique<HardmaxKernel<double>>(k));
    default:
      return Status::error(ErrorCode::NotImplemented, "node '{}': hardmax of {} is not supported",
                           k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  }
}

Result<std::unique_ptr<Kernel>> createSoftmaxKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': softmax of {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  static const bool own = cpu::switchedOn("ASC_SOFTMAX_OWN") && cpu::hasAvx2Fma();
  if (own && k.node.op_type == "Softmax" && k.inputs[0].layout == Layout::Plain &&
      k.outputs[0].layout == Layout::Plain) {
    int64_t outer = 1, n = 1, inner = 1;
    softmaxView(k.node, k.inputs[0].shape(), &outer, &n, &inner);
    if (inner == 1 && n >= 8)
      return std::unique_ptr<Kernel>(std::make_unique<SoftmaxAvx2>(k, outer, n));
  }
  auto p = std::make_unique<SoftmaxKernel>(k.env);
  ASC_RETURN_IF_ERROR(p->init(k));
  return std::unique_ptr<Kernel>(std::move(p));
}

}  // namespace asc::ops
