// norm_kernel.cpp: BatchNormalization (inference statistics), LayerNormalization and LRN on
// oneDNN; InstanceNormalization, LayerNormalization with its Mean/InvStdDev outputs,
// RMSNormalization and MeanVarianceNormalization as loops in double precision.
#include "norm_kernel.h"

#include <algorithm>
#include <cmath>

#include "ops/dnnl_util.h"
#include "cpu/parallel.h"

namespace asc::ops {
namespace {

using dnnl::memory;

memory vec(const TensorRef& t, const dnnl::engine& eng) {
  return memory(memory::desc({t.numel()}, memory::data_type::f32, memory::format_tag::a), eng,
                t.data);
}

Result<std::unique_ptr<Kernel>> batchNorm(const KernelInit& k) {
  auto kern = std::make_unique<cpu::PrimitiveKernel>(k.env);
  try {
    auto src = cpu::memOf(k.inputs[0], k.env.engine);
    auto flags = dnnl::normalization_flags::use_global_stats |
                 dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
    if (k.node.attrs.getString("activation", "") == "Relu")  // from fuse-conv-activation
      flags = flags | dnnl::normalization_flags::fuse_norm_relu;
    dnnl::batch_normalization_forward::desc d(dnnl::prop_kind::forward_inference, src.get_desc(),
                                              k.node.attrs.getFloat("epsilon", 1e-5f), flags);
    dnnl::batch_normalization_forward::primitive_desc pd(d, k.env.engine);
    kern->set(dnnl::batch_normalization_forward(pd), pd,
              {{DNNL_ARG_SRC, src},
               {DNNL_ARG_DST, cpu::memOf(k.outputs[0], k.env.engine)},
               {DNNL_ARG_SCALE, vec(k.inputs[1], k.env.engine)},
               {DNNL_ARG_SHIFT, vec(k.inputs[2], k.env.engine)},
               {DNNL_ARG_MEAN, vec(k.inputs[3], k.env.engine)},
               {DNNL_ARG_VARIANCE, vec(k.inputs[4], k.env.engine)}});
  } catch (const dnnl::error& e) {
    return cpu::dnnlError(k.node, e);
  }
  return std::unique_ptr<Kernel>(std::move(kern));
}

// LayerNormalization with its Mean and InvStdDev outputs (per normalized row, fp32 stash): a loop
// in double over each row of the [outer, inner] view; Y = (X - mean) * inv_std * scale + bias.
class LayerNormStats : public Kernel {
 public:
  LayerNormStats(const KernelInit& k, int64_t outer, int64_t inner)
      : x_(k.inputs[0].f32()),
        scale_(k.inputs[1].f32()),
        bias_(k.inputs.size() > 2 && k.inputs[2].data ? k.inputs[2].f32() : nullptr),
        y_(static_cast<float*>(k.outputs[0].data)),
        mean_(static_cast<float*>(k.outputs[1].data)),
        inv_std_(k.outputs.size() > 2 ? static_cast<float*>(k.outputs[2].data) : nullptr),
        outer_(outer),
        inner_(inner),
        eps_(k.node.attrs.getFloat("epsilon", 1e-5f)) {}
  void run() override {
    cpu::parallelFor(outer_, 1, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const float* x = x_ + o * inner_;
        double sum = 0;
        for (int64_t i = 0; i < inner_; ++i) sum += x[i];
        const double mean = sum / static_cast<double>(inner_);
        double sq = 0;
        for (int64_t i = 0; i < inner_; ++i) sq += (x[i] - mean) * (x[i] - mean);
        const double inv = 1.0 / std::sqrt(sq / static_cast<double>(inner_) + eps_);
        float* y = y_ + o * inner_;
        for (int64_t i = 0; i < inner_; ++i)
          y[i] = static_cast<float>((x[i] - mean) * inv * scale_[i] + (bias_ ? bias_[i] : 0.f));
        if (mean_) mean_[o] = static_cast<float>(mean);
        if (inv_std_) inv_std_[o] = static_cast<float>(inv);
      }
    });
  }
  std::string implName() const override { return "layernorm-stats"; }

 private:
  const float* x_;
  const float* scale_;
  const float* bias_;
  float* y_;
  float* mean_;
  float* inv_std_;
  int64_t outer_, inner_;
  double eps_;
};

