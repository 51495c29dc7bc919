// conv_kernel.cpp: Conv and ConvTranspose on oneDNN. The primitive picks its own source and
// weight layouts (format "any"); constant weights are reordered once at creation, run-time ones on
// every run, and the input is reordered
// at run time only when its layout differs. A fused residual (input 3, from the fuse-conv-add
// pass) is added with a binary post-op (or, when the runtime lets the Conv write into the
// residual's buffer, a sum post-op in place) and a fused activation follows it. ConvInteger and
// QLinearConv: conv_integer.cpp.
#include "conv_kernel.h"

#include "asc/ops/op_def.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <string>

#include "cpu/features.h"
#include "ops/conv/gemm_conv_avx2.h"
#include "ops/conv/winograd_avx2.h"
#include "ops/conv/winograd_avx512.h"
#include "ops/dnnl_util.h"

namespace asc::ops {
namespace {

using dnnl::memory;
using tag = memory::format_tag;

struct Geometry {
  memory::dims strides, dilations, pad_l, pad_r;
  int64_t group;
  bool fast_kernels = true;  // false for high_precision (--op_select_implmode, --op_blacklist)
};

Geometry geometry(const ir::Node& n, size_t spatial) {
  Geometry g;
  auto strides = n.attrs.getInts("strides", std::vector<int64_t>(spatial, 1));
  auto dil = n.attrs.getInts("dilations", std::vector<int64_t>(spatial, 1));
  auto pads = n.attrs.getInts("pads", std::vector<int64_t>(2 * spatial, 0));
  for (size_t i = 0; i < spatial; ++i) {
    g.strides.push_back(strides[i]);
    g.dilations.push_back(dil[i] - 1);
    g.pad_l.push_back(pads[i]);
    g.pad_r.push_back(pads[i + spatial]);
  }
  g.group = n.attrs.getInt("group", 1);
  g.fast_kernels = n.attrs.getString(kImplModeAttr, "") != "high_precision";
  return g;
}

// A strided 1x1 convolution without padding reads every s-th position: the input seen through
// a view with the strides multiplied ([N, C, OH, OW]), to be copied dense and convolved with
// stride 1. oneDNN's jit_1x1 kernel would copy it itself, into a scratchpad of one full copy
// per thread (1.6 MB on ResNet-50's first downsample, the largest buffer after the arena).
bool subsamples(const TensorRef& w, const Geometry& g, size_t spatial) {
  if (spatial != 2 || g.group != 1 || w.shape()[2] != 1 || w.shape()[3] != 1) return false;
  bool strided = false;
  for (size_t i = 0; i < 2; ++i) {
    if (g.dilations[i] != 0 || g.pad_l[i] != 0 || g.pad_r[i] != 0) return false;
    strided |= g.strides[i] > 1;
  }
  return strided;
}

memory::desc subsampledView(const memory::desc& full, const Geometry& g, const ir::Shape& out) {
  dnnl_memory_desc_t d = full.data;
  for (int i = 0; i < 2; ++i) {
    d.dims[2 + i] = d.padded_dims[2 + i] = out[2 + i];
    d.format_desc.blocking.strides[2 + i] *= g.strides[i];
  }
  return memory::desc(d);
}

class ConvKernel : public Kernel {
 public:
  explicit ConvKernel(KernelEnv& env) : env_(env) {}

