// templates.h: the text of every file of a generated operator project (project.cpp fills them).
#pragma once

#include <string>
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
std::string buildSh();
std::string cmakeLists();
std::string cmakePresets(const ProjectInfo& p);
std::string funcCmake();
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

}  // namespace asc::opgen
