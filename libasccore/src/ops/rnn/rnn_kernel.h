// rnn_kernel.h: the RNN, GRU and LSTM recurrences (see rnn_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"
#include "asc/ops/registry.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createRnnKernel(const KernelInit& k);
/// LSTM or GRU as one oneDNN primitive when the node's semantics allow it (rnn_fused.cpp), else
/// nullptr.
std::unique_ptr<Kernel> tryFusedRnnKernel(const KernelInit& k);
/// Whether tensor i of `t` (a kernel's inputs or outputs) is there: optional ones may be absent.
inline bool hasTensor(const std::vector<TensorRef>& t, size_t i) {
  return i < t.size() && t[i].data;
}
/// Whether an LSTM or GRU node's semantics are what the fused kernels compute: layout 0, the
/// default activations, no clip, no input_forget, no sequence_lens, no peepholes, fp32, and
/// constant W, R and B.
bool fusedRnnSemantics(const KernelInit& k);
/// An LSTM, or a GRU with linear_before_reset 1, at batch <= 4 with hidden_size a multiple of 8
/// on the runtime's own AVX2 kernel (rnn_own.cpp) when fusedRnnSemantics holds and the CPU has
/// AVX2 + FMA, else nullptr.
std::unique_ptr<Kernel> tryOwnRnnKernel(const KernelInit& k);
/// The recurrent cell of a node's op (its OpDef's recurrentCell).
CellKind cellOf(const ir::Node& n);
/// Gates per cell: RNN 1, GRU 3, LSTM 4.
int rnnGates(CellKind cell);
/// Activation functions per direction: RNN 1, GRU 2, LSTM 3.
int rnnActivations(CellKind cell);
/// Whether the kernel knows activation `name` (ONNX's RNN activation names).
bool rnnKnowsActivation(const std::string& name);
}  // namespace asc::ops
