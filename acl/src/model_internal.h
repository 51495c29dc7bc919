// model_internal.h: what the model files of asc-tools' AscendCL share (model.cpp: loading,
// execution, profiles; model_desc.cpp: descriptions and AIPP information).
#pragma once

#include <unistd.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl_internal.h"
#include "asc/om/om_file.h"
#include "asc/runtime/session.h"

namespace asc::acl {

struct IO {
  std::string name;
  ir::DType dtype = ir::DType::Undefined;
  ir::Shape dims;
  size_t bytes = 0;
  aclFormat format = ACL_FORMAT_ND;
};

struct ModelInfo {
  std::vector<IO> inputs, outputs;  // inputs: the graph's, then the profile input if any
  std::string kind;                 // om::DynamicShapes::kind ("" static or run-time only)
  bool dynamic = false;
  std::vector<std::vector<ir::Shape>> gears;
  std::vector<std::vector<om::DimRange>> ranges;
  size_t graph_inputs = 0;
  bool has_profile_input() const { return !gears.empty(); }
  // Per graph input: the attributes of the static Aipp op it feeds (empty: none).
  std::vector<std::shared_ptr<const ir::Attrs>> aipp;
  std::vector<ir::Shape> aipp_out_shapes;
};

struct Model {
  uint32_t id = 0;
  std::string path;
  int memfd = -1;
  ModelInfo info;
  std::mutex mu;
  std::vector<std::unique_ptr<runtime::Session>> idle;
  std::vector<ir::Shape> last_outputs;  // the output shapes of the latest execution (under mu)
  ~Model() {
    if (memfd >= 0) close(memfd);
  }
};

/// The loaded model `id`; nullptr and ACL_ERROR_INVALID_MODEL_ID (naming `api`) when none is.
std::shared_ptr<Model> findModel(const char* api, uint32_t id, aclError* err);
/// The ACL code and message of a failed load.
aclError loadError(const char* api, const Status& st);
/// What a session's model looks like to an application (the profile input included).
ModelInfo describe(const runtime::Session& s);
/// The values a profile is chosen by: a dynamic batch's batch, an image size's (h, w), or every
/// input's dims concatenated (dynamic dims).
std::vector<int64_t> profileKey(const ModelInfo& m, const std::vector<ir::Shape>& gear);
/// The profiles' keys, for messages.
std::string describeProfiles(const ModelInfo& m);

}  // namespace asc::acl

struct aclmdlDesc {
  asc::acl::ModelInfo info;
  bool filled = false;
  uint32_t model_id = 0;  // 0: from a file (aclmdlGetDescFromFile)
};
