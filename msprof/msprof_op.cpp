// msprof_op.cpp: `msprof op` and `msprof op simulator` (msOpProf). The program runs with tracing
// on; every Ascend C kernel launch on the CPU twin records its span and each block's
// (trace::addKernel). The launches the options select are written as the real tool's files:
//   <output>/OPPROF_<YYYYMMDDhhmmss>_<16 letters>/
//     OpBasicInfo.csv   Op Name, Op Type, Task Duration(us), Block Dim, Mix Block Dim, Device Id,
//                       Pid, Current Freq, Rated Freq: one row per selected launch
//     trace.json        each block of each selected launch on its core's row (Chrome trace);
//                       simulator/trace.json in simulator mode, as the simulator lays it out
//     dump/             the raw records
//     README.txt        what was measured
// The NPU's counter files (PipeUtilization, Memory, L2Cache, ...) are not written: a CPU has no
// such counters, and no figure here is estimated.
#include "msprof_op.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>

#include <limits.h>
#include <stdlib.h>

#include "asc/cli/common.h"
#include "asc/cli/options.h"
#include "asc/soc/soc.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/trace/profile.h"
#include "collect.h"
#include "msprof_options.h"

namespace asc::msprof {
namespace {

struct OpOptions : cli::Given {
  std::string output, application, kernel_name, soc_version;
  int launch_count = 1, launch_skip = 0;
  std::string help;
  std::vector<std::string> command;
};

const cli::OptionTable<OpOptions>& opTable() {
  static const cli::OptionTable<OpOptions> t = [] {
    using O = OpOptions;
    using cli::Kind;
    cli::OptionTable<O> t("msprof op", cli::Syntax::Msprof);
    t.text("--output", &O::output, "", "DIR", "folder for OPPROF_* (default: the current folder)");
    t.text("--application", &O::application, "", "\"CMD ARGS\"",
           "the program, run through /bin/sh -c (or give it after the options)");
    t.text("--kernel-name", &O::kernel_name, "", "NAME",
           "collect only launches of kernels whose name matches (shell wildcards: *, ?)");
    t.integer("--launch-count", &O::launch_count, "1", 1, 100, "N",
              "how many matching launches to collect (default 1)");
    t.integer("--launch-skip-before-match", &O::launch_skip, "0", 0, INT32_MAX, "N",
              "matching launches to pass over before collecting");
    t.text("--soc-version", &O::soc_version, "", "NAME",
           "the chip (simulator mode; its name is checked)");
    t.noEffect("--aic-metrics", Kind::Text, "",
               "NPU counter groups: a CPU has none; OpBasicInfo and trace.json are written");
    t.noEffect("--warm-up", Kind::Int, "",
               "NPU runs that raise the chip's clock before collecting; launches are not "
               "replayed here");
    t.noEffect("--mstx", Kind::Choice, "", "mstx markers");
    for (const char* refused :
         {"--replay-mode", "--config", "--timeout", "--kill", "--dump", "--core-id", "--export"})
      t.refused(refused, Kind::Text, "", "not available on the CPU runtime");
    t.choice("--help", &O::help, "on|off", "", "show this help").implicit = "on";
    t.rest(&O::command);
    return t;
  }();
  return t;
}

std::string opUsage() {
  return "Usage: msprof op [options] <app> [args]\n"
         "       msprof op simulator --soc-version=<chip> [options] <app> [args]\n"
         "\n"
         "Runs the Ascend C program, records each kernel launch on the CPU twin (its wall time\n"
         "and each block's), and writes <output>/OPPROF_<timestamp>_<id>/ with OpBasicInfo.csv\n"
         "(one row per collected launch), trace.json (simulator mode: simulator/trace.json) and\n"
         "README.txt. Exits with the program's exit status.\n"
         "\n"
         "Options:\n" +
         opTable().help();
}

std::string us(int64_t ns) { return fmt::format("{:.3f}", double(ns) / 1000.0); }

}  // namespace

int opMain(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  // argv: msprof op [simulator] [options] <app>
  std::vector<const char*> args = {"msprof op"};
  bool simulator = false;
  int first = 2;
  if (argc > 2 && std::string(argv[2]) == "simulator") {
    simulator = true;
    first = 3;
  }
  for (int i = first; i < argc; ++i) args.push_back(argv[i]);
  auto usageError = [&](const Status& st) { return reportError(out, err, st, cli::kExitUsage); };
  auto parsed = opTable().parse(static_cast<int>(args.size()), args.data());
  if (!parsed) return usageError(parsed.status());
  const OpOptions& o = *parsed;
  if (o.help == "on" || args.size() == 1) {
    out << opUsage();
    return o.help == "on" ? 0 : 2;
  }
  if (o.command.empty() && o.application.empty())
    return usageError(Status::error(ErrorCode::EmptyParam,
                                    "no program to profile; give --application=\"<app> <args>\" "
                                    "or the program after the options"));
  if (!o.application.empty() && !o.command.empty())
    return usageError(Status::error(ErrorCode::InvalidParam,
                                    "give the program either with --application or after the "
                                    "options, not both"));
  if (!o.soc_version.empty())
    if (auto s = soc::findSoc(o.soc_version); !s) return usageError(s.status());

  auto fail = [&](const Status& st) { return reportError(out, err, st, cli::kExitFailed); };
  const std::string parent = o.output.empty() ? "." : o.output;
  if (Status st = makeDirs(parent); !st) return fail(st);
  char real[PATH_MAX];
  const std::string dir =
      std::string(realpath(parent.c_str(), real) ? real : parent.c_str()) + "/" + opprofDirName();
  const std::string dump = dir + "/dump";
  if (Status st = makeDirs(dump + "/host/data"); !st) return fail(st);

  Launch l;
  l.argv = o.command;
  l.shell = applicationCommand(o.application);
  l.prof_dir = dump;
  l.sampling = false;
  std::vector<trace::Sample> samples;
  out.flush();
  auto status = launchAndWait(l, &samples);
  if (!status) return fail(status.status());
  if (*status != 0)
    err << "msprof: warning: the profiled program exited with status " << *status << "\n";

  auto profile = trace::readProfile(dump);
  if (!profile) {
    fail(profile.status());
    return *status != 0 ? *status : 1;
  }
  // The launches the options select, in the order they ran.
  std::vector<const trace::KernelData*> picked;
  int matched = 0;
  for (const auto& k : profile->kernels) {
    if (!o.kernel_name.empty() && fnmatch(o.kernel_name.c_str(), k.name.c_str(), 0) != 0) continue;
    if (matched++ < o.launch_skip) continue;
    if (static_cast<int>(picked.size()) < o.launch_count) picked.push_back(&k);
  }
  std::string csv =
      "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,"
      "Rated Freq\n";
  std::string trace = "{\"traceEvents\":[\n";
  bool first_event = true;
  int64_t t0 = picked.empty() ? 0 : picked.front()->start_ns;
  for (const auto* k : picked) {
    const size_t sub = k->block_dim ? std::max<size_t>(1, k->blocks.size() / k->block_dim) : 1;
    const int pid = profile->processes[k->process].pid;
    csv += fmt::format("{},{},{},{},{},0,{},N/A,N/A\n", csvField(k->name),
                       sub > 1 ? "mix" : "vector", us(k->end_ns - k->start_ns), k->block_dim,
                       sub > 1 ? std::to_string(k->block_dim * sub) : "N/A", pid);
    for (size_t b = 0; b < k->blocks.size(); ++b) {
      const auto& [s, e] = k->blocks[b];
      trace += fmt::format(
          "{}{{\"name\":\"{}\",\"ph\":\"X\",\"pid\":\"core{}.veccore{}\",\"tid\":\"{}\","
          "\"ts\":{},\"dur\":{},\"args\":{{\"block_id\":{},\"sub_block_id\":{}}}}}",
          first_event ? "" : ",\n", k->name, b / sub, b % sub, k->name, us(s - t0), us(e - s),
          b / sub, b % sub);
      first_event = false;
    }
  }
  trace += "\n]}\n";
  const std::string trace_path = simulator ? dir + "/simulator/trace.json" : dir + "/trace.json";
  if (simulator)
    if (Status st = makeDirs(dir + "/simulator"); !st) return fail(st);
  std::string readme = fmt::format(
      "msprof op{} (asc-tools) for: {}\n\n"
      "Each Ascend C kernel launch of the program ran on the CPU twin; {} launch(es) ran, {} "
      "matched{}, {} collected.\n"
      "OpBasicInfo.csv: Task Duration(us) is the launch's wall time on this CPU (all blocks, as\n"
      "they were scheduled on its threads), not an NPU's; Device Id is 0, the frequencies N/A.\n"
      "{}: each block's span on the row of its core (chrome://tracing or Perfetto).\n"
      "No NPU counter file (PipeUtilization, ArithmeticUtilization, Memory, L2Cache, ...) is\n"
      "written: a CPU has no such counters, and nothing here is estimated.\n",
      simulator ? " simulator" : "",
      l.shell.empty() ? fmt::format("{}", fmt::join(o.command, " ")) : l.shell,
      profile->kernels.size(), matched,
      o.kernel_name.empty() ? "" : " --kernel-name=" + o.kernel_name, picked.size(),
      simulator ? "simulator/trace.json" : "trace.json");
  for (const auto& [path, text] :
       {std::pair<std::string, std::string>{dir + "/OpBasicInfo.csv", csv},
        {trace_path, trace},
        {dir + "/README.txt", readme}})
    if (Status st = writeFileAtomic(path, text.data(), text.size()); !st) {
      fail(st);
      return *status != 0 ? *status : 1;
    }
  if (picked.empty())
    err << "msprof: warning: no kernel launch "
        << (o.kernel_name.empty() ? std::string("ran on the CPU twin")
                                  : "matched --kernel-name=" + o.kernel_name)
        << "; OpBasicInfo.csv has no rows\n";
  for (const auto* k : picked)
    out << fmt::format("msprof op: {} block dim {}: {} us\n", k->name, k->block_dim,
                       us(k->end_ns - k->start_ns));
  out << "msprof op: results in " << dir << "\n";
  out.flush();
  return *status;
}

}  // namespace asc::msprof