  Status init(const KernelInit& k, bool transpose) {
    const ir::Node& n = k.node;
    const TensorRef& x = k.inputs[0];
    const TensorRef& w = k.inputs[1];
    const TensorRef& y = k.outputs[0];
    // Weights computed at run time (a graph input, another op's output) are reordered into the
    // primitive's layout on every run instead of once here.
    const bool w_runtime = !w.value->isConstant();
    if (w_runtime && w.layout != Layout::Plain)
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}' ({}): run-time weights in a blocked layout are not supported",
                           n.name, n.op_type);
    const size_t spatial = x.shape().size() - 2;
    Geometry g = geometry(n, spatial);
    const Geometry g0 = g;  // as the node has it (g's strides may become 1 below)
    // The weights as oneDNN dims over the ONNX bytes, described by explicit strides.
    // Conv: ONNX [O, I/g, k...] = oneDNN [g, O/g, I/g, k...] row-major (or [O, I, k...]).
    // ConvTranspose: ONNX [I, O/g, k...]; oneDNN wants [g, O/g, I/g, k...] / [O, I, k...].
    const ir::Shape& ws = w.shape();
    int64_t ksize = 1;
    for (size_t i = 2; i < ws.size(); ++i) ksize *= ws[i];
    memory::dims wd, wstr;
    auto spatialStrides = [&] {
      int64_t st = 1;
      memory::dims s(spatial);
      for (int64_t i = static_cast<int64_t>(spatial) - 1; i >= 0; --i) {
        s[i] = st;
        st *= ws[2 + i];
      }
      return s;
    };
    if (!transpose) {
      const int64_t o = ws[0], ipg = ws[1];
      if (g.group > 1) {
        wd = {g.group, o / g.group, ipg};
        wstr = {(o / g.group) * ipg * ksize, ipg * ksize, ksize};
      } else {
        wd = {o, ipg};
        wstr = {ipg * ksize, ksize};
      }
    } else {
      const int64_t in_c = ws[0], opg = ws[1];
      if (g.group > 1) {
        wd = {g.group, opg, in_c / g.group};
        wstr = {(in_c / g.group) * opg * ksize, ksize, opg * ksize};
      } else {
        wd = {opg, in_c};
        wstr = {ksize, opg * ksize};
      }
    }
    for (size_t i = 2; i < ws.size(); ++i) wd.push_back(ws[i]);
    for (auto st : spatialStrides()) wstr.push_back(st);
    memory::desc w_plain(wd, memory::data_type::f32, wstr);
    const bool has_bias = k.inputs.size() > 2 && k.inputs[2].data;
    const bool has_sum = k.inputs.size() > 3 && k.inputs[3].data;
    // The runtime may hand the residual's own buffer over as the destination (it dies here):
    // then a sum post-op accumulates in place, which keeps oneDNN's brgemm kernels, where a
    // binary post-op reading a second tensor falls back to slower ones.
    const bool in_place = has_sum && k.inputs[3].data == y.data && k.inputs[3].layout == y.layout &&
                          k.inputs[3].type == y.type;
    // A strided 1x1 convolution runs with stride 1 over a dense copy of the positions it reads,
    // except channels-last: there oneDNN's brgconv_1x1 reads them in place as fast (ResNet-50's
    // three strided downsamples: 3.81-4.10 against 3.86-4.16 ms with the copy) and the copy's
    // 0.8 MB, which found no room in the arena at layer2's first block, sized a workspace.
    const bool subsample = !transpose && subsamples(w, g, spatial) && x.layout == y.layout &&
                           !(x.layout == Layout::Blocked && channelsLast());
    memory::dims src_dims = cpu::dimsOf(x.shape());
    if (subsample) {
      for (size_t i = 0; i < 2; ++i) {
        src_dims[2 + i] = y.shape()[2 + i];
        g.strides[i] = 1;
      }
    }
    try {
      memory::desc src_any(src_dims, memory::data_type::f32, tag::any);
      memory::desc wei_any(wd, memory::data_type::f32, tag::any);
      memory::desc bias_md({y.shape()[1]}, memory::data_type::f32, tag::a);
      memory::desc dst_md = cpu::descOf(y);
      dnnl::primitive_attr attr;
      dnnl::post_ops po;
      if (in_place)
        po.append_sum(1.f);
      else if (has_sum)
        po.append_binary(dnnl::algorithm::binary_add, dst_md);
      ASC_RETURN_IF_ERROR(cpu::appendActivation(n, po));
      attr.set_post_ops(po);
      cpu::useSharedScratchpad(attr);
      memory::desc src_md, wei_md;
      // The primitive chosen, for its scratchpad's size; not kept (its copy inside the primitive
      // serves): 53 of them held 0.6 MB of ResNet-50's heap.
      dnnl::primitive_desc_base scratch_pd;
      // A forward direct convolution descriptor on the given source and destination, with the
      // given pads.
      auto convDesc = [&](const memory::desc& s, const memory::desc& d, const memory::dims& pad_l,
                          const memory::dims& pad_r) {
        const auto alg = dnnl::algorithm::convolution_direct;
        return has_bias ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, alg,
                                                          s, wei_any, bias_md, d, g.strides,
                                                          g.dilations, pad_l, pad_r)
                        : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, alg,
                                                          s, wei_any, d, g.strides, g.dilations,
                                                          pad_l, pad_r);
      };
      // oneDNN picks the source layout from "any", but for some shapes (depthwise with a
      // blocked destination) only a reference kernel accepts that combination; then give the
      // source the destination's layout explicitly. The first non-reference candidate wins.
      std::vector<memory::desc> src_candidates = {src_any};
      src_candidates.push_back(memory::desc(src_dims, memory::data_type::f32,
                                            y.layout == Layout::Blocked
                                                ? cpu::blockedTag(x.shape().size())
                                                : cpu::plainTag(x.shape().size())));
      for (size_t ci = 0; ci < src_candidates.size(); ++ci) {
        const memory::desc& sm = src_candidates[ci];
        std::string impl;
        if (!transpose) {
          auto pd = dnnl::convolution_forward::primitive_desc(
              convDesc(sm, dst_md, g.pad_l, g.pad_r), attr, env_.engine);
          impl = pd.impl_info_str();
          if (impl.rfind("ref", 0) == 0 && ci + 1 < src_candidates.size()) continue;
          prim_ = dnnl::convolution_forward(pd);
          src_md = pd.src_desc();
          wei_md = pd.weights_desc();
          scratch_pd = pd;
        } else {
          // oneDNN derives the output size from the dims given; fold output_padding into pad_r.
          for (size_t i = 0; i < spatial; ++i) {
            int64_t ek = (wd[wd.size() - spatial + i] - 1) * (g.dilations[i] + 1) + 1;
            g.pad_r[i] = (x.shape()[2 + i] - 1) * g.strides[i] + ek - g.pad_l[i] - y.shape()[2 + i];
          }
          auto d =
              has_bias
                  ? dnnl::deconvolution_forward::desc(
                        dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                        sm, wei_any, bias_md, dst_md, g.strides, g.dilations, g.pad_l, g.pad_r)
                  : dnnl::deconvolution_forward::desc(
                        dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                        sm, wei_any, dst_md, g.strides, g.dilations, g.pad_l, g.pad_r);
          auto pd = dnnl::deconvolution_forward::primitive_desc(d, attr, env_.engine);
          impl = pd.impl_info_str();
          if (impl.rfind("ref", 0) == 0 && ci + 1 < src_candidates.size()) continue;
          prim_ = dnnl::deconvolution_forward(pd);
          src_md = pd.src_desc();
          wei_md = pd.weights_desc();
          scratch_pd = pd;
        }
        impl_ = impl;
        break;
      }
      // oneDNN's AVX2 direct kernel refuses padding wider than it unrolls, so a dilated
      // convolution with its wide padding fell to the reference kernel (DeepLabV3's ASPP,
      // dilation 12 on 14x14: 1.4 s a run; dilation 4 already). Then the input is copied into a
      // buffer with a zero border of the padding's width, kept zero, and convolved unpadded.
      bool padded = false;
      if (!transpose && !subsample && impl_.rfind("ref", 0) == 0) {
        memory::dims pdims = src_dims;
        bool any_pad = false;
        for (size_t i = 0; i < spatial; ++i) {
          pdims[2 + i] += g.pad_l[i] + g.pad_r[i];
          any_pad = any_pad || g.pad_l[i] || g.pad_r[i];
        }
        if (any_pad) {
          const memory::dims none(spatial, 0);
          auto pd = dnnl::convolution_forward::primitive_desc(
              convDesc(memory::desc(pdims, memory::data_type::f32, tag::any), dst_md, none, none),
              attr, env_.engine);
          const std::string impl = pd.impl_info_str();
          if (impl.rfind("ref", 0) != 0) {
            prim_ = dnnl::convolution_forward(pd);
            src_md = pd.src_desc();
            wei_md = pd.weights_desc();
            scratch_pd = pd;
            impl_ = impl + ":zero-bordered";
            bordered_ = memory(src_md, env_.engine);
            std::memset(bordered_.get_data_handle(), 0, src_md.get_size());
            memory::dims offsets(pdims.size(), 0);
            for (size_t i = 0; i < spatial; ++i) offsets[2 + i] = g.pad_l[i];
            interior_ = memory(src_md.submemory_desc(src_dims, offsets), env_.engine,
                               bordered_.get_data_handle());
            x_mem_ = cpu::memOf(x, env_.engine);
            border_copy_ = dnnl::reorder(x_mem_, interior_);
            padded = true;
          }
        }
      }
      // oneDNN's gemm-based convolution (x64:gemm:jit, what serves shapes its direct kernels
      // refuse) applied a residual given as a binary post-op wrongly to outputs that read only
      // padding: each took the residual's first element (own_conv_test, pads 4 around a 3x3
      // kernel). Then the residual, adapted to the destination's layout as before (sum_), is
      // copied into the destination and added by a sum post-op.
      if (!transpose && has_sum && !in_place && impl_.find("gemm") != std::string::npos) {
        dnnl::primitive_attr sum_attr;
        dnnl::post_ops sum_po;
        sum_po.append_sum(1.f);
        ASC_RETURN_IF_ERROR(cpu::appendActivation(n, sum_po));
        sum_attr.set_post_ops(sum_po);
        cpu::useSharedScratchpad(sum_attr);
        const memory::dims none(spatial, 0);
        auto pd = dnnl::convolution_forward::primitive_desc(
            padded ? convDesc(src_md, dst_md, none, none)
                   : convDesc(src_md, dst_md, g.pad_l, g.pad_r),
            sum_attr, env_.engine);
        prim_ = dnnl::convolution_forward(pd);
        wei_md = pd.weights_desc();
        scratch_pd = pd;
        impl_ =
            std::string(pd.impl_info_str()) + (padded ? ":zero-bordered" : "") + ":residual-copied";
        sum_copied_ = true;
      }
      // (A padded input goes into the bordered buffer's interior on every run: run().)
      if (!padded && subsample) {
        const memory::desc view =
            subsampledView(cpu::memOf(x, env_.engine).get_desc(), g0, y.shape());
        ASC_RETURN_IF_ERROR(src_.init(n, view, x.data, src_md, env_, kSrc));
      } else if (!padded) {
        ASC_RETURN_IF_ERROR(src_.init(n, x, src_md, env_, kSrc));
      }
      if (w_runtime) {
        wei_ = memory(wei_md, env_.engine);
        w_src_ = memory(w_plain, env_.engine, const_cast<void*>(w.data));
        w_reorder_ = dnnl::reorder(w_src_, wei_);
      } else {
        ASC_TRY(wei_, cpu::constantWeights(n, w, w_plain, wei_md, env_));
        w_plain_ = w_plain;
      }
      args_[DNNL_ARG_SRC] = padded ? bordered_ : src_.mem();
      args_[DNNL_ARG_WEIGHTS] = wei_;
      if (has_bias) {
        const TensorRef& b = k.inputs[2];
        if (b.value->isConstant()) {
          ASC_TRY(bias_, cpu::reorderConstant(n, bias_md, b.data, bias_md, env_));
        } else {  // a run-time bias is read where it is (it is already plain [C])
          bias_ = memory(bias_md, env_.engine, const_cast<void*>(b.data));
        }
        args_[DNNL_ARG_BIAS] = bias_;
      }
      if (has_sum && !in_place) {
        ASC_RETURN_IF_ERROR(sum_.init(n, k.inputs[3], dst_md, env_, kSum));
        if (!sum_copied_) args_[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = sum_.mem();
      }
      has_sum_ = has_sum && !in_place;
      args_[DNNL_ARG_DST] = cpu::memOf(y, env_.engine);
      if (memory sp = cpu::sharedScratchpad(scratch_pd, env_)) args_[DNNL_ARG_SCRATCHPAD] = sp;
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }

