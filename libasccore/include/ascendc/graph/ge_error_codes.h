// graph/ge_error_codes.h: ge::graphStatus and its two values, as CANN's graph headers give them,
// and UINT32.
#pragma once

#include <cstdint>

namespace ge {

using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;

}  // namespace ge

// The status type of CANN's op_impl registry (gert::OpImplKernelRegistry's InferShape, tiling
// and InferDataType function types return it), which op_host sources spell for their own
// functions; a global name there (UNCONFIRMED which header of CANN's declares it).
typedef uint32_t UINT32;
