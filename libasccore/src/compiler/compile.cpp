// compile.cpp: asc::compile(), the compiler's order of work (see compile.h):
//   import -> --out_nodes -> AIPP (--insert_op_conf, aipp.cpp) -> pass pipeline of the level
//   (clean-ups, fusions, attention, precision, layout) -> chip checks (operators, dtypes, core
//   type) -> memory plan and limits
//   -> optional equivalence check.
#include "asc/compiler/compile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>

#include "asc/compare/metrics.h"
#include "asc/frontend/caffe.h"
#include "asc/frontend/tf.h"
#include "asc/ops/kernel.h"
#include "asc/ops/registry.h"
#include "asc/runtime/session.h"
#include "asc/support/log.h"

namespace asc {
namespace {

// The OM's framework_type attribute (atc --mode=6 shows it).
const char* frameworkTypeName(int framework) {
  switch (framework) {
    case 0:
      return "Caffe";
    case 1:
      return "MindSpore";
    case 3:
      return "TensorFlow";
    default:
      return "Onnx";
  }
}

// What the OM's ModelInfo says of the build, whichever path compiled it.
void fillModelInfo(const CompileOptions& o, const soc::SocInfo& chip, om::ModelInfo* info) {
  info->soc_version = chip.name;
  info->framework_type = frameworkTypeName(o.framework);
  info->target_type = chip.target_type;
  info->reuse_memory = o.reuse_memory;
  info->core_type = o.core_type;
  info->c0 = chip.c0;
  info->opt_level = passes::optLevelName(o.level);
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The chip's limits: operators it lacks, dtypes it lacks, Cube ops on a Vector Core.
Status checkChip(const ir::Graph& g, const soc::SocInfo& chip, const std::string& core_type) {
  for (const auto& n : g.nodes()) {
    for (const char* excluded : chip.excluded_ops)
      if (n->op_type == excluded)
        return Status::error(ErrorCode::UnsupportedOp,
                             "operator '{}' (node '{}') is not supported on {}; choose another "
                             "--soc_version",
                             n->op_type, n->name, chip.name);
    const ops::OpDef* d = ops::lookup(n->op_type);
    if (core_type == "VectorCore" && d && d->isCube())
      return Status::error(ErrorCode::InvalidParam,
                           "Value VectorCore for parameter --core_type is invalid. Reason: the "
                           "network has Cube operators ({} '{}'); use --core_type=AiCore",
                           n->op_type, n->name);
  }
  for (const auto& v : g.values())
    if (v->dtype != ir::DType::Undefined && !soc::supportsDtype(chip, v->dtype))
      return Status::error(ErrorCode::UnsupportedOp,
                           "tensor '{}' is {}, which {} does not support; choose another "
                           "--soc_version or --precision_mode",
                           v->name, ir::dtypeName(v->dtype), chip.name);
  return Status::ok();
}

passes::PassContext passContext(const CompileOptions& o) {
  passes::PassContext pc;
  pc.disabled = o.disabled_passes;
  pc.keep_types = o.keep_types;
  pc.keep_names = o.keep_names;
  pc.precision = &o.precision;
  pc.impl_modes = o.impl_modes;
  pc.impl_mode_all = o.impl_mode_all;
  return pc;
}

// A dynamic graph (shapes known only at run time) is kept as imported: the runtime compiles it
// per input shape with the settings recorded here. Each profile is compiled now too, as a check
// (and for the memory it needs), unless a value computed at run time decides its shapes.
Result<CompiledModel> compileDynamic(ir::Graph g, const CompileOptions& o,
                                     const soc::SocInfo* chip) {
  ASC_RETURN_IF_ERROR(checkChip(g, *chip, o.core_type));
  if (o.check_equivalence)
    ASC_LOG_WARN("--check_equivalence: skipped, the model's shapes are known only at run time");
  CompiledModel m;
  m.chip = chip;
  m.report.level = o.level;
  if (o.keep_original) m.original = g.clone();
  uint64_t largest = 0;
  for (size_t k = 0; k < o.dynamic.gears.size(); ++k) {
    ir::Graph s = g.clone();
    s.dynamic = false;
    for (size_t i = 0; i < s.inputs.size(); ++i) s.inputs[i]->shape = o.dynamic.gears[k][i];
    ops::InferOptions io;
    const ir::Value* wanted = nullptr;
    io.needs_value = &wanted;
    if (Status st = ops::inferGraph(s, io); !st.isOk()) {
      if (wanted) continue;  // decided by a run-time value: compiled when it is known
      return st.withContext(fmt::format("dynamic profile {}", k + 1));
    }
    CompileOptions one = o;
    one.out_nodes.clear();
    one.insert_op_conf.clear();
    one.keep_original = false;
    one.check_equivalence = false;
    one.dynamic = {};
    ASC_TRY(CompiledModel c, compileGraph(std::move(s), one));
    largest = std::max<uint64_t>(largest, c.report.after.memory.arena_bytes);
  }
  if (!o.dynamic.gears.empty())
    ASC_LOG_INFO("dynamic model: {} profiles; the largest needs {} bytes of activations",
                 o.dynamic.gears.size(), largest);
  fillModelInfo(o, *chip, &m.info);
  m.info.dynamic = o.dynamic;
  if (m.info.dynamic.ranges.empty())
    for (const ir::Value* in : g.inputs) {
      std::vector<om::DimRange> dims;
      for (int64_t d : in->shape) dims.push_back(d < 0 ? om::DimRange{1, -1} : om::DimRange{d, d});
      m.info.dynamic.ranges.push_back(dims);
    }
  const passes::PassContext pc = passContext(o);
  m.info.runtime_compile = passes::encodeSettings(o.level, pc);
  m.graph = std::move(g);
  return m;
}

}  // namespace

GraphStats graphStats(const ir::Graph& g, bool reuse_memory) {
  GraphStats s;
  for (const auto& n : g.nodes()) {
    ++(n->op_type == "TransData" ? s.transdata : s.nodes);
    s.flops += ops::nodeFlops(*n);
  }
  s.memory = om::planActivationMemory(g, reuse_memory);
  return s;
}

Status applyOutNodes(ir::Graph& g, const std::string& spec) {
  if (spec.empty()) return Status::ok();
  std::vector<ir::Value*> outs;
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t e = spec.find(';', pos);
    if (e == std::string::npos) e = spec.size();
    std::string item = spec.substr(pos, e - pos);
    pos = e + 1;
    if (item.empty()) continue;
    auto colon = item.rfind(':');
    // The index: 1 to 9 decimal digits (an empty index is not 0; a longer one would saturate).
    const std::string digits = colon == std::string::npos ? "" : item.substr(colon + 1);
    const bool ok =
        !digits.empty() && digits.size() <= 9 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    const long idx = ok ? std::stol(digits) : -1;
    if (!ok)
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --out_nodes is invalid. Reason: write "
                           "\"node_name:output_index;...\"",
                           item);
    const std::string name = item.substr(0, colon);
    ir::Node* found = nullptr;
    for (const auto& n : g.nodes())
      if (n->name == name || std::count(n->original_names.begin(), n->original_names.end(), name))
        found = n.get();
    if (!found)
      return Status::error(ErrorCode::NodeNotFound,
                           "--out_nodes names '{}', which is not a node of the model (or was "
                           "folded into a constant)",
                           name);
    if (static_cast<size_t>(idx) >= found->outputs.size())
      return Status::error(ErrorCode::InvalidParam,
                           "--out_nodes: node '{}' has {} outputs, index {} is out of range", name,
                           found->outputs.size(), idx);
    outs.push_back(found->outputs[idx]);
  }
  g.outputs = outs;
  return Status::ok();
}

