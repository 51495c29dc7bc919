// report.h: what msprof renders from a summarized profile besides the CSV/JSON files: the
// console table, the self-contained HTML report (inline SVG, no scripts fetched, no network)
// and the Prometheus text format.
#pragma once

#include <string>

#include "asc/trace/profile.h"

namespace asc::msprof {

/// Share of op time on AI_CPU above which the console and report give advice.
constexpr double kAiCpuAdviceShare = 0.10;

/// The top-10 table, the AI CPU share (with advice when large) and the traced wall time.
std::string consoleSummary(const trace::Profile& p, const trace::Summary& s);
/// report.html: Gantt timeline, time by op type, efficiency chart, sampling counters.
std::string htmlReport(const trace::Profile& p, const trace::Summary& s, const std::string& title);
/// Prometheus text exposition format: gauges labelled with the profile folder name and the host
/// (`host`, or this machine's name when empty), per-model ones with the model too.
std::string prometheusText(const trace::Profile& p, const trace::Summary& s,
                           const std::string& prof_name, const std::string& host = "");
/// README.txt of mindstudio_profiler_output/.
std::string readmeText(const trace::Profile& p, const trace::Summary& s);

}  // namespace asc::msprof
