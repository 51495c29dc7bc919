// plugin.cpp: the custom-operator plugin loader (see plugin.h).
#include "asc/ops/plugin.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <set>

#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"

namespace asc::ops {
namespace {

std::mutex& loaderMutex() {
  static std::mutex m;
  return m;
}
std::set<std::string>& loadedFiles() {
  static std::set<std::string> s;
  return s;
}
std::vector<std::string>& searched() {
  static std::vector<std::string> v;
  return v;
}

Status loadOne(const std::string& file) {
  char resolved[PATH_MAX];
  const std::string key = realpath(file.c_str(), resolved) ? resolved : file;
  if (!loadedFiles().insert(key).second) return Status::ok();
  void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* why = dlerror();
    return Status::error(ErrorCode::InvalidParam,
                         "the operator plugin {} could not be loaded: {}; rebuild it against "
                         "this asc-tools SDK",
                         file, why ? why : "unknown reason");
  }
  using AbiFn = int (*)();
  using RegisterFn = void (*)(PluginRegistrar*);
  auto abi = reinterpret_cast<AbiFn>(dlsym(h, "asc_op_plugin_abi"));
  auto reg = reinterpret_cast<RegisterFn>(dlsym(h, "asc_op_plugin_register"));
  if (!abi || !reg) {
    dlclose(h);
    return Status::error(ErrorCode::InvalidParam,
                         "{} is no asc-tools operator plugin (it does not export "
                         "asc_op_plugin_abi and asc_op_plugin_register; see ASC_OP_PLUGIN in "
                         "asc/ops/plugin.h)",
                         file);
  }
  if (abi() != ASC_OP_PLUGIN_ABI) {
    const int theirs = abi();
    dlclose(h);
    return Status::error(ErrorCode::InvalidParam,
                         "the operator plugin {} was built for plugin ABI {}, this asc-tools "
                         "has ABI {}; rebuild it against this SDK",
                         file, theirs, ASC_OP_PLUGIN_ABI);
  }
  PluginRegistrar r(file);
  reg(&r);  // the library stays loaded: its kernels and functions are in the registry now
  if (!r.status().isOk()) return r.status();
  ASC_LOG_INFO("operator plugin {}: {} operator(s)", file, r.added().size());
  return Status::ok();
}

}  // namespace

void PluginRegistrar::add(OpDef def) {
  if (!status_.isOk()) return;
  const std::string name = def.name();
  status_ = registerOp(std::move(def), "plugin " + origin_);
  if (status_.isOk()) added_.push_back(name);
}

Status loadPlugins(const std::string& paths) {
  std::lock_guard<std::mutex> lock(loaderMutex());
  size_t pos = 0;
  while (pos <= paths.size()) {
    size_t e = paths.find(':', pos);
    if (e == std::string::npos) e = paths.size();
    const std::string dir = paths.substr(pos, e - pos);
    pos = e + 1;
    if (dir.empty()) continue;
    if (std::find(searched().begin(), searched().end(), dir) == searched().end())
      searched().push_back(dir);
    struct stat st;
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return Status::error(ErrorCode::InvalidParam,
                           "the operator plugin folder '{}' does not exist or is no folder", dir);
    ASC_TRY(std::vector<std::string> names, listDir(dir));
    for (const auto& name : names)
      if (name.size() > 3 && endsWith(name, ".so")) ASC_RETURN_IF_ERROR(loadOne(dir + "/" + name));
  }
  return Status::ok();
}

std::string pluginSearchPath() {
  std::lock_guard<std::mutex> lock(loaderMutex());
  std::string s;
  for (const auto& d : searched()) s += (s.empty() ? "" : ":") + d;
  return s;
}

void notePluginFolder(const std::string& folder) {
  std::lock_guard<std::mutex> lock(loaderMutex());
  auto& s = searched();
  if (std::find(s.begin(), s.end(), folder) == s.end()) s.push_back(folder);
}

}  // namespace asc::ops
