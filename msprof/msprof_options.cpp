// msprof_options.cpp: msprof's option table (the real msprof's options, ascend-facts 4.1, the
// seed's spellings and asc-tools' own); the parser, --help and docs/options.md come from it.
// The first argument that does not start with "--" begins the command to profile; everything
// after it belongs to that command.
#include "msprof_options.h"

namespace asc::msprof {

const cli::OptionTable<Options>& optionTable() {
  static const cli::OptionTable<Options> t = [] {
    using O = Options;
    using cli::Kind;
    cli::OptionTable<O> t("msprof", cli::Syntax::Msprof);
    auto onOff = [&](const char* spelling, std::string O::*m, const char* def, const char* help) {
      t.choice(spelling, m, "on|off", def, help).implicit = "on";
    };
    auto ignored = [&](const char* spelling, Kind kind, const char* choices, const char* help) {
      cli::OptionRow& r = t.noEffect(spelling, kind, "", help);
      r.choices = choices;
      if (std::string(choices).rfind("on|", 0) == 0) r.implicit = "on";
      if (kind == Kind::Int) {
        r.min = 0;
        r.max = INT32_MAX;
      }
    };
    t.text("--output", &O::output, "", "DIR",
           "folder for PROF_* (default: the current folder); with --export, a PROF_ folder or "
           "its parent");
    t.text("--application", &O::application, "", "\"CMD ARGS\"",
           "the command, run through /bin/sh -c (scripts work)");
    t.choice("--export", &O::export_mode, "on|off|prometheus", "",
             "regenerate the summaries (on) or write msprof.prom (Prometheus text format, for "
             "node_exporter's textfile collector) from raw data");
    onOff("--parse", &O::parse, "", "same as --export=on");
    t.text("--soc_version", &O::soc_version, "", "NAME",
           "chip for the estimated times (default: the model's, or Ascend310P3)");
    onOff("--sys-cpu-profiling", &O::sys_cpu_profiling, "", "data sampling of CPU use");
    onOff("--sys-hardware-mem", &O::sys_hardware_mem, "", "data sampling of memory (RSS)");
    onOff("--sys-profiling", &O::sys_profiling, "", "data sampling (default on)");
    onOff("--data_sampling_on", &O::data_sampling_on, "", "the seed's spelling of data sampling");
    const char* rate = "from 1 to 1000 (Hz: the data sampling rate)";
    t.integer("--sys-sampling-freq", &O::sys_sampling_freq, "", 1, 1000, "HZ",
              "data sampling rate (default 10)", rate);
    t.integer("--sys-cpu-freq", &O::sys_cpu_freq, "", 1, 1000, "HZ", "data sampling rate", rate);
    t.integer("--sys-hardware-mem-freq", &O::sys_hardware_mem_freq, "", 1, 1000, "HZ",
              "data sampling rate", rate);
    t.integer("--sys-pid-sampling-freq", &O::sys_pid_sampling_freq, "", 1, 1000, "HZ",
              "data sampling rate", rate);
    t.choice("--type", &O::type, "text|db", "text", "export type (db is refused: E10055)");
    t.choice("--summary-format", &O::summary_format, "csv|json", "csv",
             "summary format (json is refused: E10055)");
    t.text("--log", &O::log, "", "LEVEL",
           "debug, info, warning, error or null: what goes to stderr");
    // Accepted for compatibility: they steer the NPU's collectors.
    ignored("--ascendcl", Kind::Choice, "on|off", "AscendCL API trace");
    ignored("--model-execution", Kind::Choice, "on|off", "model execution trace");
    ignored("--runtime-api", Kind::Choice, "on|off", "runtime API trace");
    ignored("--task-time", Kind::Choice, "on|off|l0|l1", "task timing");
    ignored("--ai-core", Kind::Choice, "on|off", "AI Core counters");
    ignored("--aic-mode", Kind::Choice, "task-based|sample-based", "AI Core sampling mode");
    ignored("--aic-freq", Kind::Int, "", "AI Core sampling rate");
    ignored("--aic-metrics", Kind::Text, "", "AI Core metric group");
    ignored("--l2", Kind::Choice, "on|off", "L2 cache counters");
    ignored("--aicpu", Kind::Choice, "on|off", "AI CPU trace");
    ignored("--hccl", Kind::Choice, "on|off", "collective communication trace");
    ignored("--msproftx", Kind::Choice, "on|off", "msproftx markers");
    ignored("--llc-profiling", Kind::Choice, "read|write", "LLC counters");
    ignored("--sys-pid-profiling", Kind::Choice, "on|off", "per-process sampling");
    ignored("--dvpp-profiling", Kind::Choice, "on|off", "DVPP counters");
    ignored("--sys-devices", Kind::Text, "", "devices sampled");
    ignored("--sys-period", Kind::Int, "", "sampling period");
    ignored("--storage-limit", Kind::Text, "", "disk space for the data");
    ignored("--reports", Kind::Text, "", "report selection");
    ignored("--model-id", Kind::Int, "", "model to export");
    ignored("--iteration-id", Kind::Int, "", "iteration to export");
    ignored("--clear", Kind::Choice, "on|off", "drop raw data after export");
    ignored("--python-path", Kind::Text, "", "the Python of the analysis");
    ignored("--model_execution_on", Kind::Choice, "on|off", "the seed's spelling");
    ignored("--aicpu_trace_on", Kind::Choice, "on|off", "the seed's spelling");
    // Real options this runtime cannot honour.
    for (const char* refused : {"--query", "--analyze", "--host-sys", "--instr-profiling",
                                "--sys-io-profiling", "--sys-interconnection-profiling"})
      t.refused(refused, Kind::Text, "", "not available on the CPU runtime");
    onOff("--options_markdown", &O::options_markdown, "",
          "print this option table as Markdown (docs/options.md)");
    onOff("--help", &O::help, "", "show this help");
    onOff("--version", &O::version, "", "print the asc-tools version");
    t.rest(&O::command);
    return t;
  }();
  return t;
}

Result<Options> parseOptions(int argc, const char* const* argv) {
  ASC_TRY(Options o, optionTable().parse(argc, argv));
  if (o.export_mode == "off") o.export_mode.clear();
  if (o.parse == "on" && o.export_mode.empty()) o.export_mode = "on";
  if (o.type == "db")
    return Status::error(ErrorCode::NotImplemented,
                         "--type=db is not supported by asc-tools msprof yet; use --type=text");
  if (o.summary_format == "json")
    return Status::error(ErrorCode::NotImplemented,
                         "--summary-format=json is not supported by asc-tools msprof yet");
  if (o.data_sampling_on == "off" || o.sys_profiling == "off" ||
      (o.sys_cpu_profiling == "off" && o.sys_hardware_mem == "off"))
    o.sampling = false;
  for (int hz :
       {o.sys_sampling_freq, o.sys_cpu_freq, o.sys_hardware_mem_freq, o.sys_pid_sampling_freq})
    if (hz > 0) o.sampling_hz = hz;
  if (!o.application.empty() && !o.command.empty())
    return Status::error(ErrorCode::InvalidParam,
                         "give the command either with --application or after the options, not "
                         "both");
  return o;
}

std::string usage() {
  return "Usage: msprof [options] <app> [args]\n"
         "       msprof [options] --application=\"<app> <args>\"\n"
         "       msprof --export=on|prometheus --output=<PROF_ folder or its parent>\n"
         "       msprof op [simulator] [options] <app>   (Ascend C kernels: msprof op --help)\n"
         "\n"
         "Runs the command with libasccore's tracing on, waits for it, writes\n"
         "<output>/PROF_<id>_<timestamp>_<random>/mindstudio_profiler_output/ (op_summary, "
         "op_statistic,\n"
         "task_time CSVs, msprof_<ts>.json timeline, report.html, README.txt), prints the top "
         "ops, and\n"
         "exits with the command's exit status.\n"
         "\n"
         "Options (--name=value; real msprof spellings):\n" +
         optionTable().help() +
         "\n"
         "Example:\n"
         "  msprof --output=prof msame --model resnet50.om --output out --loop 20\n";
}

int reportError(std::ostream& out, std::ostream& err, const Status& st, int exit_code) {
  out.flush();
  err << "msprof: error " << st.toString() << "\n";
  return exit_code;
}

}  // namespace asc::msprof