Status checkEquivalence(const ir::Graph& original, const ir::Graph& optimised) {
  ASC_TRY(auto a, runtime::Session::fromGraph(original.clone()));
  ASC_TRY(auto b, runtime::Session::fromGraph(optimised.clone()));
  if (a->inputs().size() != b->inputs().size() || a->outputs().size() != b->outputs().size())
    return Status::error(ErrorCode::Internal,
                         "--check_equivalence: the optimised graph has {} inputs and {} outputs, "
                         "the original {} and {}",
                         b->inputs().size(), b->outputs().size(), a->inputs().size(),
                         a->outputs().size());
  std::mt19937 rng(7767517);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  for (size_t i = 0; i < a->inputs().size(); ++i) {
    const auto& info = a->inputs()[i];
    std::vector<uint8_t> bytes(info.bytes, 0);
    if (info.dtype == ir::DType::F32)
      for (size_t k = 0; k < bytes.size() / 4; ++k)
        reinterpret_cast<float*>(bytes.data())[k] = uni(rng);
    ASC_RETURN_IF_ERROR(a->setInput(i, bytes.data(), bytes.size()));
    ASC_RETURN_IF_ERROR(b->setInput(i, bytes.data(), bytes.size()));
  }
  ASC_RETURN_IF_ERROR(a->run());
  ASC_RETURN_IF_ERROR(b->run());
  compare::CompareOptions co;
  co.metrics = {compare::Metric::CosineSimilarity, compare::Metric::MaxAbsoluteError};
  co.my_name = "optimised";
  co.golden_name = "original";
  for (size_t i = 0; i < a->outputs().size(); ++i) {
    const auto& info = a->outputs()[i];
    const auto& other = b->outputs()[i];
    const size_t size = ir::dtypeSize(info.dtype);
    if (other.dtype != info.dtype || other.bytes != info.bytes || size == 0)
      return Status::error(ErrorCode::Internal,
                           "--check_equivalence: output '{}' is {} of {} bytes after "
                           "optimisation, {} of {} bytes before",
                           info.name, ir::dtypeName(other.dtype), other.bytes,
                           ir::dtypeName(info.dtype), info.bytes);
    compare::TensorView golden{info.dtype, static_cast<const uint8_t*>(a->outputData(i)),
                               info.bytes / size};
    compare::TensorView mine{info.dtype, static_cast<const uint8_t*>(b->outputData(i)),
                             info.bytes / size};
    const bool is_float = info.dtype == ir::DType::F32 || info.dtype == ir::DType::F16 ||
                          info.dtype == ir::DType::BF16 || info.dtype == ir::DType::F64;
    co.tolerance = is_float ? compare::Tolerance{1e-6, 0} : compare::Tolerance{0, 0};
    ASC_TRY(compare::CompareResult r, compare::compareTensors(mine, golden, co));
    const double cosine = r.value[static_cast<int>(compare::Metric::CosineSimilarity)];
    const double maxdiff = r.value[static_cast<int>(compare::Metric::MaxAbsoluteError)];
    const double maxref = r.golden_max_abs;
    if (!is_float) {
      if (!r.passed())
        return Status::error(ErrorCode::Internal,
                             "--check_equivalence: output '{}' differs after optimisation ({} "
                             "elements differ, the first at {}); switch passes off with "
                             "--fusion_switch_file to find the one at fault",
                             info.name, r.violations, r.first_violation);
      continue;
    }
    // A constant-zero output has no cosine (NaN): it is equal when nothing differs.
    const bool cosine_ok = cosine >= 0.99999 || (std::isnan(cosine) && maxdiff == 0);
    ASC_LOG_INFO(
        "check_equivalence: output '{}': cosine {:.7f}, max |diff| {:.3g} (max |ref| "
        "{:.3g})",
        info.name, cosine, maxdiff, maxref);
    if (!cosine_ok || !(maxdiff <= 1e-4 * maxref + 1e-6))
      return Status::error(ErrorCode::Internal,
                           "--check_equivalence: output '{}' differs after optimisation (cosine "
                           "{:.7f}, max |diff| {:.3g}, max |ref| {:.3g}); switch passes off with "
                           "--fusion_switch_file to find the one at fault",
                           info.name, cosine, maxdiff, maxref);
  }
  return Status::ok();
}

