// buffer_sharing.h: what the tests of the runtime's buffer sharing (inplace_test.cpp: a Conv
// writing into its residual; concat_inplace_test.cpp: Concat inputs inside its output) have in
// common: test data, a naive 1x1 convolution, element-wise references, the comparison, and the
// count of buffers that sharing saved.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "asc/runtime/session.h"

namespace asc::test {

inline std::vector<float> pattern(size_t n, float k) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(k * float(i) + 0.3f);
  return v;
}

/// A 1x1 convolution of x [c, hw] by weights [c, c], accumulated in double.
inline std::vector<float> conv1x1(const std::vector<float>& x, const std::vector<float>& w, int c,
                                  int hw) {
  std::vector<float> y(size_t(c) * hw, 0.f);
  for (int o = 0; o < c; ++o)
    for (int p = 0; p < hw; ++p) {
      double acc = 0;
      for (int i = 0; i < c; ++i) acc += double(w[size_t(o) * c + i]) * x[size_t(i) * hw + p];
      y[size_t(o) * hw + p] = float(acc);
    }
  return y;
}

inline std::vector<float> relu(std::vector<float> v) {
  for (auto& f : v) f = std::max(0.f, f);
  return v;
}

inline void expectNear(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    bad += !(std::fabs(got[i] - want[i]) <= 1e-4f * (1 + std::fabs(want[i])));
  CHECK(bad == 0);
}

/// Arena buffers that memory reuse saves on the graph `make` builds: the count with reuse off
/// (nothing shared) minus the count with it on. Builder has a graph member `g`.
template <typename Builder>
size_t buffersSaved(const std::function<void(Builder&)>& make) {
  size_t buffers[2] = {0, 0};
  for (int reuse = 0; reuse < 2; ++reuse) {
    Builder b;
    make(b);
    runtime::SessionOptions o;
    o.reuse_memory = reuse == 1;
    auto s = runtime::Session::fromGraph(std::move(b.g), o);
    REQUIRE(s.isOk());
    buffers[reuse] = (*s)->bufferCount();
  }
  REQUIRE(buffers[0] >= buffers[1]);
  return buffers[0] - buffers[1];
}

}  // namespace asc::test
