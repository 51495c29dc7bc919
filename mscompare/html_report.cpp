// html_report.cpp: mscompare --html: one self-contained page (no network, no external file):
// per layer in execution order, the cosine similarity and the maximum relative error as SVG
// charts, the first failing layer marked, the advice, and the table below. A small script
// reports each chart's laid-out size on <body data-rendered>, so a headless browser test can
// check that the page renders.
#include "html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "asc/support/file.h"
#include "asc/support/strings.h"

namespace asc::mscompare {
namespace {

constexpr double kW = 960, kH = 220, kLeft = 60, kRight = 20, kTop = 16, kBottom = 28;

double xAt(size_t i, size_t n) {
  const double span = kW - kLeft - kRight;
  return kLeft + (n <= 1 ? span / 2 : span * static_cast<double>(i) / static_cast<double>(n - 1));
}

// One line chart: values mapped by `y` (NaN points are left out), ticks as (value, label).
std::string chart(const char* id, const char* title, const std::vector<HtmlLayer>& layers,
                  double (*value)(const HtmlLayer&), double lo, double hi, bool log_scale,
                  const std::vector<std::pair<double, std::string>>& ticks, int first_failing) {
  auto y = [&](double v) {
    double t = log_scale ? (std::log10(std::max(v, lo)) - std::log10(lo)) /
                               (std::log10(hi) - std::log10(lo))
                         : (v - lo) / (hi - lo);
    t = std::clamp(t, 0.0, 1.0);
    return kTop + (1 - t) * (kH - kTop - kBottom);
  };
  std::string s = fmt::format(
      "<h2>{}</h2>\n<svg id=\"{}\" class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} "
      "{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n",
      title, id, kW, kH, kW, kH);
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", kLeft,
                   kH - kBottom, kW - kRight, kH - kBottom);
  for (const auto& [v, label] : ticks)
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" class=\"grid\"/><text x=\"{3}\" "
        "y=\"{4:.1f}\" class=\"tick\">{5}</text>\n",
        kLeft, y(v), kW - kRight, kLeft - 6, y(v) + 4, htmlEscape(label));
  const size_t n = layers.size();
  if (first_failing >= 0)
    s += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" class=\"first\"/><text "
        "x=\"{3:.1f}\" y=\"{4}\" class=\"firstlabel\">first failing: {5}</text>\n",
        xAt(static_cast<size_t>(first_failing), n), kTop, kH - kBottom,
        xAt(static_cast<size_t>(first_failing), n) + 4, kTop + 10,
        htmlEscape(layers[static_cast<size_t>(first_failing)].label));
  std::string path;
  for (size_t i = 0; i < n; ++i) {
    const double v = value(layers[i]);
    if (std::isnan(v)) continue;
    path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", xAt(i, n), y(v));
  }
  if (!path.empty()) s += fmt::format("<path d=\"{}\" class=\"line\"/>\n", path);
  for (size_t i = 0; i < n; ++i) {
    const double v = value(layers[i]);
    if (std::isnan(v)) continue;
    s += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" class=\"{}\"><title>#{} {} ({}): {:.6g}"
        "</title></circle>\n",
        xAt(i, n), y(v), layers[i].failed ? "bad" : "ok", i + 1, htmlEscape(layers[i].label),
        htmlEscape(layers[i].op_type), v);
  }
  s += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"tick\">layers in execution order (1 to {})</text>\n", kLeft,
      kH - 8, n);
  return s + "</svg>\n";
}

double cosineOf(const HtmlLayer& l) { return l.cosine; }
double maxRelOf(const HtmlLayer& l) { return l.max_rel; }

std::string cell(double v) { return std::isnan(v) ? "NaN" : fmt::format("{:.6f}", v); }

}  // namespace

