// report.cpp: console table, HTML report and Prometheus text from a summarized profile.
#include "report.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "asc/support/strings.h"

namespace asc::msprof {
namespace {

using trace::OpStat;
using trace::Profile;
using trace::Summary;

const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

std::string aicpuAdvice(const Summary& s) {
  const double share = s.op_us > 0 ? s.aicpu_us / s.op_us : 0;
  std::string line = fmt::format("AI CPU share: {:.1f}% of op time", 100 * share);
  if (share > kAiCpuAdviceShare)
    line += fmt::format(
        " (above {:.0f}%). Advice: AI CPU ops run far slower than AI Core ops on the NPU and "
        "break the AI Core pipeline; replace them with AI Core equivalents (change the model, "
        "e.g. export with a different opset, or fold them away at conversion), or check the op "
        "support list of the target chip.",
        100 * kAiCpuAdviceShare);
  return line;
}

// The run to draw in the Gantt: the median-length run of the model with the most op time.
std::vector<const trace::TaskData*> ganttRun(const Profile& p, int* model, int* run) {
  std::map<int, double> model_time;
  for (const auto& t : p.tasks) model_time[p.ops[t.op].model] += double(t.end_ns - t.start_ns);
  *model = -1;
  double best = -1;
  for (const auto& [m, v] : model_time)
    if (v > best) best = v, *model = m;
  std::map<int, std::pair<int64_t, int64_t>> spans;
  for (const auto& t : p.tasks) {
    if (p.ops[t.op].model != *model) continue;
    auto it = spans.find(t.run);
    if (it == spans.end())
      spans[t.run] = {t.start_ns, t.end_ns};
    else
      it->second = {std::min(it->second.first, t.start_ns), std::max(it->second.second, t.end_ns)};
  }
  std::vector<std::pair<int64_t, int>> len;
  for (const auto& [r, sp] : spans) len.push_back({sp.second - sp.first, r});
  std::sort(len.begin(), len.end());
  *run = len.empty() ? -1 : len[len.size() / 2].second;
  std::vector<const trace::TaskData*> out;
  for (const auto& t : p.tasks)
    if (p.ops[t.op].model == *model && t.run == *run) out.push_back(&t);
  return out;
}

std::string ganttSvg(const Profile& p) {
  int model = -1, run = -1;
  auto tasks = ganttRun(p, &model, &run);
  if (tasks.empty()) return "<p>No op executions were traced.</p>";
  std::vector<std::string> types;
  for (const auto* t : tasks) {
    const std::string& ty = p.ops[t->op].rec.cann_type;
    if (std::find(types.begin(), types.end(), ty) == types.end()) types.push_back(ty);
  }
  const int64_t t0 = tasks.front()->start_ns, t1 = tasks.back()->end_ns;
  const double span = std::max<double>(1, double(t1 - t0));
  const int left = 120, width = 860, row = 18, top = 24;
  const int height = top + row * int(types.size()) + 30;
  std::string s = fmt::format(
      R"(<svg id="gantt" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img">)"
      "\n",
      left + width + 20, height);
  s += fmt::format(
      R"(<text x="{}" y="14" font-size="12">{}: run {} ({:.1f} us, the median run)</text>)"
      "\n",
      left, htmlEscape(p.models[model].name), run + 1, span / 1e3);
  for (size_t i = 0; i < types.size(); ++i) {
    const int y = top + row * int(i);
    s += fmt::format(R"(<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>)"
                     R"(<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#eee"/>)"
                     "\n",
                     left - 6, y + 13, htmlEscape(types[i]), left, left + width, y + row, y + row);
  }
  for (const auto* t : tasks) {
    const trace::OpRecord& r = p.ops[t->op].rec;
    const size_t lane = std::find(types.begin(), types.end(), r.cann_type) - types.begin();
    const double x = left + width * double(t->start_ns - t0) / span;
    const double w = std::max(1.0, width * double(t->end_ns - t->start_ns) / span);
    s += fmt::format(
        R"(<rect class="op" x="{:.2f}" y="{}" width="{:.2f}" height="{}" fill="{}"><title>{} ({}, {}) {:.3f} us{}</title></rect>)"
        "\n",
        x, top + row * int(lane) + 2, w, row - 4, kPalette[lane % 10], htmlEscape(r.name),
        htmlEscape(r.cann_type), r.engine, double(t->end_ns - t->start_ns) / 1e3,
        r.original.empty() ? "" : "; ONNX: " + htmlEscape(r.original));
  }
  for (int k = 0; k <= 4; ++k) {
    const double x = left + width * k / 4.0;
    s += fmt::format(
        R"(<text x="{:.1f}" y="{}" font-size="10" text-anchor="middle">{:.0f} us</text>)"
        "\n",
        x, height - 8, span / 1e3 * k / 4);
  }
  return s + "</svg>\n";
}

