// om_file.h: the offline-model (.om) container, in the GraphEngine layout: a 256-byte
// ModelFileHeader (magic IMOD), a 32-bit partition table, then MODEL_DEF (ge.proto.ModelDef),
// WEIGHTS_DATA (raw, each tensor 64-byte aligned in the file, mapped at load) and TASK_INFO
// (domi.ModelTaskDef). The byte layout is documented in src/om/format.h.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::om {

/// What a dynamic model (ir::Graph::dynamic) allows at run time. Each input's dims are ranges
/// (a fixed dim has min == max; max -1 has no bound). With profiles ("gears": --dynamic_batch_size,
/// --dynamic_image_size, --dynamic_dims), only those input shapes run; with ranges
/// (--input_shape_range, or ~ in --input_shape) any shape within them runs; with neither, the
/// input shapes are fixed and only values computed at run time decide the other shapes.
struct DimRange {
  int64_t min = 0, max = 0;
};
struct DynamicShapes {
  std::string kind;  // "batch", "image_size", "dims", "range", or "" (run-time values only)
  std::vector<std::vector<DimRange>> ranges;  // per graph input, per dim
  std::vector<std::vector<ir::Shape>> gears;  // per profile, each graph input's shape
};
/// The ranges as text, "[1~16,3,224,224];[1,10]" (one bracket per graph input).
ASC_API std::string rangesToString(const std::vector<std::vector<DimRange>>& ranges);

/// Model-level facts written into the ModelDef attributes.
struct ModelInfo {
  std::string soc_version;
  std::string framework_type = "Onnx";
  std::string atc_cmdline;
  std::string core_type = "AiCore";
  std::string target_type = "MINI";
  /// Share activation memory between tensors whose lifetimes do not overlap
  /// (--disable_reuse_memory=1 turns it off).
  bool reuse_memory = true;
  /// C0 of the NC1HWC0 format on the target chip (from the soc table).
  int c0 = 16;
  /// The optimisation level the model was compiled at (O1, O2 or O3; "" when not recorded).
  std::string opt_level;
  /// A dynamic graph: its profiles and ranges, and the compile settings the runtime applies
  /// when it compiles the graph per input shape (passes::encodeSettings()).
  DynamicShapes dynamic;
  std::map<std::string, std::vector<std::string>> runtime_compile;
  /// --external_weight: 0 keeps the weights in WEIGHTS_DATA; 1 writes each constant to its own
  /// file, 2 all of them to one file, under weight/ beside the OM. The OM then holds FileConstant
  /// ops (attributes location, offset, length) and the runtime maps the files.
  int external_weight = 0;
  /// The kernel instruction set the packed weights were made for (ops::kernelIsa()).
  std::string packed_isa;
  /// A single-operator model (atc --singleop): its op description, as single_op.h's toJson()
  /// writes it (ModelDef attribute _asc_single_op); "" for any other model.
  std::string single_op;
};

/// The activation memory plan atc records in the OM: each node output's offset in one arena.
struct MemoryPlanSummary {
  uint64_t arena_bytes = 0;      // memory_size
  uint64_t peak_live_bytes = 0;  // the most bytes live at one step (the bound for any plan)
  uint64_t weight_bytes = 0;     // WEIGHTS_DATA payload
};

/// Plans the activation arena of `g` in execution order (what writeOm records).
ASC_API MemoryPlanSummary planActivationMemory(const ir::Graph& g, bool reuse);

/// Writes `g` to `path` atomically (no partial file on failure). E13002 on write failure.
ASC_API Status writeOm(const ir::Graph& g, const ModelInfo& info, const std::string& path);

struct PartitionInfo {
  uint32_t type;    // GE's ModelPartitionType: 0 MODEL_DEF, 1 WEIGHTS_DATA, 2 TASK_INFO, ...
  uint64_t offset;  // from the start of the file
  uint64_t size;
};

/// GE's name of a partition type: "MODEL_DEF", "WEIGHTS_DATA", "TBE_KERNELS", ... or "type N".
ASC_API std::string partitionName(uint32_t type);

/// What --mode=6 shows: header fields, partition sizes and the ModelDef attributes.
struct OmSummary {
  std::string name;
  uint32_t version = 0;
  /// "verified (XXH3, whole file)", "verified (CRC32, whole file)" (an older asc-tools file),
  /// "not verified (skipped)" (Verify::Skip), or "none" (a file with no asc-tools checksum,
  /// such as one written by CANN's ATC).
  std::string integrity = "none";
  bool verified() const { return integrity.rfind("verified", 0) == 0; }
  std::vector<PartitionInfo> partitions;
  /// The partition table's entries: 32-bit (asc-tools, CANN before 8) or 64-bit (CANN 8).
  bool wide_table = false;
  std::map<std::string, std::string> attrs;  // scalar ModelDef attrs, printed form
  std::vector<int64_t> om_info_list;
  uint64_t peak_live_bytes = 0;              // recorded by asc-tools' atc (0 when absent)
  std::vector<std::string> inputs, outputs;  // "name:dtype:[dims]"
  size_t op_count = 0;
};

class PendingCheck;

/// A loaded model: the graph (constants point into the mapped file) and its summary.
struct OmModel {
  ir::Graph graph;
  OmSummary summary;
  uint64_t memory_size = 0;
  bool memory_reuse = true;  // _asc_memory_reuse: false when built with reuse off
  /// Each node output's offset in the activation arena (the ops' output_i), checked to lie
  /// within memory_size. The runtime places the buffers it can at these offsets.
  std::unordered_map<const ir::Value*, uint64_t> activation_offsets;
  /// For a dynamic graph (graph.dynamic): as ModelInfo records them.
  DynamicShapes dynamic;
  std::map<std::string, std::vector<std::string>> runtime_compile;
  /// With Verify::Background: the weights' check still running (null when none is).
  std::shared_ptr<PendingCheck> pending;
};

/// Whether a reader checks the file's integrity record before it reads anything else: every
/// byte, weights included, on all cores (docs/om-format.md, "Integrity"). Background checks all
/// but WEIGHTS_DATA before returning and hashes the weights on a thread of its own while the
/// caller goes on (OmModel::pending: call finish() before anything the weights decide is
/// used). Skip is for users who trust their storage (msame --skip_verify=true).
enum class Verify { Whole, Background, Skip };

/// The rest of a check loadOm(path, Verify::Background) started. finish() hashes what is left
/// on the calling thread too, waits for the helper, and returns E10041 naming the file and the
/// partition if any byte differs. Destroying it unfinished stops the helper.
class ASC_API PendingCheck {
 public:
  virtual ~PendingCheck();
  virtual Status finish() = 0;
};

/// Validates the container (magic, sizes, partition bounds, checksum) and parses the ModelDef.
/// E10041 naming the file and what is wrong for any malformed, truncated or altered file (for an
/// altered one, the partition whose bytes differ); E13001 when it cannot be opened. Works for
/// any file in the GE layout.
ASC_API Result<OmSummary> readOmSummary(const std::string& path, Verify verify = Verify::Whole);
/// Renders the ModelDef as JSON in the shape `atc --mode=1` writes (field names as keys, enums
/// by name, maps as lists of {"key","value"}). Works for real OM files too.
ASC_API Result<std::string> omToJson(const std::string& path, Verify verify = Verify::Whole);
/// Loads an OM written by asc-tools back into a graph (E10041 when the file is not one, is
/// damaged, or an op type has no mapping back). The whole file is verified first (as
/// readOmSummary does); the weights then stay in the file's mapping.
ASC_API Result<OmModel> loadOm(const std::string& path, Verify verify = Verify::Whole);

}  // namespace asc::om
