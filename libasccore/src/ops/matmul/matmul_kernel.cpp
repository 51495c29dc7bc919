// matmul_kernel.cpp: numpy-style MatMul (1-D operands promoted, batch dims broadcast) and Gemm
// (transposes as strided descriptors, C as a broadcast bias) on oneDNN's matmul primitive. Gemm's
// alpha and beta are folded into private copies of constant B and C at creation; with a B or C
// computed at run time a loop applies them (GemmLoop).
#include "matmul_kernel.h"

#include <cstring>

#include "ops/dnnl_util.h"
#include "ops/matmul/gemm_avx2.h"

namespace asc::ops {
namespace {

using dnnl::memory;

// The primitive plus private copies of B and C when Gemm's alpha/beta were folded into them.
class MatMulKernel : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  std::vector<float> owned_b_, owned_c_;
  memory::desc b_plain_;  // constant weights: their stored layout (empty otherwise)
  std::vector<ops::PackedInput> packedInputs() const override {
    std::vector<ops::PackedInput> r;
    if (b_plain_) cpu::notePacked(1, b_plain_, args_.at(DNNL_ARG_WEIGHTS), &r);
    return r;
  }
};

memory::desc strided(const memory::dims& dims, bool transpose_last2) {
  memory::dims strides(dims.size());
  int64_t s = 1;
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    strides[i] = s;
    s *= dims[i];
  }
  if (transpose_last2) {
    const size_t r = dims.size();
    strides[r - 1] = dims[r - 2];
    strides[r - 2] = 1;
  }
  return memory::desc(dims, memory::data_type::f32, strides);
}

// Constant weights over this size stay in the model's own layout and memory.
constexpr size_t kInPlaceWeightBytes = size_t(64) << 20;

// The runtime's own GEMM (gemm_avx2.cpp) for `gs` when this CPU wants it and the rest of the
// node fits it: fp32 plain A and C, a bias of n floats (or none), Relu, GELU's erf form or no
// activation. Null otherwise (oneDNN's matmul serves).
std::unique_ptr<Kernel> ownGemm(const KernelInit& k, GemmAvx2Shape gs, const TensorRef* bias) {
  const std::string act = k.node.attrs.getString("activation", "");
  const bool gelu =
      act == "Gelu" && k.node.attrs.getString("activation_approximate", "none") == "none";
  if ((!act.empty() && act != "Relu" && !gelu) || k.inputs[0].layout != Layout::Plain ||
      k.outputs[0].layout != Layout::Plain || k.inputs[1].type != ir::DType::F32 ||
      k.outputs[0].type != ir::DType::F32 || !gemmAvx2Serves(gs))
    return nullptr;
  if (bias) {
    if (bias->type != ir::DType::F32 || bias->layout != Layout::Plain || bias->numel() != gs.n)
      return nullptr;
    gs.bias = bias->f32();
  }
  gs.relu = act == "Relu";
  gs.gelu = gelu;
  auto kernel = createGemmAvx2(k, gs);
  return kernel ? std::move(*kernel) : nullptr;
}

