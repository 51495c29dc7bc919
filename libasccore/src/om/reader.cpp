// reader.cpp: .om -> summary, JSON and ir::Graph. Every size and offset is checked against the
// file before use; a truncated or altered file gives E10041, never a crash.
#include <google/protobuf/io/coded_stream.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <map>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "asc/om/om_file.h"
#include "asc/ops/kernel.h"
#include "asc/ops/packing.h"
#include "asc/ops/plugin.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/support/strings.h"
#include "checksum.h"
#include "format.h"
#include "ge_convert.h"
#include "om/container.h"
#include "support/protobuf_log.h"

namespace asc::om {
namespace {

std::string shapeText(const ge::proto::TensorDescriptor& td) {
  std::vector<int64_t> dims = logicalShape(td);
  ir::DType t = ir::dtypeFromGe(td.dtype());
  return fmt::format(
      "{}:{}:[{}]", td.name(),
      t == ir::DType::Undefined ? ge::proto::DataType_Name(td.dtype()) : ir::dtypeName(t),
      fmt::join(dims, ","));
}

OmSummary summarize(const std::string& path, const Container& c, const ge::proto::ModelDef& m) {
  OmSummary s;
  s.name = std::string(c.header.name, strnlen(c.header.name, sizeof(c.header.name)));
  s.version = c.header.version;
  s.integrity = c.integrity;
  s.partitions = c.parts;
  s.wide_table = c.wide_table;
  for (const auto& [k, a] : m.attr()) {
    switch (a.value_case()) {
      case ge::proto::AttrDef::kS:
        s.attrs[k] = a.s();
        break;
      case ge::proto::AttrDef::kI:
        s.attrs[k] = std::to_string(a.i());
        break;
      case ge::proto::AttrDef::kB:
        s.attrs[k] = a.b() ? "true" : "false";
        break;
      case ge::proto::AttrDef::kF:
        s.attrs[k] = fmt::format("{}", a.f());
        break;
      case ge::proto::AttrDef::kList:  // lists of strings (the dynamic profiles), ';'-joined
        if (a.list().s_size() > 0 && k == "_asc_dynamic_gears")
          s.attrs[k] = fmt::format("{}", fmt::join(a.list().s(), " | "));
        break;
      default:
        break;
    }
  }
  if (auto pk = m.attr().find("_asc_peak_live_bytes"); pk != m.attr().end())
    s.peak_live_bytes = static_cast<uint64_t>(pk->second.i());
  auto it = m.attr().find("om_info_list");
  if (it != m.attr().end() && it->second.has_list())
    s.om_info_list.assign(it->second.list().i().begin(), it->second.list().i().end());
  if (m.graph_size() > 0) {
    for (const auto& op : m.graph(0).op()) {
      if (op.type() == "Data" && op.output_desc_size() > 0) {
        s.inputs.push_back(shapeText(op.output_desc(0)));
      } else if (op.type() == "NetOutput") {
        for (const auto& td : op.input_desc()) s.outputs.push_back(shapeText(td));
      } else if (op.type() != "Const" && op.type() != "FileConstant") {
        ++s.op_count;
      }
    }
  }
  return s;
}

}  // namespace

namespace {

// "[1~16,3,224,224];[1,10]" (rangesToString's form) back into ranges.
Result<std::vector<std::vector<DimRange>>> parseRanges(const std::string& path,
                                                       const std::string& text) {
  std::vector<std::vector<DimRange>> out;
  for (const std::string& item : splitString(text, ';')) {
    if (item.size() < 2 || item.front() != '[' || item.back() != ']')
      return bad(path, fmt::format("_asc_input_shape_range item '{}' is not [dims]", item));
    std::vector<DimRange> dims;
    const std::string body = item.substr(1, item.size() - 2);
    if (!body.empty())
      for (const std::string& d : splitString(body, ',')) {
        DimRange r;
        const size_t tilde = d.find('~');
        auto lo = parseInt64(tilde == std::string::npos ? d : d.substr(0, tilde));
        auto hi = parseInt64(tilde == std::string::npos ? d : d.substr(tilde + 1));
        if (!lo || !hi || *lo < 0 || (*hi < *lo && *hi != -1))
          return bad(path, fmt::format("_asc_input_shape_range dim '{}' is not a range", d));
        r.min = *lo;
        r.max = *hi;
        dims.push_back(r);
      }
    out.push_back(std::move(dims));
  }
  return out;
}

Status readDynamic(const std::string& path, const ge::proto::ModelDef& m, OmModel* out) {
  auto str = [&](const char* key) {
    auto it = m.attr().find(key);
    return it == m.attr().end() ? std::string() : it->second.s();
  };
  out->dynamic.kind = str("_asc_dynamic_type");
  if (std::string r = str("_asc_input_shape_range"); !r.empty()) {
    ASC_TRY(out->dynamic.ranges, parseRanges(path, r));
  }
  if (auto it = m.attr().find("_asc_dynamic_gears"); it != m.attr().end() && it->second.has_list())
    for (const std::string& gear : it->second.list().s()) {
      std::vector<ir::Shape> shapes;
      for (const std::string& shape_text : splitString(gear, ';')) {
        ir::Shape shape;
        if (!shape_text.empty())
          for (const std::string& d : splitString(shape_text, ',')) {
            auto v = parseInt64(d);
            if (!v || *v < 0 || *v > (int64_t(1) << 40))
              return bad(path, fmt::format("dynamic profile '{}' has a bad dim '{}'", gear, d));
            shape.push_back(*v);
          }
        shapes.push_back(std::move(shape));
      }
      out->dynamic.gears.push_back(std::move(shapes));
    }
  for (const auto& [key, a] : m.attr())
    if (key.rfind("_asc_rtc_", 0) == 0 && a.has_list())
      out->runtime_compile[key.substr(9)].assign(a.list().s().begin(), a.list().s().end());
  return Status::ok();
}

// A Const's packed copy (docs/om-format.md, "Packed weights"): kept mapped, unread, beside the
// plain data. Kernels read it only when its layout name is exactly the one they want, so a
// name here is never trusted as a layout; its bytes must lie inside WEIGHTS_DATA.
Status readPacked(const std::string& path, const Container& c, const PartitionInfo* wp,
                  const std::string& op, const ge::proto::TensorDescriptor& td, ir::Value* v,
                  bool alone = false) {
  const auto& a = td.attr();
  auto packing = a.find(kPackingAttr);
  if (packing == a.end()) return Status::ok();
  auto off = a.find(kPackedOffsetAttr);
  auto size = a.find(kPackedSizeAttr);
  if (off == a.end() || size == a.end() || !wp || packing->second.s().empty())
    return bad(path, fmt::format("Const op '{}' names packed weights without their place", op));
  const int64_t o = off->second.i(), n = size->second.i();
  if (o < 0 || n <= 0 || uint64_t(o) > wp->size || uint64_t(n) > wp->size - uint64_t(o))
    return bad(path, fmt::format("Const op '{}' packed weights [{}, +{}) lie outside WEIGHTS_DATA "
                                 "({} bytes)",
                                 op, o, n, wp->size));
  const uint8_t* at = c.file->data() + wp->offset + o;
  if (reinterpret_cast<uintptr_t>(at) % kWeightAlign != 0) {
    if (!alone) return Status::ok();  // not usable in place: the plain data serves
    v->packed = ir::Blob::copyOf(at, static_cast<size_t>(n));  // the only copy: kept, aligned
  } else {
    v->packed = std::make_shared<ir::Blob>(at, static_cast<size_t>(n), c.file);
  }
  v->packing = packing->second.s();
  return Status::ok();
}

// A Const stored only packed (kPackedOnlyAttr): its layout name must describe exactly this
// tensor inside its bytes (ops::plainFromPacked), and the plain bytes are made from it only if a
// kernel asks for them (ir::Blob::lazy).
Status readPackedOnly(const std::string& path, const Container& c, const PartitionInfo* wp,
                      const std::string& op, const ge::proto::TensorDescriptor& td, ir::Value* v) {
  if (v->dtype != ir::DType::F32)
    return bad(path, fmt::format("Const op '{}' is stored packed but is not float32", op));
  if (td.attr().find(kPackingAttr) == td.attr().end())
    return bad(path, fmt::format("Const op '{}' is stored packed but names no layout", op));
  ASC_RETURN_IF_ERROR(readPacked(path, c, wp, op, td, v, true));
  auto unpack = ops::plainFromPacked(v->packing, v->shape, v->packed);
  if (!unpack) return bad(path, fmt::format("Const op '{}': {}", op, unpack.status().message()));
  v->data = ir::Blob::lazy(v->byteSize(), std::move(*unpack));
  return Status::ok();
}

}  // namespace

Result<OmSummary> readOmSummary(const std::string& path, Verify verify) {
  ASC_TRY(Container c, openContainer(path, verify));
  ASC_TRY(ge::proto::ModelDef m, parseModelDef(path, c));
  return summarize(path, c, m);
}

namespace {
// A model compiled by CANN's ATC: its ops are NPU kernels (TBE_KERNELS) and tasks for that chip,
// nothing a CPU can run. Says what it holds and what to do instead.
Status notOurs(const std::string& path, const Container& c, const ge::proto::ModelDef& m) {
  auto attr = [&](const char* k) {
    auto it = m.attr().find(k);
    return it == m.attr().end() ? std::string() : it->second.s();
  };
  const std::string soc = attr("soc_version"), by = attr("atc_version");
  const PartitionInfo* tbe = c.find(kTbeKernels);
  std::string what = "it was not written by asc-tools' atc";
  if (tbe && tbe->size > 0)
    what = fmt::format("it holds TBE kernels for {} ({} bytes of NPU code{})",
                       soc.empty() ? "an Ascend NPU" : soc, tbe->size,
                       by.empty() ? "" : ", atc " + by);
  else if (!soc.empty())
    what = fmt::format("it was compiled for {}{}", soc, by.empty() ? "" : " by atc " + by);
  return bad(path, fmt::format("the model cannot run on the CPU runtime: {}; convert the "
                               "original model (ONNX, Caffe or TensorFlow) with asc-tools' atc "
                               "and run that .om (atc --mode=1 --om=... shows what this one "
                               "holds)",
                               what));
}

Result<OmModel> loadContainer(const std::string& path, const Container& c) {
  ASC_TRY(ge::proto::ModelDef m, parseModelDef(path, c));
  if (m.graph_size() == 0) return bad(path, "the ModelDef has no graph");
  OmModel out;
  out.summary = summarize(path, c, m);
  out.pending = c.pending;
  ir::Graph& g = out.graph;
  g.name = m.name();
  auto opset_it = m.attr().find("_asc_opset");
  if (opset_it == m.attr().end()) return notOurs(path, c, m);
  g.opset = static_cast<int>(opset_it->second.i());
  auto mem_it = m.attr().find("memory_size");
  if (mem_it != m.attr().end()) out.memory_size = static_cast<uint64_t>(mem_it->second.i());
  if (auto r = m.attr().find("_asc_memory_reuse"); r != m.attr().end())
    out.memory_reuse = r->second.i() != 0;
  if (auto d = m.attr().find("_asc_dynamic"); d != m.attr().end() && d->second.i() != 0) {
    g.dynamic = true;
    ASC_RETURN_IF_ERROR(readDynamic(path, m, &out));
  }

  const PartitionInfo* wp = c.find(kWeightsData);
  std::map<std::string, std::shared_ptr<MappedFile>> weight_files;  // --external_weight files
  std::unordered_map<std::string, ir::Value*> sources;              // "op:idx" -> value
  std::vector<std::pair<int64_t, ir::Value*>> inputs;
  auto valueFromDesc = [&](const ge::proto::TensorDescriptor& td,
                           const std::string& fallback) -> Result<ir::Value*> {
    ir::Value* v = g.addValue(td.name().empty() ? fallback : td.name());
    v->dtype = ir::dtypeFromGe(td.dtype());
    const auto dims = logicalShape(td);
    if (g.dynamic && (v->dtype == ir::DType::Undefined ||
                      std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; }))) {
      // Not inferred yet (a dynamic graph): unknown rank ([-2]) or -1 dims.
      if (dims.size() == 1 && dims[0] == kUnknownRank) return v;
      for (auto d : dims) {
        if (d < -1 || d > (int64_t(1) << 40))
          return bad(path, fmt::format("tensor '{}' has an invalid dim {}", v->name, d));
        v->shape.push_back(d);
      }
      v->format = logicalFormat(td);
      return v;
    }
    if (v->dtype == ir::DType::Undefined)
      return bad(path, fmt::format("tensor '{}' has unsupported dtype {}", v->name,
                                   static_cast<int>(td.dtype())));
    for (auto d : logicalShape(td)) {
      if (d < 0 || d > (int64_t(1) << 40))
        return bad(path, fmt::format("tensor '{}' has an invalid dim {}", v->name, d));
      v->shape.push_back(d);
    }
    v->format = logicalFormat(td);
    uint64_t bytes;
    if (!ir::checkedByteSize(v->shape, v->dtype, &bytes))
      return bad(path,
                 fmt::format("tensor '{}': {}", v->name, ir::shapeLimitReason(v->shape, v->dtype)));
    return v;
  };
  // Every op name is a source key ("op:index"): two ops of one name would wire wrongly.
  std::unordered_set<std::string> op_names;
  for (const auto& op : m.graph(0).op())
    if (!op_names.insert(op.name()).second)
      return bad(path, fmt::format("op name '{}' is used twice", op.name()));

