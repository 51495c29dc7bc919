// templates.h: the text of every file of a generated operator project (project.cpp writes them):
// project_files.cpp the project-wide ones, op_files.cpp each operator's host, kernel and
// framework files, test_files.cpp its UT and ST; templates.cpp what they share. In the texts,
// @NAME@ marks a field the generator fills; parts repeated per input, output and attribute are
// built in code.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "asc/opgen/opgen.h"

namespace asc::opgen {

/// What the templates need to know besides the ops.
struct ProjectInfo {
  std::string soc;           // --soc_version of the ST (e.g. Ascend310P3)
  std::string compute_unit;  // what AddConfig and ASCEND_COMPUTE_UNIT say (e.g. ascend310p)
  std::string cann_path;     // SDK prefix
  std::string framework;     // onnx | tf | caffe (the framework plugin generated)
};

// Project-wide files.
/// build.sh; an aclnn ("simple") project also links build_out/op_api to the vendor's op_api
/// folder, where its applications find aclnn_<op>.h and libcust_opapi.so.
std::string buildSh(const std::string& framework);
std::string cmakeLists();
std::string cmakePresets(const ProjectInfo& p);
std::string funcCmake();
std::string makeselfCmake();
std::string kernelCmakeHeader();
std::string kernelCmakeLine(const OpDesc& op);
std::string testcasesCmake();
std::string utCmakeHeader();
std::string utCmakeLine(const OpDesc& op);
std::string stCmakeHeader();
std::string stCmakeLine(const OpDesc& op);
std::string stRunSh(const ProjectInfo& p);
std::string readme(const ProjectInfo& p);

// Per-op files.
std::string tilingHeader(const OpDesc& op);
std::string opHost(const OpDesc& op, const ProjectInfo& p);
std::string opKernel(const OpDesc& op);
std::string frameworkPlugin(const OpDesc& op, const ProjectInfo& p);
std::string referenceHeader(const OpDesc& op);
std::string harnessHeader(const OpDesc& op);
std::string utSource(const OpDesc& op);
std::string stSource(const OpDesc& op);

/// The framework plugin's path relative to the project (framework/onnx_plugin/<op>_plugin.cpp).
std::string frameworkPluginPath(const OpDesc& op, const std::string& framework);

/// The C++ element type of a ge::DataType name ("DT_FLOAT16" -> "half").
std::string ctype(const std::string& ge);

/// What the template files share (templates.cpp).
namespace detail {
using Subst = std::vector<std::pair<std::string, std::string>>;
/// `text` with every @KEY@ field replaced.
std::string subst(std::string text, const Subst& s);
/// A ge::DataType name ("DT_FLOAT") as CANN's ops-info files spell it ("float32"), and its
/// ge::DataType value (-1 when unknown).
std::string infoType(const std::string& ge);
int geCode(const std::string& ge);
/// msopgen's and the ops-info files' type spellings ("float16", "fp32", ...) as a ge::DataType
/// name; "" when unknown (op_json.cpp).
std::string geTypeOf(const std::string& type);
/// A whole file's bytes.
Result<std::string> readText(const std::string& path);
std::string upper(const std::string& s);
/// Member-name stem of a parameter ("x" -> "X", "x_1" -> "X_1").
std::string stem(const std::string& name);
/// The required entries of an input or output list.
std::vector<const ParamDesc*> required(const std::vector<ParamDesc>& ps);
/// The tiling-data field type of an attribute ("" for str and lists: they stay on the host).
std::string tilingType(const AttrDesc& a);
/// The RuntimeAttrs getter and the OpAttrDef builder call of an attribute.
std::string attrGetter(const AttrDesc& a);
std::string attrBuilder(const AttrDesc& a);
/// "ge::DT_FLOAT, ge::DT_FLOAT16" from {"DT_FLOAT", "DT_FLOAT16"} with prefix "ge::".
std::string joinGe(const std::vector<std::string>& v, const char* prefix);
/// The random-data range ("lo, hi") the UT and ST draw a ge::DataType's values from.
std::string randomRange(const std::string& ge);
/// The numpy name of a ge::DataType (mscompare --dtype).
const char* numpyName(const std::string& ge);
}  // namespace detail

}  // namespace asc::opgen
