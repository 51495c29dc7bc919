// atc_info.cpp: atc's informational outputs, each generated from the registries: --list_ops
// (the operator registry), --list_caffe_layers and --list_tf_ops (the frontends' mapping tables),
// --compatibility (docs/compatibility.md: frameworks, chips, ops) and --ops_info (ops_info.json
// per chip).
#include "atc_info.h"

#include <fmt/ostream.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "asc/frontend/caffe.h"
#include "asc/frontend/onnx.h"
#include "asc/frontend/tf.h"
#include "asc/ops/onnx_mapping.h"
#include "asc/ops/registry.h"
#include "asc/soc/soc.h"
#include "asc/support/file.h"
#include "asc/support/strings.h"

namespace asc::atc {
namespace {

// An op no ONNX model at the opsets atc reads can name: made by a pass (Swish, TransData) or
// from a newer opset (Gelu, opset 20).
bool fusedOnly(const ops::OpDef& d) {
  return d.isInternal() || d.onnxSince() > frontend::kMaxOnnxOpset;
}

// --ops_info=DIR: DIR/<soc>/ops_info.json, the op-support table of each chip.
}  // namespace

Status writeOpsInfo(const std::string& dir) {
  for (const auto& chip : soc::allSocs()) {
    std::string json = fmt::format("{{\n  \"soc_version\": \"{}\",\n  \"ops\": {{", chip.name);
    bool first = true;
    for (const auto* d : ops::allOps()) {
      bool excluded = false;
      for (const char* e : chip.excluded_ops) excluded |= d->name() == e;
      if (excluded) continue;
      json += fmt::format(
          "{}\n    \"{}\": {{\"onnx_type\": \"{}\", \"onnx_opset\": {}, \"engine\": \"{}\", "
          "\"dtype\": \"{}\", \"fused_only\": {}}}",
          first ? "" : ",", d->cannType(), d->name(), fusedOnly(*d) ? 0 : d->onnxSince(),
          ops::engineName(d->engineKind()),
          chip.has_bf16 ? "float16,float32,bfloat16" : "float16,float32",
          fusedOnly(*d) ? "true" : "false");
      first = false;
    }
    json += "\n  }\n}\n";
    ASC_RETURN_IF_ERROR(makeDirs(dir + "/" + chip.name));
    ASC_RETURN_IF_ERROR(
        writeFileAtomic(dir + "/" + chip.name + "/ops_info.json", json.data(), json.size()));
  }
  return Status::ok();
}

Status writePlatformConfig(const std::string& dir) {
  ASC_RETURN_IF_ERROR(makeDirs(dir));
  for (const auto& chip : soc::allSocs()) {
    std::string ini = fmt::format("[version]\nSoC_version={}\nShort_SoC_version={}\n", chip.name,
                                  soc::shortSocName(chip));
    if (chip.ub_bytes) ini += fmt::format("[AICoreSpec]\nub_size={}\n", chip.ub_bytes);
    ASC_RETURN_IF_ERROR(writeFileAtomic(dir + "/" + chip.name + ".ini", ini.data(), ini.size()));
  }
  return Status::ok();
}

// --mode=1 --framework=0 --om=deploy.prototxt: the prototxt as JSON.
void listOps(std::ostream& out) {
  fmt::print(out, "{:<24} {:<8} {:<24} {:<8} {}\n", "ONNX op", "opset", "CANN type", "engine",
             "notes");
  for (const auto* d : ops::allOps())
    fmt::print(out, "{:<24} {:<8} {:<24} {:<8} {}\n", d->name(),
               fusedOnly(*d) ? std::string("fused") : fmt::format("{}+", d->onnxSince()),
               d->cannType(), ops::engineName(d->engineKind()), d->summaryText());
  // ONNX operators that a loaded framework plugin hands to its custom operator, each plugin's
  // adjacent opsets as one range.
  std::vector<ops::OnnxCustomMapping> taken;
  for (auto& m : ops::onnxCustomMappings()) {
    if (m.onnx_type == m.custom_type) continue;
    if (!taken.empty()) {
      auto& last = taken.back();
      if (last.domain == m.domain && last.onnx_type == m.onnx_type &&
          last.custom_type == m.custom_type && last.origin == m.origin &&
          last.opset_to != std::numeric_limits<int>::max() && last.opset_to + 1 == m.opset_from) {
        last.opset_to = m.opset_to;
        continue;
      }
    }
    taken.push_back(std::move(m));
  }
  if (!taken.empty()) fmt::print(out, "\nTaken over by custom operators (framework plugins):\n");
  for (const auto& m : taken) {
    const std::string opsets = m.opset_from == m.opset_to ? fmt::format("{}", m.opset_from)
                               : m.opset_to == std::numeric_limits<int>::max()
                                   ? fmt::format("{}+", m.opset_from)
                                   : fmt::format("{}-{}", m.opset_from, m.opset_to);
    fmt::print(out, "{:<24} {:<8} -> {} ({})\n",
               (m.domain.empty() ? "" : m.domain + "::") + m.onnx_type, opsets, m.custom_type,
               m.origin);
  }
}

// --list_caffe_layers: the Caffe layers from their one declaration (caffe_layers.def), a row
// "type | IR ops | notes" each (scripts/gen_docs.sh writes docs/caffe.md's table from it).
void listCaffeLayers(std::ostream& out) {
  fmt::print(out, "Caffe layer (--framework=0) | IR ops | notes\n");
  for (const auto& l : frontend::caffeLayers())
    fmt::print(out, "{} | {} | {}\n", l.type, l.shown, l.notes);
}

// --list_tf_ops: the TensorFlow op types from their one declaration (the converter table), a row
// "type | IR ops | notes" each (scripts/gen_docs.sh writes docs/tensorflow.md's table from it).
void listTfOps(std::ostream& out) {
  fmt::print(out, "TensorFlow op (--framework=3) | IR ops | notes\n");
  for (const auto& o : frontend::tfOps())
    fmt::print(out, "{} | {} | {}\n", o.type, o.shown, o.notes);
}

// --compatibility: the matrix of docs/compatibility.md, from the registry and the soc table.
void printCompatibility(std::ostream& out) {
  const auto& socs = soc::allSocs();
  auto excluded = [](const soc::SocInfo& chip, const std::string& op) {
    for (const char* e : chip.excluded_ops)
      if (op == e) return true;
    return false;
  };
  fmt::print(out,
             "# Compatibility matrix\n\n"
             "Generated by `atc --compatibility` (scripts/gen_docs.sh) from the operator registry "
             "and the chip table of asc-tools {}. Check a model against it before converting: "
             "most conversion failures come from a framework, opset or chip the tools do not "
             "take.\n\n",
             asc::version());
  fmt::print(out,
             "## Frameworks\n\n| --framework | source | asc-tools |\n|---|---|---|\n"
             "| 5 | ONNX (`.onnx`, external data) | opsets {}-{} |\n"
             "| 0 | Caffe (`.prototxt` + `--weight`, V1 `layers` too) | the layers of "
             "docs/caffe.md |\n"
             "| 1 | MindSpore | refused with E10055 |\n"
             "| 3 | TensorFlow (frozen `.pb` GraphDef) | {} op types, NHWC (docs/tensorflow.md) "
             "|\n\n",
             frontend::kMinOnnxOpset, frontend::kMaxOnnxOpset, frontend::tfSupportedOps().size());
  fmt::print(out,
             "## Chips (`--soc_version`)\n\n| chip | target | memory (GiB) | C0 | bf16 | fp16 "
             "TFLOPS | ops it lacks |\n|---|---|---|---|---|---|---|\n");
  for (const auto& chip : socs)
    fmt::print(out, "| {} | {} | {:.0f} | {} | {} | {:g} | {} |\n", chip.name, chip.target_type,
               chip.memory_bytes / double(1ull << 30), chip.c0, chip.has_bf16 ? "yes" : "no",
               chip.peak_fp16_tflops,
               chip.excluded_ops.empty() ? std::string("-")
                                         : fmt::format("{}", fmt::join(chip.excluded_ops, ", ")));
  fmt::print(out,
             "\n## Operators\n\nONNX opsets per operator (an op is read from the opset that "
             "introduced it up to {}), the CANN type written into the OM, the engine, and the "
             "chips that run it (x: supported, -: refused with E2002). Internal ops are what "
             "fusion produces; no model names them.\n\n| ONNX op | opsets | CANN type | engine",
             frontend::kMaxOnnxOpset);
  for (const auto& chip : socs) fmt::print(out, " | {}", chip.name);
  fmt::print(out, " |\n|---|---|---|---");
  for (size_t i = 0; i < socs.size(); ++i) fmt::print(out, "|---");
  fmt::print(out, "|\n");
  for (const auto* d : ops::allOps()) {
    fmt::print(out, "| {} | {} | {} | {}", d->name(),
               d->isInternal() ? std::string("internal")
               : fusedOnly(*d)
                   ? fmt::format("{}+ (fusion only)", d->onnxSince())
                   : fmt::format("{}-{}", std::max(d->onnxSince(), frontend::kMinOnnxOpset),
                                 frontend::kMaxOnnxOpset),
               d->cannType(), ops::engineName(d->engineKind()));
    for (const auto& chip : socs) fmt::print(out, " | {}", excluded(chip, d->name()) ? "-" : "x");
    fmt::print(out, " |\n");
  }
}

}  // namespace asc::atc
