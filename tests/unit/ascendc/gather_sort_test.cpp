// gather_sort_test.cpp: the CPU layer's GatherMask, Gather, Gatherb, Sort32, MrgSort, Sort,
// Extract, Copy, Transpose and SyncAll against naive references of their definitions
// (kernel_gather_sort.h, kernel_transpose.h, the barrier in launch.cpp), with their checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>
#include <vector>

#include "asc/ascendc/launch.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {

std::string runK(const std::function<void()>& body, uint32_t blocks = 1, bool parallel = false) {
  asc::ascendc::LaunchOptions o;
  o.parallel = parallel;
  asc::Status st = asc::ascendc::launchKernel("k", blocks, body, o);
  return st.isOk() ? "" : st.message();
}

struct Ub {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b, c, d;
  explicit Ub(uint32_t bytes = 16384) {
    pipe.InitBuffer(a, bytes);
    pipe.InitBuffer(b, bytes);
    pipe.InitBuffer(c, bytes);
    pipe.InitBuffer(d, bytes);
  }
};

// Records (score, index) of a float sort result.
std::vector<std::pair<float, uint32_t>> records(const LocalTensor<float>& t, uint32_t n) {
  std::vector<std::pair<float, uint32_t>> out;
  for (uint32_t i = 0; i < n; ++i) {
    float s = t.GetValue(2 * i);
    uint32_t idx = t.ReinterpretCast<uint32_t>().GetValue(2 * i + 1);
    out.push_back({s, idx});
  }
  return out;
}

// The reference order: descending by score, ties by ascending position.
std::vector<std::pair<float, uint32_t>> sortedRef(const std::vector<float>& s,
                                                  const std::vector<uint32_t>& idx) {
  std::vector<uint32_t> order(s.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return s[a] > s[b]; });
  std::vector<std::pair<float, uint32_t>> out;
  for (uint32_t o : order) out.push_back({s[o], idx[o]});
  return out;
}

}  // namespace