// RMSNormalization: per row of the [outer, inner] view, y = x / sqrt(mean(x^2) + eps) * scale,
// the mean in double (stash_type float: the statistics are at least fp32). The scale, which may
// broadcast to the normalized dims, is expanded to one value per inner element once.
class RmsNorm : public Kernel {
 public:
  // `axis` >= 0: the normalized dims are [axis, rank).
  RmsNorm(const KernelInit& k, int64_t axis)
      : x_(k.inputs[0].f32()),
        y_(static_cast<float*>(k.outputs[0].data)),
        eps_(k.node.attrs.getFloat("epsilon", 1e-5f)) {
    const ir::Shape& xs = k.inputs[0].shape();
    for (size_t d = 0; d < xs.size(); ++d)
      (static_cast<int64_t>(d) < axis ? outer_ : inner_) *= xs[d];
    const ir::Shape norm(xs.begin() + axis, xs.end());
    // Right-align the scale's dims with the normalized dims; a dim of 1 repeats.
    const ir::Shape& ss = k.inputs[1].shape();
    const float* s = k.inputs[1].f32();
    scale_.resize(static_cast<size_t>(inner_));
    for (int64_t i = 0; i < inner_; ++i) {
      int64_t rest = i, at = 0, stride = 1;
      for (size_t back = 0; back < norm.size(); ++back) {
        const int64_t dim = norm[norm.size() - 1 - back];
        const int64_t coord = rest % dim;
        rest /= dim;
        if (back < ss.size()) {
          const int64_t sd = ss[ss.size() - 1 - back];
          at += (sd == 1 ? 0 : coord) * stride;
          stride *= sd;
        }
      }
      scale_[static_cast<size_t>(i)] = s[at];
    }
  }
  void run() override {
    cpu::parallelFor(outer_, 1, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const float* x = x_ + o * inner_;
        double sq = 0;
        for (int64_t i = 0; i < inner_; ++i) sq += static_cast<double>(x[i]) * x[i];
        const double inv = 1.0 / std::sqrt(sq / static_cast<double>(inner_) + eps_);
        float* y = y_ + o * inner_;
        for (int64_t i = 0; i < inner_; ++i)
          y[i] = static_cast<float>(x[i] * inv * scale_[static_cast<size_t>(i)]);
      }
    });
  }
  std::string implName() const override { return "rmsnorm"; }

 private:
  const float* x_;
  float* y_;
  int64_t outer_ = 1, inner_ = 1;
  double eps_;
  std::vector<float> scale_;
};

Result<std::unique_ptr<Kernel>> layerNorm(const KernelInit& k) {
  const ir::Node& n = k.node;
  const bool stats = k.outputs.size() > 1;
  auto notF32 = [&](size_t i) {
    return i < k.outputs.size() && k.outputs[i].data && k.outputs[i].dtype() != ir::DType::F32;
  };
  if (stats && (notF32(1) || notF32(2)))
    return Status::error(ErrorCode::NotImplemented,
                         "node '{}' (LayerNormalization): Mean/InvStdDev in {} (stash_type) are "
                         "not supported; float32 is",
                         n.name, ir::dtypeName(k.outputs[1].dtype()));
  const ir::Shape& s = k.inputs[0].shape();
  const int64_t rank = static_cast<int64_t>(s.size());
  int64_t axis = n.attrs.getInt("axis", -1);
  if (axis < 0) axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= s[i];
  if (k.inputs[1].numel() != inner ||
      (k.inputs.size() > 2 && k.inputs[2].data && k.inputs[2].numel() != inner))
    return Status::error(ErrorCode::NotImplemented,
                         "node '{}' (LayerNormalization): scale/bias must cover the normalized "
                         "dims exactly ({} values)",
                         n.name, inner);
  if (stats) return std::unique_ptr<Kernel>(std::make_unique<LayerNormStats>(k, outer, inner));
  auto kern = std::make_unique<cpu::PrimitiveKernel>(k.env);
  try {
    memory::desc md({outer, inner}, memory::data_type::f32, memory::format_tag::ab);
    auto flags = dnnl::normalization_flags::use_scale;
    const bool shift = k.inputs.size() > 2 && k.inputs[2].data;
    if (shift) flags = flags | dnnl::normalization_flags::use_shift;
    dnnl::layer_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md,
                                              n.attrs.getFloat("epsilon", 1e-5f), flags);
    dnnl::layer_normalization_forward::primitive_desc pd(d, k.env.engine);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, memory(md, k.env.engine, k.inputs[0].data)},
        {DNNL_ARG_DST, memory(md, k.env.engine, k.outputs[0].data)},
        {DNNL_ARG_SCALE, vec(k.inputs[1], k.env.engine)}};
    if (shift) args[DNNL_ARG_SHIFT] = vec(k.inputs[2], k.env.engine);
    kern->set(dnnl::layer_normalization_forward(pd), pd, std::move(args));
  } catch (const dnnl::error& e) {
    return cpu::dnnlError(n, e);
  }
  return std::unique_ptr<Kernel>(std::move(kern));
}

