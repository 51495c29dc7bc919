// kernel_tiling.h: the kernel side of tiling. GET_TILING_DATA(var, tiling) declares `var` of the
// tiling class registered (REGISTER_TILING_DATA_CLASS, register/tilingdata_base.h) in this
// translation unit and copies its bytes from the `tiling` global-memory pointer;
// GET_TILING_DATA_WITH_STRUCT(Struct, var, tiling) does the same for a named type (any trivially
// copyable struct). TILING_KEY_IS(k) tests the launch's tiling key (ICPU_SET_TILING_KEY).
// REGISTER_TILING_DEFAULT(Struct) registers a plain struct for GET_TILING_DATA in the kernel.
#pragma once

#include <cstring>
#include <type_traits>

#include "asc/ascendc/kernel_context.h"
#include "register/tilingdata_base.h"

namespace asc::ascendc::detail {
template <typename T>
T readTiling(const void* tiling, const char* call) {
  static_assert(std::is_trivially_copyable<T>::value, "a tiling struct must be trivially copyable");
  static_assert(!std::is_same<T, ::optiling::AscNoTilingRegistered>::value,
                "GET_TILING_DATA: no tiling class is registered in this translation unit "
                "(REGISTER_TILING_DATA_CLASS); or use GET_TILING_DATA_WITH_STRUCT");
  if (tiling == nullptr) fail(call, "the tiling pointer is null");
  size_t extent = gmExtent(tiling);
  if (extent != 0 && extent < sizeof(T))
    fail(call, "the tiling buffer holds " + std::to_string(extent) + " bytes, the tiling struct " +
                   std::to_string(sizeof(T)));
  T value;
  std::memcpy(static_cast<void*>(&value), tiling, sizeof(T));
  return value;
}
}  // namespace asc::ascendc::detail

#define GET_TILING_DATA_WITH_STRUCT(struct_type, var, tiling) \
  struct_type var = ::asc::ascendc::detail::readTiling<struct_type>(tiling, "GET_TILING_DATA")

#define GET_TILING_DATA(var, tiling)                                              \
  auto var = ::asc::ascendc::detail::readTiling<decltype(ascRegisteredTilingData( \
      ::optiling::AscTilingTag{}, 0))>(tiling, "GET_TILING_DATA")

/// Kernel-side registration of a plain tiling struct (newer CANN): GET_TILING_DATA then
/// declares a variable of that struct.
#define REGISTER_TILING_DEFAULT(struct_type) \
  template <typename AscUnused = void>       \
  struct_type ascRegisteredTilingData(::optiling::AscTilingTag, int)

#define TILING_KEY_IS(key) (::asc::ascendc::detail::tilingKeyIs(uint64_t(key)))
