// atc_config.cpp: readers for atc's small configuration files (see atc_config.h).
#include "atc_config.h"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <fmt/format.h>

#include "asc/passes/pass.h"
#include "asc/support/log.h"

namespace asc::atc {

namespace {

// One "PassName:on|off" entry of a switch file or option; `where` names it in messages.
Status applySwitch(const std::string& entry, const std::string& where,
                   std::set<std::string>* disabled) {
  auto colon = entry.rfind(':');
  std::string name = entry.substr(0, colon);
  std::string state = colon == std::string::npos ? "" : entry.substr(colon + 1);
  if (state != "on" && state != "off")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter {} is invalid. Reason: write PassName:on or "
                         "PassName:off (names from atc --list_passes)",
                         entry, where);
  if (!passes::findPass(name)) {
    ASC_LOG_WARN("{}: no pass named '{}' in asc-tools (see atc --list_passes); skipped", where,
                 name);
    return Status::ok();
  }
  if (state == "off")
    disabled->insert(name);
  else
    disabled->erase(name);
  return Status::ok();
}

}  // namespace

Status readFusionSwitch(const std::string& path, std::set<std::string>* disabled) {
  if (path.empty()) return Status::ok();
  std::ifstream f(path);
  if (!f)
    return Status::error(ErrorCode::FileOpenFailed, "cannot open --fusion_switch_file '{}'", path);
  std::string line;
  for (int no = 1; std::getline(f, line); ++no) {
    line = line.substr(0, line.find('#'));
    line.erase(std::remove_if(line.begin(), line.end(), ::isspace), line.end());
    if (line.empty()) continue;
    ASC_RETURN_IF_ERROR(
        applySwitch(line, fmt::format("--fusion_switch_file ({} line {})", path, no), disabled));
  }
  return Status::ok();
}

Status readOptimizationSwitch(const std::string& spec, std::set<std::string>* disabled) {
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t e = spec.find(';', pos);
    if (e == std::string::npos) e = spec.size();
    std::string entry = spec.substr(pos, e - pos);
    entry.erase(std::remove_if(entry.begin(), entry.end(), ::isspace), entry.end());
    pos = e + 1;
    if (!entry.empty()) ASC_RETURN_IF_ERROR(applySwitch(entry, "--optimization_switch", disabled));
  }
  return Status::ok();
}

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

Result<MemoryConfig> readMemoryConfig(const std::string& path) {
  std::ifstream f(path);
  if (!f)
    return Status::error(ErrorCode::FileOpenFailed, "cannot open --memory_config file '{}'", path);
  MemoryConfig c;
  std::string line, section;
  bool seen_section = false;
  auto bad = [&](int no, const std::string& why) {
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --memory_config is invalid. Reason: line {}: {}; "
                         "expected [memory_optimize] with enable_memory_reuse=true|false and "
                         "memory_reuse_mb=N",
                         path, no, why);
  };
  for (int no = 1; std::getline(f, line); ++no) {
    line = trim(line.substr(0, std::min(line.find('#'), line.find(';'))));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') return bad(no, "unclosed section header '" + line + "'");
      section = trim(line.substr(1, line.size() - 2));
      if (section != "memory_optimize") return bad(no, "unknown section [" + section + "]");
      seen_section = true;
      continue;
    }
    auto eq = line.find('=');
    if (eq == std::string::npos) return bad(no, "'" + line + "' is not key=value");
    if (section.empty()) return bad(no, "'" + line + "' comes before any [section]");
    const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "enable_memory_reuse") {
      std::string v = value;
      std::transform(v.begin(), v.end(), v.begin(),
                     [](unsigned char ch) { return std::tolower(ch); });
      if (v == "true" || v == "1")
        c.enable_memory_reuse = true;
      else if (v == "false" || v == "0")
        c.enable_memory_reuse = false;
      else
        return bad(no, "enable_memory_reuse must be true or false, not '" + value + "'");
    } else if (key == "memory_reuse_mb") {
      const bool digits = !value.empty() && value.size() <= 12 &&
                          std::all_of(value.begin(), value.end(), ::isdigit);
      if (!digits || std::stoull(value) == 0)
        return bad(no,
                   "memory_reuse_mb must be a positive whole number of MiB, not '" + value + "'");
      c.memory_reuse_mb = std::stoull(value);
    } else {
      return bad(no, "unknown key '" + key + "'");
    }
  }
  if (!seen_section) return bad(0, "no [memory_optimize] section");
  return c;
}

}  // namespace asc::atc
