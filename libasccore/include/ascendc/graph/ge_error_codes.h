// graph/ge_error_codes.h: ge::graphStatus and its two values, as CANN's graph headers give them.
#pragma once

#include <cstdint>

namespace ge {

using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;

}  // namespace ge