namespace {

// --framework=0: the prototxt in --model, the caffemodel in --weight.
Result<ir::Graph> importCaffeSource(const CompileOptions& o,
                                    const frontend::OnnxImportOptions& import) {
  if (o.weight.empty())
    return Status::error(ErrorCode::WeightRequired,
                         "--weight is required with --framework=0 (Caffe): give the .caffemodel "
                         "that holds the weights of {}",
                         o.model);
  frontend::CaffeImportOptions c;
  c.input_shape = import.input_shape;
  c.input_format = import.input_format;
  c.fold_constants = import.fold_constants;
  return frontend::importCaffe(o.model, o.weight, c);
}

// The frontend of --framework.
// --framework=3: the ONNX import settings that apply to a GraphDef.
Result<ir::Graph> importTensorFlow(const CompileOptions& o,
                                   const frontend::OnnxImportOptions& import) {
  frontend::TfImportOptions tf;
  tf.input_shape = import.input_shape;
  tf.input_format = import.input_format.empty() ? "NHWC" : import.input_format;
  tf.fold_constants = import.fold_constants;
  return frontend::importTf(o.model, tf);
}

Result<ir::Graph> importSource(const CompileOptions& o, const frontend::OnnxImportOptions& import) {
  switch (o.framework) {
    case 5:
      return frontend::importOnnx(o.model, import);
    case 0:
      return importCaffeSource(o, import);
    case 3:
      return importTensorFlow(o, import);
    case 1:  // MindSpore
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: --framework={} ({}) is not "
                           "supported by asc-tools yet; convert the model to ONNX and use "
                           "--framework=5",
                           o.framework,
                           o.framework == 0   ? "Caffe"
                           : o.framework == 1 ? "MindSpore"
                                              : "TensorFlow");
    default:
      return Status::error(ErrorCode::RequiredParam,
                           "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                           "or 3(TensorFlow) or 5(Onnx).");
  }
}

}  // namespace

