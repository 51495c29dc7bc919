// ophost.h: how an Ascend C operator project (opgen's -lan cpp project) becomes an operator
// plugin. The project's op_host/<op>.cpp declares its prototype with ops::OpDef and OP_ADD
// (register/op_def_registry.h), framework/onnx_plugin/<op>_plugin.cpp maps the ONNX operator
// (register/register.h), and the build compiles op_kernel/<op>.cpp once per dtype column of the
// prototype and adds each entry with addKernelEntry. ASC_OPHOST_PLUGIN() then exports the plugin
// entry points (asc/ops/plugin.h), whose registration turns all of it into asc::ops::OpDefs:
// - inference (atc): the prototype's InferShape / InferDataType on the node's shapes, dtypes and
//   attributes; a dtype combination that is no column of the prototype is refused;
// - the kernel (msame): the tiling function, then the Ascend C kernel of the matching column run
//   on every block through the CPU layer (asc/ascendc/launch.h). fp32/fp16/bf16 tensors are
//   converted when the only matching column has another float type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/opgen/opgen.h"
#include "asc/ops/plugin.h"

namespace asc::ophost {

/// Calls one compiled kernel with its arguments: the inputs, the outputs, the workspace and the
/// tiling data, as GM pointers.
using KernelEntry = void (*)(uint8_t** args);

/// Adds the kernel `kernel_name` of operator `op_type` compiled for one dtype column: `dtypes`
/// holds the ge::DataType of each input, then of each output.
ASC_API void addKernelEntry(const char* op_type, const char* kernel_name, std::vector<int> dtypes,
                            KernelEntry entry);
/// As addKernelEntry, for a kernel that uses the cube (its source includes lib/matmul_intf.h,
/// which defines ASC_KERNEL_USES_CUBE): CANN compiles it as a mixed kernel, so on a chip whose
/// AI Cores pair one cube core with two vector cores it runs on both vector cores of each block
/// (asc::ascendc::subBlocksFor). Generated kernel wrappers pick this one by that macro.
ASC_API void addMixedKernelEntry(const char* op_type, const char* kernel_name,
                                 std::vector<int> dtypes, KernelEntry entry);

/// Registers everything this plugin added (prototypes, framework mappings, kernel entries).
/// E10001 names the operator and what is missing or inconsistent.
ASC_API void registerPending(asc::ops::PluginRegistrar& r);

// --- direct calls (the aclnn API: acl/include/aclnn, docs/ascendc.md) --------------------------

/// One tensor of a direct call, as the application describes it.
struct CallTensor {
  bool present = true;  // false: an optional input left out (nullptr)
  void* data = nullptr;
  int dtype = -1;  // ge::DataType
  std::vector<int64_t> dims;
  /// A DYNAMIC input (aclTensorList): its tensors, in order (the fields above unused).
  bool is_list = false;
  std::vector<CallTensor> list;
};

/// One attribute of a direct call, in the prototype's Attr() order: the member of the kind the
/// prototype declares is read (floats as double, as aclnn passes them).
struct CallAttr {
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
};

/// A call of one operator whose tiling has run: what aclnn<Op>GetWorkspaceSize returns an
/// executor for.
class ASC_API PreparedCall {
 public:
  virtual ~PreparedCall() = default;
  /// The workspace the kernel needs, in bytes (the tiling function's GetWorkspaceSizes, summed).
  virtual uint64_t workspaceBytes() const = 0;
  /// Runs the kernel on every block. `workspace` holds `bytes` bytes; fewer than
  /// workspaceBytes() is refused. Messages do not name the call (the caller does).
  virtual Status run(void* workspace, uint64_t bytes) = 0;
};

/// Prepares a call of the registered operator `op_type` (its plugin loaded): checks the tensors
/// and attributes against its prototype, picks the kernel of exactly these dtypes and runs its
/// tiling function for chip `soc` (empty: the default chip). `api` names the caller in messages.
ASC_API Result<std::unique_ptr<PreparedCall>> prepareCall(const std::string& api,
                                                          const std::string& op_type,
                                                          const std::vector<CallTensor>& inputs,
                                                          const std::vector<CallTensor>& outputs,
                                                          const std::vector<CallAttr>& attrs,
                                                          const std::string& soc);

/// Registers the operators of a vendor folder laid out as CANN's custom operator packages
/// (<vendor>/op_impl/ai_core/tbe/op_tiling/lib/linux/<arch>/libcust_opmaster_rt2.0.so: the
/// prototypes and tiling; op_impl/ai_core/tbe/kernel/<unit>/<op>/*.o: kernels asc-tools' opc
/// compiled for the CPU, of one compute unit, ascend910b where present; framework/**/*.so:
/// framework plugins, REGISTER_CUSTOM_OP, whatever framework's folder they sit in, as CANN
/// loads a vendor's whole framework folder; one that does not load is a warning). Once per
/// folder; false in `*found` when the folder has no such tiling library.
ASC_API Status loadCannVendor(const std::string& vendor, bool* found);

/// The operators of one vendor folder: CANN's layout (loadCannVendor), else asc-tools' plugins
/// (*.so at its top, ops::loadPlugins: opgen's packages).
ASC_API Status loadVendorFolder(const std::string& folder);

/// The custom operators atc, msame and AscendCL's model loading use, found where CANN's tools
/// find them (docs/plugins.md, "Where the tools find custom operators"): each ':'-separated
/// folder of `option_value` (--op_plugin_path) when given, else of ASCEND_CUSTOM_OPP_PATH; then,
/// unless `option_value` is given, the vendors $ASCEND_OPP_PATH/vendors/config.ini lists in its
/// load_priority, first to last (once per process). A named folder that fails to load is an
/// error (a warning when `named_must_load` is false: AscendCL's model loads, which CANN lets
/// skip a custom path it cannot use); an installed vendor that fails is a warning (its
/// operators stay unknown).
ASC_API Status loadCustomOperators(const std::string& option_value, bool named_must_load = true);

/// The vendors of a vendors/config.ini, from its first line `load_priority=a,b,c` (trimmed);
/// empty when the file is missing or its first line is no load_priority.
ASC_API std::vector<std::string> vendorLoadPriority(const std::string& config_ini);

/// The prototypes the operator library `file` declares with OP_ADD, as op descriptions (names,
/// parameter kinds, attribute types; no dtype columns), for op_build. Loads the library. Fails
/// when it does not load, declares no operator, or has a DYNAMIC output.
ASC_API Result<std::vector<opgen::OpDesc>> pluginOpDescs(const std::string& file);

}  // namespace asc::ophost

/// The plugin entry points of an Ascend C operator project.
#define ASC_OPHOST_PLUGIN() ASC_OP_PLUGIN(asc::ophost::registerPending)
