// matrix_kernel.cpp: Trilu on the bytes of any element type (k, input 1, may be a run-time input:
// read on every run); Det by LU decomposition with partial pivoting in double; ReverseSequence
// (the sequence lengths may be run-time too) as byte copies; Einsum by its naive walk (einsum.h).
#include "matrix_kernel.h"

#include "einsum.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace asc::ops {

void trilu(const uint8_t* in, uint8_t* out, const ir::Shape& x, size_t es, bool upper, int64_t k) {
  const int64_t rows = x[x.size() - 2], cols = x.back();
  const int64_t plane = rows * cols;
  const int64_t mats = plane != 0 ? ir::numElements(x) / plane : 0;
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        const size_t off = static_cast<size_t>((m * rows + i) * cols + j) * es;
        const bool keep = upper ? j - i >= k : j - i <= k;
        if (keep)
          std::memcpy(out + off, in + off, es);
        else
          std::memset(out + off, 0, es);
      }
}

double determinant(std::vector<double> a, int64_t n) {
  double det = 1;
  for (int64_t col = 0; col < n; ++col) {
    int64_t pivot = col;
    for (int64_t r = col + 1; r < n; ++r)
      if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col])) pivot = r;
    if (a[pivot * n + col] == 0) return 0;
    if (pivot != col) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[col * n + j], a[pivot * n + j]);
      det = -det;
    }
    det *= a[col * n + col];
    for (int64_t r = col + 1; r < n; ++r) {
      const double f = a[r * n + col] / a[col * n + col];
      for (int64_t j = col; j < n; ++j) a[r * n + j] -= f * a[col * n + j];
    }
  }
  return det;
}

namespace {

class DetKernel : public Kernel {
 public:
  explicit DetKernel(const KernelInit& k)
      : in_(k.inputs[0].f32()), out_(static_cast<float*>(k.outputs[0].data)) {
    const ir::Shape& x = k.inputs[0].shape();
    n_ = x.back();
    mats_ = n_ ? ir::numElements(x) / (n_ * n_) : 0;
  }
  void run() override {
    std::vector<double> a(static_cast<size_t>(n_ * n_));
    for (int64_t m = 0; m < mats_; ++m) {
      for (int64_t i = 0; i < n_ * n_; ++i) a[i] = in_[m * n_ * n_ + i];
      out_[m] = static_cast<float>(determinant(a, n_));
    }
  }
  std::string implName() const override { return "det-lu"; }

 private:
  const float* in_;
  float* out_;
  int64_t n_ = 0, mats_ = 0;
};

class ReverseSequenceKernel : public Kernel {
 public:
  explicit ReverseSequenceKernel(const KernelInit& k)
      : in_(static_cast<const uint8_t*>(k.inputs[0].data)),
        lens_(static_cast<const int64_t*>(k.inputs[1].data)),
        out_(static_cast<uint8_t*>(k.outputs[0].data)),
        shape_(k.inputs[0].shape()),
        es_(ir::dtypeSize(k.inputs[0].dtype())),
        batch_axis_(k.node.attrs.getInt("batch_axis", 1)),
        time_axis_(k.node.attrs.getInt("time_axis", 0)) {}
  void run() override {
    // Rows of the trailing dims (after the first two) move as one block.
    int64_t block = 1;
    for (size_t d = 2; d < shape_.size(); ++d) block *= shape_[d];
    const size_t bytes = static_cast<size_t>(block) * es_;
    const int64_t d0 = shape_[0], d1 = shape_[1];
    for (int64_t i = 0; i < d0; ++i)
      for (int64_t j = 0; j < d1; ++j) {
        const int64_t b = batch_axis_ == 0 ? i : j, t = time_axis_ == 0 ? i : j;
        const int64_t len = std::min<int64_t>(lens_[b], time_axis_ == 0 ? d0 : d1);
        const int64_t src_t = t < len ? len - 1 - t : t;
        const int64_t si = time_axis_ == 0 ? src_t : i, sj = time_axis_ == 0 ? j : src_t;
        std::memcpy(out_ + (i * d1 + j) * bytes, in_ + (si * d1 + sj) * bytes, bytes);
      }
  }
  std::string implName() const override { return "reverse-sequence"; }