  void run() override {
    if (w_reorder_) w_reorder_.execute(env_.stream, w_src_, wei_);
    if (border_copy_)
      border_copy_.execute(env_.stream, x_mem_, interior_);
    else
      src_.prepare(env_);
    if (has_sum_) sum_.prepare(env_);
    if (sum_copied_) {
      const memory& dst = args_.at(DNNL_ARG_DST);
      std::memcpy(dst.get_data_handle(), sum_.mem().get_data_handle(), dst.get_desc().get_size());
    }
    prim_.execute(env_.stream, args_);
    env_.stream.wait();
  }
  std::string implName() const override { return impl_; }
  std::vector<ops::PackedInput> packedInputs() const override {
    std::vector<ops::PackedInput> r;
    if (!w_src_) cpu::notePacked(1, w_plain_, wei_, &r);
    return r;
  }

 private:
  KernelEnv& env_;
  dnnl::primitive prim_;
  // The kernel's temporaries (cpu::temporary), one number each.
  static constexpr int kSrc = 0, kSum = 1;
  cpu::AdaptedInput src_, sum_;
  bool sum_copied_ = false;  // the residual copied into the destination, then a sum post-op
  memory wei_, bias_;
  memory::desc w_plain_;  // constant weights: their stored layout
  memory w_src_;          // run-time weights: the ONNX buffer, reordered into wei_ per run
  dnnl::reorder w_reorder_;
  // A padding the primitive cannot take: the input copied into a zero-bordered buffer.
  memory bordered_, interior_, x_mem_;
  dnnl::reorder border_copy_;
  bool has_sum_ = false;
  std::unordered_map<int, memory> args_;
  std::string impl_;
};