Result<std::unique_ptr<Kernel>> lrn(const KernelInit& k) {
  const ir::Node& n = k.node;
  auto kern = std::make_unique<cpu::PrimitiveKernel>(k.env);
  try {
    auto src = cpu::memOf(k.inputs[0], k.env.engine);
    dnnl::lrn_forward::desc d(dnnl::prop_kind::forward_inference,
                              dnnl::algorithm::lrn_across_channels, src.get_desc(),
                              n.attrs.getInt("size", 1), n.attrs.getFloat("alpha", 1e-4f),
                              n.attrs.getFloat("beta", 0.75f), n.attrs.getFloat("bias", 1.f));
    dnnl::lrn_forward::primitive_desc pd(d, k.env.engine);
    kern->set(dnnl::lrn_forward(pd), pd,
              {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, cpu::memOf(k.outputs[0], k.env.engine)}});
  } catch (const dnnl::error& e) {
    return cpu::dnnlError(n, e);
  }
  return std::unique_ptr<Kernel>(std::move(kern));
}

// InstanceNormalization (a group per channel) and GroupNormalization (num_groups groups of
// channels; one scale and bias per group at version 18, per channel at 21, which the importer
// marks with _asc_affine_per_channel): each group's statistics in double, two passes.
class InstanceNorm : public Kernel {
 public:
  explicit InstanceNorm(const KernelInit& k)
      : x_(k.inputs[0].f32()),
        scale_(k.inputs[1].f32()),
        bias_(k.inputs[2].f32()),
        y_(static_cast<float*>(k.outputs[0].data)),
        eps_(k.node.attrs.getFloat("epsilon", 1e-5f)) {
    const ir::Shape& s = k.inputs[0].shape();
    n_ = s[0];
    g_ = k.node.op_type == "GroupNormalization" ? k.node.attrs.getInt("num_groups", s[1]) : s[1];
    map_ = 1;
    for (size_t i = 2; i < s.size(); ++i) map_ *= s[i];
    hw_ = s[1] / g_ * map_;  // the elements of one group: its channels' maps, one after another
    per_channel_ = k.node.attrs.getInt("_asc_affine_per_channel", 0) != 0;
    channels_ = s[1];
  }
  void run() override {
    cpu::parallelFor(n_ * g_, 1, [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        const float* x = x_ + p * hw_;
        float* y = y_ + p * hw_;
        double sum = 0, sq = 0;
        for (int64_t i = 0; i < hw_; ++i) sum += x[i];
        const double mean = sum / static_cast<double>(hw_);
        for (int64_t i = 0; i < hw_; ++i) sq += (x[i] - mean) * (x[i] - mean);
        const double inv = 1.0 / std::sqrt(sq / static_cast<double>(hw_) + eps_);
        if (per_channel_) {  // each channel of the group has its own scale and bias
          const int64_t per_group = channels_ / g_, c0 = (p % g_) * per_group;
          for (int64_t k = 0; k < per_group; ++k) {
            const double sc = scale_[c0 + k];
            const float a = static_cast<float>(sc * inv);
            const float bb = static_cast<float>(bias_[c0 + k] - sc * inv * mean);
            for (int64_t i = k * map_; i < (k + 1) * map_; ++i) y[i] = x[i] * a + bb;
          }
          continue;
        }
        const int64_t c = p % g_;
        const float a = static_cast<float>(scale_[c] * inv);
        const float bb = static_cast<float>(bias_[c] - scale_[c] * inv * mean);
        for (int64_t i = 0; i < hw_; ++i) y[i] = x[i] * a + bb;
      }
    });
  }
  std::string implName() const override { return "loop"; }

 private:
  const float* x_;
  const float* scale_;
  const float* bias_;
  float* y_;
  float eps_;
  int64_t n_, g_, hw_, map_ = 1, channels_ = 0;
  bool per_channel_ = false;
};