Result<std::unique_ptr<Kernel>> matmul(const KernelInit& k) {
  const ir::Node& n = k.node;
  // transpose_x2 / alpha come from fuse-matmul-transpose-scale: B stored as [..., N, K] is
  // read through transposed strides, and alpha is the primitive's output scale.
  const bool tb = n.attrs.getInt("transpose_x2", 0) != 0;
  const float alpha = n.attrs.getFloat("alpha", 1.f);
  ir::Shape a = k.inputs[0].shape(), b = k.inputs[1].shape();
  if (tb) std::swap(b[b.size() - 1], b[b.size() - 2]);
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  // A 2-D B applies to every row of A alike: fold A's leading dims into M, one big GEMM
  // instead of a batch of thin ones (e.g. [128, 1, 256] x [256, 768]).
  if (k.inputs[1].shape().size() == 2 && a.size() > 2) {
    const int64_t rows = ir::numElements(ir::Shape(a.begin(), a.end() - 1));
    a = {rows, a.back()};
  }
  const size_t r = std::max(a.size(), b.size());
  while (a.size() < r) a.insert(a.begin(), 1);
  while (b.size() < r) b.insert(b.begin(), 1);
  memory::dims c(r);
  for (size_t i = 0; i + 2 < r; ++i) c[i] = std::max(a[i], b[i]);
  c[r - 2] = a[r - 2];
  c[r - 1] = b[r - 1];
  const bool has_bias = k.inputs.size() > 2 && k.inputs[2].data;
  const bool const_b = k.inputs[1].value->isConstant();
  const bool big_b = k.inputs[1].bytes > kInPlaceWeightBytes;
  if (r == 2 && const_b && !big_b && alpha == 1.f) {
    GemmAvx2Shape gs;
    gs.m = a[0];
    gs.k = a[1];
    gs.n = b[1];
    gs.b_transposed = tb;
    if (auto own = ownGemm(k, gs, has_bias ? &k.inputs[2] : nullptr)) return own;
  }
  auto kern = std::make_unique<MatMulKernel>(k.env);
  try {
    memory::dims ad(a.begin(), a.end()), bd(b.begin(), b.end());
    auto amd = strided(ad, false), bmd = strided(bd, tb), cmd = strided(c, false);
    memory::dims biasd(r, 1);
    biasd[r - 1] = c[r - 1];
    auto biasmd = strided(biasd, false);
    // Constant weights: let the primitive choose their layout and reorder them once, unless
    // they are large: a big weight is read in place from the model's mapping (its blocked copy
    // would double the memory a large model needs; a matrix that size is memory-bound anyway).
    memory::desc bwant =
        const_b && !big_b ? memory::desc(bd, memory::data_type::f32, memory::format_tag::any) : bmd;
    auto d = has_bias ? dnnl::matmul::desc(amd, bwant, biasmd, cmd)
                      : dnnl::matmul::desc(amd, bwant, cmd);
    dnnl::primitive_attr attr;
    dnnl::post_ops po;
    ASC_RETURN_IF_ERROR(cpu::appendActivation(n, po));
    attr.set_post_ops(po);
    cpu::useSharedScratchpad(attr);
    if (alpha != 1.f) {
      if (has_bias)
        return Status::error(ErrorCode::NotImplemented,
                             "node '{}' (MatMul): alpha with a fused bias is not supported",
                             n.name);
      attr.set_output_scales(0, {alpha});
    }
    dnnl::matmul::primitive_desc pd(d, attr, k.env.engine);
    // Where the primitive takes constant 2-D weights plain (oneDNN's gemm-based matmul: AVX2
    // CPUs), it runs up to 2.3x faster on them stored transposed, [N, K] (2-core Zen 3,
    // 128x256 x 256x1024: 0.92 -> 0.41 ms; never slower on the shapes measured; docs/runtime.md):
    // such weights are packed so, where both dims are at least 128. Below that the gain is
    // nothing, and on [16, 32] and [32, 10] the transposed form's results changed with the
    // thread count (tests/cli/pipeline/determinism.sh) where the plain form's do not.
    if (const_b && !big_b && !tb && r == 2 && bd[0] >= 128 && bd[1] >= 128 &&
        pd.weights_desc() == bmd) {
      auto t = strided(bd, true);
      auto dt =
          has_bias ? dnnl::matmul::desc(amd, t, biasmd, cmd) : dnnl::matmul::desc(amd, t, cmd);
      pd = dnnl::matmul::primitive_desc(dt, attr, k.env.engine);
    }
    memory wmem(bmd, k.env.engine, k.inputs[1].data);
    if (const_b) {
      ASC_TRY(wmem, cpu::constantWeights(n, k.inputs[1], bmd, pd.weights_desc(), k.env));
      kern->b_plain_ = bmd;
    }
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, memory(amd, k.env.engine, k.inputs[0].data)},
        {DNNL_ARG_WEIGHTS, wmem},
        {DNNL_ARG_DST, memory(cmd, k.env.engine, k.outputs[0].data)}};
    if (has_bias) args[DNNL_ARG_BIAS] = memory(biasmd, k.env.engine, k.inputs[2].data);
    if (memory sp = cpu::sharedScratchpad(pd, k.env)) args[DNNL_ARG_SCRATCHPAD] = sp;
    kern->set(dnnl::matmul(pd), pd, std::move(args));
  } catch (const dnnl::error& e) {
    return cpu::dnnlError(n, e);
  }
  return std::unique_ptr<Kernel>(std::move(kern));
}

