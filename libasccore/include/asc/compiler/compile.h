// compile.h: the compiler's order of work, in one function. asc::compile() imports a model
// (through the frontend its framework names), applies --out_nodes, runs the pass pipeline of the
// optimisation level (clean-ups, fusions, precision, layout: every transformation is a registered
// pass, see passes/pass.h), checks the result against the chip (its operators, dtypes and memory),
// plans the activation memory, and, when asked, checks that the optimised graph computes what the
// original does. atc is argument parsing, compile() and om::writeOm(). With --insert_op_conf the
// AIPP step puts an Aipp op in front of the model inputs it names, right after import
// (docs/aipp.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/frontend/onnx.h"
#include "asc/ir/graph.h"
#include "asc/om/om_file.h"
#include "asc/passes/pass.h"
#include "asc/passes/precision.h"
#include "asc/runtime/session.h"
#include "asc/soc/soc.h"
#include "asc/support/status.h"

namespace asc {

/// The dynamic-shape options as atc takes them (docs/dynamic-shapes.md; ascend-facts.md 1.4).
struct DynamicOptions {
  /// --input_shape: "name:1,3,224,224;...", where a dim may be -1 (dynamic) or a range "1~16"
  /// (-1 as the upper end: unbounded).
  std::string input_shape;
  /// --input_shape_range: "name:[1~16,3,224~512,224~512];..." (the older range syntax).
  std::string input_shape_range;
  /// Profiles ("gears"): --dynamic_batch_size "1,2,4,8" (-1 at the batch dim),
  /// --dynamic_image_size "h1,w1;h2,w2" (-1 at H and W), --dynamic_dims "d1,d2;d1,d2" (one value
  /// per -1 dim, in --input_shape's order).
  std::string dynamic_batch_size, dynamic_image_size, dynamic_dims;
};

struct CompileOptions {
  /// The source: --framework (5 ONNX, 3 TensorFlow frozen GraphDef; 0 Caffe and 1 MindSpore
  /// are refused with E10055 until their frontends exist) and --model.
  int framework = 5;
  std::string model;
  /// --weight: the Caffe .caffemodel (framework 0).
  std::string weight;
  /// Import settings: --input_format, --op_name_map (and --input_shape when `shapes` gives
  /// none). TensorFlow takes input_shape, input_format (empty: NHWC) and fold_constants.
  frontend::OnnxImportOptions import;
  /// --input_shape with the dynamic-shape options; compile() checks them (E10009, E10012,
  /// E10018, E10020, E10035..E10039, E10045, E10048) and fills `dynamic` from them.
  DynamicOptions shapes;
  /// --out_nodes "node:index;node2:index" (source-model node names).
  std::string out_nodes;
  /// --insert_op_conf: the AIPP configuration file ("" = none); see insertAipp().
  std::string insert_op_conf;

  /// --soc_version (E10001 listing the known chips when unknown).
  std::string soc_version;
  /// --core_type: AiCore or VectorCore (a VectorCore model may hold no Cube op).
  std::string core_type = "AiCore";

  /// --oo_level / --optimize.
  passes::OptLevel level = passes::OptLevel::O3;
  /// Passes switched off (--fusion_switch_file, --optimization_switch).
  std::set<std::string> disabled_passes;
  /// --op_blacklist: op types and node names no pass may fuse, fold or remove.
  std::set<std::string> keep_types, keep_names;
  /// --precision_mode and its companions.
  passes::PrecisionOptions precision;
  /// Implementation choices per op type or node name, and for every other op ("": none):
  /// --op_select_implmode, --optypelist_for_implmode, the per-op form of --op_blacklist.
  std::map<std::string, std::string> impl_modes;
  std::string impl_mode_all;

  /// Activation memory reuse (--disable_reuse_memory, --memory_config).
  bool reuse_memory = true;
  /// The activation arena may not exceed this (memory_reuse_mb); `arena_limit_source` names the
  /// setting in the error.
  std::optional<uint64_t> arena_limit_bytes;
  std::string arena_limit_source;

