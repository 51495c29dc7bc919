// signal_kernel.h: the DFT and STFT kernels (see signal_kernel.cpp) and the window and mel
// formulas that constant evaluation shares with the tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asc/ops/kernel.h"

namespace asc::ops {

Result<std::unique_ptr<Kernel>> createDftKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createStftKernel(const KernelInit& k);

/// Element n of a window of `size` points for HannWindow, HammingWindow or BlackmanWindow
/// (`op`); periodic windows have period `size`, symmetric ones period `size - 1`.
double windowValue(const std::string& op, int64_t n, int64_t size, bool periodic);

/// The ONNX MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] triangular filters, row-major.
std::vector<double> melWeights(int64_t num_mel_bins, int64_t dft_length, int64_t sample_rate,
                               double lower_hz, double upper_hz);

}  // namespace asc::ops
