// aipp_kernel.h: the CPU kernel of static AIPP (see aipp_kernel.cpp).
#pragma once

#include "aipp_params.h"
#include "asc/ops/kernel.h"

namespace asc::ops {
namespace aipp {
/// Runs AIPP on a batch of n raw images `in` (p.rawShape(n), uint8) into `out` (fp32 NCHW,
/// [n, p.channels, p.outH(), p.outW()]).
void run(const Params& p, int64_t n, const uint8_t* in, float* out);
}  // namespace aipp
Result<std::unique_ptr<Kernel>> createAippKernel(const KernelInit& k);
}  // namespace asc::ops