std::string hbarSvg(const char* id, const std::vector<std::pair<std::string, double>>& rows,
                    const std::vector<std::string>& labels, double max_value, const char* color) {
  const int left = 220, width = 480, row = 20, top = 6;
  const int height = top + row * int(rows.size()) + 6;
  std::string s = fmt::format(
      R"(<svg id="{}" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img">)"
      "\n",
      id, left + width + 420, height);
  for (size_t i = 0; i < rows.size(); ++i) {
    const int y = top + row * int(i);
    const double w = max_value > 0 ? std::max(1.0, width * rows[i].second / max_value) : 1.0;
    s += fmt::format(
        R"(<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>)"
        R"(<rect class="bar" x="{}" y="{}" width="{:.2f}" height="{}" fill="{}"><title>{}</title></rect>)"
        R"(<text x="{:.2f}" y="{}" font-size="11">{}</text>)"
        "\n",
        left - 6, y + 14, htmlEscape(rows[i].first), left, y + 3, w, row - 6, color,
        htmlEscape(labels[i]), left + w + 6, y + 14, htmlEscape(labels[i]));
  }
  return s + "</svg>\n";
}

std::string countersSvg(const Profile& p) {
  if (p.samples.size() < 2)
    return "<p>No data sampling points (the run was shorter than one sampling period, or sampling "
           "was off).</p>";
  const int left = 60, width = 860, height = 160, top = 10, plot = 120;
  const int64_t t0 = p.samples.front().ts_ns, t1 = p.samples.back().ts_ns;
  double max_cpu = 100, max_rss = 1;
  for (const auto& x : p.samples) {
    max_cpu = std::max(max_cpu, x.app_cpu_percent);
    max_rss = std::max(max_rss, double(x.rss_bytes) / (1 << 20));
  }
  std::string cpu, rss;
  for (const auto& x : p.samples) {
    const double px = left + width * double(x.ts_ns - t0) / std::max<double>(1, double(t1 - t0));
    cpu += fmt::format("{:.1f},{:.1f} ", px, top + plot - plot * x.app_cpu_percent / max_cpu);
    rss += fmt::format("{:.1f},{:.1f} ", px,
                       top + plot - plot * (double(x.rss_bytes) / (1 << 20)) / max_rss);
  }
  return fmt::format(
      R"(<svg id="counters" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img">)"
      R"(<polyline points="{}" fill="none" stroke="#e15759" stroke-width="1.5"/>)"
      R"(<polyline points="{}" fill="none" stroke="#4e79a7" stroke-width="1.5"/>)"
      R"(<text x="{}" y="{}" font-size="11" fill="#e15759">app CPU % (max {:.0f})</text>)"
      R"(<text x="{}" y="{}" font-size="11" fill="#4e79a7">RSS MB (max {:.1f})</text>)"
      R"(<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#999"/></svg>)"
      "\n",
      left + width + 20, height, cpu, rss, left, height - 8, max_cpu, left + 200, height - 8,
      max_rss, left, left + width, top + plot, top + plot);
}

}  // namespace

