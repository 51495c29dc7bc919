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
#include <vector>

#include "asc/asc.h"
#include "asc/ops/plugin.h"

namespace asc::ophost {

/// Calls one compiled kernel with its arguments: the inputs, the outputs, the workspace and the
/// tiling data, as GM pointers.
using KernelEntry = void (*)(uint8_t** args);

/// Adds the kernel `kernel_name` of operator `op_type` compiled for one dtype column: `dtypes`
/// holds the ge::DataType of each input, then of each output.
ASC_API void addKernelEntry(const char* op_type, const char* kernel_name, std::vector<int> dtypes,
                            KernelEntry entry);

/// Registers everything this plugin added (prototypes, framework mappings, kernel entries).
/// E10001 names the operator and what is missing or inconsistent.
ASC_API void registerPending(asc::ops::PluginRegistrar& r);

}  // namespace asc::ophost

/// The plugin entry points of an Ascend C operator project.
#define ASC_OPHOST_PLUGIN() ASC_OP_PLUGIN(asc::ophost::registerPending)