TEST_CASE("GatherMask packs what a fixed or a tensor pattern keeps", "[ascendc]") {
  std::vector<float> even, odd, fourth, tensor_kept;
  uint64_t n_even = 0, n_odd = 0, n_fourth = 0, n_tensor = 0;
  auto msg = runK([&] {
    Ub ub;
    LocalTensor<float> src = ub.a.Get<float>(), dst = ub.b.Get<float>();
    for (uint32_t i = 0; i < 128; ++i) src.SetValue(i, float(i + 1));
    // Two repeats of 64 floats, contiguous.
    GatherMask(dst, src, uint8_t(1), false, 0, {1, 2, 8, 0}, n_even);
    for (uint64_t i = 0; i < n_even; ++i) even.push_back(dst.GetValue(i));
    GatherMask(dst, src, uint8_t(2), false, 0, {1, 2, 8, 0}, n_odd);
    for (uint64_t i = 0; i < n_odd; ++i) odd.push_back(dst.GetValue(i));
    GatherMask(dst, src, uint8_t(5), false, 0, {1, 1, 8, 0}, n_fourth);  // element 4k + 2
    for (uint64_t i = 0; i < n_fourth; ++i) fourth.push_back(dst.GetValue(i));
    // Tensor pattern, counter mode: the first 70 elements, bits from two uint32 words + one.
    LocalTensor<uint32_t> pat = ub.c.Get<uint32_t>();
    pat.SetValue(0, 0x80000001u);  // elements 0 and 31
    pat.SetValue(1, 0x00000002u);  // element 33
    pat.SetValue(2, 0x00000020u);  // element 69
    GatherMask(dst, src, pat, true, 70, {1, 1, 8, 0}, n_tensor);
    for (uint64_t i = 0; i < n_tensor; ++i) tensor_kept.push_back(dst.GetValue(i));
  });
  REQUIRE(msg.empty());
  REQUIRE(n_even == 64);
  REQUIRE(n_odd == 64);
  for (uint32_t i = 0; i < 64; ++i) {
    CHECK(even[i] == float(2 * i + 1));
    CHECK(odd[i] == float(2 * i + 2));
  }
  REQUIRE(n_fourth == 16);
  CHECK(fourth[0] == 3.f);
  CHECK(fourth[15] == 63.f);
  CHECK(tensor_kept == std::vector<float>{1, 32, 34, 70});
  // A pattern outside 1..7 is an error naming it.
  auto bad = runK([] {
    Ub ub;
    uint64_t n;
    GatherMask(ub.b.Get<float>(), ub.a.Get<float>(), uint8_t(9), false, 0, {1, 1, 8, 0}, n);
  });
  CHECK(bad.find("fixed pattern 9") != std::string::npos);

  // Counter mode with a mask past a short tensor (as the "unaligned" samples do): only the
  // selected elements must lie in src0.
  std::vector<float> tail;
  uint64_t n_tail = 0;
  auto shortSrc = [&](uint16_t word1) {
    return runK([&, word1] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> src, dst, pat;
      pipe.InitBuffer(src, 32 * sizeof(half));
      pipe.InitBuffer(dst, 32);
      pipe.InitBuffer(pat, 32);
      LocalTensor<half> s = src.Get<half>(), d = dst.Get<half>();
      LocalTensor<uint16_t> p = pat.Get<uint16_t>();
      for (int i = 0; i < 32; ++i) s.SetValue(i, half(float(i)));
      for (int i = 0; i < 16; ++i) p.SetValue(i, 0);
      p.SetValue(0, 0xFFFC);  // elements 2..15
      p.SetValue(1, word1);   // 0x0003: elements 16 and 17
      GatherMask(d, s, p, true, 128, {1, 1, 8, 8}, n_tail);
      tail.clear();
      for (uint64_t i = 0; i < n_tail; ++i) tail.push_back(float(d.GetValue(uint32_t(i))));
    });
  };
  CHECK(shortSrc(0x0003) == "");
  REQUIRE(n_tail == 16);
  CHECK(tail.front() == 2.f);
  CHECK(tail.back() == 17.f);
  std::string past = runK([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst, pat;
    pipe.InitBuffer(src, 32 * sizeof(half));
    pipe.InitBuffer(dst, 64);
    pipe.InitBuffer(pat, 32);
    LocalTensor<uint16_t> p = pat.Get<uint16_t>();
    for (int i = 0; i < 16; ++i) p.SetValue(i, 0);
    p.SetValue(2, 1);  // element 32: past the 32-element tensor
    GatherMask(dst.Get<half>(), src.Get<half>(), p, true, 128, {1, 1, 8, 8}, n_tail);
  });
  CHECK(past.find("GatherMask: count 33 exceeds LocalTensor 'src0'") != std::string::npos);
}

TEST_CASE("Gather reads at byte offsets; Gatherb copies blocks", "[ascendc]") {
  std::vector<float> got;
  std::vector<float> blocks;
  auto msg = runK([&] {
    Ub ub;
    LocalTensor<float> src = ub.a.Get<float>(), dst = ub.b.Get<float>();
    LocalTensor<uint32_t> off = ub.c.Get<uint32_t>();
    for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, float(i) * 0.5f);
    const uint32_t picks[5] = {0, 4, 40, 1016, 8};
    for (uint32_t i = 0; i < 5; ++i) off.SetValue(i, picks[i]);
    Gather(dst, src, off, uint32_t(4), 5);  // base 4 bytes: one element further
    for (uint32_t i = 0; i < 5; ++i) got.push_back(dst.GetValue(i));
    for (uint32_t j = 0; j < 8; ++j) off.SetValue(j, (7 - j) * 32);  // blocks reversed
    Gatherb(dst, src, off, 1, GatherRepeatParams(1, 8));
    for (uint32_t i = 0; i < 64; ++i) blocks.push_back(dst.GetValue(i));
  });
  REQUIRE(msg.empty());
  CHECK(got == std::vector<float>{0.5f, 1.0f, 5.5f, 127.5f, 1.5f});
  for (uint32_t i = 0; i < 64; ++i) CHECK(blocks[i] == float((7 - i / 8) * 8 + i % 8) * 0.5f);
  auto bad = runK([] {
    Ub ub(1024);
    LocalTensor<uint32_t> off = ub.c.Get<uint32_t>();
    off.SetValue(0, 1024);  // past the 256 floats
    Gather(ub.b.Get<float>(), ub.a.Get<float>(), off, uint32_t(0), 1);
  });
  CHECK(bad.find("offset 1024 bytes") != std::string::npos);
}

