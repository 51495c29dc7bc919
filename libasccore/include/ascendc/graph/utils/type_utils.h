// graph/utils/type_utils.h: ge::TypeUtils, the dtype helpers op_host tiling code calls
// (GetDataTypeLength: the bytes of one element).
#pragma once

#include <cstdint>

#include "register/op_def_registry.h"

namespace ge {

class TypeUtils {
 public:
  /// The bytes of one element of `data_type` into `length`; false (length untouched) for a type
  /// without a fixed size here.
  static bool GetDataTypeLength(ge::DataType data_type, uint32_t& length) {
    const int n = GetSizeByDataType(data_type);
    if (n <= 0) return false;
    length = static_cast<uint32_t>(n);
    return true;
  }
};

}  // namespace ge
