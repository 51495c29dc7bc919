// register/tilingdata_base.h: tiling structures, shared by the host side (the tiling function
// fills one and saves it into the launch's tiling buffer) and the kernel side
// (GET_TILING_DATA reads it back). Written as in CANN:
//
//   namespace optiling {
//   BEGIN_TILING_DATA_DEF(AddCustomTilingData)
//     TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//     TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, tileSizes);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
//   }
//
// The contract: the class is trivially copyable and standard layout, its fields are public
// members with the given names (kernel code writes `tilingData.totalLength`), in declaration
// order with the compiler's natural alignment; set_<field>(v) and get_<field>() access them;
// GetDataSize() is sizeof the class; SaveToBuffer(dst, capacity) copies the object's bytes and
// refuses (returns false, writes nothing) when capacity is smaller. The real CANN build generates
// a kernel-side struct from the host definition; here the same header serves both sides.
//
// REGISTER_TILING_DATA_CLASS also names the type GET_TILING_DATA(var, tiling) declares in a
// kernel translation unit: put it in namespace optiling (as CANN does), in the global namespace,
// or in the kernel's own namespace. One kernel, so one registration, per translation unit: two
// make GET_TILING_DATA ambiguous (a compile error); GET_TILING_DATA_WITH_STRUCT names the type
// explicitly instead. A kernel-side REGISTER_TILING_DEFAULT(Struct) (kernel_operator.h) takes
// precedence over a REGISTER_TILING_DATA_CLASS seen in the same translation unit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace optiling {
/// The lookup key of GET_TILING_DATA (found by argument-dependent lookup from any namespace).
struct AscTilingTag {};
/// What GET_TILING_DATA finds when no tiling class was registered.
struct AscNoTilingRegistered {};
template <typename AscUnused = void>
AscNoTilingRegistered ascRegisteredTilingData(AscTilingTag, ...);
}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name) \
  class class_name {                      \
   public:

// Each field macro ends its declaration itself, so that a field written without the ';' after
// it compiles, as with CANN's macros (projects have both forms).
#define TILING_DATA_FIELD_DEF(data_type, field_name)                     \
  void set_##field_name(data_type asc_value) { field_name = asc_value; } \
  data_type get_##field_name() const { return field_name; }              \
  data_type field_name{};

#define TILING_DATA_FIELD_DEF_ARR(data_type, array_size, field_name)                             \
  void set_##field_name(const data_type* asc_values) {                                           \
    for (size_t asc_i = 0; asc_i < (array_size); ++asc_i) field_name[asc_i] = asc_values[asc_i]; \
  }                                                                                              \
  const data_type* get_##field_name() const { return field_name; }                               \
  data_type field_name[array_size]{};

/// A field that is itself a tiling class (access it as tiling.field.set_x(...)).
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                     \
  void set_##field_name(const struct_type& asc_value) { field_name = asc_value; } \
  const struct_type& get_##field_name() const { return field_name; }              \
  struct_type field_name{};

#define END_TILING_DATA_DEF                                                   \
  /** sizeof the class: the bytes SaveToBuffer writes. */                     \
  size_t GetDataSize() const { return sizeof(*this); }                        \
  /** Copies the object's bytes to dst; false (nothing written) when capacity \
      is smaller than GetDataSize() or dst is null. */                        \
  bool SaveToBuffer(void* asc_dst, size_t asc_capacity) const {               \
    if (asc_dst == nullptr || asc_capacity < sizeof(*this)) return false;     \
    std::memcpy(asc_dst, this, sizeof(*this));                                \
    return true;                                                              \
  }                                                                           \
  }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                            \
  static_assert(                                                                                   \
      std::is_trivially_copyable<class_name>::value && std::is_standard_layout<class_name>::value, \
      "tiling class " #class_name " of " #op_type                                                  \
      " must be trivially copyable and standard layout");                                          \
  template <typename AscUnused = void>                                                             \
  class_name ascRegisteredTilingData(::optiling::AscTilingTag, long);                              \
  using AscTilingDataOf_##op_type = class_name;
