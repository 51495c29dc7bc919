// quant_kernel.cpp: linear (de)quantization, per tensor or per slice along `axis` (the scale and
// zero point then hold one value per index of that axis). The scale and zero point may be
// run-time inputs: they are read on every run. Zero points are uint8, int8 or int32.
#include "quant_kernel.h"

#include <limits>

namespace asc::ops {
namespace {

int64_t readInt(const void* p, ir::DType t, int64_t i) {
  switch (t) {
    case ir::DType::U8:
      return static_cast<const uint8_t*>(p)[i];
    case ir::DType::I8:
      return static_cast<const int8_t*>(p)[i];
    case ir::DType::I32:
      return static_cast<const int32_t*>(p)[i];
    default:
      return 0;
  }
}

void writeInt(void* p, ir::DType t, int64_t i, int64_t v) {
  if (t == ir::DType::U8)
    static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v);
  else if (t == ir::DType::I8)
    static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v);
  else
    static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v);
}

class QuantKernel : public Kernel {
 public:
  explicit QuantKernel(const KernelInit& k) : op_(k.node.op_type) {
    x_ = k.inputs[0];
    if (k.inputs.size() > 1) scale_ = k.inputs[1];
    if (k.inputs.size() > 2) zp_ = k.inputs[2];
    for (const auto& o : k.outputs) outs_.push_back(o);
    const ir::Shape& s = x_.shape();
    if (op_ != "DynamicQuantizeLinear" && scale_.numel() > 1) {
      int64_t axis = k.node.attrs.getInt("axis", 1);
      if (axis < 0) axis += static_cast<int64_t>(s.size());
      dim_ = s[axis];
      for (size_t d = axis + 1; d < s.size(); ++d) inner_ *= s[d];
    }
  }

  void run() override {
    const int64_t n = x_.numel();
    const float* scale = static_cast<const float*>(scale_.data);
    const bool has_zp = zp_.data != nullptr;
    auto slot = [&](int64_t i) { return dim_ > 1 ? (i / inner_) % dim_ : 0; };
    if (op_ == "QuantizeLinear") {
      const ir::DType t = outs_[0].dtype();
      const int64_t lo = t == ir::DType::I8 ? -128 : 0, hi = t == ir::DType::I8 ? 127 : 255;
      const float* x = x_.f32();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = slot(i);
        const int64_t zp = has_zp ? readInt(zp_.data, zp_.dtype(), s) : 0;
        writeInt(outs_[0].data, t, i, quantizeValue(x[i], scale[s], zp, lo, hi));
      }
    } else if (op_ == "DequantizeLinear") {
      float* y = static_cast<float*>(outs_[0].data);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = slot(i);
        const int64_t zp = has_zp ? readInt(zp_.data, zp_.dtype(), s) : 0;
        y[i] = dequantizeValue(readInt(x_.data, x_.dtype(), i), scale[s], zp);
      }
    } else {  // DynamicQuantizeLinear: y, y_scale, y_zero_point
      const float* x = x_.f32();
      float lo = std::numeric_limits<float>::infinity(), hi = -lo;
      for (int64_t i = 0; i < n; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
      }
      float sc;
      int64_t zp;
      dynamicParams(lo, hi, &sc, &zp);
      auto* y = static_cast<uint8_t*>(outs_[0].data);
      for (int64_t i = 0; i < n; ++i)
        y[i] = static_cast<uint8_t>(sc == 0.f ? zp : quantizeValue(x[i], sc, zp, 0, 255));
      if (outs_.size() > 1 && outs_[1].data) *static_cast<float*>(outs_[1].data) = sc;
      if (outs_.size() > 2 && outs_[2].data)
        *static_cast<uint8_t*>(outs_[2].data) = static_cast<uint8_t>(zp);
    }
  }
  std::string implName() const override { return "quant"; }

 private:
  std::string op_;
  TensorRef x_, scale_, zp_;
  std::vector<TensorRef> outs_;
  int64_t dim_ = 1, inner_ = 1;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createQuantKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<QuantKernel>(k));
}

}  // namespace asc::ops
