// dump.cpp: the LayerDumper (see dump.h).
#include "asc/runtime/dump.h"

#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"
#include "dump_data.pb.h"

namespace asc::runtime {

namespace dd = toolkit::dumpdata;

struct LayerDumper::State {
  DumpOptions opts;
  std::string dir;
  Status status = Status::ok();
  size_t files = 0;
  int64_t task_id = 0;
  std::vector<uint8_t> buf;  // one tensor at a time
};

LayerDumper::LayerDumper(DumpOptions opts) : s_(std::make_unique<State>()) {
  s_->opts = opts;
}
LayerDumper::~LayerDumper() = default;

const Status& LayerDumper::status() const { return s_->status; }
size_t LayerDumper::filesWritten() const { return s_->files; }
bool LayerDumper::needsAllValues() const { return s_->opts.mode != DumpMode::Output; }

Status LayerDumper::beginRun(const std::string& dir) {
  ASC_RETURN_IF_ERROR(makeDirs(dir));
  s_->dir = dir;
  s_->task_id = 0;
  return Status::ok();
}

std::string dumpSafeName(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) c = '_';
  }
  return out.empty() ? "_" : out;
}

namespace {

int64_t nowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The logical format of plain data: NCHW for 4-D feature maps, ND otherwise.
dd::OutputFormat formatOf(const ir::Value& v) {
  return v.shape.size() == 4 ? dd::FORMAT_NCHW : dd::FORMAT_ND;
}

template <typename Msg>
void describe(Msg* m, const ir::Value& v, size_t bytes) {
  m->set_data_type(static_cast<dd::OutputDataType>(ir::dtypeToGe(v.dtype)));
  m->set_format(formatOf(v));
  for (int64_t d : v.shape) {
    m->mutable_shape()->add_dim(static_cast<uint64_t>(d));
    m->mutable_original_shape()->add_dim(static_cast<uint64_t>(d));
  }
  m->set_size(bytes);
}

}  // namespace

void LayerDumper::onStep(const Session& session, const StepEvent& event) {
  State& s = *s_;
  if (!s.status.isOk() || !event.completes) return;
  for (const ir::Node* n : *event.completes) {
    Status st = [&]() -> Status {
      const int64_t ts = nowMicros();
      const ops::OpDef* def = ops::lookup(n->op_type);
      const std::string op_type = dumpSafeName(def ? def->cannType() : n->op_type);
      const std::string stem = fmt::format("{}/{}.{}.{}.0.{}", s.dir, op_type, dumpSafeName(n->name),
                                           s.task_id, ts);
      ++s.task_id;
      const bool want_in = s.opts.mode != DumpMode::Output;
      const bool want_out = s.opts.mode != DumpMode::Input;
      std::vector<const ir::Value*> ins, outs;
      if (want_in)
        for (const ir::Value* v : n->inputs)
          if (v && !v->isConstant()) ins.push_back(v);
      if (want_out)
        for (const ir::Value* v : n->outputs)
          if (v) outs.push_back(v);
      auto read = [&](const ir::Value* v) -> Status {
        s.buf.resize(v->byteSize());
        return session.readValue(v, s.buf.data());
      };
      auto writeNpy = [&](const ir::Value* v, const std::string& path) -> Status {
        ASC_RETURN_IF_ERROR(read(v));
        ir::Tensor t{v->dtype, v->shape, std::make_shared<const ir::Blob>(s.buf.data(), s.buf.size(), nullptr)};
        const std::string bytes = tensorio::encodeNpy(t);
        ASC_RETURN_IF_ERROR(writeFileAtomic(path, bytes.data(), bytes.size()));
        ++s.files;
        return Status::ok();
      };

      if (s.opts.format == DumpFormat::Golden) {
        for (size_t i = 0; i < outs.size(); ++i)
          ASC_RETURN_IF_ERROR(writeNpy(
              outs[i], fmt::format("{}/{}.{}.{}.npy", s.dir, dumpSafeName(n->name), i, ts)));
        return Status::ok();
      }
      if (s.opts.format == DumpFormat::Npy) {
        for (size_t i = 0; i < ins.size(); ++i)
          ASC_RETURN_IF_ERROR(writeNpy(ins[i], fmt::format("{}.input.{}.npy", stem, i)));
        for (size_t i = 0; i < outs.size(); ++i)
          ASC_RETURN_IF_ERROR(writeNpy(outs[i], fmt::format("{}.output.{}.npy", stem, i)));
        return Status::ok();
      }
      // Ascend dump file: header first (sizes only), then the tensors streamed one by one.
      dd::DumpData h;
      h.set_version("2.0");
      h.set_dump_time(static_cast<uint64_t>(ts));
      h.set_op_name(n->name);
      for (const ir::Value* v : ins) describe(h.add_input(), *v, v->byteSize());
      for (size_t i = 0; i < outs.size(); ++i) {
        dd::OpOutput* o = h.add_output();
        describe(o, *outs[i], outs[i]->byteSize());
        dd::OriginalOp* orig = o->mutable_original_op();
        orig->set_name(n->original_names.empty() ? n->name : n->original_names.back());
        orig->set_output_index(static_cast<uint32_t>(i));
        orig->set_data_type(o->data_type());
        orig->set_format(o->format());
      }
      if (!n->original_names.empty()) {
        dd::OpAttr* a = h.add_attr();
        a->set_name("_datadump_original_op_names");
        std::string joined;
        for (const auto& name : n->original_names) joined += (joined.empty() ? "" : ",") + name;
        a->set_value(joined);
      }
      std::string header;
      if (!h.SerializeToString(&header))
        return Status::error(ErrorCode::Internal, "cannot serialise the dump header of '{}'", n->name);
      ASC_TRY(auto f, OutputFile::create(stem));
      const uint64_t len = header.size();
      ASC_RETURN_IF_ERROR(f->write(&len, sizeof len));
      ASC_RETURN_IF_ERROR(f->write(header.data(), header.size()));
      for (const auto* list : {&ins, &outs})
        for (const ir::Value* v : *list) {
          ASC_RETURN_IF_ERROR(read(v));
          ASC_RETURN_IF_ERROR(f->write(s.buf.data(), s.buf.size()));
        }
      ASC_RETURN_IF_ERROR(f->keep());
      ++s.files;
      return Status::ok();
    }();
    if (!st.isOk()) {
      s.status = st.withContext(fmt::format("dumping node '{}'", n->name));
      return;
    }
  }
}

}  // namespace asc::runtime