namespace compiler {
bool shapeCompilerInstalled();  // shape_compile.cpp
}  // namespace compiler

Result<CompiledModel> compile(const CompileOptions& o) {
  // The per-shape compiler of dynamic models is installed when the library loads; referencing
  // it keeps its file in a static link too.
  if (!compiler::shapeCompilerInstalled())
    return Status::error(ErrorCode::Internal, "the per-shape compiler is not installed");
  if (o.framework != 0 && o.framework != 1 && o.framework != 3 && o.framework != 5)
    return Status::error(ErrorCode::RequiredParam,
                         "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
                         "or 3(TensorFlow) or 5(Onnx).");
  const auto t0 = std::chrono::steady_clock::now();
  ASC_TRY(DynamicRequest dyn, parseDynamicOptions(o.shapes, !o.insert_op_conf.empty()));
  frontend::OnnxImportOptions import = o.import;
  if (!o.shapes.input_shape.empty() || !o.shapes.input_shape_range.empty())
    import.input_shape = dyn.import_shape;
  import.allow_dynamic = true;  // a graph whose shapes need run-time values compiles per shape
  ASC_TRY(ir::Graph g, importSource(o, import));
  const double import_ms = msSince(t0);
  CompileOptions with_shapes = o;
  ASC_TRY(with_shapes.dynamic, resolveDynamic(dyn, g));
  ASC_TRY(CompiledModel m, compileGraph(std::move(g), with_shapes));
  m.report.import_ms = import_ms;
  return m;
}

