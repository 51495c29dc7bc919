// quant_kernel.cpp: linear (de)quantization, per tensor or per slice along `axis` (the scale and
// zero point then hold one value per index of that axis). The scale and zero point may be
// run-time inputs: they are read on every run. Zero points are of the quantized type: uint8,
// int8, uint16, int16, uint4, int4 (one per byte), a float8 type, or int32 (dequantizing). The
// integer matmuls (MatMulInteger, QLinearMatMul) accumulate in int64.
#include "quant_kernel.h"

#include <algorithm>
#include <limits>

namespace asc::ops {
namespace {

// Element i of a quantized-type buffer as an integer (float8 codes read as decoded floats
// through readReal).
int64_t readInt(const void* p, ir::DType t, int64_t i) {
  switch (t) {
    case ir::DType::U8:
    case ir::DType::U4:
      return static_cast<const uint8_t*>(p)[i];
    case ir::DType::I8:
    case ir::DType::I4:
      return static_cast<const int8_t*>(p)[i];
    case ir::DType::U16:
      return static_cast<const uint16_t*>(p)[i];
    case ir::DType::I16:
      return static_cast<const int16_t*>(p)[i];
    case ir::DType::I32:
      return static_cast<const int32_t*>(p)[i];
    default:
      return 0;
  }
}

float readFloat8(const void* p, ir::DType t, int64_t i) {
  return float8ToFloat(static_cast<const uint8_t*>(p)[i], ir::float8Kind(t));
}

void writeInt(void* p, ir::DType t, int64_t i, int64_t v) {
  switch (t) {
    case ir::DType::U8:
    case ir::DType::U4:
      static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v);
      break;
    case ir::DType::I8:
    case ir::DType::I4:
      static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v);
      break;
    case ir::DType::U16:
      static_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(v);
      break;
    case ir::DType::I16:
      static_cast<int16_t*>(p)[i] = static_cast<int16_t>(v);
      break;
    default:
      static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v);
      break;
  }
}

class QuantKernel : public Kernel {
 public:
  explicit QuantKernel(const KernelInit& k)
      : op_(k.node.op_type),
        saturate_(k.node.attrs.getInt("saturate", 1) != 0),
        precision_(k.node.attrs.getInt("precision", 0)) {
    x_ = k.inputs[0];
    if (k.inputs.size() > 1) scale_ = k.inputs[1];
    if (k.inputs.size() > 2) zp_ = k.inputs[2];
    for (const auto& o : k.outputs) outs_.push_back(o);
    if (op_ != "DynamicQuantizeLinear")
      slots_ = quantSlots(k.node.attrs, x_.shape(), scale_.numel());
  }

  void run() override {
    const int64_t n = x_.numel();
    const float* scale = static_cast<const float*>(scale_.data);
    const bool has_zp = zp_.data != nullptr;
    const QuantSlots& slot = slots_;
    if (op_ == "QuantizeLinear" && ir::isFloat8(outs_[0].dtype())) {
      const ir::DType t = outs_[0].dtype();
      const float* x = x_.f32();
      auto* y = static_cast<uint8_t*>(outs_[0].data);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = slot(i);
        const float zp = has_zp ? readFloat8(zp_.data, zp_.dtype(), s) : 0.f;
        const auto [v, sc] = inPrecision(x[i], scale[s], precision_);
        y[i] = quantizeFloat8(v, sc, zp, t, saturate_);
      }
    } else if (op_ == "QuantizeLinear") {
      const ir::DType t = outs_[0].dtype();
      int64_t lo, hi;
      quantRange(t, &lo, &hi);
      const float* x = x_.f32();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = slot(i);
        const int64_t zp = has_zp ? readInt(zp_.data, zp_.dtype(), s) : 0;
        const auto [v, sc] = inPrecision(x[i], scale[s], precision_);
        writeInt(outs_[0].data, t, i, quantizeValue(v, sc, zp, lo, hi));
      }
    } else if (op_ == "DequantizeLinear" && ir::isFloat8(x_.dtype())) {
      float* y = static_cast<float*>(outs_[0].data);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = slot(i);
        const float zp = has_zp ? readFloat8(zp_.data, zp_.dtype(), s) : 0.f;
        y[i] = (readFloat8(x_.data, x_.dtype(), i) - zp) * scale[s];
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
  bool saturate_;
  int64_t precision_;
  TensorRef x_, scale_, zp_;
  std::vector<TensorRef> outs_;
  QuantSlots slots_;
};

