// index_kernel.h: GatherElements, ScatterElements (and the older Scatter), GatherND and ScatterND
// and OneHot (see index_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createIndexKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createOneHotKernel(const KernelInit& k);

/// Runs node n on raw buffers: data (shape ds, dtype t), indices (shape is, int64 or int32),
/// updates (scatters; the shape of indices for the element-wise ones), out. Scatters copy data
/// into out first (nothing is copied when out == data).
void runIndexOp(const ir::Node& n, ir::DType t, const ir::Shape& ds, const uint8_t* data,
                const ir::Shape& is, const void* idx, bool i64, const uint8_t* upd, uint8_t* out);
}  // namespace asc::ops
