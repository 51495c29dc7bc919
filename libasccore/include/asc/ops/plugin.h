// plugin.h: custom-operator plugins. A plugin is a shared library built against this SDK that
// defines its operators as OpDefs (ONNX mapping, shape inference, CPU kernel, as the in-tree ops
// do) and exports one versioned registration function:
//
//   #include "asc/ops/plugin.h"
//   static void registerMyOps(asc::ops::PluginRegistrar& r) {
//     r.add(asc::ops::OpDef("LeakyRelu2").onnx(1).cann("LeakyRelu2").inferShape(...).kernel(...));
//   }
//   ASC_OP_PLUGIN(registerMyOps)
//
// The loader refuses a library built for another plugin ABI (asc_op_plugin_abi() differs), one
// that is no plugin, one that fails to load, and an operator whose name or CANN type is taken,
// each by name. Tools find plugins through --op_plugin_path=DIR or ASCEND_CUSTOM_OPP_PATH (the
// real variable; folders separated by ':').
#pragma once

#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ops/op_def.h"
#include "asc/support/status.h"

/// The plugin ABI: raised whenever OpDef, InferContext, Kernel, the registrar or the Ascend C host
/// API's objects (register/op_def_registry.h, register/register.h) change layout.
#define ASC_OP_PLUGIN_ABI 4

namespace asc::ops {

/// What a plugin's registration function receives.
class ASC_API PluginRegistrar {
 public:
  explicit PluginRegistrar(std::string origin) : origin_(std::move(origin)) {}
  /// Registers one operator (ops::registerOp); the first failure is kept and ends the load.
  void add(OpDef def);
  /// Ends the load with an error (what the plugin found wrong with itself).
  void fail(Status st) {
    if (status_.isOk()) status_ = std::move(st);
  }
  const Status& status() const { return status_; }
  const std::vector<std::string>& added() const { return added_; }

 private:
  std::string origin_;
  Status status_;
  std::vector<std::string> added_;
};

/// Loads every plugin (*.so) in each ':'-separated folder of `paths` (sorted by file name), once
/// per file per process. E10001 for a folder that does not exist, a library that fails to load,
/// is no plugin or has another ABI, or registers an operator already registered.
ASC_API Status loadPlugins(const std::string& paths);
/// The folders plugins were looked for in so far (for messages about a missing operator).
ASC_API std::string pluginSearchPath();
/// Adds a folder whose operators another loader registered (a CANN vendor package, ophost.h).
ASC_API void notePluginFolder(const std::string& folder);

}  // namespace asc::ops

/// Defines the two entry points of a plugin around `fn`, a void(asc::ops::PluginRegistrar&).
#define ASC_OP_PLUGIN(fn)                                                        \
  extern "C" __attribute__((visibility("default"))) int asc_op_plugin_abi() {    \
    return ASC_OP_PLUGIN_ABI;                                                    \
  }                                                                              \
  extern "C" __attribute__((visibility("default"))) void asc_op_plugin_register( \
      asc::ops::PluginRegistrar* registrar) {                                    \
    fn(*registrar);                                                              \
  }
