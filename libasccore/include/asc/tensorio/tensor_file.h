// tensor_file.h: tensors on disk: raw .bin (as msame writes them), .npy (numpy's format, read
// and written), and msame's .txt rendering.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::tensorio {

/// A tensor read from a file. For .npy the dtype and shape come from the header; for raw .bin
/// they are unknown (dtype Undefined, shape {bytes}).
struct LoadedTensor {
  ir::Tensor tensor;
  bool has_dtype = false;
  /// The bytes are the file's own, mapped read-only (raw files and little-endian C-order .npy):
  /// nothing was copied, however large the file.
  bool mapped = false;
};

/// Reads .npy (C or Fortran order, either byte order; big-endian or Fortran-order data is
/// converted to native C order in memory, anything else stays mapped) or any other file as raw
/// bytes. E13001 when it cannot be opened; E13005 for a malformed .npy.
ASC_API Result<LoadedTensor> readTensorFile(const std::string& path);
/// Parses .npy bytes.
ASC_API Result<ir::Tensor> parseNpy(const void* data, size_t size, const std::string& what);
/// The .npy encoding of a tensor (version 1.0, little-endian, C order). numpy has no int4,
/// float8 or bfloat16: those are written as their bytes in npyCarrier's type.
ASC_API std::string encodeNpy(const ir::Tensor& t);
/// The numpy type an .npy of `t` holds: `t` itself, or for the types numpy lacks int8 (int4,
/// one value per byte), uint8 (uint4; the float8 types' codes) and uint16 (bfloat16's bits).
ASC_API ir::DType npyCarrier(ir::DType t);
/// Parses msame's text form (numbers separated by spaces, one row per line; also commas) as
/// `dtype`. Shape {rows, cols} when every line has the same count, else {count}. E13005 on a
/// token that is not a number.
ASC_API Result<ir::Tensor> parseTxt(const void* data, size_t size, ir::DType dtype,
                                    const std::string& what);
/// msame's text form: values separated by a space, a newline after each row of the last dim.
ASC_API std::string formatTxt(const ir::Tensor& t);

}  // namespace asc::tensorio
