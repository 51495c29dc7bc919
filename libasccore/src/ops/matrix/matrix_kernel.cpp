// matrix_kernel.cpp: Trilu on the bytes of any element type. k (input 1) may be a run-time input:
// the kernel reads it on every run (the output's shape does not depend on it).
#include "matrix_kernel.h"

#include <cstring>

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

namespace {

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

Result<std::unique_ptr<Kernel>> createTriluKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<TriluKernel>(k));
}

}  // namespace asc::ops