std::string consoleSummary(const Profile& p, const Summary& s) {
  std::string o = fmt::format(
      "msprof: {} process(es), {} model session(s), {} run(s), {} op executions; traced wall "
      "time {:.3f} ms, op time {:.3f} ms (between ops: {:.2f}%)\n",
      p.processes.size(), p.models.size(), s.runs, s.tasks, s.wall_us / 1e3, s.op_us / 1e3,
      s.wall_us > 0 ? 100 * (s.wall_us - s.op_us) / s.wall_us : 0.0);
  o += "Top 10 ops by total time:\n";
  o += fmt::format("  {:>4}  {:<40} {:<16} {:<8} {:>6} {:>12} {:>10} {:>7}\n", "rank", "op name",
                   "OP Type", "engine", "count", "total(us)", "avg(us)", "share");
  for (size_t i = 0; i < s.by_op.size() && i < 10; ++i) {
    const OpStat& st = s.by_op[i];
    const auto& r = p.ops[st.op].rec;
    std::string name = r.name.size() > 40 ? r.name.substr(0, 37) + "..." : r.name;
    o += fmt::format("  {:>4}  {:<40} {:<16} {:<8} {:>6} {:>12.3f} {:>10.3f} {:>6.1f}%\n", i + 1,
                     name, r.cann_type, r.engine, st.count, st.total_us,
                     st.total_us / double(st.count), s.op_us > 0 ? 100 * st.total_us / s.op_us : 0);
  }
  o += aicpuAdvice(s) + "\n";
  return o;
}

std::string htmlReport(const Profile& p, const Summary& s, const std::string& title) {
  std::string h =
      fmt::format(R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>msprof report: {}</title>
<style>
body{{font-family:sans-serif;margin:20px;color:#222}} h2{{margin-top:28px;font-size:17px}}
table{{border-collapse:collapse;font-size:12px}} td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}
td:first-child,th:first-child,td:nth-child(2){{text-align:left}} .note{{color:#666;font-size:12px}}
svg{{display:block}} rect.op:hover,rect.bar:hover{{opacity:.7}}
</style></head><body>
<h1>msprof report</h1>
<p>{}</p>
<table><tr><th>command</th><td>{}</td></tr>
<tr><th>traced wall time</th><td>{:.3f} ms ({} runs, {} op executions, {} process(es))</td></tr>
<tr><th>op time</th><td>{:.3f} ms</td></tr>
<tr><th>CPU peak (measured)</th><td>{:.1f} GFLOP/s fp32 per core (efficiency is against this times the session's threads)</td></tr>
<tr><th>estimate target</th><td>{} ({:.1f} TFLOP/s fp16 peak; times are estimates)</td></tr></table>
<p>{}</p>
)",
                  htmlEscape(title), htmlEscape(title), htmlEscape(p.info.command), s.wall_us / 1e3,
                  s.runs, s.tasks, p.processes.size(), s.op_us / 1e3, p.info.cpu_core_peak_gflops,
                  htmlEscape(s.target_soc), s.target_tflops, htmlEscape(aicpuAdvice(s)));
  h += "<h2>Timeline (Gantt of one run)</h2>\n" + ganttSvg(p);

  std::vector<std::pair<std::string, double>> rows;
  std::vector<std::string> labels;
  double mx = 0;
  for (const auto& t : s.by_type) {
    rows.push_back(
        {t.op_type + (p.models.size() > 1 ? " [" + std::to_string(t.model + 1) + "]" : ""),
         t.total_us});
    labels.push_back(fmt::format("{:.1f} us, {} calls, {:.1f}%", t.total_us, t.count,
                                 s.op_us > 0 ? 100 * t.total_us / s.op_us : 0));
    mx = std::max(mx, t.total_us);
  }
  h += "<h2>Time by op type</h2>\n" + hbarSvg("optype", rows, labels, mx, "#4e79a7");

  rows.clear();
  labels.clear();
  double max_eff = 100;  // the full bar is the peak, unless an op beats the measured peak
  for (const auto& st : s.by_op) {
    const auto& r = p.ops[st.op].rec;
    if (r.flops <= 0 || rows.size() >= 25) continue;
    const double avg = st.total_us / double(st.count);
    const double g = trace::achievedGflops(r.flops, avg);
    const double peak = trace::cpuPeakGflops(p, p.ops[st.op].model);
    const double eff = peak > 0 ? 100 * g / peak : 0;
    max_eff = std::max(max_eff, eff);
    rows.push_back({r.name.size() > 32 ? r.name.substr(0, 29) + "..." : r.name, eff});
    labels.push_back(fmt::format("{:.1f}% of CPU peak, {:.1f} GFLOP/s; {} estimate {:.2f} us", eff,
                                 g, s.target_soc, trace::estimatedUs(r.flops, s.target_tflops)));
  }
  h += "<h2>Compute efficiency (ops with FLOPs, by total time)</h2>\n"
       "<p class=\"note\">Bar: achieved GFLOP/s of the op's mean execution against this CPU's "
       "measured fp32 peak (the full bar is 100%, or the best op when one beats the measured "
       "peak). The target time is an estimate from the chip's peak, not a measurement.</p>\n" +
       hbarSvg("efficiency", rows, labels, max_eff, "#59a14f");

  h += "<h2>Data sampling</h2>\n" + countersSvg(p);

  h += "<h2>Top ops</h2>\n<table><tr><th>op</th><th>OP Type</th><th>engine</th><th>count</th>"
       "<th>total us</th><th>avg us</th><th>FLOPs</th><th>bytes</th><th>original ONNX "
       "nodes</th></tr>\n";
  for (size_t i = 0; i < s.by_op.size() && i < 30; ++i) {
    const auto& st = s.by_op[i];
    const auto& r = p.ops[st.op].rec;
    h += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3f}</td><td>{:.3f}</td>"
        "<td>{}</td><td>{}</td><td>{}</td></tr>\n",
        htmlEscape(r.name), htmlEscape(r.cann_type), r.engine, st.count, st.total_us,
        st.total_us / double(st.count), r.flops, r.bytes, htmlEscape(r.original));
  }
  h += "</table>\n";
  // For automated checks: what the browser actually laid out (no network, no external code).
  h += R"(<script>
window.addEventListener('load', function () {
  var out = [];
  ['gantt', 'optype', 'efficiency', 'counters'].forEach(function (id) {
    var e = document.getElementById(id);
    if (!e) { out.push(id + ':absent'); return; }
    var b = e.getBBox(), n = e.querySelectorAll('rect,polyline').length;
    out.push(id + ':' + n + ':' + Math.round(b.width) + 'x' + Math.round(b.height));
  });
  document.body.setAttribute('data-rendered', out.join(' '));
});
</script>
</body></html>
)";
  return h;
}

