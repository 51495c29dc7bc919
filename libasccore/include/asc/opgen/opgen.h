// opgen.h: the operator project generator behind `opgen gen` (msopgen's spellings and rules,
// shared/reference/ascend-facts.md §7). An op-definition JSON (a list of operators with
// input_desc, output_desc and attr; the `type` and `format` lists of all inputs and outputs line
// up column by column) becomes an Ascend C (-lan cpp) project: build.sh, CMakeLists.txt,
// CMakePresets.json, cmake/, op_host/, op_kernel/, framework/<fw>_plugin/, testcases/ut and
// testcases/st. The generated project builds against the installed SDK into an operator plugin
// (asc/ophost/ophost.h) that atc and msame load with --op_plugin_path.
#pragma once

#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc::opgen {

/// msopgen's exit codes (msopgen/interface/const_manager.py).
enum ExitCode {
  kOk = 0,
  kUnsupportedFramework = 11,
  kInvalidOutputPath = 12,
  kInvalidOpInfoFile = 13,
  kInvalidComputeUnit = 14,
  kUnsupportedMode = 15,
  kOpDefineError = 16,
  kInvalidParam = 17,
};

struct ParamDesc {
  std::string name;
  std::string param_type = "required";  // required | optional | dynamic (inputs: a tensor list)
  std::vector<std::string> formats;     // ND, NCHW, NHWC: one per column
  std::vector<std::string> types;       // the ge::DataType spelling: DT_FLOAT, DT_FLOAT16, ...
};

struct AttrDesc {
  std::string name;
  std::string param_type = "optional";  // required | optional
  std::string type;                     // int, float, bool, str, list_int, list_float
  std::string default_value;            // as C++ text ("0.01f", "true", "{1, 2}"); "" if none
};

struct OpDesc {
  std::string op;     // UpperCamelCase op type
  std::string snake;  // its file name (msopgen's snake case)
  std::vector<ParamDesc> inputs, outputs;
  std::vector<AttrDesc> attrs;
  std::vector<std::string> socs;  // AICore().AddConfig's (op_build's ops-info files)
  size_t columns() const { return inputs.empty() ? 0 : inputs[0].types.size(); }
};

/// A failure with msopgen's exit code.
struct GenError {
  int exit_code = kOk;
  Status status;
};

/// msopgen's snake case of an op type ("Conv2D" -> "conv2_d", "AddCustom" -> "add_custom").
ASC_API std::string snakeCase(const std::string& op_type);

/// Parses and checks an op-definition JSON; `path` names it in messages. Errors name the op and
/// the field (exit code 13 for JSON that is no op list, 16 for a bad op definition).
ASC_API Status parseOpJson(const std::string& text, const std::string& path,
                           std::vector<OpDesc>* ops, int* exit_code);

struct GenOptions {
  std::string input;         // -i op.json
  std::string compute_unit;  // -c ai_core-<soc> | vector_core-<soc>
  std::string output = "./";
  std::string framework = "tf";
  std::string language = "py";
  std::string op;         // -op: generate only this op of the JSON
  int mode = 0;           // 0 new project, 1 add to an existing one
  bool force = false;     // overwrite an existing project (asc-tools' --force)
  std::string cann_path;  // the SDK prefix written into CMakePresets.json
};

struct GenReport {
  std::vector<std::string> ops;    // generated op types
  std::vector<std::string> files;  // written, relative to the output folder
  std::string soc;                 // the --soc_version the project targets
};

/// Writes into `dir` what op_build generates from a built op_host (docs/ascendc.md): for each op
/// aclnn_<op>.h and aclnn_<op>.cpp (the aclnn single-operator API); aic-<soc>-ops-info.ini for
/// each soc the ops' AddConfig names (CANN's ops-info format, which operator projects' build
/// scripts read); op_proto.h and op_proto.cc. `written` gets the names.
ASC_API Status writeAclnnSources(const std::vector<OpDesc>& ops, const std::string& dir,
                                 std::vector<std::string>* written);

/// What asc-tools' opc is asked for by a CANN-generated operator project's `binary` target: one
/// dtype column of one operator (CANN's command line: `opc <impl .py> --main_func=F
/// --input_param=<param JSON> --soc_version=S --output=DIR ...`).
struct CannKernelRequest {
  std::string impl_py;  // the generated implementation file; the kernel source is near it
  // $BUILD_KERNEL_SRC, which newer project templates' compile scripts export from their
  // --kernel-src= argument: the implementation file's own search takes it second.
  std::string kernel_src;
  std::string main_func;    // the kernel's entry function
  std::string input_param;  // op_list[0]: bin_filename, inputs, outputs (dtype, format), attrs
  std::string soc;          // --soc_version (recorded; the CPU kernel is the same for all)
  std::string output;       // where <bin>.o and <bin>.json go
  std::string sdk_prefix;   // the asc-tools prefix whose headers and libasccore the kernel uses
  std::string cwd;  // the build tree folder opc runs in (its CMakeCache.txt names the project)
};

/// Compiles the request's kernel for the CPU twin with the host compiler ($CXX, else g++) into
/// DIR/<bin>.o, a shared object that registers the kernel's entry (asc::ophost::addKernelEntry)
/// when loaded, and writes DIR/<bin>.json, its description in the shape CANN's operator-project
/// scripts read. The tiling structure comes from the project's op_host header that registers it
/// (REGISTER_TILING_DATA_CLASS). Fails naming what is missing: the kernel source, the tiling
/// header, a DYNAMIC parameter, an unknown dtype, a compile error.
ASC_API Status buildCannKernel(const CannKernelRequest& r, std::string* object);

/// Generates the project. On failure nothing of it is left behind (a new project's folder is
/// removed; -m 1 writes after every check has passed).
ASC_API Status generate(const GenOptions& opts, GenReport* report, int* exit_code);

}  // namespace asc::opgen
