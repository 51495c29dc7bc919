// container.h: an OM file opened as a container (private to om): its header and partition
// table checked against the file, its integrity record verified, its ModelDef parsed
// (container.cpp). reader.cpp builds summaries, JSON and graphs on it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "asc/om/om_file.h"
#include "asc/support/file.h"
#include "checksum.h"
#include "format.h"
#include "ge_convert.h"

namespace asc::om {

/// E10041 "Failed to load the model from PATH: WHY".
inline Status bad(const std::string& path, const std::string& why) {
  return Status::error(ErrorCode::ModelLoadFailed, "Failed to load the model from {}: {}", path,
                       why);
}

struct Container {
  std::shared_ptr<MappedFile> file;
  FileHeader header;
  std::vector<PartitionInfo> parts;
  uint64_t table_size = 0;
  bool wide_table = false;                // the CANN 8 generation's 64-bit partition table
  std::string integrity = "none";         // OmSummary::integrity
  std::shared_ptr<PendingCheck> pending;  // Verify::Background: the weights' check
  const PartitionInfo* find(uint32_t type) const {
    for (const auto& p : parts)
      if (p.type == type) return &p;
    return nullptr;
  }
};

/// The file's integrity record (XXH3 tree or the older CRC32) checked before anything reads it;
/// files of other writers carry none.
Status verifyChecksum(const std::string& path, Verify verify, Container* c);
/// The header and partition table of either generation, every size and offset checked.
Result<Container> openContainer(const std::string& path, Verify verify);
/// MODEL_DEF as a ge.proto.ModelDef.
Result<ge::proto::ModelDef> parseModelDef(const std::string& path, const Container& c);

}  // namespace asc::om