  // The plain copies of weights packed for this CPU beside them: kernels read the packed ones,
  // so only the integrity check reads these, and it gives their pages back once it has.
  std::vector<std::pair<uint64_t, uint64_t>> unread;
  const auto isa = m.attr().find("_asc_packed_isa");
  const bool packed_here =
      c.pending && isa != m.attr().end() && isa->second.s() == ops::kernelIsa();
  for (const auto& op : m.graph(0).op()) {
    const std::string src0 = op.name() + ":0";
    if (op.type() == "Data") {
      if (op.output_desc_size() != 1)
        return bad(path, fmt::format("Data op '{}' has no output", op.name()));
      ASC_TRY(ir::Value * v, valueFromDesc(op.output_desc(0), op.name()));
      auto idx = op.attr().find("index");
      inputs.push_back({idx == op.attr().end() ? int64_t(inputs.size()) : idx->second.i(), v});
      sources[src0] = v;
    } else if (op.type() == "Const" && op.attr().count(kCannOnlyAttr)) {
      continue;  // a parameter CANN takes as an input; the IR has it as an attribute
    } else if (op.type() == "Const") {
      auto val = op.attr().find("value");
      if (val == op.attr().end() || !val->second.has_t())
        return bad(path, fmt::format("Const op '{}' has no value", op.name()));
      const auto& td = val->second.t().desc();
      ASC_TRY(ir::Value * v, valueFromDesc(td, op.name()));
      const uint64_t need = v->byteSize();
      auto alone = td.attr().find(kPackedOnlyAttr);
      if (alone != td.attr().end() && alone->second.i() != 0) {
        ASC_RETURN_IF_ERROR(readPackedOnly(path, c, wp, op.name(), td, v));
        sources[src0] = v;
        continue;
      }
      if (!val->second.t().data().empty()) {
        if (val->second.t().data().size() != need)
          return bad(path, fmt::format("Const op '{}' holds {} bytes, its shape needs {}",
                                       op.name(), val->second.t().data().size(), need));
        v->data = ir::Blob::copyOf(val->second.t().data().data(), need);
      } else {
        if (!wp) return bad(path, "constants refer to a missing WEIGHTS_DATA partition");
        const int64_t off = td.data_offset();
        if (off < 0 || uint64_t(off) > wp->size || need > wp->size - uint64_t(off))
          return bad(path, fmt::format("Const op '{}' data [{}, +{}) lies outside WEIGHTS_DATA "
                                       "({} bytes)",
                                       op.name(), off, need, wp->size));
        const uint8_t* at = c.file->data() + wp->offset + off;
        // Kernels read weights in place as typed arrays: data that does not sit on its
        // element size (a file from another writer, or a damaged one) is copied to memory that
        // does, instead of being read through a misaligned pointer.
        const size_t align = std::max<size_t>(1, ir::dtypeSize(v->dtype));
        if (reinterpret_cast<uintptr_t>(at) % align == 0)
          v->data = std::make_shared<ir::Blob>(at, need, c.file);
        else
          v->data = ir::Blob::copyOf(at, need);
      }
      ASC_RETURN_IF_ERROR(readPacked(path, c, wp, op.name(), td, v));
      if (packed_here && v->packed && val->second.t().data().empty())
        unread.emplace_back(wp->offset + uint64_t(td.data_offset()), need);
      sources[src0] = v;
    } else if (op.type() == "FileConstant") {  // --external_weight: data in a file beside the OM
      if (op.output_desc_size() != 1)
        return bad(path, fmt::format("FileConstant op '{}' has no output", op.name()));
      ASC_TRY(ir::Value * v, valueFromDesc(op.output_desc(0), op.name()));
      auto attr = [&](const char* k) -> const ge::proto::AttrDef* {
        auto it = op.attr().find(k);
        return it == op.attr().end() ? nullptr : &it->second;
      };
      const auto* loc = attr("location");
      const auto* off = attr("offset");
      const auto* len = attr("length");
      if (!loc || !off || !len || loc->s().empty())
        return bad(path,
                   fmt::format("FileConstant op '{}' lacks location, offset or length", op.name()));
      const std::string rel = loc->s();
      if (rel[0] == '/' || rel.find("..") != std::string::npos)
        return bad(path, fmt::format("FileConstant op '{}': location '{}' must stay beside the OM",
                                     op.name(), rel));
      const uint64_t need = v->byteSize();
      if (len->i() < 0 || uint64_t(len->i()) != need)
        return bad(path, fmt::format("FileConstant op '{}' has {} bytes, its shape needs {}",
                                     op.name(), len->i(), need));
      std::shared_ptr<MappedFile>& file = weight_files[rel];
      if (!file) {
        auto mapped = MappedFile::open(dirName(path) + "/" + rel);
        if (!mapped)
          return Status::error(ErrorCode::ModelLoadFailed,
                               "Failed to load the model from {}: its weight file {} (beside the "
                               "OM, written by atc --external_weight) cannot be opened: {}",
                               path, rel, mapped.status().message());
        file = *mapped;
      }
      if (off->i() < 0 || uint64_t(off->i()) > file->size() ||
          need > file->size() - uint64_t(off->i()))
        return bad(path, fmt::format("FileConstant op '{}': [{}, +{}) lies outside {} ({} bytes)",
                                     op.name(), off->i(), need, rel, file->size()));
      const uint8_t* at = file->data() + off->i();
      const size_t align = std::max<size_t>(1, ir::dtypeSize(v->dtype));
      if (reinterpret_cast<uintptr_t>(at) % align == 0)
        v->data = std::make_shared<ir::Blob>(at, need, file);
      else
        v->data = ir::Blob::copyOf(at, need);
      sources[src0] = v;
    } else if (op.type() == "NetOutput") {
      for (const auto& in : op.input()) {
        auto it = sources.find(in);
        if (it == sources.end())
          return bad(path, fmt::format("NetOutput refers to unknown tensor '{}'", in));
        g.outputs.push_back(it->second);
      }
    } else {
      // Since 2026-12 the IR's op type is beside CANN's (kOpTypeAttr); before, the type was the
      // OpDef's cannType.
      auto ir_type = op.attr().find(kOpTypeAttr);
      const bool ir_spelled = ir_type != op.attr().end();
      const ops::OpDef* d =
          ir_spelled ? ops::lookup(ir_type->second.s()) : ops::lookupByCann(op.type());
      if (!d) {
        // A custom operator the OM says it needs: name it and where plugins were looked for.
        auto custom = m.attr().find("_asc_custom_ops");
        if (custom != m.attr().end() && custom->second.has_list())
          for (const auto& entry : custom->second.list().s())
            if (entry.rfind(op.type() + " (", 0) == 0)
              return Status::error(
                  ErrorCode::UnsupportedOp,
                  "{}: op '{}' is the custom operator {}, which is not loaded; give "
                  "--op_plugin_path=DIR or set ASCEND_CUSTOM_OPP_PATH to the folder of its "
                  "plugin, or install its package into $ASCEND_OPP_PATH/vendors (looked in: "
                  "{})",
                  path, op.name(), entry,
                  ops::pluginSearchPath().empty() ? "nothing" : ops::pluginSearchPath());
        return bad(path, fmt::format("op '{}' has type '{}', which the CPU runtime does not know",
                                     op.name(), op.type()));
      }
      std::vector<ir::Value*> ins;
      int64_t ir_inputs = op.input_size();
      if (auto c = op.attr().find(kIrInputsAttr); ir_spelled && c != op.attr().end()) {
        if (c->second.i() < 0 || c->second.i() > op.input_size())
          return bad(path, fmt::format("op '{}' says {} of its {} inputs are the IR's", op.name(),
                                       c->second.i(), op.input_size()));
        ir_inputs = c->second.i();
      }
      for (const auto& in : op.input()) {
        if (static_cast<int64_t>(ins.size()) == ir_inputs) break;
        if (in.empty()) {
          ins.push_back(nullptr);
          continue;
        }
        auto it = sources.find(in);
        if (it == sources.end())
          return bad(path,
                     fmt::format("op '{}' input '{}' is not produced before it", op.name(), in));
        ins.push_back(it->second);
      }
      std::vector<ir::Value*> outs;
      for (int k = 0; k < op.output_desc_size(); ++k) {
        ASC_TRY(ir::Value * v,
                valueFromDesc(op.output_desc(k), fmt::format("{}:{}", op.name(), k)));
        outs.push_back(v);
        sources[fmt::format("{}:{}", op.name(), k)] = v;
        if (k < op.output_i_size() && !g.dynamic) {
          const int64_t off = op.output_i(k);
          if (off < 0 || uint64_t(off) > out.memory_size ||
              v->byteSize() > out.memory_size - uint64_t(off))
            return bad(path, fmt::format("op '{}' output {} lies at [{}, +{}), outside the {}-byte "
                                         "activation memory (memory_size)",
                                         op.name(), k, off, v->byteSize(), out.memory_size));
          out.activation_offsets[v] = uint64_t(off);
        }
      }
      ir::Node* n = g.addNode(d->name(), op.name(), std::move(ins), std::move(outs));
      if (n->name != op.name()) return bad(path, fmt::format("op name '{}' repeats", op.name()));
      for (const auto& [k, a] : op.attr()) {
        if (k == kOriginalNamesAttr) {
          n->original_names.assign(a.list().s().begin(), a.list().s().end());
          continue;
        }
        // The IR's attributes: "_asc_ir_<name>" and the IR's own "_asc_..." ones (CANN's
        // spelling beside them is for other readers); in older files, every name without '_'.
        std::string name = k;
        if (ir_spelled) {
          if (k == kOpTypeAttr || k == kIrInputsAttr) continue;
          if (k.rfind(kIrAttrPrefix, 0) == 0)
            name = k.substr(std::strlen(kIrAttrPrefix));
          else if (k.rfind("_asc_", 0) != 0)
            continue;
        } else if (!k.empty() && k[0] == '_') {
          continue;
        }
        ir::AttrValue v;
        if (!attrFromGe(a, &v))
          return bad(path, fmt::format("op '{}' attribute '{}' cannot be read", op.name(), k));
        n->attrs.set(name, std::move(v));
      }
    }
  }
  if (!unread.empty()) releaseOnceHashed(*c.pending, std::move(unread));
  std::stable_sort(inputs.begin(), inputs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [idx, v] : inputs) g.inputs.push_back(v);

