// session.h: the CPU runtime. A Session loads an offline model (or takes a graph imported from
// ONNX), decides every tensor's layout and buffer, plans one arena for all activations and
// allocates it once, creates every kernel, and then runs the graph with no allocation per run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::runtime {

struct SessionOptions {
  /// Threads for kernels; 0 = ASC_NUM_THREADS if set, else all cores.
  int threads = 0;
  /// Time every step (one clock read per step); see Session::stepProfile().
  bool profile = false;
};

struct StepTime {
  std::string label;   // "node (CANNType) impl", or a reorder/conversion
  std::string node;    // node name ("" for runtime-inserted steps)
  double total_ms = 0;
  int64_t calls = 0;
};

struct TensorInfo {
  std::string name;
  ir::DType dtype = ir::DType::Undefined;
  ir::Shape shape;
  size_t bytes = 0;
};

class ASC_API Session {
 public:
  /// Loads an .om written by atc. E10041 for a damaged or foreign file; E2002 when an op has no
  /// CPU kernel; E3003 when the arena cannot be allocated.
  static Result<std::unique_ptr<Session>> load(const std::string& om_path,
                                               const SessionOptions& opts = {});
  /// Builds a session over a graph (e.g. an ONNX model imported in memory).
  static Result<std::unique_ptr<Session>> fromGraph(ir::Graph graph,
                                                    const SessionOptions& opts = {});
  ~Session();

  const std::vector<TensorInfo>& inputs() const;
  const std::vector<TensorInfo>& outputs() const;
  /// Copies `bytes` into input i. E1001 (naming the input and both sizes) when the size is not
  /// the input's byte size.
  Status setInput(size_t i, const void* data, size_t bytes);
  /// Writes zeros into every input.
  void zeroInputs();
  /// Runs the graph once.
  Status run();
  /// Output i after run(): a view valid until the next run().
  const void* outputData(size_t i) const;

  /// Arena bytes (all activations) and the number of executed steps (kernels and conversions).
  size_t arenaBytes() const;
  size_t stepCount() const;
  int threads() const;
  /// One line per step: op name, type and implementation, for --debug.
  std::string describe() const;
  /// Accumulated time per step since load (empty unless SessionOptions::profile).
  std::vector<StepTime> stepProfile() const;
  const ir::Graph& graph() const;

  class Impl;

 private:
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace asc::runtime