// Gemm with alpha/beta != 1 on a B or C computed at run time: alpha * op(A) op(B) + beta * C as a
// loop (C broadcast to [M, N]), accumulating in double. (With constant operands the scales are
// folded into them once and oneDNN runs the product.)
class GemmLoop : public Kernel {
 public:
  explicit GemmLoop(const KernelInit& k) {
    const ir::Node& n = k.node;
    ta_ = n.attrs.getInt("transA", 0) != 0;
    tb_ = n.attrs.getInt("transB", 0) != 0;
    alpha_ = n.attrs.getFloat("alpha", 1.f);
    beta_ = n.attrs.getFloat("beta", 1.f);
    const ir::Shape& as = k.inputs[0].shape();
    const ir::Shape& bs = k.inputs[1].shape();
    M_ = ta_ ? as[1] : as[0];
    K_ = ta_ ? as[0] : as[1];
    N_ = tb_ ? bs[0] : bs[1];
    a_ = k.inputs[0].f32();
    b_ = k.inputs[1].f32();
    if (k.inputs.size() > 2 && k.inputs[2].data) {
      c_ = k.inputs[2].f32();
      ir::Shape cs = k.inputs[2].shape();
      while (cs.size() < 2) cs.insert(cs.begin(), 1);
      cm_ = cs[0];
      cn_ = cs[1];
    }
    y_ = static_cast<float*>(k.outputs[0].data);
  }
  void run() override {
    for (int64_t i = 0; i < M_; ++i)
      for (int64_t j = 0; j < N_; ++j) {
        double s = 0;
        for (int64_t p = 0; p < K_; ++p)
          s += double(a_[ta_ ? p * M_ + i : i * K_ + p]) * b_[tb_ ? j * K_ + p : p * N_ + j];
        double v = alpha_ * s;
        if (c_) v += beta_ * c_[(cm_ == 1 ? 0 : i) * cn_ + (cn_ == 1 ? 0 : j)];
        y_[i * N_ + j] = static_cast<float>(v);
      }
  }
  std::string implName() const override { return "gemm-loop"; }

 private:
  bool ta_ = false, tb_ = false;
  double alpha_ = 1, beta_ = 1;
  int64_t M_ = 0, K_ = 0, N_ = 0, cm_ = 1, cn_ = 1;
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  const float* c_ = nullptr;
  float* y_ = nullptr;
};

