// trace.h: the recording side of msprof. Tracing is off unless the environment variable
// ASC_PROF_DIR names a folder (msprof sets it for the command it launches), or a test calls
// start(). When off, a TraceScope costs one branch. When on, every event goes into an in-memory
// buffer; the buffer is written to <dir>/host/data/asc_trace.<pid>.txt when a session ends
// (flush) and at process exit, never per event. The raw format is read back by
// asc/trace/profile.h, which turns it into the msprof files.
//
// Raw format: one record per line, fields separated by tabs (tabs and newlines inside a field
// become spaces), first field the record kind:
//   asc-trace  1                                            (once, at the top of each file)
//   process    <pid> <command line>
//   session    <sid> <model> <soc_version> <threads>
//   op         <sid> <op> <name> <cann type> <ir type> <engine> <original names ';'>
//              <input shapes> <input dtypes> <input formats> <output shapes> <output dtypes>
//              <output formats> <flops> <bytes moved>
//   task       <sid> <op> <run> <start_ns> <end_ns>         (steady clock, all processes)
//   scope      <category> <name> <start_ns> <end_ns> <tid>
//   kernel     <name> <block dim> <start_ns> <end_ns> <block spans: start:end,... ns>
//              (an Ascend C kernel launch on the CPU twin, each block's span in block order)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc::trace {

/// The environment variable that turns tracing on: the profile folder (PROF_...).
constexpr const char* kEnvDir = "ASC_PROF_DIR";

namespace detail {
ASC_API extern bool g_on;
}  // namespace detail

/// Whether tracing is on (set from ASC_PROF_DIR when the library loads, or by start()).
inline bool enabled() { return detail::g_on; }
/// Steady-clock nanoseconds (the clock of StepEvent and of every traced process).
ASC_API int64_t nowNs();

/// Turns tracing on, writing into `prof_dir` (tests; the library does this from ASC_PROF_DIR).
ASC_API void start(const std::string& prof_dir);
/// Writes what is buffered and turns tracing off.
ASC_API void stop();
/// Appends everything buffered to this process's raw file and empties the buffer. E13002 when
/// the file cannot be written. Called at session end and at exit.
ASC_API Status flush();
/// The raw file of this process ("" when tracing is off).
ASC_API std::string rawPath();

/// One operator of a traced session (static facts, recorded once per session).
struct OpRecord {
  std::string name, cann_type, ir_type, engine;  // engine: "AI_CORE" / "AI_CPU"
  std::string original;                          // original ONNX node names, ';'-separated
  std::string in_shapes, in_dtypes, in_formats;  // msprof spelling: "1,3,224,224;64,3,7,7"
  std::string out_shapes, out_dtypes, out_formats;
  int64_t flops = 0;
  int64_t bytes = 0;       // bytes read and written (inputs, weights and outputs)
  uint32_t block_dim = 0;  // an Ascend C kernel launch's blocks (op_summary's Block Num); 0: N/A
};

/// One execution of one op.
struct TaskRecord {
  int32_t op = 0;
  int32_t run = 0;
  int64_t start_ns = 0, end_ns = 0;
};

/// Registers a traced session; returns its id within this process (1, 2, ...).
ASC_API int beginSession(const std::string& model, const std::string& soc, int threads);
/// Registers an op of session `sid`; returns its id within the session (0, 1, ...).
ASC_API int addOp(int sid, const OpRecord& op);
/// Hands over the tasks a session recorded (moved into the buffer).
ASC_API void addTasks(int sid, std::vector<TaskRecord>&& tasks);
/// Records a finished scope (TraceScope does this).
ASC_API void addScope(const char* category, std::string_view name, int64_t start_ns,
                      int64_t end_ns);

/// Records one Ascend C kernel launch: the whole launch and each block's [start, end).
ASC_API void addKernel(std::string_view name, uint32_t block_dim, int64_t start_ns, int64_t end_ns,
                       const std::vector<std::pair<int64_t, int64_t>>& blocks);

/// RAII: records [construction, destruction) as one scope event. One branch when off.
class TraceScope {
 public:
  TraceScope(const char* category, const char* name)
      : category_(category), name_(name), start_(enabled() ? nowNs() : 0) {}
  ~TraceScope() {
    if (start_) addScope(category_, name_, start_, nowNs());
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  const char* category_;
  const char* name_;
  int64_t start_;
};

}  // namespace asc::trace

/// ASC_TRACE_SCOPE("AscendCL", "ModelExecute"): times the rest of the enclosing block.
#define ASC_TRACE_SCOPE(category, name) \
  ::asc::trace::TraceScope ASC_CONCAT(asc_trace_scope_, __LINE__)(category, name)
