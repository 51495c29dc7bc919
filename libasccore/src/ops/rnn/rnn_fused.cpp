// rnn_fused.cpp: LSTM and GRU as one oneDNN recurrent primitive (JIT'ed gate GEMMs and
// elementwise cells over the whole sequence) where ONNX's semantics and oneDNN's meet: layout
// 0, the default activations, no clip, no input_forget, no sequence_lens, no peepholes, and W,
// R and B constants (rearranged once, at creation). Anything else runs on the plain loops of
// rnn_kernel.cpp.
//
// ONNX against oneDNN (https://onnx.ai/onnx/operators/onnx__LSTM.html, oneDNN's RNN docs):
// - LSTM gates: ONNX stores i, o, f, c; oneDNN wants i, f, c, o. GRU gates z, r, h are
//   oneDNN's u, r, o in the same order.
// - Weights: ONNX W [D, G*H, I] (rows per gate), oneDNN ldigo [1, D, I, G, H]; likewise R.
// - Bias: LSTM and GRU (linear_before_reset 0) take Wb + Rb per gate; a GRU with
//   linear_before_reset 1 is oneDNN's LBR GRU, whose fourth bias gate is Rbh, applied inside
//   r * (h Rh^T + Rbh), and whose third is Wbh alone.
// - States: initial_h, Y_h and Y_c [D, N, H] are oneDNN's ldnc [1, D, N, H], the same bytes.
//   Y [T, D, N, H] is dst_layer [T, N, H] for one direction; two directions come out as
//   [T, N, 2H] (bidirectional_concat) and are copied into Y after the run.
#include <algorithm>
#include <cstring>

#include "asc/support/log.h"
#include "ops/dnnl_util.h"
#include "rnn_kernel.h"

namespace asc::ops {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

bool defaultActivations(const ir::Node& n, int dirs) {
  const ir::Attrs& a = n.attrs;
  if (a.find("activation_alpha") || a.find("activation_beta")) return false;
  const ir::AttrValue* v = a.find("activations");
  if (!v) return true;
  const auto* names = std::get_if<std::vector<std::string>>(v);
  if (!names) return false;
  const std::vector<std::string> lstm = {"Sigmoid", "Tanh", "Tanh"}, gru = {"Sigmoid", "Tanh"};
  const auto& per = cellOf(n) == CellKind::Lstm ? lstm : gru;
  if (names->size() != per.size() * static_cast<size_t>(dirs)) return false;
  for (size_t i = 0; i < names->size(); ++i)
    if ((*names)[i] != per[i % per.size()]) return false;
  return true;
}

bool constantInput(const KernelInit& k, size_t i) {
  return i < k.inputs.size() && k.inputs[i].data && k.inputs[i].value &&
         k.inputs[i].value->isConstant();
}

class FusedRnnKernel : public Kernel {
 public:
  explicit FusedRnnKernel(KernelEnv& env) : env_(env) {}

