// session.h: the CPU runtime. A Session loads an offline model (or takes a graph imported from
// ONNX), decides every tensor's layout and buffer, plans one arena for all activations and
// allocates it once, creates every kernel, and then runs the graph with no allocation per run.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/om/om_file.h"
#include "asc/support/status.h"

namespace asc::runtime {

class Session;
class DynamicModel;

/// One executed step, as an observer sees it (dumps, tracing).
struct StepEvent {
  size_t index = 0;                // position in the execution plan
  const char* kind = "";           // "kernel", "reorder" or "convert" (the last two are inserted)
  const ir::Node* node = nullptr;  // the graph node a kernel step runs; nullptr otherwise
  const std::string* label = nullptr;  // as in describe()
  /// The nodes whose outputs hold their final data after this step (Session::readValue): the
  /// node whose kernel (or output conversion back to the stored dtype) this step ends, and
  /// Reshape-like nodes that only alias an earlier buffer. Every node appears exactly once.
  const std::vector<const ir::Node*>* completes = nullptr;
  int64_t start_ns = 0, end_ns = 0;  // steady clock
};

/// Receives every step of every run() when installed. Called on the thread that calls run(),
/// between steps: it may read values, and its time is not part of the step's.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void onStep(const Session& session, const StepEvent& event) = 0;
  /// Whether it reads values (Session::readValue). An observer that only times the steps
  /// (msprof's) returns false: the session then leaves out, as in runs nobody observes, the
  /// copies no kernel reads (a channels-last Concat whose batch norm reads its inputs), and
  /// reports each such step with no duration (start_ns == end_ns).
  virtual bool readsValues() const { return true; }
};

/// Activation memory that sessions taking turns share (a dynamic model's profiles run one at a
/// time): the first session to build sizes it, and a later one whose arena fits uses it instead
/// of allocating its own. Build the largest first.
class ASC_API SharedArena {
 public:
  SharedArena() = default;
  SharedArena(const SharedArena&) = delete;
  SharedArena& operator=(const SharedArena&) = delete;
  ~SharedArena();
  size_t bytes() const { return bytes_; }

 private:
  friend class Session;
  uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
};

struct SessionOptions {
  /// Threads for kernels; 0 = ASC_NUM_THREADS if set, else all cores.
  int threads = 0;
  /// Check the OM's integrity record (every byte, weights included) before the session runs:
  /// load() checks all but the weights first and hashes the weights on a helper thread while
  /// it builds the kernels, and fails (E10041) if any byte differs. Skip trusts the storage
  /// (msame --skip_verify=true).
  om::Verify verify = om::Verify::Whole;
  /// Time every step (one clock read per step); see Session::stepProfile().
  bool profile = false;
  /// Custom operators' Ascend C kernels: fill every output with a NaN pattern before the kernel
  /// runs and fail the run (EZ9999, naming the node, the output and the elements) when some of
  /// it is left unwritten (msame --check_unwritten=true; ops::KernelInit::check_unwritten).
  bool check_unwritten = false;
  /// Share activation memory between values whose lifetimes do not overlap (an OM built with
  /// reuse off gets none either way). Off keeps every value readable after the run.
  bool reuse_memory = true;
  /// Sees every step (not owned; must outlive the session's runs). Null: no per-step cost.
  StepObserver* observer = nullptr;
  /// Activation memory shared with other sessions that never run at the same time (null: the
  /// session allocates its own). Outputs stay valid only until any of them runs.
  std::shared_ptr<SharedArena> shared_arena;
};

struct StepTime {
  std::string label;  // "node (CANNType) impl", or a reorder/conversion
  std::string node;   // node name ("" for runtime-inserted steps)
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
  /// CPU kernel; E3003 when the arena cannot be allocated. A dynamic model (shapes known only at
  /// run time) compiles its profiles now and other shapes at their first run (isDynamic()).
  static Result<std::unique_ptr<Session>> load(const std::string& om_path,
                                               const SessionOptions& opts = {});
  /// Builds a session over a graph (e.g. an ONNX model imported in memory).
  static Result<std::unique_ptr<Session>> fromGraph(ir::Graph graph,
                                                    const SessionOptions& opts = {});
  ~Session();

  /// A dynamic model's inputs may hold -1 dims until setInputShape() sets them; its outputs are
  /// those of the last run (dtype and shape unknown before the first).
  const std::vector<TensorInfo>& inputs() const;
  const std::vector<TensorInfo>& outputs() const;

