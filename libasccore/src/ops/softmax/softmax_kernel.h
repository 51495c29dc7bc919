// softmax_kernel.h: Softmax and LogSoftmax on oneDNN, Hardmax (see softmax_kernel.cpp).
#pragma once

#include "asc/ops/kernel.h"

namespace asc::ops {
Result<std::unique_ptr<Kernel>> createSoftmaxKernel(const KernelInit& k);
Result<std::unique_ptr<Kernel>> createHardmaxKernel(const KernelInit& k);

/// The [outer, n, inner] view a Softmax-family node normalizes over (n along the axis; with
/// coerce_2d, n is every dim from the axis on and inner is 1).
void softmaxView(const ir::Node& node, const ir::Shape& s, int64_t* outer, int64_t* n,
                 int64_t* inner);
/// Hardmax on a buffer of T: 1 at the first maximum of each row of the view, 0 elsewhere.
template <typename T>
void hardmax(const T* in, T* out, int64_t outer, int64_t n, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const T* x = in + o * n * inner + i;
      T* y = out + o * n * inner + i;
      int64_t best = 0;
      for (int64_t j = 1; j < n; ++j)
        if (x[j * inner] > x[best * inner]) best = j;
      for (int64_t j = 0; j < n; ++j) y[j * inner] = j == best ? T(1) : T(0);
    }
}
}  // namespace asc::ops