std::string prometheusText(const Profile& p, const Summary& s, const std::string& prof_name,
                           const std::string& host_name) {
  auto label = [](const std::string& v) {
    std::string o;
    for (char c : v) {
      if (c == '\\' || c == '"') o += '\\';
      if (c == '\n') {
        o += "\\n";
        continue;
      }
      o += c;
    }
    return o;
  };
  // host: the machine writing the file (node_exporter's textfile collector runs beside it), so
  // a fleet's profiles stay apart in one Prometheus.
  char host[256] = {};
  if (!host_name.empty())
    std::snprintf(host, sizeof(host), "%s", host_name.c_str());
  else if (gethostname(host, sizeof(host) - 1) != 0)
    std::snprintf(host, sizeof(host), "unknown");
  const std::string base = fmt::format("prof=\"{}\",host=\"{}\"", label(prof_name), label(host));
  std::string o;
  auto gauge = [&](const char* name, const char* help) {
    o += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
  };
  gauge("msprof_wall_time_seconds", "Traced wall time of the profiled runs.");
  o += fmt::format("msprof_wall_time_seconds{{{}}} {:.9f}\n", base, s.wall_us / 1e6);
  gauge("msprof_op_time_seconds", "Sum of all op execution times.");
  o += fmt::format("msprof_op_time_seconds{{{}}} {:.9f}\n", base, s.op_us / 1e6);
  gauge("msprof_runs", "Model executions traced.");
  o += fmt::format("msprof_runs{{{}}} {}\n", base, s.runs);
  gauge("msprof_aicpu_time_ratio", "Share of op time on AI CPU ops (0..1).");
  o += fmt::format("msprof_aicpu_time_ratio{{{}}} {:.6f}\n", base,
                   s.op_us > 0 ? s.aicpu_us / s.op_us : 0.0);
  gauge("msprof_cpu_core_peak_gflops", "Measured fp32 peak of one core of the profiling machine.");
  o += fmt::format("msprof_cpu_core_peak_gflops{{{}}} {:.3f}\n", base, p.info.cpu_core_peak_gflops);
  gauge("msprof_peak_rss_bytes", "Peak resident memory of the profiled process tree (sampled).");
  int64_t rss = 0;
  double cpu = 0;
  for (const auto& smp : p.samples) {
    rss = std::max(rss, smp.rss_bytes);
    cpu += smp.app_cpu_percent;
  }
  o += fmt::format("msprof_peak_rss_bytes{{{}}} {}\n", base, rss);
  gauge("msprof_cpu_percent_mean",
        "Mean CPU use of the profiled process tree over the samples (100 = one core).");
  o += fmt::format("msprof_cpu_percent_mean{{{}}} {:.3f}\n", base,
                   p.samples.empty() ? 0.0 : cpu / static_cast<double>(p.samples.size()));
  gauge("msprof_model_op_time_seconds", "Sum of the op times of each model.");
  std::map<int, double> per_model;
  for (const auto& t : s.by_type) per_model[t.model] += t.total_us;
  for (const auto& [m, us] : per_model)
    o += fmt::format("msprof_model_op_time_seconds{{{},model=\"{}\"}} {:.9f}\n", base,
                     label(p.models[m].name), us / 1e6);
  gauge("msprof_op_type_time_seconds", "Total time per op type (op_statistic).");
  for (const auto& t : s.by_type)
    o += fmt::format(
        "msprof_op_type_time_seconds{{{},model=\"{}\",op_type=\"{}\",core_type=\"{}\"}} {:.9f}\n",
        base, label(p.models[t.model].name), label(t.op_type), t.core_type, t.total_us / 1e6);
  gauge("msprof_op_type_count", "Executions per op type (op_statistic).");
  for (const auto& t : s.by_type)
    o += fmt::format("msprof_op_type_count{{{},model=\"{}\",op_type=\"{}\",core_type=\"{}\"}} {}\n",
                     base, label(p.models[t.model].name), label(t.op_type), t.core_type, t.count);
  return o;
}

