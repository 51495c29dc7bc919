// dump_file.h: Ascend NPU dump files (ascend-facts.md 6), read and written.
//
// Byte layout (little-endian):
//   1. uint64 L: length of the serialized header
//   2. L bytes: a toolkit.dumpdata.DumpData protobuf (libasccore/src/proto/dump_data.proto,
//      public field numbers) with every `data` field left empty
//   3. raw tensor bytes: all inputs, then all outputs, then buffers, then workspaces, each of
//      its message's `size` bytes
// The file size must be 8 + L + the sum of the sizes. Names: {op_type}.{op_name}.{task_id}.
// {stream_id}.{timestamp} (16-digit microsecond timestamp; op_type/op_name use [A-Za-z0-9_-]).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::tensorio {

/// One input or output of a dumped op.
struct DumpTensor {
  /// dtype (Undefined when the dump's data type has no asc-tools equivalent: the bytes are
  /// still there), shape, and the raw bytes (pointing into the mapped file after a read).
  ir::Tensor tensor;
  /// OutputFormat number (FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3..;
  /// asc/tensorio/layout_convert.h names them and converts device formats back).
  int format = 2;
  /// The framework-side shape; for a device format, what toOriginLayout() restores.
  ir::Shape original_shape;
  /// Outputs only: the framework-side format (OriginalOp.format; proto3 reads an absent one as
  /// FORMAT_NCHW = 0). Decides NCHW / NHWC / HWCN when a 4-D device format is converted back.
  int original_format = 0;
  /// Outputs only: the framework op (and its output index) this output corresponds to.
  std::string original_op_name;
  uint32_t original_output_index = 0;
  uint64_t address = 0;
  /// The dump's data-type number when `tensor.dtype` is Undefined.
  int raw_data_type = 0;
};

struct DumpData {
  std::string version = "2.0";
  uint64_t dump_time = 0;  // microseconds
  std::string op_name;
  std::vector<DumpTensor> inputs, outputs;
  std::vector<std::pair<std::string, std::string>> attrs;
  /// Buffers and workspaces are not exposed; how many the file held.
  size_t buffer_count = 0, workspace_count = 0;
};

/// Reads a dump file; tensor bytes stay in the file mapping (no copy). E13001 when it cannot be
/// opened; E13005 when it is truncated, its header does not parse, or its sizes do not add up.
ASC_API Result<DumpData> readDumpFile(const std::string& path);

/// Writes `dump` atomically (temporary + rename). Each tensor's `size` field is its data's byte
/// count; a tensor's data must be shape x dtype bytes. E10001 on an inconsistent tensor,
/// E13002 when the file cannot be written.
ASC_API Status writeDumpFile(const std::string& path, const DumpData& dump);

/// `name` with every character outside [A-Za-z0-9_-] replaced by '_' ("" becomes "_"): how
/// dump files and golden .npy files spell op names, so keys from both sides match.
ASC_API std::string dumpSafeName(const std::string& name);

/// "{op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}" with every character outside
/// [A-Za-z0-9_-] in op_type and op_name replaced by '_' (timestamp printed with 16 digits).
ASC_API std::string dumpFileName(const std::string& op_type, const std::string& op_name,
                                 uint64_t task_id, uint64_t stream_id, uint64_t timestamp_us);

/// The parts of a dump file name; false when `name` does not have the dump-name shape.
struct DumpName {
  std::string op_type, op_name;
  uint64_t task_id = 0, stream_id = 0, timestamp = 0;
};
ASC_API bool parseDumpFileName(const std::string& name, DumpName* out);

}  // namespace asc::tensorio