Result<std::unique_ptr<Kernel>> gemm(const KernelInit& k) {
  const ir::Node& n = k.node;
  {
    const float alpha = n.attrs.getFloat("alpha", 1.f), beta = n.attrs.getFloat("beta", 1.f);
    const bool runtime_b = alpha != 1.f && !k.inputs[1].value->isConstant();
    const bool runtime_c = beta != 1.f && beta != 0.f && k.inputs.size() > 2 && k.inputs[2].data &&
                           !k.inputs[2].value->isConstant();
    if ((runtime_b || runtime_c) && !n.attrs.has("activation"))
      return std::unique_ptr<Kernel>(std::make_unique<GemmLoop>(k));
  }
  const bool ta = n.attrs.getInt("transA", 0) != 0, tb = n.attrs.getInt("transB", 0) != 0;
  const float alpha = n.attrs.getFloat("alpha", 1.f), beta = n.attrs.getFloat("beta", 1.f);
  const ir::Shape& as = k.inputs[0].shape();
  const ir::Shape& bs = k.inputs[1].shape();
  const int64_t M = ta ? as[1] : as[0], K = ta ? as[0] : as[1], N = tb ? bs[0] : bs[1];
  // The runtime's own GEMM where this CPU wants it (as for MatMul): A as it is, B constant
  // (transposed or not), C absent or one row of N added as it is.
  const bool c_used = k.inputs.size() > 2 && k.inputs[2].data && beta != 0.f;
  const bool c_row = c_used && (k.inputs[2].shape() == ir::Shape{N} ||
                                k.inputs[2].shape() == ir::Shape{1, N});  // not [M, 1] or [M, N]
  if (!ta && alpha == 1.f && (!c_used || (beta == 1.f && c_row)) &&
      k.inputs[1].value->isConstant() && k.inputs[1].bytes <= kInPlaceWeightBytes) {
    GemmAvx2Shape gs;
    gs.m = M;
    gs.k = K;
    gs.n = N;
    gs.b_transposed = tb;
    if (auto own = ownGemm(k, gs, c_used ? &k.inputs[2] : nullptr)) return own;
  }
  auto kern = std::make_unique<MatMulKernel>(k.env);
  const void* bdata = k.inputs[1].data;
  if (alpha != 1.f) {
    if (!k.inputs[1].value->isConstant())
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}' (Gemm): alpha != 1 needs a constant B", n.name);
    const float* src = k.inputs[1].f32();
    kern->owned_b_.assign(src, src + k.inputs[1].numel());
    for (float& v : kern->owned_b_) v *= alpha;
    bdata = kern->owned_b_.data();
  }
  const bool has_c = k.inputs.size() > 2 && k.inputs[2].data;
  try {
    auto amd = strided({M, K}, false), bmd = strided({K, N}, false), cmd = strided({M, N}, false);
    if (ta) amd = strided({M, K}, true);
    if (tb) bmd = strided({K, N}, true);
    memory::desc bias_md;
    const void* cdata = nullptr;
    if (has_c && beta != 0.f) {
      ir::Shape cs = k.inputs[2].shape();
      while (cs.size() < 2) cs.insert(cs.begin(), 1);
      bias_md = strided({cs[0], cs[1]}, false);
      cdata = k.inputs[2].data;
      if (beta != 1.f) {
        if (!k.inputs[2].value->isConstant())
          return Status::error(ErrorCode::NotImplemented,
                               "node '{}' (Gemm): beta != 1 needs a constant C", n.name);
        const float* src = k.inputs[2].f32();
        kern->owned_c_.assign(src, src + k.inputs[2].numel());
        for (float& v : kern->owned_c_) v *= beta;
        cdata = kern->owned_c_.data();
      }
    }
    auto d = cdata ? dnnl::matmul::desc(amd, bmd, bias_md, cmd) : dnnl::matmul::desc(amd, bmd, cmd);
    dnnl::primitive_attr attr;
    dnnl::post_ops po;
    ASC_RETURN_IF_ERROR(cpu::appendActivation(n, po));
    attr.set_post_ops(po);
    dnnl::matmul::primitive_desc pd(d, attr, k.env.engine);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, memory(amd, k.env.engine, k.inputs[0].data)},
        {DNNL_ARG_WEIGHTS, memory(bmd, k.env.engine, const_cast<void*>(bdata))},
        {DNNL_ARG_DST, memory(cmd, k.env.engine, k.outputs[0].data)}};
    if (cdata) args[DNNL_ARG_BIAS] = memory(bias_md, k.env.engine, const_cast<void*>(cdata));
    kern->set(dnnl::matmul(pd), pd, std::move(args));
  } catch (const dnnl::error& e) {
    return cpu::dnnlError(n, e);
  }
  return std::unique_ptr<Kernel>(std::move(kern));
}

}  // namespace

Result<std::unique_ptr<Kernel>> createMatMulKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32 || k.inputs[1].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}': {} of {} is not supported",
                         k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  return k.node.op_type == "Gemm" ? gemm(k) : matmul(k);
}

}  // namespace asc::ops
