// msprof.cpp: collection (make PROF_, run the command with tracing on, sample it, pass on its
// exit status) and export (raw data -> the msprof files, the HTML report, Prometheus text).
#include "msprof.h"

#include "asc/cli/common.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>

#include "asc/soc/soc.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/trace/profile.h"
#include "collect.h"
#include "msprof_op.h"
#include "msprof_options.h"
#include "report.h"

namespace asc::msprof {
namespace {

constexpr const char* kOutDir = "mindstudio_profiler_output";
constexpr const char* kDefaultSoc = "Ascend310P3";

std::string absolute(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

Status writeText(const std::string& path, const std::string& text) {
  return writeFileAtomic(path, text.data(), text.size());
}

// The chip of the estimates: --soc_version, else the first model's, else the default.
void resolveTarget(trace::Profile* p) {
  std::string soc = p->info.soc_version;
  if (soc.empty())
    for (const auto& m : p->models)
      if (!m.soc.empty()) {
        soc = m.soc;
        break;
      }
  auto found = soc::findSoc(soc.empty() ? kDefaultSoc : soc);
  if (!found) {
    ASC_LOG_WARN("unknown chip '{}' for the estimates; using {}", soc, kDefaultSoc);
    found = soc::findSoc(kDefaultSoc);
  }
  p->info.target_soc = (*found)->name;
  p->info.target_tflops = (*found)->peak_fp16_tflops;
}

// Renders every file of mindstudio_profiler_output/ (or only the Prometheus text).
Status exportProfile(const std::string& prof_dir, bool prometheus, std::ostream& out) {
  ASC_TRY(trace::Profile p, trace::readProfile(prof_dir));
  resolveTarget(&p);
  trace::Summary s = trace::summarize(p);
  const std::string dir = prof_dir + "/" + kOutDir;
  ASC_RETURN_IF_ERROR(makeDirs(dir));
  std::string ts = p.info.timestamp.empty() ? "00000000000000" : p.info.timestamp;
  if (prometheus) {
    const std::string path = dir + "/msprof.prom";
    ASC_RETURN_IF_ERROR(writeText(path, prometheusText(p, s, baseName(prof_dir))));
    out << "msprof: Prometheus text written to " << path << "\n";
    return Status::ok();
  }
  ASC_RETURN_IF_ERROR(writeText(dir + "/op_summary_" + ts + ".csv", trace::opSummaryCsv(p, s)));
  ASC_RETURN_IF_ERROR(writeText(dir + "/op_statistic_" + ts + ".csv", trace::opStatisticCsv(p, s)));
  ASC_RETURN_IF_ERROR(writeText(dir + "/task_time_" + ts + ".csv", trace::taskTimeCsv(p)));
  ASC_RETURN_IF_ERROR(writeText(dir + "/api_statistic_" + ts + ".csv", trace::apiStatisticCsv(p)));
  ASC_RETURN_IF_ERROR(writeText(dir + "/msprof_" + ts + ".json", trace::chromeTraceJson(p)));
  ASC_RETURN_IF_ERROR(writeText(dir + "/README.txt", readmeText(p, s)));
  ASC_RETURN_IF_ERROR(writeText(dir + "/report.html", htmlReport(p, s, baseName(prof_dir))));
  if (p.tasks.empty())
    ASC_LOG_WARN(
        "no model session and no Ascend C kernel launch ran under msprof; the summaries are "
        "empty (does the command run a model with msame, or an Ascend C program built against "
        "asc-tools?)");
  out << consoleSummary(p, s);
  out << "Report: " << dir << "/report.html\n";
  return Status::ok();
}

// --export: a PROF_ folder, or a folder holding PROF_ folders.
Status runExport(const Options& o, std::ostream& out) {
  if (o.output.empty())
    return Status::error(ErrorCode::EmptyParam, "--export needs --output=<PROF_ folder>");
  std::vector<std::string> dirs;
  if (isDirectory(o.output + "/host/data")) {
    dirs.push_back(o.output);
  } else if (DIR* d = opendir(o.output.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.rfind("PROF_", 0) == 0 && isDirectory(o.output + "/" + n + "/host/data"))
        dirs.push_back(o.output + "/" + n);
    }
    closedir(d);
  }
  if (dirs.empty())
    return Status::error(ErrorCode::FileOpenFailed,
                         "{} holds no profile data (expected a PROF_ folder with host/data)",
                         o.output);
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs)
    ASC_RETURN_IF_ERROR(exportProfile(d, o.export_mode == "prometheus", out));
  return Status::ok();
}

}  // namespace

int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  log::setProgram("msprof");
  if (argc > 1 && std::string(argv[1]) == "op") return opMain(argc, argv, out, err);
  auto usageError = [&](const Status& st) { return reportError(out, err, st, cli::kExitUsage); };
  auto opts = parseOptions(argc, argv);
  if (!opts) return usageError(opts.status());
  const Options& o = *opts;
  if (Status st = cli::applyLogOption(o.log, !o.log.empty()); !st) return usageError(st);
  if (o.help == "on" || argc == 1) {
    out << usage();
    return o.help == "on" ? 0 : 2;
  }
  if (o.options_markdown == "on") {
    out << optionTable().markdown();
    return 0;
  }
  if (o.version == "on") {
    out << cli::versionText("msprof");
    return 0;
  }
  auto fail = [&](const Status& st) { return reportError(out, err, st, cli::kExitFailed); };
  if (!o.export_mode.empty()) {
    if (!o.command.empty() || !o.application.empty())
      return usageError(Status::error(ErrorCode::InvalidParam,
                                      "--export works on collected data; give no command"));
    Status st = runExport(o, out);
    return st ? 0 : fail(st);
  }
  if (o.command.empty() && o.application.empty())
    return usageError(Status::error(ErrorCode::EmptyParam,
                                    "no command to profile; give --application=\"<app> <args>\" "
                                    "or the command after the options"));

  // Collection.
  const std::string parent = o.output.empty() ? "." : o.output;
  if (Status st = makeDirs(parent); !st) return fail(st);
  trace::ProfileInfo info;
  const std::string prof = absolute(parent) + "/" + profDirName(&info.timestamp);
  info.command = o.application;
  for (const auto& a : o.command) info.command += (info.command.empty() ? "" : " ") + a;
  info.soc_version = o.soc_version;
  info.options = o.givenValues();
  if (!o.soc_version.empty())
    if (auto s = soc::findSoc(o.soc_version); !s) return usageError(s.status());
  info.cpu_core_peak_gflops = measureCorePeakGflops();
  if (Status st = trace::writeInfo(prof, info); !st) return fail(st);

  Launch l;
  l.argv = o.command;
  l.shell = applicationCommand(o.application);
  l.prof_dir = prof;
  l.sampling = o.sampling;
  l.sampling_hz = o.sampling_hz;
  std::vector<trace::Sample> samples;
  out.flush();
  auto status = launchAndWait(l, &samples);
  if (!status) return fail(status.status());
  info.exit_status = *status;
  if (Status st = trace::writeInfo(prof, info); !st) return fail(st);
  if (Status st = trace::writeSamples(prof, samples); !st) return fail(st);
  if (*status != 0)
    err << "msprof: warning: the profiled command exited with status " << *status << "\n";
  if (Status st = exportProfile(prof, /*prometheus=*/false, out); !st) {
    fail(st);
    return *status != 0 ? *status : 1;
  }
  out.flush();
  return *status;
}

}  // namespace asc::msprof