  /// Per output, the most it can hold: a static model's outputs(); for a model with profiles,
  /// each output's shape and bytes in the profile where it is largest (the size an application
  /// allocates, as CANN's aclmdlGetOutputSizeByIndex reports); bytes 0 when the output's size
  /// is known only at run time (ranges, or shapes computed from values).
  std::vector<TensorInfo> largestOutputs() const;
  /// Whether shapes are decided at run time (a dynamic batch, image size, dims or ranges, or
  /// shape values computed at run time).
  bool isDynamic() const;
  /// A dynamic model's profiles and ranges (nullptr for a static one).
  const om::DynamicShapes* dynamicShapes() const;
  /// Sets a dynamic model's input i to `shape` (its bytes follow). E1001 when the rank or a fixed
  /// dim differs or a dim is outside the input's range; a static model accepts only its shape.
  Status setInputShape(size_t i, const ir::Shape& shape);
  /// How many shapes a dynamic model has compiled since load (its profiles included; 0 static).
  size_t compiledShapes() const;
  /// Copies `bytes` into input i. E1001 (naming the input and both sizes) when the size is not
  /// the input's byte size.
  Status setInput(size_t i, const void* data, size_t bytes);
  /// Writes zeros into every input.
  void zeroInputs();
  /// Runs the graph once.
  Status run();
  /// Output i after run(): a view valid until the next run().
  const void* outputData(size_t i) const;

  /// Copies value `v`'s current data into `dst` (v->byteSize() bytes) as plain row-major data
  /// in the value's stored dtype, whatever layout the runtime keeps it in. Valid for graph
  /// inputs, constants, and a node's outputs from its StepEvent::completes until their last use
  /// (E19999 for a value this session does not hold).
  Status readValue(const ir::Value* v, void* dst) const;
  /// The reverse of readValue, for observers that edit a run (e.g. a test tool planting a
  /// fault): from a StepObserver's onStep, replaces activation `v`'s data with `src`
  /// (v->byteSize() bytes, plain row-major, stored dtype) in every copy the later steps read,
  /// once its node is in a StepEvent::completes. E19999 outside onStep, for a constant, or for
  /// a value this session does not hold.
  Status writeValue(const ir::Value* v, const void* src);
  /// Installs (or, with nullptr, removes) the step observer.
  void setObserver(StepObserver* observer);

  /// Arena bytes (all activations) and the number of executed steps (kernels and conversions).
  size_t arenaBytes() const;
  /// Arena buffers, and how many of them sit at the offsets the OM planned (the rest: fp16/fp32
  /// conversions, blocked copies and model inputs, planned after the OM's memory_size).
  size_t bufferCount() const;
  size_t modelPlacedBuffers() const;
  size_t stepCount() const;
  /// Constants the model stores packed (atc's packWeights, compile.h): how many the kernels read
  /// in place from the model, how many were packed for another CPU's kernels and were
  /// reordered from their plain data at load instead, and how many a kernel that reads them in
  /// slices (a 1x1 Conv over a Concat's inputs) unpacked at load.
  struct PackedWeights {
    size_t in_place = 0, reordered = 0, sliced = 0;
  };
  PackedWeights packedWeights() const;
  int threads() const;
  /// One line per step: op name, type and implementation, for --debug.
  std::string describe() const;
  /// Accumulated time per step since load (empty unless SessionOptions::profile).
  std::vector<StepTime> stepProfile() const;
  const ir::Graph& graph() const;

  class Impl;

 private:
  // load()'s session over a model read from an OM.
  static Result<std::unique_ptr<Session>> build(const std::string& om_path, om::OmModel m,
                                                const SessionOptions& opts);
  explicit Session(std::unique_ptr<Impl> impl);
  explicit Session(std::unique_ptr<DynamicModel> dyn);
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<DynamicModel> dyn_;
  friend void setTraceModel(Session& s, const std::string& model, const std::string& soc);
};

/// A constant that a kernel of this CPU reads in a layout of its own (oneDNN's blocked weights,
/// a Winograd transform): what atc may store in the OM beside or instead of the plain data, so
/// that a session on a CPU whose kernels want the same layout reads it in place.
struct KernelLayout {
  std::string value;    // the constant
  std::string node;     // the node whose kernel reads it
  std::string packing;  // the layout's description, recorded in the OM
  /// The constant in that layout, computed when first read (the OM writer's copy); null when the
  /// kernel packed nothing real (it saw a stand-in for the value).
  std::shared_ptr<const ir::Blob> bytes;
};

/// Builds the kernels a session over `graph` would build on this CPU (never run: the thread
/// count is the one an idle machine's run takes, unless `opts` or ASC_NUM_THREADS sets one) and
/// lists the fp32 constants they read in a layout of their own. `wanted` says which constants to
/// consider (an empty graph list: none); a dynamic graph has none.
ASC_API Result<std::vector<KernelLayout>> kernelLayouts(
    const ir::Graph& graph, const std::function<bool(const ir::Value&)>& wanted,
    const SessionOptions& opts = {});

}  // namespace asc::runtime