std::string readmeText(const Profile& p, const Summary& s) {
  const std::string& ts = p.info.timestamp;
  return fmt::format(
      R"(msprof output (asc-tools)
=========================
Command: {}
Traced: {} process(es), {} model session(s), {} run(s), {} op executions.
Traced wall time: {:.3f} ms (per run, first op start to last op end, summed); op time {:.3f} ms.

Files
  op_summary_{}.csv    one row per op execution. Real msprof columns first (N/A where a
                        column has no meaning on the CPU runtime: Block Num, Mix Block Num,
                        HF32 Eligible, Context ID), then asc-tools' own: Original Op Names
                        (the ONNX nodes the op stands for), Iteration, FLOPs, Bytes Moved,
                        Achieved GFLOPS, CPU Peak Efficiency(%) against this machine's measured
                        fp32 peak ({:.1f} GFLOP/s per core, times the session's threads), and Estimated Target Time(us): an ESTIMATE of
                        the time on {} ({:.1f} TFLOP/s fp16 peak, compute bound).
  op_statistic_{}.csv  totals per model and op type; Ratio(%) is the share of all op time.
  task_time_{}.csv     one row per op execution (kernel_name, kernel_type, start and stop).
  msprof_{}.json       Chrome trace events: open in https://ui.perfetto.dev or
                        chrome://tracing. One process per traced program; lanes AscendCL
                        (LoadModel, ModelExecute), AI Core, AI CPU; counters for CPU use and RSS.
  report.html           self-contained report (no network): Gantt timeline of one run, time by
                        op type, efficiency chart, data sampling.
Times are in microseconds on the steady clock shared by all processes. Task Wait Time is the gap
since the previous op of the same run ended.

Regenerate these files from the raw data in ../host/data:
  msprof --export=on --output=<this PROF_ folder>
Prometheus text format (node_exporter textfile collector):
  msprof --export=prometheus --output=<this PROF_ folder>
)",
      p.info.command, p.processes.size(), p.models.size(), s.runs, s.tasks, s.wall_us / 1e3,
      s.op_us / 1e3, ts, p.info.cpu_core_peak_gflops, s.target_soc, s.target_tflops, ts, ts, ts);
}

}  // namespace asc::msprof
