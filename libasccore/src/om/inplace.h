// inplace.h: the one rule for running an op in place over one of its inputs. The OM's memory plan
// (om/writer.cpp) and the CPU runtime (runtime/session.cpp) both call it, so the plan the OM
// records and the buffers the runtime uses agree. Each asks it through BufferQueries about its
// own bookkeeping; the runtime adds only its physical condition (the same layout and size).
#pragma once

#include <cstddef>
#include <functional>

#include "asc/ir/graph.h"

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

}  // namespace asc::om