Result<CompiledModel> compileGraph(ir::Graph g, const CompileOptions& o) {
  ASC_TRY(const soc::SocInfo* chip, soc::findSoc(o.soc_version));
  ASC_RETURN_IF_ERROR(applyOutNodes(g, o.out_nodes));
  // AIPP belongs to the model from here on: the original model (--save_original_model) and the
  // equivalence reference both take the raw image.
  if (!o.insert_op_conf.empty()) ASC_RETURN_IF_ERROR(insertAippFromFile(g, o.insert_op_conf));
  for (const auto& name : o.keep_names)
    if (!g.findNode(name)) ASC_LOG_WARN("--op_blacklist: the model has no node named '{}'", name);

  if (g.dynamic) return compileDynamic(std::move(g), o, chip);

  CompiledModel m;
  m.chip = chip;
  m.report.level = o.level;
  ASC_LOG_INFO("optimisation level {}", passes::optLevelName(o.level));
  if (o.keep_original) m.original = g.clone();
  // The fp32 graph before any pass: the reference of the equivalence check.
  std::optional<ir::Graph> reference;
  if (o.check_equivalence) reference = g.clone();
  m.report.before = graphStats(g, o.reuse_memory);

  const auto t0 = std::chrono::steady_clock::now();
  passes::PassContext pc = passContext(o);
  std::optional<ir::Graph> optimised_fp32;
  for (const auto& name : passes::pipelineFor(o.level)) {
    const passes::PassInfo* pass = passes::findPass(name);
    const std::string kind = pass->kind;
    // The equivalence check compares fp32 NCHW graphs: take the copy before precision/layout.
    if (reference && !optimised_fp32 && (kind == "precision" || kind == "layout"))
      optimised_fp32 = g.clone();
    ASC_RETURN_IF_ERROR(passes::runPass(g, *pass, pc));
  }
  if (reference && !optimised_fp32) optimised_fp32 = g.clone();
  m.report.optimise_ms = msSince(t0);
  m.report.passes = std::move(pc.reports);
  m.report.rewrites = pc.log.size();
  m.report.after = graphStats(g, o.reuse_memory);
  const GraphStats& before = m.report.before;
  const GraphStats& after = m.report.after;
  ASC_LOG_INFO(
      "graph optimisation ({}): {} rewrites; nodes {} -> {}{}, GFLOPs {:.3f} -> {:.3f}, "
      "arena {} -> {} bytes (peak live {}), weights {} -> {} bytes",
      passes::optLevelName(o.level), m.report.rewrites, before.nodes, after.nodes,
      after.transdata ? fmt::format(" (+{} TransData)", after.transdata) : "", before.flops / 1e9,
      after.flops / 1e9, before.memory.arena_bytes, after.memory.arena_bytes,
      after.memory.peak_live_bytes, before.memory.weight_bytes, after.memory.weight_bytes);

  ASC_RETURN_IF_ERROR(checkChip(g, *chip, o.core_type));
  if (after.memory.arena_bytes + after.memory.weight_bytes > chip->memory_bytes)
    return Status::error(ErrorCode::MemoryExceeded,
                         "the model needs {} bytes of activations and {} bytes of weights, more "
                         "than the {} bytes of {}; use a smaller --input_shape",
                         after.memory.arena_bytes, after.memory.weight_bytes, chip->memory_bytes,
                         chip->name);
  if (o.arena_limit_bytes && after.memory.arena_bytes > *o.arena_limit_bytes)
    return Status::error(ErrorCode::MemoryExceeded,
                         "the activation arena needs {} bytes, more than {}; raise the limit, "
                         "keep memory reuse on, or use a smaller --input_shape",
                         after.memory.arena_bytes,
                         o.arena_limit_source.empty()
                             ? fmt::format("the limit of {} bytes", *o.arena_limit_bytes)
                             : o.arena_limit_source);
  if (reference) ASC_RETURN_IF_ERROR(checkEquivalence(*reference, *optimised_fp32));

  fillModelInfo(o, *chip, &m.info);
  if (o.pack_weights) {
    // The kernels msame will build on this CPU, built now, so their rearranged weights go into
    // the OM beside the plain ones (docs/om-format.md, "Packed weights"). An optimisation only:
    // a graph whose kernels cannot be built here is written unpacked, and msame says why.
    const auto tp = std::chrono::steady_clock::now();
    auto packed = packWeights(g);
    m.report.pack_ms = msSince(tp);
    if (packed.isOk()) {
      // The OM's 32-bit layout holds 4 GB: a model that fits with its plain weights keeps
      // fitting, unpacked, rather than failing for the copies.
      uint64_t bytes = 0;
      for (const auto& v : g.values())
        if (v->isConstant()) bytes += v->data->size() + (v->packed ? v->packed->size() : 0) + 128;
      if (bytes + (uint64_t(64) << 20) > 0xFFFFFFFFull) {
        for (const auto& v : g.values()) {
          v->packed.reset();
          v->packing.clear();
        }
        ASC_LOG_INFO("weights not packed: with the packed copies the OM would pass 4 GB");
      } else {
        m.report.packed_weights = *packed;
        m.info.packed_isa = ops::kernelIsa();
        ASC_LOG_INFO(
            "packed {} weights for this CPU: kernels chosen in {:.1f} ms, the copies made as the "
            "OM is written",
            *packed, m.report.pack_ms);
      }
    } else {
      ASC_LOG_WARN("weights not packed for this CPU: {}", packed.status().message());
    }
  }
  m.graph = std::move(g);
  return m;
}

}  // namespace asc