TEST_CASE("Gather's mask form reads the offsets of its masked lanes only", "[ascendc]") {
  // 32 lanes of one repeat from a 32-element offset tensor (a public transpose kernel's shape):
  // the lanes beyond the mask are neither read nor written.
  std::vector<float> got;
  auto msg = runK([&] {
    Ub ub;
    LocalTensor<float> src = ub.a.Get<float>(), dst = ub.b.Get<float>();
    LocalTensor<uint32_t> off = ub.c.Get<uint32_t>()[0];
    for (uint32_t i = 0; i < 64; ++i) src.SetValue(i, float(i));
    for (uint32_t i = 0; i < 64; ++i) dst.SetValue(i, -1.0f);
    for (uint32_t i = 0; i < 32; ++i) off.SetValue(i, (31 - i) * 4);
    LocalTensor<uint32_t> off32 = ub.c.Get<uint32_t>(32);  // exactly the 32 offsets
    Gather(dst, src, off32, 0, uint64_t(32), uint8_t(1), uint16_t(8));
    for (uint32_t i = 0; i < 64; ++i) got.push_back(dst.GetValue(i));
  });
  REQUIRE(msg.empty());
  for (uint32_t i = 0; i < 32; ++i) CHECK(got[i] == float(31 - i));
  for (uint32_t i = 32; i < 64; ++i) CHECK(got[i] == -1.0f);
  // Two repeats need the second repeat's lanes: 64 + 32 offsets, so 32 are too few.
  auto bad = runK([] {
    Ub ub;
    Gather(ub.b.Get<float>(), ub.a.Get<float>(), ub.c.Get<uint32_t>(32), 0, uint64_t(32),
           uint8_t(2), uint16_t(8));
  });
  CHECK(bad.find("srcOffset") != std::string::npos);
}

TEST_CASE("Sort32, MrgSort, Sort and Extract order records descending, ties stable", "[ascendc]") {
  std::vector<float> scores(128);
  std::vector<uint32_t> index(128);
  for (uint32_t i = 0; i < 128; ++i) {
    scores[i] = float((i * 37) % 29) - 7.f;  // repeats: ties
    index[i] = 1000 + i;
  }
  std::vector<std::pair<float, uint32_t>> runs, merged, full;
  std::vector<float> values;
  std::vector<uint32_t> indices;
  uint16_t took[4] = {9, 9, 9, 9};
  auto msg = runK([&] {
    Ub ub;
    LocalTensor<float> s = ub.a.Get<float>(), sorted = ub.b.Get<float>(), out = ub.d.Get<float>();
    LocalTensor<uint32_t> ix = ub.c.Get<uint32_t>();
    for (uint32_t i = 0; i < 128; ++i) {
      s.SetValue(i, scores[i]);
      ix.SetValue(i, index[i]);
    }
    Sort32(sorted, s, ix, 4);
    runs = records(sorted, 128);
    // Merge the four sorted runs of 32.
    MrgSort4Info info;
    for (int i = 0; i < 4; ++i) info.elementLengths[i] = 32;
    info.validBit = 0b1111;
    MrgSort(out, MrgSortSrcList<float>(sorted[0], sorted[64], sorted[128], sorted[192]), info);
    merged = records(out, 128);
    // With suspension the merge stops when the first list is used up.
    info.ifExhaustedSuspension = true;
    MrgSort(out, MrgSortSrcList<float>(sorted[0], sorted[64], sorted[128], sorted[192]), info);
    GetMrgSortResult(took[0], took[1], took[2], took[3]);
    // Sort<float, true> end to end, then Extract.
    LocalTensor<float> concat;
    Concat(concat, s, out, 8);
    Sort<float, true>(sorted, concat, ix, out, 4);
    full = records(sorted, 128);
    LocalTensor<float> vals = out;
    LocalTensor<uint32_t> idxs = ub.c.Get<uint32_t>()[512];
    Extract(vals, idxs, sorted, 4);
    for (uint32_t i = 0; i < 128; ++i) {
      values.push_back(vals.GetValue(i));
      indices.push_back(idxs.GetValue(i));
    }
  });
  REQUIRE(msg.empty());
  for (int r = 0; r < 4; ++r) {
    std::vector<float> rs(scores.begin() + 32 * r, scores.begin() + 32 * (r + 1));
    std::vector<uint32_t> ri(index.begin() + 32 * r, index.begin() + 32 * (r + 1));
    auto want = sortedRef(rs, ri);
    CHECK(std::vector<std::pair<float, uint32_t>>(runs.begin() + 32 * r,
                                                  runs.begin() + 32 * (r + 1)) == want);
  }
  const auto want = sortedRef(scores, index);
  CHECK(merged == want);
  CHECK(full == want);
  for (uint32_t i = 0; i < 128; ++i) {
    CHECK(values[i] == want[i].first);
    CHECK(indices[i] == want[i].second);
  }
  CHECK(took[0] + took[1] + took[2] + took[3] < 128);
  CHECK(std::count(std::begin(took), std::end(took), 32) >= 1);  // one list ran out
  CHECK(GetSortLen<float>(32) == 64);
  CHECK(GetSortLen<half>(32) == 128);
  CHECK(GetSortOffset<float>(3) == 6);
}

