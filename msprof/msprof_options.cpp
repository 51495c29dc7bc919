// msprof_options.cpp: the option table and the parser. The first argument that does not start
// with "--" begins the command to profile; everything after it belongs to that command.
#include "msprof_options.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace asc::msprof {
namespace {

enum class Kind { Switch, Value, Int, Choice };

struct Spec {
  const char* name;
  Kind kind;
  const char* choices;  // Choice: '|'-separated; Switch: on|off
  const char* effect;   // "" = accepted for compatibility, no effect on the CPU runtime
};

// Real msprof options (ascend-facts 4.1), the seed's spellings, and asc-tools' own.
const Spec kSpecs[] = {
    {"output", Kind::Value, "", "output folder"},
    {"application", Kind::Value, "", "command to profile"},
    {"export", Kind::Choice, "on|off|prometheus", "regenerate summaries from raw data"},
    {"parse", Kind::Switch, "on|off", "same as --export=on"},
    {"ascendcl", Kind::Switch, "on|off", ""},
    {"model-execution", Kind::Switch, "on|off", ""},
    {"runtime-api", Kind::Switch, "on|off", ""},
    {"task-time", Kind::Choice, "on|off|l0|l1", ""},
    {"ai-core", Kind::Switch, "on|off", ""},
    {"aic-mode", Kind::Choice, "task-based|sample-based", ""},
    {"aic-freq", Kind::Int, "", ""},
    {"aic-metrics", Kind::Value, "", ""},
    {"l2", Kind::Switch, "on|off", ""},
    {"aicpu", Kind::Switch, "on|off", ""},
    {"hccl", Kind::Switch, "on|off", ""},
    {"msproftx", Kind::Switch, "on|off", ""},
    {"sys-hardware-mem", Kind::Switch, "on|off", "data sampling: memory"},
    {"sys-hardware-mem-freq", Kind::Int, "", "data sampling rate (Hz)"},
    {"llc-profiling", Kind::Choice, "read|write", ""},
    {"sys-cpu-profiling", Kind::Switch, "on|off", "data sampling: CPU"},
    {"sys-cpu-freq", Kind::Int, "", "data sampling rate (Hz)"},
    {"sys-profiling", Kind::Switch, "on|off", "data sampling"},
    {"sys-sampling-freq", Kind::Int, "", "data sampling rate (Hz)"},
    {"sys-pid-profiling", Kind::Switch, "on|off", "data sampling"},
    {"sys-pid-sampling-freq", Kind::Int, "", "data sampling rate (Hz)"},
    {"dvpp-profiling", Kind::Switch, "on|off", ""},
    {"sys-devices", Kind::Value, "", ""},
    {"sys-period", Kind::Int, "", ""},
    {"storage-limit", Kind::Value, "", ""},
    {"type", Kind::Choice, "text|db", "export type"},
    {"reports", Kind::Value, "", ""},
    {"model-id", Kind::Int, "", ""},
    {"iteration-id", Kind::Int, "", ""},
    {"summary-format", Kind::Choice, "csv|json", "summary format"},
    {"clear", Kind::Switch, "on|off", ""},
    {"python-path", Kind::Value, "", ""},
    // The seed documents' spellings.
    {"soc_version", Kind::Value, "", "chip of the estimates"},
    {"model_execution_on", Kind::Switch, "on|off", ""},
    {"data_sampling_on", Kind::Switch, "on|off", "data sampling"},
    {"aicpu_trace_on", Kind::Switch, "on|off", ""},
    // asc-tools' own.
    {"log", Kind::Choice, "debug|info|warning|error|null", "log level"},
    {"help", Kind::Switch, "on|off", ""},
    {"version", Kind::Switch, "on|off", ""},
};

// Real options this runtime cannot honour: refused rather than silently ignored.
const char* const kUnimplemented[] = {
    "query",           "analyze",          "host-sys",
    "instr-profiling", "sys-io-profiling", "sys-interconnection-profiling"};

const Spec* findSpec(const std::string& name) {
  for (const Spec& s : kSpecs)
    if (name == s.name) return &s;
  return nullptr;
}

bool inChoices(const std::string& v, const char* choices) {
  std::string c = std::string("|") + choices + "|";
  return c.find("|" + v + "|") != std::string::npos;
}

}  // namespace

