// rnn_kernel.cpp: RNN, GRU and LSTM as plain loops (ONNX's equations, fp32), one batch row and
// direction at a time; the gate projections run over transposed weights so they vectorize. W, R, B,
// the initial states and sequence_lens are read from their buffers on every run, so they may be
// run-time inputs. Steps past a row's sequence length leave Y at 0 and the state as it was; the
// reverse direction walks a row's steps from its last valid one.
#include "rnn_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ops/op_util.h"

namespace asc::ops {
namespace {

/// One activation, its name resolved to a kind once (the step loop calls it per element).
struct Act {
  enum Kind {
    Sigmoid,
    Tanh,
    Relu,
    HardSigmoid,
    LeakyRelu,
    ThresholdedRelu,
    ScaledTanh,
    Affine,
    Elu,
    Softsign,
    Softplus,
    Identity
  };
  std::string name;
  float alpha = 0, beta = 0;
  Kind kind = Identity;
  float operator()(float x) const {
    switch (kind) {
      case Sigmoid:
        return 1.f / (1.f + std::exp(-x));
      case Tanh:
        return std::tanh(x);
      case Relu:
        return std::max(0.f, x);
      case HardSigmoid:
        return std::min(1.f, std::max(0.f, alpha * x + beta));
      case LeakyRelu:
        return x >= 0 ? x : alpha * x;
      case ThresholdedRelu:
        return x > alpha ? x : 0.f;
      case ScaledTanh:
        return alpha * std::tanh(beta * x);
      case Affine:
        return alpha * x + beta;
      case Elu:
        return x >= 0 ? x : alpha * (std::exp(x) - 1.f);
      case Softsign:
        return x / (1.f + std::fabs(x));
      case Softplus:
        return std::log1p(std::exp(x));
      case Identity:
        return x;
    }
    return x;
  }
};

Act::Kind actKind(const std::string& name) {
  static const std::pair<const char*, Act::Kind> kKinds[] = {
      {"Sigmoid", Act::Sigmoid},
      {"Tanh", Act::Tanh},
      {"Relu", Act::Relu},
      {"HardSigmoid", Act::HardSigmoid},
      {"LeakyRelu", Act::LeakyRelu},
      {"ThresholdedRelu", Act::ThresholdedRelu},
      {"ScaledTanh", Act::ScaledTanh},
      {"Affine", Act::Affine},
      {"Elu", Act::Elu},
      {"Softsign", Act::Softsign},
      {"Softplus", Act::Softplus},
  };
  for (const auto& [n, k] : kKinds)
    if (name == n) return k;
  return Act::Identity;
}

// Default alpha/beta of the activations that take them (ONNX's RNN operator docs).
Act makeAct(const std::string& name, const std::vector<float>& alphas,
            const std::vector<float>& betas, size_t* ai, size_t* bi) {
  Act a{name};
  a.kind = actKind(name);
  const bool takes_alpha = name == "HardSigmoid" || name == "LeakyRelu" ||
                           name == "ThresholdedRelu" || name == "ScaledTanh" || name == "Affine" ||
                           name == "Elu";
  const bool takes_beta = name == "HardSigmoid" || name == "ScaledTanh" || name == "Affine";
  if (takes_alpha) {
    a.alpha = name == "HardSigmoid" ? 0.2f : name == "LeakyRelu" ? 0.01f : 1.f;
    if (*ai < alphas.size()) a.alpha = alphas[(*ai)++];
  }
  if (takes_beta) {
    a.beta = name == "HardSigmoid" ? 0.5f : name == "Affine" ? 0.f : 1.f;
    if (*bi < betas.size()) a.beta = betas[(*bi)++];
  }
  return a;
}

class RnnKernel : public Kernel {
 public:
  explicit RnnKernel(const KernelInit& k) : op_(cellOf(k.node)) {
    const ir::Attrs& a = k.node.attrs;
    in_ = k.inputs;
    out_ = k.outputs;
    layout_ = a.getInt("layout", 0);
    const ir::Shape& x = k.inputs[0].shape();
    seq_ = layout_ ? x[1] : x[0];
    batch_ = layout_ ? x[0] : x[1];
    isz_ = x[2];
    hid_ = a.getInt("hidden_size", 0);
    gates_ = rnnGates(op_);
    const std::string dir = a.getString("direction", "forward");
    dirs_ = dir == "bidirectional" ? 2 : 1;
    reverse0_ = dir == "reverse";
    clip_ = a.getFloat("clip", 0.f);
    lbr_ = a.getInt("linear_before_reset", 0) != 0;
    input_forget_ = a.getInt("input_forget", 0) != 0;
    std::vector<std::string> names;
    if (const ir::AttrValue* v = a.find("activations"))
      if (const auto* s = std::get_if<std::vector<std::string>>(v)) names = *s;
    const int64_t GH = gates_ * hid_;
    wt_.resize(static_cast<size_t>(isz_ * GH));
    rt_.resize(static_cast<size_t>(hid_ * GH));
    for (auto* v : {&h_, &c_, &rh_, &z_, &r_, &rec_}) v->resize(static_cast<size_t>(hid_));
    gx_.resize(static_cast<size_t>(GH));
    gh_.resize(static_cast<size_t>(GH));
    const int per = rnnActivations(op_);
    static const char* kDefaults[3][3] = {
        {"Tanh", "", ""}, {"Sigmoid", "Tanh", ""}, {"Sigmoid", "Tanh", "Tanh"}};
    const int row = op_ == CellKind::Rnn ? 0 : op_ == CellKind::Gru ? 1 : 2;
    const auto alphas = a.getFloats("activation_alpha"), betas = a.getFloats("activation_beta");
    size_t ai = 0, bi = 0;
    for (int d = 0; d < dirs_; ++d)
      for (int j = 0; j < per; ++j) {
        const size_t at = static_cast<size_t>(d * per + j);
        acts_.push_back(
            makeAct(at < names.size() ? names[at] : kDefaults[row][j], alphas, betas, &ai, &bi));
      }
  }