 private:
  const uint8_t* in_;
  const int64_t* lens_;
  uint8_t* out_;
  ir::Shape shape_;
  size_t es_;
  int64_t batch_axis_, time_axis_;
};

template <typename T>
class EinsumKernel : public Kernel {
 public:
  EinsumKernel(const KernelInit& k, einsum::Plan plan) : plan_(std::move(plan)) {
    for (const auto& in : k.inputs) {
      ins_.push_back(static_cast<const T*>(in.data));
      shapes_.push_back(in.shape());
    }
    out_ = static_cast<T*>(k.outputs[0].data);
  }
  void run() override {
    const auto r = einsum::evaluate(
        plan_, shapes_, [&](size_t i, int64_t off) { return static_cast<double>(ins_[i][off]); });
    for (size_t i = 0; i < r.size(); ++i) out_[i] = static_cast<T>(r[i]);
  }
  std::string implName() const override { return "einsum-naive"; }

 private:
  einsum::Plan plan_;
  std::vector<const T*> ins_;
  std::vector<ir::Shape> shapes_;
  T* out_;
};

class TriluKernel : public Kernel {
 public:
  explicit TriluKernel(const KernelInit& k)
      : in_(static_cast<const uint8_t*>(k.inputs[0].data)),
        out_(static_cast<uint8_t*>(k.outputs[0].data)),
        shape_(k.inputs[0].shape()),
        es_(ir::dtypeSize(k.inputs[0].dtype())),
        upper_(k.node.attrs.getInt("upper", 1) != 0),
        k_(k.inputs.size() > 1 ? static_cast<const int64_t*>(k.inputs[1].data) : nullptr) {}
  void run() override { trilu(in_, out_, shape_, es_, upper_, k_ ? *k_ : 0); }
  std::string implName() const override { return "trilu"; }

 private:
  const uint8_t* in_;
  uint8_t* out_;
  ir::Shape shape_;
  size_t es_;
  bool upper_;
  const int64_t* k_;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createDetKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}' (Det): {} is not supported",
                         k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  return std::unique_ptr<Kernel>(std::make_unique<DetKernel>(k));
}

Result<std::unique_ptr<Kernel>> createReverseSequenceKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<ReverseSequenceKernel>(k));
}

Result<std::unique_ptr<Kernel>> createEinsumKernel(const KernelInit& k) {
  std::vector<ir::Shape> shapes;
  for (const auto& in : k.inputs) shapes.push_back(in.shape());
  einsum::Plan plan;
  const std::string err = einsum::parse(k.node.attrs.getString("equation", ""), shapes, &plan);
  if (!err.empty())
    return Status::error(ErrorCode::InvalidModel, "node '{}' (Einsum): {}", k.node.name, err);
  switch (k.inputs[0].dtype()) {
    case ir::DType::F32:
      return std::unique_ptr<Kernel>(std::make_unique<EinsumKernel<float>>(k, std::move(plan)));
    case ir::DType::F64:
      return std::unique_ptr<Kernel>(std::make_unique<EinsumKernel<double>>(k, std::move(plan)));
    case ir::DType::I32:
      return std::unique_ptr<Kernel>(std::make_unique<EinsumKernel<int32_t>>(k, std::move(plan)));
    case ir::DType::I64:
      return std::unique_ptr<Kernel>(std::make_unique<EinsumKernel<int64_t>>(k, std::move(plan)));
    default:
      return Status::error(ErrorCode::NotImplemented, "node '{}' (Einsum): {} is not supported",
                           k.node.name, ir::dtypeName(k.inputs[0].dtype()));
  }
}

Result<std::unique_ptr<Kernel>> createTriluKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<TriluKernel>(k));
}

}  // namespace asc::ops