  Status init(const KernelInit& k) {
    const ir::Node& n = k.node;
    const bool lstm = cellOf(n) == CellKind::Lstm;
    const ir::Shape& x = k.inputs[0].shape();
    T_ = x[0];
    N_ = x[1];
    const int64_t I = x[2];
    H_ = n.attrs.getInt("hidden_size", k.inputs[2].shape()[2]);
    const std::string dir = n.attrs.getString("direction", "forward");
    D_ = dir == "bidirectional" ? 2 : 1;
    const int64_t G = lstm ? 4 : 3, H = H_, D = D_;
    const bool lbr = !lstm && n.attrs.getInt("linear_before_reset", 0) != 0;
    const int64_t BG = lbr ? 4 : G;  // bias gates
    // ONNX gate g goes to oneDNN gate order[g].
    const int lstm_order[4] = {0, 3, 1, 2};
    auto to = [&](int64_t g) { return lstm ? lstm_order[g] : static_cast<int>(g); };

    const float* W = k.inputs[1].f32();
    const float* R = k.inputs[2].f32();
    const float* B = hasTensor(k.inputs, 3) ? k.inputs[3].f32() : nullptr;
    wl_.assign(static_cast<size_t>(D * I * G * H), 0.f);
    wi_.assign(static_cast<size_t>(D * H * G * H), 0.f);
    bias_.assign(static_cast<size_t>(D * BG * H), 0.f);
    for (int64_t d = 0; d < D; ++d)
      for (int64_t g = 0; g < G; ++g)
        for (int64_t h = 0; h < H; ++h) {
          const int64_t row = d * G * H + g * H + h, og = to(g);
          for (int64_t i = 0; i < I; ++i)
            wl_[static_cast<size_t>(((d * I + i) * G + og) * H + h)] = W[row * I + i];
          for (int64_t i = 0; i < H; ++i)
            wi_[static_cast<size_t>(((d * H + i) * G + og) * H + h)] = R[row * H + i];
          if (!B) continue;
          const float wb = B[d * 2 * G * H + g * H + h], rb = B[d * 2 * G * H + G * H + g * H + h];
          float* b = &bias_[static_cast<size_t>((d * BG + og) * H + h)];
          if (lbr && g == 2) {
            *b = wb;
            bias_[static_cast<size_t>((d * BG + 3) * H + h)] = rb;
          } else {
            *b = wb + rb;
          }
        }

    const memory::desc src_layer({T_, N_, I}, dt::f32, tag::tnc);
    const memory::desc iter({1, D, N_, H}, dt::f32, tag::ldnc);
    const memory::desc wl_any({1, D, I, G, H}, dt::f32, tag::any);
    const memory::desc wi_any({1, D, H, G, H}, dt::f32, tag::any);
    const memory::desc bias_md({1, D, BG, H}, dt::f32, tag::ldgo);
    const memory::desc dst_layer({T_, N_, D * H}, dt::f32, tag::tnc);
    const bool h0 = hasTensor(k.inputs, 5), c0 = lstm && hasTensor(k.inputs, 6);
    const auto direction = dir == "bidirectional" ? dnnl::rnn_direction::bidirectional_concat
                           : dir == "reverse"     ? dnnl::rnn_direction::unidirectional_right2left
                                                  : dnnl::rnn_direction::unidirectional_left2right;
    const auto prop = dnnl::prop_kind::forward_inference;
    try {
      dnnl::primitive_attr attr;
      cpu::useSharedScratchpad(attr);
      memory::desc wl_md, wi_md;
      // The primitive of one kind from its op descriptor: what every kind shares.
      auto build = [&](auto kind, const auto& d) {
        using Prim = decltype(kind);
        typename Prim::primitive_desc pd(d, attr, env_.engine);
        prim_ = Prim(pd);
        wl_md = pd.weights_layer_desc();
        wi_md = pd.weights_iter_desc();
        impl_ = pd.impl_info_str();
        if (memory sp = cpu::sharedScratchpad(pd, env_)) args_[DNNL_ARG_SCRATCHPAD] = sp;
      };
      const memory::desc h_in = h0 ? iter : memory::desc();
      if (lstm)
        build(dnnl::lstm_forward(),
              dnnl::lstm_forward::desc(prop, direction, src_layer, h_in, c0 ? iter : memory::desc(),
                                       wl_any, wi_any, bias_md, dst_layer, iter, iter));
      else if (lbr)
        build(dnnl::lbr_gru_forward(),
              dnnl::lbr_gru_forward::desc(prop, direction, src_layer, h_in, wl_any, wi_any, bias_md,
                                          dst_layer, iter));
      else
        build(dnnl::gru_forward(), dnnl::gru_forward::desc(prop, direction, src_layer, h_in, wl_any,
                                                           wi_any, bias_md, dst_layer, iter));
      impl_ = "rnn:" + impl_;
      const memory::desc wl_plain({1, D, I, G, H}, dt::f32, tag::ldigo);
      const memory::desc wi_plain({1, D, H, G, H}, dt::f32, tag::ldigo);
      ASC_TRY(memory wl, cpu::reorderConstant(n, wl_plain, wl_.data(), wl_md, env_));
      ASC_TRY(memory wi, cpu::reorderConstant(n, wi_plain, wi_.data(), wi_md, env_));
      args_[DNNL_ARG_WEIGHTS_LAYER] = wl;
      args_[DNNL_ARG_WEIGHTS_ITER] = wi;
      args_[DNNL_ARG_BIAS] = memory(bias_md, env_.engine, bias_.data());
      args_[DNNL_ARG_SRC_LAYER] = memory(src_layer, env_.engine, k.inputs[0].data);
      if (h0) args_[DNNL_ARG_SRC_ITER] = memory(iter, env_.engine, k.inputs[5].data);
      if (c0) args_[DNNL_ARG_SRC_ITER_C] = memory(iter, env_.engine, k.inputs[6].data);
      // Y: one direction's [T, 1, N, H] is dst_layer itself; two are copied from [T, N, 2H].
      if (D == 1 && hasTensor(k.outputs, 0)) {
        args_[DNNL_ARG_DST_LAYER] = memory(dst_layer, env_.engine, k.outputs[0].data);
      } else {
        args_[DNNL_ARG_DST_LAYER] = memory(dst_layer, env_.engine);
        if (hasTensor(k.outputs, 0)) {
          y_ = static_cast<float*>(k.outputs[0].data);
          concat_ = args_[DNNL_ARG_DST_LAYER];
        }
      }
      args_[DNNL_ARG_DST_ITER] = hasTensor(k.outputs, 1)
                                     ? memory(iter, env_.engine, k.outputs[1].data)
                                     : memory(iter, env_.engine);
      if (lstm)
        args_[DNNL_ARG_DST_ITER_C] = hasTensor(k.outputs, 2)
                                         ? memory(iter, env_.engine, k.outputs[2].data)
                                         : memory(iter, env_.engine);
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(n, e);
    }
    return Status::ok();
  }

