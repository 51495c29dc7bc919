// html_report.h: mscompare --html, a self-contained page of a comparison (html_report.cpp).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "asc/support/status.h"

namespace asc::mscompare {

/// One compared tensor, in execution order.
struct HtmlLayer {
  std::string label;    // "op output 0"
  std::string op_type;  // CANN type when known
  std::string golden;   // the golden (source model) names
  double cosine = std::numeric_limits<double>::quiet_NaN();
  double max_rel = std::numeric_limits<double>::quiet_NaN();
  bool compared = false;  // false: no golden partner, or it could not be read
  bool failed = false;
  std::string reason;
};

std::string htmlReport(const std::string& title, const std::vector<HtmlLayer>& layers,
                       const std::string& advice);
/// Writes the page atomically (E13002 when it cannot).
Status writeHtmlReport(const std::string& path, const std::string& title,
                       const std::vector<HtmlLayer>& layers, const std::string& advice);

}  // namespace asc::mscompare