  void run() override {
    const int64_t H = hid_, G = gates_;
    const float* X = input(0);
    const float* W = input(1);
    const float* R = input(2);
    const float* B = input(3);
    const auto* lens = static_cast<const int32_t*>(in_.size() > 4 ? in_[4].data : nullptr);
    const float* h0 = input(5);
    const float* c0 = input(6);
    const float* P = input(7);
    float* Y = output(0);
    float* Yh = output(1);
    float* Yc = output(2);
    if (Y) std::memset(Y, 0, static_cast<size_t>(seq_ * dirs_ * batch_ * H) * sizeof(float));
    std::vector<float>&h = h_, &c = c_, &gx = gx_, &gh = gh_, &rh = rh_;
    const int64_t GH = G * H;
    for (int64_t d = 0; d < dirs_; ++d) {
      const bool rev = d == 1 || reverse0_;
      const float* Wd = W + d * GH * isz_;
      const float* Rd = R + d * GH * H;
      // W and R transposed ([isz][GH], [H][GH]) on every run (they may be run-time inputs), so
      // each gate projection is a sum of contiguous rows: the same additions in the same order
      // as a dot product per gate, vectorized across the gates.
      for (int64_t g = 0; g < GH; ++g) {
        for (int64_t i = 0; i < isz_; ++i) wt_[i * GH + g] = Wd[g * isz_ + i];
        for (int64_t i = 0; i < H; ++i) rt_[i * GH + g] = Rd[g * H + i];
      }
      const float* Wb = B ? B + d * 2 * G * H : nullptr;
      const float* Rb = B ? Wb + G * H : nullptr;
      const float* Pd = P ? P + d * 3 * H : nullptr;
      const Act* act = &acts_[static_cast<size_t>(d * rnnActivations(op_))];
      for (int64_t b = 0; b < batch_; ++b) {
        // States are [dirs, batch, H], or [batch, dirs, H] with layout 1.
        const int64_t so = layout_ ? (b * dirs_ + d) * H : (d * batch_ + b) * H;
        for (int64_t j = 0; j < H; ++j) {
          h[j] = h0 ? h0[so + j] : 0.f;
          c[j] = c0 ? c0[so + j] : 0.f;
        }
        const int64_t len = lens ? std::min<int64_t>(seq_, lens[b]) : seq_;
        for (int64_t step = 0; step < len; ++step) {
          const int64_t t = rev ? len - 1 - step : step;
          const float* x = X + (layout_ ? (b * seq_ + t) : (t * batch_ + b)) * isz_;
          project(x, isz_, wt_.data(), Wb, gx.data());
          project(h.data(), H, rt_.data(), Rb, gh.data());
          cell(act, Rb, Pd, &h, &c, gx, gh, &rh);
          if (Y) {
            // Y is [seq, dirs, batch, H], or [batch, seq, dirs, H] with layout 1.
            float* y = Y + (layout_ ? ((b * seq_ + t) * dirs_ + d) * H
                                    : ((t * dirs_ + d) * batch_ + b) * H);
            std::copy(h.begin(), h.end(), y);
          }
        }
        if (Yh) std::copy(h.begin(), h.end(), Yh + so);
        if (Yc) std::copy(c.begin(), c.end(), Yc + so);
      }
    }
  }
  std::string implName() const override { return "rnn-loop"; }

  /// out[g] = bias[g] + sum_i v[i] * t[i][g] over the G*H gates.
  void project(const float* v, int64_t n, const float* t, const float* bias, float* out) const {
    const int64_t GH = gates_ * hid_;
    for (int64_t g = 0; g < GH; ++g) out[g] = bias ? bias[g] : 0.f;
    for (int64_t i = 0; i < n; ++i) {
      const float vi = v[i];
      const float* row = t + i * GH;
      for (int64_t g = 0; g < GH; ++g) out[g] += vi * row[g];
    }
  }