// A 1x1 convolution over the channel Concat of `parts` (fp32, channels-last): one oneDNN
// convolution per part, each with its slice of the weights' input channels, the first adding
// the bias and the others accumulating into the destination (a sum post-op), the last applying
// the fused activation. The Concat's copy of every pixel is left out.
class ConcatConv : public Kernel {
 public:
  struct Part {
    std::unique_ptr<ir::Node> node;  // the Conv's attributes; the activation on the last only
    std::unique_ptr<ir::Value> weights;
    std::unique_ptr<Kernel> kernel;
  };
  explicit ConcatConv(std::vector<Part> parts) : parts_(std::move(parts)) {}
  void run() override {
    for (auto& p : parts_) p.kernel->run();
  }
  std::string implName() const override {
    return fmt::format("{}x {} (reading the Concat's inputs)", parts_.size(),
                       parts_.front().kernel->implName());
  }

 private:
  std::vector<Part> parts_;
};

}  // namespace

std::unique_ptr<Kernel> createConcatConv(const KernelInit& conv,
                                         const std::vector<TensorRef>& parts) {
  const ir::Node& n = conv.node;
  const TensorRef& y = conv.outputs[0];
  if (n.op_type != "Conv" || conv.inputs.size() < 2 || conv.inputs.size() > 3 || parts.size() < 2 ||
      !y.data || y.type != ir::DType::F32 || y.layout != Layout::Blocked || !channelsLast() ||
      y.shape().size() != 4)
    return nullptr;
  const TensorRef& w = conv.inputs[1];
  const ir::Value* wv = w.value;
  if (!wv || !wv->isConstant() || wv->dtype != ir::DType::F32 || wv->shape.size() != 4 ||
      wv->shape[2] != 1 || wv->shape[3] != 1 || n.attrs.getInt("group", 1) != 1)
    return nullptr;
  for (const char* a : {"strides", "dilations"})
    for (int64_t v : n.attrs.getInts(a, {1, 1}))
      if (v != 1) return nullptr;
  for (int64_t v : n.attrs.getInts("pads", {0, 0, 0, 0}))
    if (v != 0) return nullptr;
  const int64_t out_c = wv->shape[0], in_c = wv->shape[1];
  int64_t total = 0;
  for (const TensorRef& part : parts) {
    const ir::Shape& s = part.shape();
    if (!part.data || part.type != ir::DType::F32 || part.layout != Layout::Blocked ||
        s.size() != 4 || s[0] != y.shape()[0] || s[2] != y.shape()[2] || s[3] != y.shape()[3])
      return nullptr;
    total += s[1];
  }
  if (total != in_c || out_c != y.shape()[1]) return nullptr;
  // The plain weights (for weights an OM stores only packed, unpacked now: Value::data).
  const auto* wf = reinterpret_cast<const float*>(wv->data->data());
  conv.env.weights_read.push_back(wv);
  std::vector<ConcatConv::Part> made;
  int64_t at = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const int64_t c = parts[i].shape()[1];
    ConcatConv::Part p;
    p.node = std::make_unique<ir::Node>();
    p.node->name = n.name;
    p.node->op_type = n.op_type;
    p.node->attrs = n.attrs;
    if (i + 1 < parts.size()) p.node->attrs.erase("activation");
    // Its weights: input channels [at, at + c) of every output channel's.
    std::vector<uint8_t> bytes(size_t(out_c * c) * sizeof(float));
    auto* dst = reinterpret_cast<float*>(bytes.data());
    for (int64_t o = 0; o < out_c; ++o)
      std::memcpy(dst + o * c, wf + o * in_c + at, size_t(c) * sizeof(float));
    p.weights = std::make_unique<ir::Value>();
    p.weights->name = wv->name + "/part" + std::to_string(i);
    p.weights->dtype = ir::DType::F32;
    p.weights->shape = {out_c, c, 1, 1};
    p.weights->data = ir::Blob::fromVector(std::move(bytes));
    KernelInit k{*p.node, {parts[i]}, {y}, conv.env, conv.threads, conv.check_unwritten};
    TensorRef wr;
    wr.data = const_cast<void*>(static_cast<const void*>(p.weights->data->data()));
    wr.value = p.weights.get();
    wr.type = ir::DType::F32;
    wr.bytes = p.weights->byteSize();
    k.inputs.push_back(wr);
    if (i == 0) {
      // The bias once, in the first part.
      k.inputs.push_back(conv.inputs.size() > 2 ? conv.inputs[2] : TensorRef{});
    } else {
      // The parts before have written the destination: this one adds to it in place.
      k.inputs.push_back(TensorRef{});
      k.inputs.push_back(y);
    }
    auto kernel = std::make_unique<ConvKernel>(conv.env);
    if (!kernel->init(k, false).isOk()) return nullptr;
    p.kernel = std::move(kernel);
    made.push_back(std::move(p));
    at += c;
  }
  return std::make_unique<ConcatConv>(std::move(made));
}

Result<std::unique_ptr<Kernel>> createConvKernel(const KernelInit& k) {
  if (winogradAvx2Serves(k)) return createWinogradAvx2(k);
  if (winogradAvx512Serves(k)) return createWinogradAvx512(k);
  if (gemmConvAvx2Serves(k)) return createGemmConvAvx2(k);
  auto kernel = std::make_unique<ConvKernel>(k.env);
  ASC_RETURN_IF_ERROR(kernel->init(k, false));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

Result<std::unique_ptr<Kernel>> createConvTransposeKernel(const KernelInit& k) {
  auto kernel = std::make_unique<ConvKernel>(k.env);
  ASC_RETURN_IF_ERROR(kernel->init(k, true));
  return std::unique_ptr<Kernel>(std::move(kernel));
}

Layout convLayout(const ir::Node& n, const std::vector<Layout>& in) {
  // Blocked activations for the AVX2 kernels; the runtime falls back to plain for ranks other
  // than 4 and 5.
  return Layout::Blocked;
}

}  // namespace asc::ops
