// writer.cpp: ir::Graph -> .om. The ModelDef carries the graph (Data, Const, compute ops and
// NetOutput), each tensor's dtype/shape/format, the activation offsets (output_i, planned by
// activation_plan.cpp) and the model attributes; weights are streamed from their source mapping
// straight into WEIGHTS_DATA.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "asc/om/om_file.h"
#include "asc/ops/kernel.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "checksum.h"
#include "format.h"
#include "om/activation_plan.h"
#include "om/inplace.h"
#include "om/weight_stream.h"
#include "support/memory_planner.h"
#include "support/pages.h"
#include "ge_convert.h"
#include "task.pb.h"

namespace asc::om {
namespace {

// Weights up to this size keep their plain copy beside a packed one, so a viewer shows them as
// they are (docs/om-format.md, "Packed weights"); larger ones are stored only packed.
constexpr uint64_t kSmallWeight = 16 << 10;

// The header's platform_version and the ModelDef's custom_version, as seen in a real CANN 8 OM
// (shared/reference/ascend-facts.md 2.5; the value for other chips and versions is UNCONFIRMED).
constexpr const char* kPlatformVersion = "1.11.z.0";

// The message's bytes with map entries (ModelDef/OpDef attributes) in key order: the default
// serialization follows the map's hash order, which changes from one process to the next, so
// the same model converted twice gave different files.
std::string deterministicBytes(const google::protobuf::MessageLite& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream sink(&out);
    google::protobuf::io::CodedOutputStream coded(&sink);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

struct WeightSlot {
  const ir::Value* value;
  ge::proto::TensorDescriptor* desc;  // desc inside the Const op's "value" attr
  uint64_t offset = 0;                // within WEIGHTS_DATA
  bool packed = false;                // the value's packed copy, not its plain data
  bool alone = false;                 // packed, and the only copy: data_offset points at it

  const ir::Blob& blob() const { return packed ? *value->packed : *value->data; }
  uint64_t size() const { return packed ? value->packed->size() : value->byteSize(); }
  // Where the offset goes: data_offset for the plain data, an attribute for the packed copy.
  void setOffset(uint64_t off) {
    offset = off;
    if (packed) (*desc->mutable_attr())[kPackedOffsetAttr] = makeIntAttr(static_cast<int64_t>(off));
    if (!packed || alone) desc->set_data_offset(static_cast<int64_t>(off));
  }
};

class OmBuilder {
 public:
  OmBuilder(const ir::Graph& g, const ModelInfo& info) : g_(g), info_(info) {}

  void build() {
    // A dynamic graph has no sizes yet: the runtime plans each shape it compiles.
    ActivationPlan ap = g_.dynamic ? ActivationPlan{} : planActivations(g_, info_.reuse_memory);
    memory_size_ = ap.plan.arena_bytes;
    model_.set_name(g_.name);
    model_.set_version(2);
    model_.set_custom_version(kPlatformVersion);
    auto* graph = model_.add_graph();
    graph->set_name(g_.name + "_NPU_0");
    int64_t id = 0;
    // Op names must be unique across Data, Const and compute ops ("op:index" names a tensor):
    // a node that shares a name with a tensor gets a suffix.
    std::unordered_set<std::string> used;
    auto claim = [&](const std::string& base) {
      std::string name = base;
      for (int k = 1; !used.insert(name).second; ++k) name = base + "_" + std::to_string(k);
      return name;
    };
    // Graph inputs become Data ops.
    for (size_t i = 0; i < g_.inputs.size(); ++i) {
      const ir::Value* v = g_.inputs[i];
      auto* op = graph->add_op();
      op->set_name(claim(v->name));
      op->set_type("Data");
      op->set_id(id++);
      (*op->mutable_attr())["index"] = makeIntAttr(static_cast<int64_t>(i));
      fillTensorDesc(*v, op->add_input_desc(), info_.c0);
      fillTensorDesc(*v, op->add_output_desc(), info_.c0);
      graph->add_input(op->name());
      source_[v] = op->name() + ":0";
    }
    // Constants used anywhere become Const ops whose data lives in WEIGHTS_DATA.
    auto addConst = [&](const ir::Value* v) {
      if (source_.count(v)) return;
      auto* op = graph->add_op();
      op->set_name(claim(v->name));
      op->set_id(id++);
      if (info_.external_weight != 0) {  // the data goes to a file beside the OM
        op->set_type("FileConstant");
        fillTensorDesc(*v, op->add_output_desc(), info_.c0);
        external_.push_back({v, op});
        source_[v] = op->name() + ":0";
        return;
      }
      op->set_type("Const");
      auto* t = (*op->mutable_attr())["value"].mutable_t();
      fillTensorDesc(*v, t->mutable_desc(), info_.c0);
      t->mutable_desc()->set_weight_size(static_cast<int64_t>(v->byteSize()));
      fillTensorDesc(*v, op->add_output_desc(), info_.c0);
      // Packed weights (docs/om-format.md): the copy in a kernel's layout, named exactly. A
      // dense blocked layout of a weight over kSmallWeight is stored alone (the plain bytes are
      // made at load only if a kernel wants another layout), its descriptor saying what it is:
      // oneDNN's format tag as the layout, the physical dims as the shape, the tensor's own in
      // origin_shape / origin_format, so a viewer reads the values it shows right. Any other
      // (Winograd, a small weight) is stored beside the plain data.
      std::optional<ops::PhysicalLayout> phys;
      if (v->packed && v->packing.rfind("blocked ", 0) == 0 && v->byteSize() > kSmallWeight)
        phys = ops::physicalLayout(v->packing, v->shape, v->packed->size());
      const bool alone = phys.has_value();
      if (!alone) weights_.push_back({v, t->mutable_desc()});
      if (v->packed) {
        auto* td = t->mutable_desc();
        auto& a = *td->mutable_attr();
        a[kPackingAttr] = makeStringAttr(v->packing);
        a[kPackedSizeAttr] = makeIntAttr(static_cast<int64_t>(v->packed->size()));
        if (alone) {
          a[kPackedOnlyAttr] = makeIntAttr(1);
          a["origin_format"] = makeStringAttr(td->layout());
          a["origin_shape"] = makeIntListAttr(v->shape);
          td->set_layout(phys->tag);
          td->mutable_shape()->clear_dim();
          for (int64_t d : phys->dims) td->mutable_shape()->add_dim(d);
          td->set_real_dim_cnt(static_cast<int64_t>(phys->dims.size()));
          td->set_size(static_cast<int64_t>(v->packed->size()));
          td->set_weight_size(static_cast<int64_t>(v->packed->size()));
        }
        weights_.push_back({v, t->mutable_desc(), 0, true, alone});
      }
      source_[v] = op->name() + ":0";
    };
    for (const auto& n : g_.nodes())
      for (auto* in : n->inputs)
        if (in && in->isConstant()) addConst(in);
    for (auto* out : g_.outputs)
      if (out->isConstant()) addConst(out);
    // Compute ops, with sequential activation offsets (no reuse yet).
    for (const auto& n : g_.nodes()) {
      const ops::OpDef* d = ops::lookup(n->op_type);
      // CANN's spelling of the node (docs/om-format.md, "Op spellings"), and the IR's own.
      ops::CannSpelling spelling;
      const ops::CannSpellingFn spell = d ? d->cannSpellingFn() : nullptr;
      if (spell) spelling = spell(*n);
      // CANN's input-form parameters: small Const ops of their own (data inline), marked so
      // our reader skips them.
      std::vector<std::string> extra_inputs;
      for (const auto& [param, t] : spelling.const_inputs) {
        auto* c = graph->add_op();
        c->set_name(claim(n->name + "/" + param));
        c->set_type("Const");
        c->set_id(id++);
        auto& ca = *c->mutable_attr();
        attrToGe(ir::AttrValue(t), &ca["value"]);
        *c->add_output_desc() = ca["value"].t().desc();
        ca[kCannOnlyAttr] = makeIntAttr(1);
        extra_inputs.push_back(c->name() + ":0");
      }
      auto* op = graph->add_op();
      op->set_name(claim(n->name));
      op->set_type(!spelling.type.empty() ? spelling.type : d ? d->cannType() : n->op_type);
      op->set_id(id++);
      for (auto* in : n->inputs) {
        op->add_input(in ? source_.at(in) : "");
        if (in)
          fillTensorDesc(*in, op->add_input_desc(), info_.c0);
        else
          op->add_input_desc();
        op->add_is_input_const(in && in->isConstant());
      }
      for (size_t k = 0; k < n->outputs.size(); ++k) {
        const ir::Value* v = n->outputs[k];
        fillTensorDesc(*v, op->add_output_desc(), info_.c0);
        op->add_output_i(g_.dynamic ? 0 : static_cast<int64_t>(ap.offsets.at(v)));
        source_[v] = op->name() + ":" + std::to_string(k);
      }
      auto& attrs = *op->mutable_attr();
      attrs[kOpTypeAttr] = makeStringAttr(n->op_type);
      for (const auto& [k, a] : n->attrs.all()) {
        const bool internal = k.rfind("_asc_", 0) == 0;
        attrToGe(a, &attrs[internal ? k : kIrAttrPrefix + k]);
        if (!spell && !internal) attrToGe(a, &attrs[k]);  // CANN's names are the IR's
      }
      for (const auto& [k, a] : spelling.attrs) cannAttrToGe(a, &attrs[k]);
      if (!extra_inputs.empty()) {
        attrs[kIrInputsAttr] = makeIntAttr(static_cast<int64_t>(n->inputs.size()));
        for (size_t i = 0; i < extra_inputs.size(); ++i) {
          op->add_input(extra_inputs[i]);
          *op->add_input_desc() =
              graph->op(graph->op_size() - 1 - static_cast<int>(extra_inputs.size() - i))
                  .output_desc(0);
          op->add_is_input_const(true);
        }
      }
      if (!n->original_names.empty())
        (*op->mutable_attr())[kOriginalNamesAttr] = makeStringListAttr(n->original_names);
      ++compute_ops_;
    }
    auto* net = graph->add_op();
    net->set_name(claim("Node_Output"));
    net->set_type("NetOutput");
    net->set_id(id++);
    std::vector<std::string> out_names;
    for (auto* v : g_.outputs) {
      net->add_input(source_.at(v));
      fillTensorDesc(*v, net->add_input_desc(), info_.c0);
      graph->add_output(source_.at(v));
      out_names.push_back(source_.at(v));
    }

    uint64_t packed_bytes = 0, packed_count = 0, alone_count = 0, plain_bytes = 0;
    for (const auto& w : weights_) {
      weight_bytes_ += w.size();
      if (w.packed) packed_bytes += w.size(), ++packed_count;
      if (w.alone) ++alone_count;
      if (!w.packed || w.alone) plain_bytes += w.value->byteSize();
    }
    auto& attrs = *model_.mutable_attr();
    attrs["soc_version"] = makeStringAttr(info_.soc_version);
    attrs["framework_type"] = makeStringAttr(info_.framework_type);
    attrs["atc_cmdline"] = makeStringAttr(info_.atc_cmdline);
    attrs["atc_version"] = makeStringAttr(std::string("asc-tools ") + asc::version());
    attrs["core_type"] = makeStringAttr(info_.core_type);
    if (packed_count) {  // packed weights (docs/om-format.md): how many, their bytes, the CPU
      attrs["_asc_packed_weights"] = makeIntAttr(static_cast<int64_t>(packed_count));
      attrs["_asc_packed_weight_size"] = makeIntAttr(static_cast<int64_t>(packed_bytes));
      attrs["_asc_packed_isa"] = makeStringAttr(info_.packed_isa);
      // Of those, the copies stored alone, and the model's weights as plain bytes.
      attrs["_asc_packed_alone"] = makeIntAttr(static_cast<int64_t>(alone_count));
      attrs["_asc_plain_weight_size"] = makeIntAttr(static_cast<int64_t>(plain_bytes));
    }
    attrs["target_type"] = makeStringAttr(info_.target_type);
    attrs["memory_size"] = makeIntAttr(static_cast<int64_t>(memory_size_));
    attrs["_asc_peak_live_bytes"] = makeIntAttr(static_cast<int64_t>(ap.plan.peak_live_bytes));
    attrs["_asc_memory_reuse"] = makeIntAttr(info_.reuse_memory ? 1 : 0);
    // The custom operators the model needs (CANN type and the plugin that gave it), so a tool
    // that loads the OM without them can say which and from where.
    std::vector<std::string> custom;
    for (const auto& n : g_.nodes())
      if (const ops::OpDef* d = ops::lookup(n->op_type); d && d->isRegistered()) {
        const std::string entry = d->cannType() + " (" + d->origin() + ")";
        if (std::find(custom.begin(), custom.end(), entry) == custom.end()) custom.push_back(entry);
      }
    if (!custom.empty()) attrs["_asc_custom_ops"] = makeStringListAttr(custom);
    if (!info_.opt_level.empty()) attrs["_asc_oo_level"] = makeStringAttr(info_.opt_level);
    if (!info_.single_op.empty()) attrs["_asc_single_op"] = makeStringAttr(info_.single_op);
    attrs["stream_num"] = makeIntAttr(1);
    attrs["event_num"] = makeIntAttr(0);
    attrs["label_num"] = makeIntAttr(0);
    attrs["attr_model_out_nodes_name"] = makeStringListAttr(out_names);
    attrs["_asc_opset"] = makeIntAttr(g_.opset);
    if (g_.dynamic) {
      attrs["_asc_dynamic"] = makeIntAttr(1);
      const DynamicShapes& dyn = info_.dynamic;
      attrs["_asc_dynamic_type"] = makeStringAttr(dyn.kind);
      attrs["_asc_input_shape_range"] = makeStringAttr(rangesToString(dyn.ranges));
      std::vector<std::string> gears;
      for (const auto& gear : dyn.gears) {
        std::vector<std::string> shapes;
        for (const auto& shape : gear) shapes.push_back(fmt::format("{}", fmt::join(shape, ",")));
        gears.push_back(fmt::format("{}", fmt::join(shapes, ";")));
      }
      attrs["_asc_dynamic_gears"] = makeStringListAttr(gears);
      for (const auto& [key, list] : info_.runtime_compile)
        attrs["_asc_rtc_" + key] = makeStringListAttr(list);
    }

    task_.set_version("1");
    task_.set_memory_size(memory_size_);
    task_.set_stream_num(1);
    task_.set_event_num(0);
    task_.set_weight_size(weight_bytes_);
    for (uint32_t i = 0; i < compute_ops_; ++i) {
      auto* t = task_.add_task();
      t->set_id(i);
      t->set_type(0);  // RT_MODEL_TASK_KERNEL
      t->set_stream_id(0);
    }
    task_bytes_ = deterministicBytes(task_);
  }

  // The weights' offsets depend on where WEIGHTS_DATA starts, which depends on the ModelDef's
  // size, which depends on the offsets: iterate until the layout is stable.
  void layout() {
    const uint64_t table = 4 + 3 * sizeof(PartitionEntry);
    uint64_t pad0 = 0;
    for (int iter = 0; iter < 8; ++iter) {
      uint64_t off = pad0;
      for (auto& w : weights_) {
        w.setOffset(off);
        off = pad0 + alignUp(off + w.size() - pad0, kWeightAlign);
      }
      weights_size_ = weights_.empty() ? 0 : off;
      std::vector<int64_t> om_info = {static_cast<int64_t>(weights_size_), 0, 0,
                                      static_cast<int64_t>(task_bytes_.size()), 0};
      (*model_.mutable_attr())["om_info_list"] = makeIntListAttr(om_info);
      (*model_.mutable_attr())["weight_size"] = makeIntAttr(static_cast<int64_t>(weights_size_));
      model_bytes_ = deterministicBytes(model_);
      weights_start_ = kHeaderSize + table + model_bytes_.size();
      uint64_t want = (kWeightAlign - weights_start_ % kWeightAlign) % kWeightAlign;
      if (want == pad0) return;
      pad0 = want;
    }
  }

  // --external_weight: weight/<stem>.<k>.bin per constant (1) or weight/<stem>.bin for all (2),
  // each written atomically and streamed from the constant's own storage.
  Status writeExternal(const std::string& path) {
    if (external_.empty()) return Status::ok();
    const std::string dir = dirName(path) + "/weight";
    ASC_RETURN_IF_ERROR(makeDirs(dir));
    const std::string stem = fileStem(path);
    std::unique_ptr<OutputFile> one;
    PageBuffer scratch;  // for weights made on request
    static const uint8_t zeros[kWeightAlign] = {};
    for (size_t k = 0; k < external_.size(); ++k) {
      const ir::Value* v = external_[k].value;
      const std::string rel = info_.external_weight == 2 ? fmt::format("weight/{}.bin", stem)
                                                         : fmt::format("weight/{}.{}.bin", stem, k);
      std::unique_ptr<OutputFile> own;
      OutputFile* f = nullptr;
      if (info_.external_weight == 2) {
        if (!one) {
          ASC_TRY(one, OutputFile::create(dirName(path) + "/" + rel));
        }
        f = one.get();
        while (f->offset() % kWeightAlign)  // each constant on a 64-byte boundary
          ASC_RETURN_IF_ERROR(f->write(zeros, kWeightAlign - f->offset() % kWeightAlign));
      } else {
        ASC_TRY(own, OutputFile::create(dirName(path) + "/" + rel));
        f = own.get();
      }
      const uint64_t offset = f->offset();
      if (v->byteSize() && v->data->ready()) {
        ASC_RETURN_IF_ERROR(f->write(v->data->data(), v->byteSize()));
      } else if (v->byteSize()) {
        if (!scratch) {
          std::vector<const ir::Blob*> blobs;
          for (const External& e : external_) blobs.push_back(e.value->data.get());
          const size_t most = largestToMake(blobs);
          scratch = pageBuffer(most);
          if (!scratch)
            return Status::error(ErrorCode::MemoryExceeded, "cannot allocate {} bytes", most);
        }
        ASC_RETURN_IF_ERROR(makeBytes(*v, *v->data, scratch.get()));
        ASC_RETURN_IF_ERROR(f->write(scratch.get(), v->byteSize()));
      }
      auto& attrs = *external_[k].op->mutable_attr();
      attrs["location"] = makeStringAttr(rel);
      attrs["offset"] = makeIntAttr(static_cast<int64_t>(offset));
      attrs["length"] = makeIntAttr(static_cast<int64_t>(v->byteSize()));
      if (own) ASC_RETURN_IF_ERROR(own->keep());
    }
    if (one) ASC_RETURN_IF_ERROR(one->keep());
    return Status::ok();
  }

  Status write(const std::string& path) {
    ASC_RETURN_IF_ERROR(writeExternal(path));
    if (!external_.empty()) model_bytes_ = deterministicBytes(model_);  // with the files' offsets
    ASC_TRY(auto f, OutputFile::create(path));
    // Every byte after the header goes through `put` (or, for the weights, f->write and the
    // hasher), partition by partition: the integrity record (checksum.h) hashes each partition.
    PartitionHasher hasher;
    std::vector<uint64_t> part_hashes;
    auto put = [&](const void* p, size_t n) -> Status {
      hasher.update(p, n);
      return f->write(p, n);
    };
    static const uint8_t zeros[kWeightAlign] = {};
    FileHeader h;
    std::memset(&h, 0, sizeof(h));
    ASC_RETURN_IF_ERROR(f->write(&h, sizeof(h)));

    const uint64_t table_size = 4 + 3 * sizeof(PartitionEntry);
    const uint64_t total = table_size + model_bytes_.size() + weights_size_ + task_bytes_.size();
    if (total > 0xFFFFFFFFull)
      return Status::error(ErrorCode::ModelTooLarge,
                           "the model needs {} bytes; the 32-bit OM layout holds at most 4 GB",
                           total);
    uint32_t num = 3;
    PartitionEntry e[3] = {{kModelDef, 0, static_cast<uint32_t>(model_bytes_.size())},
                           {kWeightsData, static_cast<uint32_t>(model_bytes_.size()),
                            static_cast<uint32_t>(weights_size_)},
                           {kTaskInfo, static_cast<uint32_t>(model_bytes_.size() + weights_size_),
                            static_cast<uint32_t>(task_bytes_.size())}};
    uint8_t table[table_size];
    std::memcpy(table, &num, 4);
    std::memcpy(table + 4, e, sizeof(e));
    ASC_RETURN_IF_ERROR(f->write(table, table_size));
    ASC_RETURN_IF_ERROR(put(model_bytes_.data(), model_bytes_.size()));
    part_hashes.push_back(hasher.finish());
    std::vector<WeightStream::Item> items;
    for (const WeightSlot& w : weights_) items.push_back({w.value, &w.blob(), w.size()});
    WeightStream stream;
    ASC_RETURN_IF_ERROR(stream.start(std::move(items)));
    uint64_t pos = 0;
    for (size_t i = 0; i < weights_.size(); ++i) {
      const WeightSlot& w = weights_[i];
      while (pos < w.offset) {
        size_t n = std::min<uint64_t>(w.offset - pos, sizeof(zeros));
        ASC_RETURN_IF_ERROR(put(zeros, n));
        pos += n;
      }
      ASC_TRY(const WeightStream::Item* it, stream.next(i));
      if (w.size()) ASC_RETURN_IF_ERROR(put(it->bytes, w.size()));
      pos += w.size();
    }
    while (pos < weights_size_) {
      size_t n = std::min<uint64_t>(weights_size_ - pos, sizeof(zeros));
      ASC_RETURN_IF_ERROR(put(zeros, n));
      pos += n;
    }
    part_hashes.push_back(hasher.finish());
    ASC_RETURN_IF_ERROR(put(task_bytes_.data(), task_bytes_.size()));
    part_hashes.push_back(hasher.finish());
    ASC_RETURN_IF_ERROR(stream.finish());
    h.magic = kMagic;
    h.headsize = kHeaderSize;
    h.version = kModelVersion;
    h.length = static_cast<uint32_t>(total);
    h.is_checksum = 0;
    std::strncpy(h.name, g_.name.c_str(), sizeof(h.name) - 1);
    // As CANN 8's ATC writes them (docs/om-format.md): nothing of ours reads them.
    h.om_ir_version = 2;
    h.model_num = 1;
    std::strncpy(h.platform_version, kPlatformVersion, sizeof(h.platform_version) - 1);
    h.platform_type = 1;
    h.reserved[kUnknownModelByte] = g_.dynamic ? 1 : 0;  // current GE's is_unknow_model
    storeTreeChecksum(h.checksum,
                      headerHash(reinterpret_cast<const uint8_t*>(&h), table, table_size),
                      part_hashes);
    ASC_RETURN_IF_ERROR(f->writeAt(0, &h, sizeof(h)));
    return f->keep();
  }

 private:
  const ir::Graph& g_;
  const ModelInfo& info_;
  ge::proto::ModelDef model_;
  domi::ModelTaskDef task_;
  std::unordered_map<const ir::Value*, std::string> source_;
  std::vector<WeightSlot> weights_;
  struct External {
    const ir::Value* value;
    ge::proto::OpDef* op;
  };
  std::vector<External> external_;
  uint64_t memory_size_ = 0, weight_bytes_ = 0, weights_size_ = 0, weights_start_ = 0;
  uint32_t compute_ops_ = 0;
  std::string model_bytes_, task_bytes_;
};

}  // namespace

Status writeOm(const ir::Graph& g, const ModelInfo& info, const std::string& path) {
  OmBuilder b(g, info);
  b.build();
  b.layout();
  return b.write(path);
}

}  // namespace asc::om