std::string htmlReport(const std::string& title, const std::vector<HtmlLayer>& layers,
                       const std::string& advice) {
  int first = -1;
  for (size_t i = 0; i < layers.size() && first < 0; ++i)
    if (layers[i].failed) first = static_cast<int>(i);
  double lo = 1;
  for (const auto& l : layers)
    if (!std::isnan(l.cosine)) lo = std::min(lo, l.cosine);
  lo = lo >= 0.99 ? 0.99 : (lo >= 0.9 ? 0.9 : (lo >= 0 ? 0 : -1));
  std::vector<std::pair<double, std::string>> cos_ticks;
  for (double t : {lo, (lo + 1) / 2, 1.0}) cos_ticks.emplace_back(t, fmt::format("{:g}", t));
  const std::vector<std::pair<double, std::string>> rel_ticks = {
      {1e-6, "1e-6"}, {1e-4, "1e-4"}, {1e-2, "1e-2"}, {1, "1"}, {100, "1e2"}};
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
      htmlEscape(title) +
      "</title>\n<style>\n"
      "body{font-family:sans-serif;margin:24px;color:#222}\n"
      "h1{font-size:20px}h2{font-size:16px;margin:20px 0 4px}\n"
      ".axis{stroke:#444}.grid{stroke:#ddd}.tick{font-size:11px;fill:#555;text-anchor:end}\n"
      ".xlabel{font-size:11px;fill:#555}\n"
      ".line{fill:none;stroke:#2b6cb0;stroke-width:1.5}.ok{fill:#2b6cb0}.bad{fill:#c53030}\n"
      ".first{stroke:#c53030;stroke-dasharray:4 3}.firstlabel{font-size:12px;fill:#c53030}\n"
      "table{border-collapse:collapse;font-size:13px;margin-top:12px}\n"
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}\n"
      "tr.bad td{background:#fff0f0}tr.firstrow td{background:#fed7d7;font-weight:bold}\n"
      ".advice{background:#fffbea;border:1px solid #ecc94b;padding:8px 12px;margin:12px 0}\n"
      "</style>\n</head>\n<body>\n<h1>" +
      htmlEscape(title) + "</h1>\n";
  size_t failed = 0, compared = 0;
  for (const auto& l : layers) {
    failed += l.failed;
    compared += l.compared;
  }
  s += fmt::format("<p>{} tensors, {} compared, {} failed; first failing layer: <b>{}</b></p>\n",
                   layers.size(), compared, failed,
                   first < 0 ? "none" : htmlEscape(layers[first].label));
  if (!advice.empty()) s += "<div class=\"advice\">" + htmlEscape(advice) + "</div>\n";
  s += chart("cosine", "Cosine similarity per layer", layers, cosineOf, lo, 1, false, cos_ticks,
             first);
  s += chart("maxrel", "Maximum relative error per layer (log scale)", layers, maxRelOf, 1e-6, 100,
             true, rel_ticks, first);
  s += "<h2>Layers</h2>\n<table>\n<tr><th>#</th><th>layer</th><th>type</th><th>golden</th>"
       "<th>cosine</th><th>max relative error</th><th>result</th><th>reason</th></tr>\n";
  for (size_t i = 0; i < layers.size(); ++i) {
    const auto& l = layers[i];
    s += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td></tr>\n",
        static_cast<int>(i) == first ? "bad firstrow" : (l.failed ? "bad" : "ok"), i + 1,
        htmlEscape(l.label), htmlEscape(l.op_type), htmlEscape(l.golden), cell(l.cosine),
        cell(l.max_rel), l.failed ? "fail" : (l.compared ? "pass" : "not compared"),
        htmlEscape(l.reason));
  }
  s += "</table>\n<script>\n"
       "(function(){var out=[];document.querySelectorAll('svg.chart').forEach(function(c){"
       "var b=c.getBBox();out.push(c.id+':'+c.querySelectorAll('circle').length+':'+"
       "Math.round(b.width)+'x'+Math.round(b.height));});"
       "document.body.setAttribute('data-rendered',out.join(' '));})();\n"
       "</script>\n</body>\n</html>\n";
  return s;
}

Status writeHtmlReport(const std::string& path, const std::string& title,
                       const std::vector<HtmlLayer>& layers, const std::string& advice) {
  const std::string page = htmlReport(title, layers, advice);
  return writeFileAtomic(path, page.data(), page.size());
}

}  // namespace asc::mscompare