Result<Options> parseOptions(int argc, const char* const* argv) {
  Options o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h") a = "--help";
    if (a.rfind("--", 0) != 0) break;  // the command to profile starts here
    if (a == "--") {
      ++i;
      break;
    }
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (const char* u : kUnimplemented)
      if (name == u)
        return Status::error(ErrorCode::NotImplemented,
                             "option --{} is not supported by asc-tools msprof yet", name);
    const Spec* spec = findSpec(name);
    if (!spec)
      return Status::error(ErrorCode::InvalidParam,
                           "unknown option '{}'; see msprof --help for the accepted options", a);
    if (!has_value) {
      if (spec->kind == Kind::Switch) {
        value = "on";
      } else if (spec->kind == Kind::Choice && std::strcmp(spec->name, "task-time") == 0) {
        value = "on";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return Status::error(ErrorCode::EmptyParam, "option --{} needs a value", name);
      }
    }
    if (value.empty())
      return Status::error(ErrorCode::EmptyParam, "option --{} has an empty value", name);
    if ((spec->kind == Kind::Switch || spec->kind == Kind::Choice) &&
        !inChoices(value, spec->choices))
      return Status::error(ErrorCode::InvalidParam, "--{}={} is not valid; use one of {}", name,
                           value, spec->choices);
    if (spec->kind == Kind::Int) {
      char* end = nullptr;
      errno = 0;
      long v = std::strtol(value.c_str(), &end, 10);
      if (!end || *end || v < 0 || errno == ERANGE || v > INT_MAX)  // strtol saturates
        return Status::error(ErrorCode::InvalidParam,
                             "--{}={} is not a non-negative integer (0 to {})", name, value,
                             INT_MAX);
    }
    o.given[name] = value;
  }
  for (; i < argc; ++i) o.command.push_back(argv[i]);

  auto get = [&](const char* k) {
    auto it = o.given.find(k);
    return it == o.given.end() ? std::string() : it->second;
  };
  o.help = get("help") == "on";
  o.version = get("version") == "on";
  o.output = get("output");
  o.application = get("application");
  o.soc_version = get("soc_version");
  o.log = get("log");
  o.export_mode = get("export") == "off" ? "" : get("export");
  if (get("parse") == "on" && o.export_mode.empty()) o.export_mode = "on";
  if (get("type") == "db")
    return Status::error(ErrorCode::NotImplemented,
                         "--type=db is not supported by asc-tools msprof yet; use --type=text");
  if (get("summary-format") == "json")
    return Status::error(ErrorCode::NotImplemented,
                         "--summary-format=json is not supported by asc-tools msprof yet");
  if (get("data_sampling_on") == "off" || get("sys-profiling") == "off" ||
      (get("sys-cpu-profiling") == "off" && get("sys-hardware-mem") == "off"))
    o.sampling = false;
  for (const char* f :
       {"sys-sampling-freq", "sys-cpu-freq", "sys-hardware-mem-freq", "sys-pid-sampling-freq"})
    if (!get(f).empty()) {
      const std::string v = get(f);
      char* end = nullptr;
      const long hz = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || hz < 1 || hz > 1000)
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --{} is invalid. Reason: the data sampling "
                             "rate must be 1 to 1000 Hz",
                             v, f);
      o.sampling_hz = static_cast<int>(hz);
    }
  if (o.sampling_hz < 1 || o.sampling_hz > 1000)
    return Status::error(ErrorCode::InvalidParam, "data sampling rate must be 1 to 1000 Hz");
  if (!o.application.empty() && !o.command.empty())
    return Status::error(ErrorCode::InvalidParam,
                         "give the command either with --application or after the options, not "
                         "both");
  return o;
}

std::string usage() {
  return R"(Usage: msprof [options] <app> [args]
       msprof [options] --application="<app> <args>"
       msprof --export=on|prometheus --output=<PROF_ folder or its parent>

Runs the command with libasccore's tracing on, waits for it, writes
<output>/PROF_<id>_<timestamp>_<random>/mindstudio_profiler_output/ (op_summary, op_statistic,
task_time CSVs, msprof_<ts>.json timeline, report.html, README.txt), prints the top ops, and
exits with the command's exit status.

Options (--name=value; real msprof spellings):
  --output=DIR              folder for PROF_* (default: current folder)
  --application="CMD ARGS"  the command, run through /bin/sh -c (scripts work)
  --export=on|prometheus    regenerate the summaries (on) or write msprof.prom (Prometheus
                            text format, for node_exporter's textfile collector) from raw data
  --soc_version=NAME        chip for the estimated times (default: the model's, or Ascend310P3)
  --sys-cpu-profiling=on|off, --sys-hardware-mem=on|off, --data_sampling_on=on|off
                            data sampling of CPU use and RSS (default on)
  --sys-sampling-freq=HZ    sampling rate (default 10)
  --log=debug|info|warning|error|null
  --help, --version
Accepted for compatibility (no effect on the CPU runtime): --ascendcl, --model-execution,
  --runtime-api, --task-time, --ai-core, --aic-mode, --aic-freq, --aic-metrics, --l2, --aicpu,
  --hccl, --msproftx, --llc-profiling, --dvpp-profiling, --sys-devices, --sys-period,
  --storage-limit, --reports, --model-id, --iteration-id, --clear, --python-path,
  --model_execution_on, --aicpu_trace_on.

Example:
  msprof --output=prof msame --model resnet50.om --output out --loop 20
)";
}

}  // namespace asc::msprof
