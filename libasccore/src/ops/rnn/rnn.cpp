// rnn.cpp: the recurrent ops RNN, GRU and LSTM (-> CANN DynamicRNN / DynamicGRUV2 / DynamicLSTM
// names are UNCONFIRMED; the types here are RNN, GRU and LSTM). Inputs X [seq, batch, input]
// ([batch, seq, input] with layout 1), W [dirs, G*hidden, input], R [dirs, G*hidden, hidden],
// optional B [dirs, 2*G*hidden], sequence_lens [batch] (int32), initial_h [dirs, batch, hidden]
// and, for LSTM, initial_c and peepholes P [dirs, 3*hidden]; G = 1, 3 or 4 gates. Outputs Y
// [seq, dirs, batch, hidden] and Y_h (LSTM: Y_c) [dirs, batch, hidden] (layout 1: batch first).
// Weights may be run-time inputs: the loop kernel (rnn_kernel.cpp) reads them on every run;
// LSTM and GRU with constant weights and oneDNN's semantics run fused (rnn_fused.cpp).
#include "ops/op_util.h"
#include "rnn_kernel.h"

namespace asc::ops {
namespace {

Status inferRnn(InferContext& ctx) {
  const CellKind op = cellOf(ctx.node());
  const int64_t G = rnnGates(op);
  ir::Attrs& a = ctx.attrs();
  // Float tensors may be stored in fp16/bf16 (--precision_mode): the kernel computes in fp32
  // and the runtime converts at the op's boundary. sequence_lens is int32.
  auto isFloat = [](ir::DType t) {
    return t == ir::DType::F32 || t == ir::DType::F16 || t == ir::DType::BF16;
  };
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    if (!ctx.hasInput(i)) continue;
    const bool ok = i == 4 ? ctx.dtype(i) == ir::DType::I32 : isFloat(ctx.dtype(i));
    if (!ok)
      return ctx.unsupported("input {} has dtype {}; {} is supported", i,
                             ir::dtypeName(ctx.dtype(i)),
                             i == 4 ? "int32" : "float32 (or float16/bfloat16 storage)");
  }
  const ir::DType out = ctx.dtype(0);
  const ir::Shape& x = ctx.shape(0);
  if (x.size() != 3) return ctx.fail("X must be 3-D, it is [{}]", ir::shapeToString(x));
  const int64_t layout = a.getInt("layout", 0);
  if (layout != 0 && layout != 1) return ctx.fail("layout {} must be 0 or 1", layout);
  const std::string dir = a.getString("direction", "forward");
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    return ctx.fail("direction '{}' is not forward, reverse or bidirectional", dir);
  const int64_t dirs = dir == "bidirectional" ? 2 : 1;
  const ir::Shape& w = ctx.shape(1);
  const ir::Shape& r = ctx.shape(2);
  if (w.size() != 3 || r.size() != 3) return ctx.fail("W and R must be 3-D");
  const int64_t hidden = a.getInt("hidden_size", r[2]);
  if (hidden <= 0) return ctx.fail("hidden_size {} must be positive", hidden);
  const int64_t seq = layout ? x[1] : x[0], batch = layout ? x[0] : x[1];
  if (w != ir::Shape{dirs, G * hidden, x[2]})
    return ctx.fail("W has shape [{}], expected [{}, {}, {}]", ir::shapeToString(w), dirs,
                    G * hidden, x[2]);
  if (r != ir::Shape{dirs, G * hidden, hidden})
    return ctx.fail("R has shape [{}], expected [{}, {}, {}]", ir::shapeToString(r), dirs,
                    G * hidden, hidden);
  if (ctx.numInputs() > 3 && ctx.hasInput(3) && ctx.shape(3) != ir::Shape{dirs, 2 * G * hidden})
    return ctx.fail("B has shape [{}], expected [{}, {}]", ir::shapeToString(ctx.shape(3)), dirs,
                    2 * G * hidden);
  if (ctx.numInputs() > 4 && ctx.hasInput(4) && ctx.shape(4) != ir::Shape{batch})
    return ctx.fail("sequence_lens has shape [{}], expected [{}]", ir::shapeToString(ctx.shape(4)),
                    batch);
  const ir::Shape state = layout ? ir::Shape{batch, dirs, hidden} : ir::Shape{dirs, batch, hidden};
  for (size_t i = 5; i < 7 && i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && ctx.shape(i) != state)
      return ctx.fail("input {} has shape [{}], expected [{}]", i, ir::shapeToString(ctx.shape(i)),
                      ir::shapeToString(state));
  if (ctx.numInputs() > 7 && ctx.hasInput(7) && ctx.shape(7) != ir::Shape{dirs, 3 * hidden})
    return ctx.fail("P has shape [{}], expected [{}, {}]", ir::shapeToString(ctx.shape(7)), dirs,
                    3 * hidden);
  if (const ir::AttrValue* v = a.find("activations")) {
    const auto* names = std::get_if<std::vector<std::string>>(v);
    if (!names || static_cast<int64_t>(names->size()) != rnnActivations(op) * dirs)
      return ctx.fail("activations must name {} functions", rnnActivations(op) * dirs);
    for (const auto& n : *names)
      if (!rnnKnowsActivation(n)) return ctx.unsupported("activation '{}' is not supported", n);
  }
  a.set("hidden_size", hidden);
  ctx.setOutput(0, out,
                layout ? ir::Shape{batch, seq, dirs, hidden} : ir::Shape{seq, dirs, batch, hidden});
  ctx.setOutput(1, out, state);
  ctx.setOutput(2, out, state);
  return Status::ok();
}

int64_t rnnFlops(const ir::Node& n) {
  const ir::Shape& w = n.inputs[1]->shape;
  const ir::Shape& r = n.inputs[2]->shape;
  const ir::Shape& x = n.inputs[0]->shape;
  const int64_t steps = x[0] * x[1];
  return 2 * steps * (w[0] * w[1] * w[2] + r[0] * r[1] * r[2]);
}

OpDef rnnOp(const char* name, CellKind cell, int max_inputs, int max_outputs, const char* summary) {
  return OpDef(name)
      .recurrentCell(cell)
      .kernel(createRnnKernel)
      .precisionClass(PrecisionClass::Sensitive)
      .onnx(7)
      .inputs(3, max_inputs)
      .outputs(0, max_outputs)
      .inferShape(inferRnn)
      .flops(rnnFlops)
      .summary(summary);
}

}  // namespace

const OpDef& defRNN() {
  static const OpDef d =
      rnnOp("RNN", CellKind::Rnn, 6, 2, "Elman RNN: H = f(X W^T + H R^T + b), f default Tanh");
  return d;
}

const OpDef& defGRU() {
  static const OpDef d = rnnOp("GRU", CellKind::Gru, 6, 2,
                               "GRU (gates z, r, h; linear_before_reset), Sigmoid/Tanh by default");
  return d;
}

const OpDef& defLSTM() {
  static const OpDef d = rnnOp("LSTM", CellKind::Lstm, 8, 3,
                               "LSTM (gates i, o, f, c; peepholes, input_forget), "
                               "Sigmoid/Tanh/Tanh by default");
  return d;
}

}  // namespace asc::ops