TEST_CASE("Copy with masks and strides; Transpose 16x16 and NCHW <-> NHWC", "[ascendc]") {
  std::vector<float> copied;
  std::vector<int16_t> tr;
  std::vector<float> nhwc, back;
  auto msg = runK([&] {
    Ub ub;
    LocalTensor<float> src = ub.a.Get<float>(), dst = ub.b.Get<float>();
    for (uint32_t i = 0; i < 512; ++i) {
      src.SetValue(i, float(i));
      dst.SetValue(i, -1.f);
    }
    // 10 elements of each of 2 repeats; dst repeats 16 blocks apart.
    Copy(dst, src, uint64_t(10), 2, CopyRepeatParams(1, 1, 16, 8));
    for (uint32_t i = 0; i < 160; ++i) copied.push_back(dst.GetValue(i));
    LocalTensor<int16_t> m = ub.c.Get<int16_t>(), t = ub.d.Get<int16_t>();
    for (int i = 0; i < 256; ++i) m.SetValue(i, int16_t(i));
    Transpose(t, m);
    for (int i = 0; i < 256; ++i) tr.push_back(t.GetValue(i));
    // NCHW [1, 3, 2, 4] (h * w * 4 bytes = 32) to NHWC and back.
    for (uint32_t i = 0; i < 24; ++i) src.SetValue(i, float(i));
    LocalTensor<uint8_t> tmp = ub.c.Get<uint8_t>();
    Transpose(dst, src, tmp, TransposeParamsExt(1, 3, 2, 4, TransposeType::TRANSPOSE_NCHW2NHWC));
    for (uint32_t i = 0; i < 24; ++i) nhwc.push_back(dst.GetValue(i));
    Transpose(src[256], dst, tmp,
              TransposeParamsExt(1, 3, 2, 4, TransposeType::TRANSPOSE_NHWC2NCHW));
    for (uint32_t i = 0; i < 24; ++i) back.push_back(src.GetValue(256 + i));
  });
  REQUIRE(msg.empty());
  for (uint32_t i = 0; i < 160; ++i) {
    const uint32_t r = i / 128, e = i % 128;
    const float want = r < 2 && e < 10 ? float(r * 64 + e) : -1.f;
    INFO(i);
    CHECK(copied[i] == want);
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) CHECK(tr[j * 16 + i] == int16_t(i * 16 + j));
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t p = 0; p < 8; ++p) CHECK(nhwc[p * 3 + c] == float(c * 8 + p));
  for (uint32_t i = 0; i < 24; ++i) CHECK(back[i] == float(i));
}

TEST_CASE("TransDataTo5HD transposes across 16 blocks per repeat", "[ascendc]") {
  std::vector<int16_t> out;
  auto msg = runK([&] {
    Ub ub;
    LocalTensor<int16_t> src = ub.a.Get<int16_t>(), dst = ub.b.Get<int16_t>();
    // 16 source rows of 64 values (2 repeats of 16, 32 apart), 16 destination rows likewise.
    for (int j = 0; j < 16; ++j)
      for (int e = 0; e < 64; ++e) src.SetValue(j * 64 + e, int16_t(j * 100 + e));
    LocalTensor<int16_t> srcs[16], dsts[16];
    for (int i = 0; i < 16; ++i) {
      srcs[i] = src[i * 64];
      dsts[i] = dst[i * 64];
    }
    TransDataTo5HD(dsts, srcs, TransDataTo5HDParams(false, false, 2, 2, 2));
    for (int i = 0; i < 16 * 64; ++i) out.push_back(dst.GetValue(i));
  });
  REQUIRE(msg.empty());
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        INFO(r << " " << i << " " << j);
        CHECK(out[i * 64 + r * 32 + j] == int16_t(j * 100 + r * 32 + i));
      }
}

