// profile.h: the reading side of msprof. A profile folder (PROF_...) holds raw data under
// host/data/ (info.txt written by msprof, asc_trace.<pid>.txt written by each traced process, see
// trace.h, and sample.txt with msprof's data sampling); readProfile() gathers it, summarize()
// aggregates it, and the writers render the msprof files of mindstudio_profiler_output/ with the
// real column headers (N/A where a column has no meaning on the CPU runtime).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/support/status.h"
#include "asc/trace/trace.h"

namespace asc::trace {

/// What msprof itself records about a collection (host/data/info.txt, "key=value" lines).
struct ProfileInfo {
  std::string timestamp;            // YYYYMMDDhhmmss, used in every output file name
  std::string command;              // the profiled command line
  std::string soc_version;          // --soc_version given to msprof ("" = from the model)
  double cpu_core_peak_gflops = 0;  // measured fp32 FMA peak of one core of this machine
  int exit_status = 0;
  // Chip of the estimates (resolved by msprof from --soc_version or the model; not stored).
  std::string target_soc;
  double target_tflops = 0;
  std::map<std::string, std::string> options;  // every option msprof was given
};

struct ProcessData {
  int pid = 0;
  std::string command;
};

struct ModelData {
  int process = 0;  // index into Profile::processes
  std::string name, soc;
  int threads = 0;
};

struct OpData {
  int model = 0;  // index into Profile::models (its Model ID is index + 1)
  OpRecord rec;
};

struct TaskData {
  int op = 0;  // index into Profile::ops
  int run = 0;
  int64_t start_ns = 0, end_ns = 0;
  int64_t wait_ns = 0;  // since the previous task of the same run ended (0 for the first)
};

struct ScopeData {
  int process = 0;
  std::string category, name;
  int64_t start_ns = 0, end_ns = 0;
  long tid = 0;
};

/// One Ascend C kernel launch on the CPU twin (msprof op).
struct KernelData {
  int process = 0;
  std::string name;
  uint32_t block_dim = 0;
  int64_t start_ns = 0, end_ns = 0;
  std::vector<std::pair<int64_t, int64_t>> blocks;  // each block's [start, end), block order
};

/// One data-sampling point (msprof reads /proc at an interval).
struct Sample {
  int64_t ts_ns = 0;
  double app_cpu_percent = 0;  // the profiled process tree, 100 = one core
  double sys_cpu_percent = 0;  // the whole machine, 100 = all cores busy
  int64_t rss_bytes = 0;       // resident memory of the profiled process tree
};

struct Profile {
  ProfileInfo info;
  std::vector<ProcessData> processes;
  std::vector<ModelData> models;
  std::vector<OpData> ops;
  std::vector<TaskData> tasks;  // in recorded order
  std::vector<ScopeData> scopes;
  std::vector<KernelData> kernels;  // in recorded order
  std::vector<Sample> samples;
};

/// Parses raw text (one asc_trace file) into `p` (appending). E13005 on a malformed line,
/// naming `source` and the line number.
ASC_API Status parseRaw(const std::string& text, const std::string& source, Profile* p);
/// Reads every raw file of a profile folder. E13001 when it has no host/data folder.
ASC_API Result<Profile> readProfile(const std::string& prof_dir);
/// host/data/info.txt and host/data/sample.txt (written by msprof).
ASC_API Status writeInfo(const std::string& prof_dir, const ProfileInfo& info);
ASC_API Status writeSamples(const std::string& prof_dir, const std::vector<Sample>& samples);

/// Totals of one op type (op_statistic rows).
struct TypeStat {
  int model = 0;
  std::string op_type, core_type;
  int64_t count = 0;
  double total_us = 0, min_us = 0, max_us = 0;
  int64_t flops = 0;  // over all executions
};

/// Totals of one op (by name within a model) over all its executions.
struct OpStat {
  int op = 0;  // index into Profile::ops
  int64_t count = 0;
  double total_us = 0, min_us = 0, max_us = 0;
};

struct Summary {
  double wall_us = 0;     // traced wall time: per run, first task start to last task end
  double op_us = 0;       // sum of all task durations
  double aicpu_us = 0;    // of which on AI_CPU
  double execute_us = 0;  // sum of ModelExecute scopes
  int64_t runs = 0, tasks = 0;
  std::string target_soc;  // chip of the estimates
  double target_tflops = 0;
  std::vector<TypeStat> by_type;  // total time descending
  std::vector<OpStat> by_op;      // total time descending
};

ASC_API Summary summarize(const Profile& p);

/// The CPU peak a model's ops are measured against: one core's peak times the model's threads.
ASC_API double cpuPeakGflops(const Profile& p, int model);
/// Achieved GFLOP/s of `flops` in `us` microseconds (0 when either is 0).
ASC_API double achievedGflops(int64_t flops, double us);
/// Time the target chip's peak would need for `flops`, in microseconds (an estimate: compute
/// bound, peak throughput).
ASC_API double estimatedUs(int64_t flops, double target_tflops);

/// The msprof files, as text.
ASC_API std::string opSummaryCsv(const Profile& p, const Summary& s);
ASC_API std::string opStatisticCsv(const Profile& p, const Summary& s);
ASC_API std::string taskTimeCsv(const Profile& p);
/// api_statistic: every AscendCL scope (an application's acl* calls through libascendcl, the
/// runtime's model load and execute) by name: Level (acl for acl* calls, model for the
/// runtime's), total, count, average, min, max and variance of their times, longest first.
ASC_API std::string apiStatisticCsv(const Profile& p);
/// Chrome trace events (a JSON array, the shape msprof_*.json has; opens in Perfetto).
ASC_API std::string chromeTraceJson(const Profile& p);

}  // namespace asc::trace
