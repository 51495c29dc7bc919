// op_blacklist.cpp: the atc --op_blacklist file (nodes no pass may fuse, fold or remove).
#include "asc/passes/pass.h"
#include "op_blacklist.pb.h"
#include "support/json_config.h"

namespace asc::passes {

Status readOpBlacklist(const std::string& path, PassContext* ctx) {
  asc::config::OpBlacklist b;
  ASC_RETURN_IF_ERROR(readJsonConfig(
      path, "op_blacklist", R"({"op_types": ["Softmax"], "op_names": ["node_name"]})", &b));
  ctx->keep_types.insert(b.op_types().begin(), b.op_types().end());
  ctx->keep_names.insert(b.op_names().begin(), b.op_names().end());
  return Status::ok();
}

}  // namespace asc::passes
