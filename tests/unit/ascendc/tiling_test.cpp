// tiling_test.cpp: the tiling-class contract (register/tilingdata_base.h) and GET_TILING_DATA.
#include <catch2/catch.hpp>

#include <cstring>
#include <type_traits>

#include "kernel_operator.h"
#include "register/tilingdata_base.h"
#include "tikicpulib.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(int64_t, 3, dims);
TILING_DATA_FIELD_DEF(uint8_t, flag);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleTilingData)
}  // namespace optiling

namespace {
struct PlainTiling {
  uint32_t n;
  uint32_t tiles;
};
}  // namespace

TEST_CASE("a tiling class is a plain struct with named public fields", "[ascendc]") {
  using T = optiling::ScaleTilingData;
  static_assert(std::is_trivially_copyable<T>::value && std::is_standard_layout<T>::value);
  static_assert(std::is_same<optiling::AscTilingDataOf_ScaleCustom, T>::value);
  T t;
  CHECK(t.totalLength == 0);
  t.set_totalLength(4096);
  t.set_scale(0.5f);
  const int64_t dims[3] = {2, 3, 4};
  t.set_dims(dims);
  t.flag = 1;
  CHECK(t.get_totalLength() == 4096);
  CHECK(t.get_dims()[2] == 4);
  CHECK(t.GetDataSize() == sizeof(T));
  CHECK(offsetof(T, totalLength) == 0);
  CHECK(offsetof(T, scale) == 4);
  CHECK(offsetof(T, dims) == 8);
  CHECK(offsetof(T, flag) == 32);

  unsigned char small[8];
  std::memset(small, 0xab, sizeof small);
  CHECK_FALSE(t.SaveToBuffer(small, sizeof small));
  CHECK(small[0] == 0xab);  // refused: nothing written
  CHECK_FALSE(t.SaveToBuffer(nullptr, 1000));

  void* gm = AscendC::GmAlloc(t.GetDataSize());
  REQUIRE(t.SaveToBuffer(gm, t.GetDataSize()));
  GM_ADDR tiling = static_cast<GM_ADDR>(gm);
  GET_TILING_DATA(tilingData, tiling);
  static_assert(std::is_same<decltype(tilingData), T>::value);
  CHECK(tilingData.totalLength == 4096);
  CHECK(tilingData.scale == 0.5f);
  CHECK(tilingData.dims[1] == 3);
  CHECK(tilingData.flag == 1);

  GET_TILING_DATA_WITH_STRUCT(PlainTiling, plain, tiling);
  CHECK(plain.n == 4096);
  AscendC::GmFree(gm);
}

TEST_CASE("GET_TILING_DATA checks the tiling buffer", "[ascendc]") {
  asc::Status st = asc::ascendc::launchKernel("tiled", 1, [] {
    void* gm = AscendC::GmAlloc(4);
    GM_ADDR tiling = static_cast<GM_ADDR>(gm);
    struct Free {
      void* p;
      ~Free() { AscendC::GmFree(p); }
    } guard{gm};
    GET_TILING_DATA(tilingData, tiling);
    (void)tilingData;
  });
  CHECK(st.message() ==
        "kernel 'tiled' block 0: GET_TILING_DATA: the tiling buffer holds 4 bytes, the tiling "
        "struct 40");
}

namespace plainkernel {
struct KernelTiling {
  uint32_t blocks;
  float alpha;
};
REGISTER_TILING_DEFAULT(KernelTiling);

float readAlpha(GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  static_assert(std::is_same<decltype(t), KernelTiling>::value);
  return t.alpha;
}
}  // namespace plainkernel

TEST_CASE("REGISTER_TILING_DEFAULT names GET_TILING_DATA's type in the kernel's namespace",
          "[ascendc]") {
  plainkernel::KernelTiling host{4, 0.25f};
  CHECK(plainkernel::readAlpha(reinterpret_cast<GM_ADDR>(&host)) == 0.25f);
}
