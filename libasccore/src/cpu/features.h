// features.h: what the CPU offers the runtime's own kernels, and the environment switches that
// turn one of those paths off.
#pragma once

namespace asc::cpu {

/// True unless the environment variable `name` is "0" (ASC_CONV_WINOGRAD=0 and its kin).
bool switchedOn(const char* name);

/// Whether the CPU has AVX2 and FMA, the instructions of the runtime's own fp32 kernels.
bool hasAvx2Fma();

/// Whether the CPU has AVX-512 F, the instructions of the runtime's own AVX-512 kernels.
bool hasAvx512();

}  // namespace asc::cpu
