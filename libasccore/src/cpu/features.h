// features.h: what the CPU offers the runtime's own kernels, and the environment switches that
// turn one of those paths off.
#pragma once

/// A function compiled for AVX-512 F, called only where hasAvx512() (and avx512Isa()) hold.
#define ASC_AVX512 __attribute__((target("avx512f")))

namespace asc::cpu {

/// True unless the environment variable `name` is "0" (ASC_CONV_WINOGRAD=0 and its kin).
bool switchedOn(const char* name);

/// The environment variable `name` as a switch: 0 when it is "0", 1 when it is "1", otherwise
/// (unset or another value) -1, for a path whose default depends on the CPU.
int switchSetting(const char* name);

/// Whether CPUID says the process runs under a hypervisor (a VM's virtual CPUs).
bool underHypervisor();

/// Whether the CPU has AVX2 and FMA, the instructions of the runtime's own fp32 kernels.
bool hasAvx2Fma();

/// Whether the CPU has AVX-512 F, the instructions of the runtime's own AVX-512 kernels.
bool hasAvx512();

/// Whether oneDNN's effective ISA reaches AVX-512 (avx512_core): false on AVX2 CPUs and under
/// ONEDNN_MAX_CPU_ISA=AVX2, which takes the runtime's own kernels to their AVX2 paths too.
bool avx512Isa();

/// Whether the CPU has AVX-512 F but runs a 512-bit multiply-add at half the rate of its
/// 256-bit ones (two passes through 256-bit units): AMD's Zen 4 (family 0x19, the only family
/// 0x19 core with AVX-512). There a direct convolution reaches no more than on AVX2, and the
/// Winograd kernel's fewer multiply-adds pay; on CPUs with full-width 512-bit units (Zen 5,
/// Intel's) the direct kernel runs twice as fast and Winograd's transforms cost more than they
/// save (docs/runtime.md, "Winograd for 3x3 convolutions").
bool avx512HalfRate();

}  // namespace asc::cpu
