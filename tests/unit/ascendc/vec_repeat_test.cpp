// vec_repeat_test.cpp: the mask-and-repeat forms of the vector instructions against a naive
// reference of the addressing rule (kernel_vec_repeat.h): which elements each repeat touches,
// with count and bit masks, block and repeat strides, and the bounds check.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {

std::string runK(const std::function<void()>& body) {
  asc::Status st = asc::ascendc::launchKernel("k", 1, body, {});
  return st.isOk() ? "" : st.message();
}

// The element offset of element e of repeat r (strides in 32-byte blocks), float.
size_t offsetOf(size_t r, size_t e, size_t blk, size_t rep) { return (r * rep + (e / 8) * blk) * 8 + e % 8; }

}  // namespace

TEST_CASE("Add with a count mask and strides touches exactly the selected elements", "[ascendc]") {
  for (auto [mask, repeat, dblk, sblk, drep, srep] :
       std::vector<std::tuple<uint64_t, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t>>{
           {64, 2, 1, 1, 8, 8}, {20, 3, 1, 1, 8, 8}, {64, 2, 2, 1, 16, 8}, {13, 4, 1, 2, 4, 16}}) {
    std::vector<float> got, want;
    auto msg = runK([&, mask = mask, repeat = repeat, dblk = dblk, sblk = sblk, drep = drep,
                     srep = srep] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 3 * 1024 * sizeof(float));
      LocalTensor<float> d = buf.Get<float>(1024), a = buf.Get<float>()[1024],
                         b = buf.Get<float>()[2048];
      for (int i = 0; i < 1024; ++i) {
        d.SetValue(i, -1.f);
        a.SetValue(i, float(i));
        b.SetValue(i, 1000.f);
      }
      Add(d, a, b, mask, repeat, BinaryRepeatParams(dblk, sblk, sblk, drep, srep, srep));
      want.assign(1024, -1.f);
      for (size_t r = 0; r < repeat; ++r)
        for (size_t e = 0; e < mask; ++e)
          want[offsetOf(r, e, dblk, drep)] = float(offsetOf(r, e, sblk, srep)) + 1000.f;
      for (int i = 0; i < 1024; ++i) got.push_back(d.GetValue(i));
    });
    INFO("mask " << mask << " repeat " << int(repeat));
    CHECK(msg.empty());
    CHECK(got == want);
  }
}

TEST_CASE("a bit mask selects elements, for half and float", "[ascendc]") {
  std::vector<float> got;
  auto msg = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<half> d = buf.Get<half>(128), s = buf.Get<half>()[128];
    for (int i = 0; i < 128; ++i) {
      d.SetValue(i, half(0.f));
      s.SetValue(i, half(float(i)));
    }
    const uint64_t mask[2] = {0x5ull, 0x1ull << 63};  // elements 0, 2 and 127
    Muls(d, s, 2.0f, mask, 1, UnaryRepeatParams());
    for (int i = 0; i < 128; ++i) got.push_back(float(d.GetValue(i)));
  });
  CHECK(msg.empty());
  std::vector<float> want(128, 0.f);
  want[2] = 4.f;
  want[127] = 254.f;
  CHECK(got == want);
  // Four-byte elements: a repeat holds 64, so mask[1] must be 0.
  auto bad = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(64);
    const uint64_t mask[2] = {1, 1};
    Relu(d, d, mask, 1, UnaryRepeatParams());
  });
  CHECK(bad.find("Relu: mask[1] must be 0 for 4-byte elements") != std::string::npos);
}

TEST_CASE("repeat forms check masks and bounds before writing", "[ascendc]") {
  auto tooWide = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(128);
    Adds(d, d, 1.0f, 65, 1, UnaryRepeatParams());
  });
  CHECK(tooWide.find("Adds: mask 65 is outside 1..64") != std::string::npos);
  auto past = runK([] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);  // 128 floats: two repeats fit, three do not
    LocalTensor<float> d = buf.Get<float>(128);
    Duplicate(d, 1.0f, 64, 3, 1, 8);
  });
  CHECK(past.find("Duplicate: count 192 exceeds LocalTensor 'dst' (128 elements") != std::string::npos);
  std::vector<float> got;
  auto ok = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> d = buf.Get<float>(128);
    Duplicate(d, 0.0f, 64, 2, 1, 8);
    Duplicate(d, 3.0f, 8, 2, 1, 8);  // the first block of each repeat
    Exp(d, d, 8, 1, UnaryRepeatParams());
    for (int i = 0; i < 128; ++i) got.push_back(d.GetValue(i));
  });
  CHECK(ok.empty());
  CHECK(got[0] == Approx(std::exp(3.0f)));
  CHECK(got[8] == 0.f);
  CHECK(got[64] == 3.f);
}