TEST_CASE("TransDataTo5HD's 4-byte and 1-byte forms", "[ascendc]") {
  std::vector<int32_t> out32;
  std::vector<int8_t> out8;
  auto msg = runK([&] {
    Ub ub;
    // 4 bytes: 16 source blocks of 8 values; element i of them fills dst blocks 2i, 2i+1.
    LocalTensor<int32_t> src = ub.a.Get<int32_t>(), dst = ub.b.Get<int32_t>();
    for (int j = 0; j < 16; ++j)
      for (int e = 0; e < 8; ++e) src.SetValue(j * 8 + e, j * 100 + e);
    LocalTensor<int32_t> srcs[16], dsts[16];
    for (int i = 0; i < 16; ++i) {
      srcs[i] = src[i * 8];
      dsts[i] = dst[i * 8];
    }
    TransDataTo5HD(dsts, srcs, TransDataTo5HDParams(false, false, 1, 0, 0));
    for (int i = 0; i < 128; ++i) out32.push_back(dst.GetValue(i));
    // 1 byte: 16 source blocks of 32; the high half of each source into the low half of dst.
    LocalTensor<int8_t> s8 = ub.a.Get<int8_t>(), d8 = ub.b.Get<int8_t>();
    for (int j = 0; j < 16; ++j)
      for (int e = 0; e < 32; ++e)
        s8.SetValue(j * 32 + e, int8_t(j * 4 + e % 4 + (e >= 16 ? 64 : 0)));
    for (int i = 0; i < 512; ++i) d8.SetValue(i, int8_t(-1));
    LocalTensor<int8_t> s8s[16], d8s[16];
    for (int i = 0; i < 16; ++i) {
      s8s[i] = s8[i * 32];
      d8s[i] = d8[i * 32];
    }
    TransDataTo5HD(d8s, s8s, TransDataTo5HDParams(false, true, 1, 0, 0));
    for (int i = 0; i < 512; ++i) out8.push_back(d8.GetValue(i));
  });
  REQUIRE(msg.empty());
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j) CHECK(out32[(2 * i + j / 8) * 8 + j % 8] == j * 100 + i);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j) {
      const int want = j < 16 ? j * 4 + (16 + i) % 4 + 64 : -1;  // element 16 + i of source j
      CHECK(out8[i * 32 + j] == want);
    }
}

TEST_CASE("SyncAll is a barrier across all blocks, sequential or pooled", "[ascendc]") {
  for (bool parallel : {false, true}) {
    INFO(parallel);
    constexpr uint32_t kBlocks = 6;
    std::vector<int> slots(kBlocks, 0), seen(kBlocks, -1);
    auto msg = runK(
        [&] {
          const int64_t b = GetBlockIdx();
          slots[b] = int(b) + 1;  // phase 1: every block writes its slot
          SyncAll();
          seen[b] = slots[(b + 1) % kBlocks];  // phase 2: reads its neighbour's
          SyncAll();
          slots[b] = 0;
        },
        kBlocks, parallel);
    REQUIRE(msg.empty());
    for (uint32_t b = 0; b < kBlocks; ++b) CHECK(seen[b] == int((b + 1) % kBlocks) + 1);
  }
  // A block that returns before the barrier: the launch fails saying why, it does not hang.
  auto msg = runK(
      [] {
        if (GetBlockIdx() == 2) return;
        SyncAll();
      },
      4);
  CHECK(msg.find("returned without reaching this SyncAll") != std::string::npos);
  // A failing block releases the others with an error.
  auto fail = runK(
      [] {
        if (GetBlockIdx() == 1) ASSERT(false);
        SyncAll();
      },
      3, true);
  CHECK(fail.find("block") != std::string::npos);
  // The intrinsics compile and complete.
  CHECK(runK([] {
          set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
          wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
          pipe_barrier(PIPE_ALL);
          TQueSync<PIPE_S, PIPE_MTE3> sync;
          sync.SetFlag(0);
          sync.WaitFlag(0);
          DataSyncBarrier<MemDsbT::ALL>();
        }).empty());
}
