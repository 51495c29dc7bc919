// dump.h: per-layer dumps while a Session runs (msame --dump). A LayerDumper is a StepObserver:
// when a node's outputs are final it writes them, one file per node, and forgets them, so a
// dump never holds more than one tensor in memory.
//
//   Ascend  (an .om):  {dir}/{op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}
//                       uint64 header length, DumpData protobuf, raw tensors (inputs, outputs)
//   npy     (an .om):  {dir}/{op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}.output.{i}.npy
//                       (and .input.{i}.npy), the names msaccucmp's convert step gives
//   golden  (ONNX):     {dir}/{op}.{output_index}.{timestamp}.npy, named after the model's nodes
//
// op_type is the CANN type, op_name and op use only [A-Za-z0-9_-] (others become '_'), task_id
// counts dumped nodes from 0, stream_id is 0 and timestamp is microseconds (16 digits). Tensors
// are written as plain row-major data in the dtype the model stores them in; the recorded
// format is the logical one (NCHW for 4-D, ND otherwise), whatever layout the CPU used.
#pragma once

#include <memory>
#include <string>

#include "asc/asc.h"
#include "asc/runtime/session.h"
#include "asc/support/status.h"

namespace asc::runtime {

enum class DumpMode { Output, Input, All };
enum class DumpFormat { Ascend, Npy, Golden };

struct DumpOptions {
  DumpMode mode = DumpMode::Output;
  DumpFormat format = DumpFormat::Ascend;
};

class ASC_API LayerDumper : public StepObserver {
 public:
  explicit LayerDumper(DumpOptions opts);
  ~LayerDumper() override;
  /// Starts a run: files go to `dir` (created if missing).
  Status beginRun(const std::string& dir);
  void onStep(const Session& session, const StepEvent& event) override;
  /// The first error a write hit (later steps write nothing once one failed).
  const Status& status() const;
  size_t filesWritten() const;
  /// Whether the session must keep every value alive (input dumps read a node's inputs after
  /// later steps ran): build it with SessionOptions::reuse_memory = false.
  bool needsAllValues() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace asc::runtime
