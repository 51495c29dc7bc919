// atc_info.h: atc's informational outputs (atc_info.cpp), each generated from a registry.
#pragma once

#include <ostream>
#include <string>

#include "asc/support/status.h"

namespace asc::atc {
/// --ops_info=DIR: DIR/<soc>/ops_info.json for every chip.
Status writeOpsInfo(const std::string& dir);
/// --platform_config=DIR: DIR/<soc>.ini for every chip, the keys of CANN's platform files that
/// samples' scripts read ([version] SoC_version and Short_SoC_version; [AICoreSpec] ub_size).
Status writePlatformConfig(const std::string& dir);
/// --list_ops: the operator registry, one row per op.
void listOps(std::ostream& out);
/// --list_caffe_layers: "type | IR ops | notes" per Caffe layer (caffe_layers.def).
void listCaffeLayers(std::ostream& out);
/// --list_tf_ops: "type | IR ops | notes" per TensorFlow op (the converter table).
void listTfOps(std::ostream& out);
/// --compatibility: docs/compatibility.md.
void printCompatibility(std::ostream& out);
}  // namespace asc::atc
