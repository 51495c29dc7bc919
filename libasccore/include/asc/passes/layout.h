// layout.h: the tensor formats the target chip would use, recorded in the graph. AI Core ops on
// 4-D feature maps work in NC1HWC0 (channels split into C1 blocks of C0, C0 from the soc table);
// TransData nodes convert at the edges, where a feature map meets an op that works in NCHW/ND or
// a model input or output. The CPU runtime computes on logical NCHW and picks its own physical
// layout, so TransData costs it nothing (its output aliases its input); the OM records the
// formats and 5-D shapes as the real one does.
#pragma once

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/passes/pass.h"
#include "asc/support/status.h"

namespace asc::passes {

/// Marks NC1HWC0 values and inserts TransData nodes. Values keep their logical NCHW shape.
ASC_API Status assignLayouts(ir::Graph& g, PassContext& ctx);
/// Whether an op works on NC1HWC0 feature maps on the chip.
ASC_API bool worksIn5hd(const ir::Node& n);

}  // namespace asc::passes