  void run() override {
    prim_.execute(env_.stream, args_);
    env_.stream.wait();
    if (!y_) return;
    // [T, N, D*H] -> Y [T, D, N, H].
    const float* src = static_cast<const float*>(concat_.get_data_handle());
    const int64_t H = H_;
    for (int64_t t = 0; t < T_; ++t)
      for (int64_t d = 0; d < D_; ++d)
        for (int64_t b = 0; b < N_; ++b)
          std::memcpy(y_ + ((t * D_ + d) * N_ + b) * H, src + ((t * N_ + b) * D_ + d) * H,
                      static_cast<size_t>(H) * sizeof(float));
  }
  std::string implName() const override { return impl_; }

 private:
  KernelEnv& env_;
  dnnl::primitive prim_;
  std::unordered_map<int, memory> args_;
  std::vector<float> wl_, wi_, bias_;  // ONNX's weights in oneDNN's gate order (ldigo, ldgo)
  memory concat_;
  float* y_ = nullptr;
  int64_t T_ = 0, N_ = 0, H_ = 0, D_ = 1;
  std::string impl_;
};

}  // namespace

bool fusedRnnSemantics(const KernelInit& k) {
  const ir::Node& n = k.node;
  if (cellOf(n) != CellKind::Lstm && cellOf(n) != CellKind::Gru) return false;
  const ir::Attrs& a = n.attrs;
  const int dirs = a.getString("direction", "forward") == "bidirectional" ? 2 : 1;
  if (a.getInt("layout", 0) != 0 || a.getFloat("clip", 0.f) != 0.f ||
      a.getInt("input_forget", 0) != 0 || !defaultActivations(n, dirs))
    return false;
  for (size_t i = 0; i < k.inputs.size(); ++i)  // sequence_lens (4) is int32, and excluded below
    if (i != 4 && k.inputs[i].data && k.inputs[i].dtype() != ir::DType::F32) return false;
  for (const auto& t : k.outputs)
    if (t.data && t.dtype() != ir::DType::F32) return false;
  if (!constantInput(k, 1) || !constantInput(k, 2)) return false;
  if (hasTensor(k.inputs, 3) && !constantInput(k, 3)) return false;
  return !hasTensor(k.inputs, 4) && !hasTensor(k.inputs, 7);  // sequence_lens, peepholes
}

std::unique_ptr<Kernel> tryFusedRnnKernel(const KernelInit& k) {
  const ir::Node& n = k.node;
  if (!fusedRnnSemantics(k)) return nullptr;
  auto kern = std::make_unique<FusedRnnKernel>(k.env);
  const Status st = kern->init(k);
  if (!st.isOk()) {  // not on this CPU: the loops serve
    // Weight reorders this kernel queued read its own buffers: they go with it.
    auto& q = k.env.pending_reorders;
    q.erase(std::remove_if(q.begin(), q.end(), [&](const auto& r) { return r.node == &n; }),
            q.end());
    ASC_LOG_DEBUG("node '{}': no fused {} kernel ({}); the loop kernel runs it", n.name, n.op_type,
                  st.message());
    return nullptr;
  }
  return kern;
}

}  // namespace asc::ops