// MeanVarianceNormalization: statistics per combination of the kept dims, in double.
class Mvn : public Kernel {
 public:
  explicit Mvn(const KernelInit& k)
      : x_(k.inputs[0].f32()), y_(static_cast<float*>(k.outputs[0].data)) {
    shape_ = k.inputs[0].shape();
    auto axes = k.node.attrs.getInts("axes");
    reduced_.assign(shape_.size(), false);
    for (int64_t a : axes) reduced_[a] = true;
    groups_ = 1;
    for (size_t d = 0; d < shape_.size(); ++d)
      if (!reduced_[d]) groups_ *= shape_[d];
    sum_.resize(groups_);
    sq_.resize(groups_);
  }
  void run() override {
    const int64_t n = ir::numElements(shape_);
    const int64_t count = groups_ ? n / groups_ : 0;
    std::fill(sum_.begin(), sum_.end(), 0.0);
    std::fill(sq_.begin(), sq_.end(), 0.0);
    walk([&](int64_t i, int64_t g) {
      sum_[g] += x_[i];
      sq_[g] += double(x_[i]) * x_[i];
    });
    walk([&](int64_t i, int64_t g) {
      const double mean = sum_[g] / count;
      const double var = std::max(0.0, sq_[g] / count - mean * mean);
      y_[i] = static_cast<float>((x_[i] - mean) / (std::sqrt(var) + 1e-9));
    });
  }
  std::string implName() const override { return "mvn"; }

 private:
  // f(flat index, group index) over every element in row-major order.
  template <typename F>
  void walk(F f) const {
    const int64_t n = ir::numElements(shape_), r = static_cast<int64_t>(shape_.size());
    std::vector<int64_t> idx(r, 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t g = 0;
      for (int64_t d = 0; d < r; ++d)
        if (!reduced_[d]) g = g * shape_[d] + idx[d];
      f(i, g);
      for (int64_t d = r - 1; d >= 0; --d) {
        if (++idx[d] < shape_[d]) break;
        idx[d] = 0;
      }
    }
  }
  const float* x_;
  float* y_;
  ir::Shape shape_;
  std::vector<bool> reduced_;
  int64_t groups_ = 1;
  std::vector<double> sum_, sq_;
};

}  // namespace

Result<std::unique_ptr<Kernel>> createNormKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': {} of {} is not supported",
                         k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  const std::string& op = k.node.op_type;
  if (op == "BatchNormalization") return batchNorm(k);
  if (op == "LayerNormalization") return layerNorm(k);
  if (op == "RMSNormalization") {
    int64_t axis = k.node.attrs.getInt("axis", -1);
    if (axis < 0) axis += static_cast<int64_t>(k.inputs[0].shape().size());
    if (k.inputs[1].dtype() != ir::DType::F32)
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}' (RMSNormalization): a {} scale is not supported; float32 is",
                           k.node.name, ir::dtypeName(k.inputs[1].dtype()));
    return std::unique_ptr<Kernel>(std::make_unique<RmsNorm>(k, axis));
  }
  if (op == "LRN") return lrn(k);
  if (op == "MeanVarianceNormalization") return std::unique_ptr<Kernel>(std::make_unique<Mvn>(k));
  if (op == "InstanceNormalization" || op == "GroupNormalization")
    return std::unique_ptr<Kernel>(std::make_unique<InstanceNorm>(k));
  return Status::error(ErrorCode::Internal, "no normalization kernel for {}", op);
}

Layout normLayout(const ir::Node& n, const std::vector<Layout>& in) {
  if (n.op_type == "BatchNormalization" || n.op_type == "LRN") return in[0];
  return Layout::Plain;
}

}  // namespace asc::ops
