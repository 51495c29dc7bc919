// blocked_test.cpp: the runtime's own nchw <-> nChw8c conversions (cpu/blocked.h) give exactly
// oneDNN's reorder results, the padded lanes of a last partial block zero, for channel counts on
// and off the block, pixel counts on and off the 8-pixel transpose and past one 512-pixel piece,
// and a batch of 2; and they are chosen only for that pair of layouts.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "cpu/blocked.h"

using namespace asc;
using dnnl::memory;

TEST_CASE("nchw <-> nChw8c conversions equal oneDNN's reorders", "[cpu][blocked]") {
  struct Dims {
    int64_t n, c, h, w;
  };
  const Dims d = GENERATE(Dims{1, 8, 4, 4}, Dims{1, 3, 5, 7}, Dims{2, 13, 9, 9},
                          Dims{1, 116, 28, 28}, Dims{1, 24, 1, 1}, Dims{1, 17, 23, 25});
  INFO("[" << d.n << "," << d.c << "," << d.h << "," << d.w << "]");
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream st(eng);
  const memory::dims dims = {d.n, d.c, d.h, d.w};
  const memory::desc plain(dims, memory::data_type::f32, memory::format_tag::nchw);
  const memory::desc blocked(dims, memory::data_type::f32, memory::format_tag::nChw8c);
  CHECK(cpu::blockedConversion(plain, blocked) == cpu::BlockedConversion::ToBlocked);
  CHECK(cpu::blockedConversion(blocked, plain) == cpu::BlockedConversion::ToPlain);
  CHECK(cpu::blockedConversion(plain, plain) == cpu::BlockedConversion::None);
  CHECK(cpu::blockedConversion(
            plain, memory::desc(dims, memory::data_type::f32, memory::format_tag::nhwc)) ==
        cpu::BlockedConversion::None);
  const int64_t hw = d.h * d.w;
  std::vector<float> x(size_t(d.n * d.c * hw));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.3f * float(i)) + float(i % 11);
  // Plain -> blocked: ours against oneDNN's, over a buffer that starts full of garbage.
  std::vector<float> ours(blocked.get_size() / 4, 7.f), theirs(blocked.get_size() / 4, 0.f);
  cpu::plainToBlocked(x.data(), ours.data(), d.n, d.c, hw);
  memory px(plain, eng, x.data()), bt(blocked, eng, theirs.data());
  dnnl::reorder(px, bt).execute(st, px, bt);
  st.wait();
  CHECK(ours == theirs);
  // Blocked -> plain: back to x exactly.
  std::vector<float> back(x.size(), -1.f);
  cpu::blockedToPlain(ours.data(), back.data(), d.n, d.c, hw);
  CHECK(back == x);
}
