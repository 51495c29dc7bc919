// rnn_kernel.h: the RNN, GRU and LSTM recurrences (see rnn_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"
#include "asc/ops/registry.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createRnnKernel(const KernelInit& k);
/// LSTM or GRU as one oneDNN primitive when the node's semantics allow it (rnn_fused.cpp), else
/// nullptr.
std::unique_ptr<Kernel> tryFusedRnnKernel(const KernelInit& k);
/// The recurrent cell of a node's op (its OpDef's recurrentCell).
CellKind cellOf(const ir::Node& n);
/// Gates per cell: RNN 1, GRU 3, LSTM 4.
int rnnGates(CellKind cell);
/// Activation functions per direction: RNN 1, GRU 2, LSTM 3.
int rnnActivations(CellKind cell);
/// Whether the kernel knows activation `name` (ONNX's RNN activation names).
bool rnnKnowsActivation(const std::string& name);
}  // namespace asc::ops
