// vendors.cpp: where the tools find custom operators (ophost.h, loadCustomOperators): the folders
// the user names, else ASCEND_CUSTOM_OPP_PATH's, then the vendor packages installed in
// $ASCEND_OPP_PATH/vendors in the order of vendors/config.ini, as CANN's tools look for them.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "asc/ophost/ophost.h"
#include "asc/ops/plugin.h"
#include "asc/support/log.h"

namespace asc::ophost {
namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t e = s.find(sep, pos);
    if (e == std::string::npos) e = s.size();
    if (std::string part = trim(s.substr(pos, e - pos)); !part.empty()) out.push_back(part);
    pos = e + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> vendorLoadPriority(const std::string& config_ini) {
  std::ifstream f(config_ini);
  std::string line;
  if (!f || !std::getline(f, line)) return {};
  // CANN reads the first line only: load_priority=<vendor>,<vendor>,...
  const size_t eq = line.find('=');
  if (eq == std::string::npos || trim(line.substr(0, eq)) != "load_priority") return {};
  return splitOn(line.substr(eq + 1), ',');
}

Status loadVendorFolder(const std::string& folder) {
  bool cann = false;
  ASC_RETURN_IF_ERROR(loadCannVendor(folder, &cann));
  if (cann) {
    ops::notePluginFolder(folder);
    return Status::ok();
  }
  return ops::loadPlugins(folder);
}

Status loadCustomOperators(const std::string& option_value, bool named_must_load) {
  // Once per process: atc, msame and every model an AscendCL application loads ask.
  static std::mutex mu;
  static bool installed_done = false;
  std::lock_guard<std::mutex> lock(mu);
  const char* env = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  const std::string named = !option_value.empty() ? option_value : env ? env : "";
  for (const std::string& folder : splitOn(named, ':')) {
    Status st = loadVendorFolder(folder);
    if (st.isOk()) continue;
    if (named_must_load) return st;
    ASC_LOG_WARN("ASCEND_CUSTOM_OPP_PATH's {} was not loaded: {}", folder, st.message());
  }
  // Folders the user names replace the installed packages (--op_plugin_path); the environment's
  // come before them, as in CANN.
  if (!option_value.empty() || installed_done) return Status::ok();
  installed_done = true;
  const char* opp = std::getenv("ASCEND_OPP_PATH");
  if (!opp || !*opp) return Status::ok();
  namespace fs = std::filesystem;
  const fs::path vendors = fs::path(opp) / "vendors";
  for (const std::string& vendor : vendorLoadPriority((vendors / "config.ini").string())) {
    const fs::path folder = vendors / vendor;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      ASC_LOG_WARN("{} lists vendor '{}', which has no folder {}: skipped",
                   (vendors / "config.ini").string(), vendor, folder.string());
      continue;
    }
    // An installed package that does not load costs its own operators, not the others' (CANN's
    // loader, too, warns and goes on): a model that uses them then fails naming the operator.
    if (Status st = loadVendorFolder(folder.string()); !st.isOk())
      ASC_LOG_WARN("the custom operator package {} was not loaded: {}", folder.string(),
                   st.message());
  }
  return Status::ok();
}

}  // namespace asc::ophost