  /// Run the original and the optimised graph (fp32, before precision and layout) on the same
  /// random inputs and fail when they differ (--check_equivalence).
  bool check_equivalence = false;
  /// Keep a copy of the imported graph, before any pass (--save_original_model).
  bool keep_original = false;
  /// Store each weight a CPU kernel rearranges in the layout that kernel reads on this machine
  /// (packWeights below), so that msame loads without reordering.
  bool pack_weights = true;
  /// Dynamic shapes: the profiles and ranges of the model's inputs, in model input order
  /// (resolveDynamicOptions() makes them from --input_shape ranges, --input_shape_range and
  /// --dynamic_batch_size / --dynamic_image_size / --dynamic_dims). A model whose shapes are not
  /// all known is kept as imported and compiled per shape at run time (ir::Graph::dynamic).
  om::DynamicShapes dynamic;
};

/// Operator count, FLOPs and memory of a graph at one point of the compile.
struct GraphStats {
  size_t nodes = 0;      // operators, not counting TransData
  size_t transdata = 0;  // layout conversions the target chip needs (free on the CPU)
  int64_t flops = 0;
  om::MemoryPlanSummary memory;
};
ASC_API GraphStats graphStats(const ir::Graph& g, bool reuse_memory);

struct CompileReport {
  passes::OptLevel level = passes::OptLevel::O3;
  GraphStats before, after;
  /// What each pass did, in order.
  std::vector<passes::PassReport> passes;
  size_t rewrites = 0;
  double import_ms = 0, optimise_ms = 0, pack_ms = 0;
  size_t packed_weights = 0;  // constants stored packed as well
};

struct CompiledModel {
  ir::Graph graph;                    // optimised, precision and layout applied
  std::optional<ir::Graph> original;  // with keep_original: as imported (out_nodes applied)
  const soc::SocInfo* chip = nullptr;
  /// What om::writeOm needs besides the graph (the caller adds atc_cmdline).
  om::ModelInfo info;
  CompileReport report;
};

/// The dynamic-shape options, checked by the rules of atc (the codes above), before import: the
/// --input_shape text the importer takes (ranges become -1), and what resolveDynamic() needs.
struct DynamicRequest {
  std::string import_shape;
  std::string kind;  // "batch", "image_size", "dims", "range" or "" (no dynamic dims)
  /// Per named input (in --input_shape order): its dims as ranges (-1 dims: 1~-1).
  std::vector<std::pair<std::string, std::vector<om::DimRange>>> inputs;
  /// Per profile, the values of the -1 dims in --input_shape order, and those dims (index into
  /// `inputs`, dim).
  std::vector<std::vector<int64_t>> profiles;
  std::vector<std::pair<size_t, size_t>> profile_dims;
};
ASC_API Result<DynamicRequest> parseDynamicOptions(const DynamicOptions& o, bool has_aipp);
/// After import: the profiles and ranges per graph input, in graph input order.
ASC_API Result<om::DynamicShapes> resolveDynamic(const DynamicRequest& r, const ir::Graph& g);

/// Imports options.model and compiles it.
ASC_API Result<CompiledModel> compile(const CompileOptions& options);
/// Compiles a graph that is already imported (shapes inferred), e.g. one a test builds.
ASC_API Result<CompiledModel> compileGraph(ir::Graph graph, const CompileOptions& options);

/// Makes the outputs "node:index;..." the model outputs (E10001 on bad syntax or index, E16003
/// naming a node the model does not have).
ASC_API Status applyOutNodes(ir::Graph& g, const std::string& spec);

/// Static AIPP: parses `config_text` (protobuf text format of domi.InsertNewOps; `source` names
/// it in messages) and puts an Aipp op in front of each model input an aipp_op block names
/// (related_input_rank, default 0, or related_input_name). That input becomes the raw uint8
/// image ([N, src_h, src_w, C]; YUV420SP_U8: [N, src_h*3/2, src_w, 1]); the Aipp output keeps
/// the fp32 NCHW shape the model read. Errors name the file, line and field: E13018 the text does
/// not parse (unknown field, wrong value type), E10052 a value AIPP cannot take (range, crop
/// outside the image, odd YUV420SP start, missing input_format, no such input), E10055 what
/// asc-tools does not implement (dynamic AIPP, resize, rotation, multi_shape_op). The graph is
/// unchanged on error.
ASC_API Status insertAipp(ir::Graph& g, const std::string& config_text, const std::string& source);
/// insertAipp() on the contents of a file (E13001 when it cannot be opened).
ASC_API Status insertAippFromFile(ir::Graph& g, const std::string& path);

/// Runs `original` and `optimised` (the same inputs and outputs) on the CPU runtime with the same
/// seeded random inputs and compares every output with the compare module: a float output must
/// reach cosine >= 0.99999 and max |diff| <= 1e-4 * max |ref| + 1e-6; any other output must be
/// identical. E19999 naming the output and the figures otherwise.
ASC_API Status checkEquivalence(const ir::Graph& original, const ir::Graph& optimised);

/// Packs a static graph's weights for this CPU, as atc does before writing the OM: every fp32
/// constant that one kernel reads rearranged (runtime::kernelLayouts, with `opts`) gets a copy
/// in that layout (ir::Value::packed and packing; the OM writer stores a blocked copy instead of
/// the plain data, a Winograd one beside it). A session on a CPU whose kernels want the same
/// layout then reads the copy in place from the mapped OM: no reorder at load. Returns how many
/// constants were packed; a dynamic graph is left as it is (0).
ASC_API Result<size_t> packWeights(ir::Graph& graph, const runtime::SessionOptions& opts = {});

}  // namespace asc