// MatMulInteger (int32 out) and QLinearMatMul (requantized to y's type): numpy matmul of
// (a - a_zero_point) and (b - b_zero_point) with the batch dims broadcast, accumulated in int64.
// Zero points and scales are scalars, read on every run.
class QuantMatMul : public Kernel {
 public:
  explicit QuantMatMul(const KernelInit& k) : q_(k.node.op_type == "QLinearMatMul") {
    ins_ = k.inputs;
    out_ = k.outputs[0];
    const size_t ai = 0, bi = q_ ? 3 : 1;
    a_shape_ = ins_[ai].shape();
    b_shape_ = ins_[bi].shape();
    if (a_shape_.size() == 1) a_shape_.insert(a_shape_.begin(), 1);
    if (b_shape_.size() == 1) b_shape_.push_back(1);
    M_ = a_shape_[a_shape_.size() - 2];
    K_ = a_shape_.back();
    N_ = b_shape_.back();
    const size_t r = std::max(a_shape_.size(), b_shape_.size());
    batch_.assign(r - 2, 1);
    for (size_t d = 0; d + 2 < r; ++d) {
      const int64_t da = d + a_shape_.size() >= r ? a_shape_[d + a_shape_.size() - r] : 1;
      const int64_t db = d + b_shape_.size() >= r ? b_shape_[d + b_shape_.size() - r] : 1;
      batch_[d] = std::max(da, db);
    }
  }
  void run() override {
    const size_t ai = 0, bi = q_ ? 3 : 1;
    const TensorRef& A = ins_[ai];
    const TensorRef& B = ins_[bi];
    const int64_t azp = zeroPoint(2), bzp = zeroPoint(q_ ? 5 : 3);
    float scale = 1.f, ys = 1.f;
    int64_t yzp = 0, lo = 0, hi = 0;
    if (q_) {
      scale = *static_cast<const float*>(ins_[1].data) * *static_cast<const float*>(ins_[4].data);
      ys = *static_cast<const float*>(ins_[6].data);
      yzp = ins_.size() > 7 && ins_[7].data ? readInt(ins_[7].data, ins_[7].dtype(), 0) : 0;
      lo = out_.dtype() == ir::DType::I8 ? -128 : 0;
      hi = out_.dtype() == ir::DType::I8 ? 127 : 255;
    }
    const int64_t batches = ir::numElements(batch_);
    const size_t r = batch_.size() + 2;
    for (int64_t bt = 0; bt < batches; ++bt) {
      // The batch index of each operand (broadcast dims read index 0).
      int64_t rem = bt, aoff = 0, boff = 0, astride = M_ * K_, bstride = K_ * N_;
      for (int64_t d = static_cast<int64_t>(batch_.size()) - 1; d >= 0; --d) {
        const int64_t idx = rem % batch_[d];
        rem /= batch_[d];
        const int64_t ad = static_cast<int64_t>(d + a_shape_.size()) - static_cast<int64_t>(r);
        const int64_t bd = static_cast<int64_t>(d + b_shape_.size()) - static_cast<int64_t>(r);
        if (ad >= 0) {
          aoff += (a_shape_[ad] == 1 ? 0 : idx) * astride;
          astride *= a_shape_[ad];
        }
        if (bd >= 0) {
          boff += (b_shape_[bd] == 1 ? 0 : idx) * bstride;
          bstride *= b_shape_[bd];
        }
      }
      for (int64_t m = 0; m < M_; ++m)
        for (int64_t n = 0; n < N_; ++n) {
          int64_t acc = 0;
          for (int64_t kk = 0; kk < K_; ++kk)
            acc += (readInt(A.data, A.dtype(), aoff + m * K_ + kk) - azp) *
                   (readInt(B.data, B.dtype(), boff + kk * N_ + n) - bzp);
          const int64_t o = (bt * M_ + m) * N_ + n;
          if (q_)
            writeInt(out_.data, out_.dtype(), o,
                     quantizeValue(static_cast<float>(acc) * scale, ys, yzp, lo, hi));
          else
            static_cast<int32_t*>(out_.data)[o] = static_cast<int32_t>(acc);
        }
    }
  }
  std::string implName() const override { return q_ ? "qlinear-matmul" : "matmul-integer"; }

 private:
  int64_t zeroPoint(size_t i) const {
    return i < ins_.size() && ins_[i].data ? readInt(ins_[i].data, ins_[i].dtype(), 0) : 0;
  }
  bool q_;
  std::vector<TensorRef> ins_;
  TensorRef out_;
  ir::Shape a_shape_, b_shape_, batch_;
  int64_t M_ = 1, K_ = 1, N_ = 1;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createQuantMatMulKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<QuantMatMul>(k));
}

Result<std::unique_ptr<Kernel>> createQuantKernel(const KernelInit& k) {
  return std::unique_ptr<Kernel>(std::make_unique<QuantKernel>(k));
}

}  // namespace asc::ops