  ASC_RETURN_IF_ERROR(
      ir::verify(g).withContext(fmt::format("Failed to load the model from {}", path)));
  // A dynamic graph is inferred, strictly, each time the runtime compiles it for a shape.
  if (g.dynamic) {
    if (!out.dynamic.ranges.empty() && out.dynamic.ranges.size() != g.inputs.size())
      return bad(path, fmt::format("_asc_input_shape_range describes {} inputs, the graph has {}",
                                   out.dynamic.ranges.size(), g.inputs.size()));
    for (const auto& gear : out.dynamic.gears)
      if (gear.size() != g.inputs.size())
        return bad(path, fmt::format("a dynamic profile gives {} input shapes, the graph has {} "
                                     "inputs",
                                     gear.size(), g.inputs.size()));
    return out;
  }
  // Re-derive every shape from the ops and compare with what the file records, so that a
  // tampered file cannot make a kernel read or write out of bounds.
  std::vector<std::pair<ir::DType, ir::Shape>> recorded;
  for (const auto& n : g.nodes())
    for (auto* v : n->outputs) recorded.push_back({v->dtype, v->shape});
  ops::InferOptions io;
  io.fold_constants = false;
  Status st = ops::inferGraph(g, io);
  if (!st.isOk()) return bad(path, st.message());
  size_t i = 0;
  for (const auto& n : g.nodes())
    for (auto* v : n->outputs) {
      if (recorded[i].first != v->dtype || recorded[i].second != v->shape)
        return bad(path,
                   fmt::format("op '{}' records output [{}] but its inputs give [{}]", n->name,
                               ir::shapeToString(recorded[i].second), ir::shapeToString(v->shape)));
      ++i;
    }
  // Keep offsets only for values the graph still holds (inference may drop unused ones).
  std::unordered_map<const ir::Value*, uint64_t> kept;
  for (const auto& n : g.nodes())
    for (auto* v : n->outputs)
      if (auto it = out.activation_offsets.find(v); it != out.activation_offsets.end())
        kept.emplace(v, it->second);
  out.activation_offsets = std::move(kept);
  return out;
}
}  // namespace

Result<OmModel> loadOm(const std::string& path, Verify verify) {
  ASC_TRY(Container c, openContainer(path, verify));
  Result<OmModel> r = loadContainer(path, c);
  // A load that failed on damaged weights (a shape constant, say) while they were still being
  // checked reports the damage, not its symptom.
  if (!r.isOk() && c.pending) ASC_RETURN_IF_ERROR(c.pending->finish());
  return r;
}

}  // namespace asc::om