 private:
  const float* input(size_t i) const {
    return i < in_.size() && in_[i].data ? static_cast<const float*>(in_[i].data) : nullptr;
  }
  float* output(size_t i) const {
    return i < out_.size() && out_[i].data ? static_cast<float*>(out_[i].data) : nullptr;
  }
  float clip(float v) const { return clip_ > 0 ? std::min(clip_, std::max(-clip_, v)) : v; }

  void cell(const Act* act, const float* Rb, const float* Pd, std::vector<float>* hp,
            std::vector<float>* cp, const std::vector<float>& gx, const std::vector<float>& gh,
            std::vector<float>* rh) {
    std::vector<float>& h = *hp;
    std::vector<float>& c = *cp;
    const int64_t H = hid_;
    if (op_ == CellKind::Rnn) {
      for (int64_t j = 0; j < H; ++j) h[j] = act[0](clip(gx[j] + gh[j]));
    } else if (op_ == CellKind::Gru) {  // gates z, r, h
      std::vector<float>& hn = *rh;
      std::vector<float>&z = z_, &r = r_, &rec = rec_;
      for (int64_t j = 0; j < H; ++j) {
        z[j] = act[0](clip(gx[j] + gh[j]));
        r[j] = act[0](clip(gx[H + j] + gh[H + j]));
      }
      if (lbr_) {
        for (int64_t j = 0; j < H; ++j) rec[j] = r[j] * gh[2 * H + j];  // gh: h Rh^T + Rbh
      } else {
        // (r * h) Rh^T + Rbh, from the transposed R's rows (columns 2H.. of each).
        const int64_t GH = gates_ * H;
        for (int64_t j = 0; j < H; ++j) rec[j] = Rb ? Rb[2 * H + j] : 0.f;
        for (int64_t i = 0; i < H; ++i) {
          const float rh_i = r[i] * h[i];
          const float* row = rt_.data() + i * GH + 2 * H;
          for (int64_t j = 0; j < H; ++j) rec[j] += rh_i * row[j];
        }
      }
      for (int64_t j = 0; j < H; ++j) hn[j] = act[1](clip(gx[2 * H + j] + rec[j]));
      for (int64_t j = 0; j < H; ++j) h[j] = (1.f - z[j]) * hn[j] + z[j] * h[j];
    } else {  // LSTM: gates i, o, f, c; peepholes P = [Pi, Po, Pf]
      for (int64_t j = 0; j < H; ++j) {
        const float cprev = c[j];
        float it = act[0](clip(gx[j] + gh[j] + (Pd ? Pd[j] * cprev : 0.f)));
        float ft = act[0](clip(gx[2 * H + j] + gh[2 * H + j] + (Pd ? Pd[2 * H + j] * cprev : 0.f)));
        if (input_forget_) it = 1.f - ft;
        const float ct = act[1](clip(gx[3 * H + j] + gh[3 * H + j]));
        c[j] = ft * cprev + it * ct;
        const float ot = act[0](clip(gx[H + j] + gh[H + j] + (Pd ? Pd[H + j] * c[j] : 0.f)));
        h[j] = ot * act[2](c[j]);
      }
    }
  }

  CellKind op_;
  std::vector<TensorRef> in_, out_;
  int64_t layout_ = 0, seq_ = 0, batch_ = 0, isz_ = 0, hid_ = 0;
  int64_t gates_ = 1, dirs_ = 1;
  bool reverse0_ = false, lbr_ = false, input_forget_ = false;
  float clip_ = 0;
  std::vector<Act> acts_;
  // Scratch, sized at creation (run() allocates nothing).
  std::vector<float> wt_, rt_, h_, c_, gx_, gh_, rh_, z_, r_, rec_;
};

}  // namespace

CellKind cellOf(const ir::Node& n) { return defOf(n).cellKind(); }
int rnnGates(CellKind c) { return c == CellKind::Rnn ? 1 : c == CellKind::Gru ? 3 : 4; }
int rnnActivations(CellKind c) { return c == CellKind::Rnn ? 1 : c == CellKind::Gru ? 2 : 3; }

bool rnnKnowsActivation(const std::string& name) {
  static const char* kNames[] = {
      "Sigmoid",    "Tanh",   "Relu", "HardSigmoid", "LeakyRelu", "ThresholdedRelu",
      "ScaledTanh", "Affine", "Elu",  "Softsign",    "Softplus"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

Result<std::unique_ptr<Kernel>> createRnnKernel(const KernelInit& k) {
  if (k.inputs[0].dtype() != ir::DType::F32)
    return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): {} input is not supported",
                         k.node.name, k.node.op_type, ir::dtypeName(k.inputs[0].dtype()));
  if (!std::getenv("ASC_RNN_LOOP")) {  // ASC_RNN_LOOP=1: the loops always (tests compare both)
    if (auto own = tryOwnRnnKernel(k)) return own;
    if (auto fused = tryFusedRnnKernel(k)) return fused;
  }
  return std::unique_ptr<Kernel>(std::make_unique<RnnKernel>(k));
}

}  // namespace asc::ops
