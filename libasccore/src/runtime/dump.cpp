// dump.cpp: the LayerDumper (see dump.h).
#include "asc/runtime/dump.h"

#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/tensorio/dump_file.h"
#include "asc/tensorio/tensor_file.h"

namespace asc::runtime {

struct LayerDumper::State {
  DumpOptions opts;
  std::string dir;
  Status status = Status::ok();
  size_t files = 0;
  int64_t task_id = 0;
  std::vector<uint8_t> buf;  // one tensor at a time
};

LayerDumper::LayerDumper(DumpOptions opts) : s_(std::make_unique<State>()) { s_->opts = opts; }
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

namespace {

int64_t nowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void LayerDumper::onStep(const Session& session, const StepEvent& event) {
  State& s = *s_;
  if (!s.status.isOk() || !event.completes) return;
  for (const ir::Node* n : *event.completes) {
    Status st = [&]() -> Status {
      const int64_t ts = nowMicros();
      const std::string stem =
          s.dir + "/" +
          tensorio::dumpFileName(ops::cannTypeOf(*n), n->name, static_cast<uint64_t>(s.task_id), 0,
                                 static_cast<uint64_t>(ts));
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
        ir::Tensor t{v->dtype, v->shape,
                     std::make_shared<const ir::Blob>(s.buf.data(), s.buf.size(), nullptr)};
        const std::string bytes = tensorio::encodeNpy(t);
        ASC_RETURN_IF_ERROR(writeFileAtomic(path, bytes.data(), bytes.size()));
        ++s.files;
        return Status::ok();
      };

      if (s.opts.format == DumpFormat::Golden) {
        for (size_t i = 0; i < outs.size(); ++i)
          ASC_RETURN_IF_ERROR(writeNpy(
              outs[i],
              fmt::format("{}/{}.{}.{}.npy", s.dir, tensorio::dumpSafeName(n->name), i, ts)));
        return Status::ok();
      }
      if (s.opts.format == DumpFormat::Npy) {
        for (size_t i = 0; i < ins.size(); ++i)
          ASC_RETURN_IF_ERROR(writeNpy(ins[i], fmt::format("{}.input.{}.npy", stem, i)));
        for (size_t i = 0; i < outs.size(); ++i)
          ASC_RETURN_IF_ERROR(writeNpy(outs[i], fmt::format("{}.output.{}.npy", stem, i)));
        return Status::ok();
      }
      // Ascend dump file: this node's tensors (never more than one node's at a time).
      tensorio::DumpData dump;
      dump.dump_time = static_cast<uint64_t>(ts);
      dump.op_name = n->name;
      std::vector<std::vector<uint8_t>> keep;  // the bytes behind the tensors below
      auto tensorOf = [&](const ir::Value* v) -> Result<tensorio::DumpTensor> {
        ASC_RETURN_IF_ERROR(read(v));
        keep.push_back(s.buf);
        tensorio::DumpTensor t;
        t.tensor = ir::Tensor{
            v->dtype, v->shape,
            std::make_shared<const ir::Blob>(keep.back().data(), keep.back().size(), nullptr)};
        t.format = v->shape.size() == 4 ? 0 : 2;  // FORMAT_NCHW or FORMAT_ND: plain data
        t.original_shape = v->shape;
        return t;
      };
      keep.reserve(ins.size() + outs.size());
      for (const ir::Value* v : ins) {
        ASC_TRY(auto t, tensorOf(v));
        dump.inputs.push_back(std::move(t));
      }
      for (size_t i = 0; i < outs.size(); ++i) {
        ASC_TRY(auto t, tensorOf(outs[i]));
        t.original_op_name = n->original_names.empty() ? n->name : n->original_names.back();
        t.original_output_index = static_cast<uint32_t>(i);
        dump.outputs.push_back(std::move(t));
      }
      if (!n->original_names.empty()) {
        std::string joined;
        for (const auto& name : n->original_names) joined += (joined.empty() ? "" : ",") + name;
        dump.attrs.emplace_back("_datadump_original_op_names", joined);
      }
      ASC_RETURN_IF_ERROR(tensorio::writeDumpFile(stem, dump));
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
