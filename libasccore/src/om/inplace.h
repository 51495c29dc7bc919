// inplace.h: the rules for sharing buffers between an op's inputs and its output: running an op
// in place over one of its inputs, and placing inputs inside an output that joins them. The OM's
// memory plan (om/writer.cpp) and the CPU runtime (runtime/session.cpp) both call it, so the plan
// the OM records and the buffers the runtime uses agree. Each asks it through BufferQueries about
// its own bookkeeping; the runtime adds only its physical condition (the same layout and size).
#pragma once

#include <cstddef>
#include <functional>
#include <unordered_map>
#include <vector>

#include "asc/ir/graph.h"
#include "asc/ops/kernel.h"

namespace asc::om {

struct BufferQueries {
  /// The buffer (a group of values sharing bytes) holding `v`, or -1 when `v` has no activation
  /// buffer of its own: a constant, a model input, data held outside the arena.
  std::function<int(const ir::Value*)> buffer_of;
  /// Whether a value in `buffer` is read by a node after `node_index`, is a model output, or is
  /// a model input.
  std::function<bool(int buffer, size_t node_index)> used_after;
};

/// The input of `n` whose buffer n's output 0 may take over and write into (the op accumulates
/// into it: Conv's fused residual, OpDef::accumulatesInto), or -1. It may when the input has the
/// output's shape and dtype, its buffer is an activation buffer, no other input of `n` shares
/// that buffer, and nothing uses the buffer after `n` (the node at `node_index`).
int inPlaceInput(const ir::Node& n, size_t node_index, const BufferQueries& q);

struct JoinQueries {
  /// As BufferQueries::buffer_of.
  std::function<int(const ir::Value*)> buffer_of;
  /// The index of the last node that reads `v` (a model output: past the last node).
  std::function<size_t(const ir::Value*)> last_read;
};

/// The inputs of `n` (their indices) whose buffers may live inside n's output 0, when the output
/// stored in `layout` is its inputs' bytes one after another (OpDef::joinsInputs: Concat), so
/// that their producers write straight into it. An input may when it has an activation buffer
/// (no constant, no model input), appears once among n's inputs, and nothing reads it after
/// the output's last reader (it would keep the whole output alive: DenseNet's feature maps,
/// read by every later Concat of their block). The caller adds its own conditions (the
/// runtime: the same layout and type; both: a buffer holding just that input).
std::vector<size_t> joinedInputs(const ir::Node& n, ops::Layout layout, const JoinQueries& q);

/// The nodes reading each value, by index in graph order, each once.
using ReaderIndex = std::unordered_map<const ir::Value*, std::vector<size_t>>;
ReaderIndex readerIndex(const ir::Graph& g);

struct PrefixQueries {
  /// About the buffers of n's inputs (see joinedInputs).
  JoinQueries join;
  const ir::Graph* graph = nullptr;
  const ReaderIndex* readers = nullptr;  // readerIndex(*graph)
};

/// A later node whose output 0 begins with n's output 0 (n is the node at `node_index`), or -1:
/// both join their inputs in `layout` (OpDef::joinsInputs), the later one's inputs begin with all
/// of n's, in order, each of which it joins (joinedInputs), and nothing reads n's output after
/// the later one's last reader. Then n's output may be the later output's first bytes, where
/// n's inputs already lie, and n copies nothing. Of several, the latest. DenseNet: each layer's
/// Concat of its block's feature maps so far lies inside the block's last Concat, which holds
/// them all. The caller makes the two one buffer once it has joined the later node's inputs,
/// if it joined those, n's output has a buffer of its own that nothing else shares, and (the
/// runtime) the layouts and types agree.
int prefixHost(const ir::Node& n, size_t node_index, ops::Layout layout, const PrefixQueries& q);

}  // namespace asc::om
