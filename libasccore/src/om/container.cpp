// container.cpp: opening an OM file (container.h): both header generations and partition
// tables, every partition inside the file and none overlapping, the integrity record checked.
#include <google/protobuf/io/coded_stream.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>

#include "om/container.h"
#include "support/protobuf_log.h"

namespace asc::om {

// Our files carry an integrity record in the header's checksum field (docs/om-format.md): from
// 2026-12 XXH3 hashes of the header and of each partition ("ASCX", checksum.h); before that a
// CRC32 of every byte after the header ("ASCK"). Either covers every byte, weights included, and
// is checked before anything else reads the file. Files from other writers carry neither.
Status verifyChecksum(const std::string& path, Verify verify, Container* c) {
  const FileHeader& h = c->header;
  const bool tree = std::memcmp(h.checksum, kTreeChecksumTag, 4) == 0;
  const bool crc = std::memcmp(h.checksum, kChecksumTag, 4) == 0;
  if (!tree && !crc) return Status::ok();
  if (verify == Verify::Skip) {
    c->integrity = "not verified (skipped)";
    return Status::ok();
  }
  if (tree) {
    const bool defer = verify == Verify::Background;
    ASC_TRY(c->pending, checkTreeChecksum(path, c->file, c->parts, c->table_size, defer));
    c->integrity = c->pending ? "verifying (XXH3, the weights in the background)"
                              : "verified (XXH3, whole file)";
    return Status::ok();
  }
  const uint8_t* data = c->file->data();
  const uint64_t end = c->file->size();
  // An older asc-tools file: zlib's CRC32 of 4 MiB pieces on every core, joined in order.
  const uint64_t n = end - kHeaderSize, pieces = (n + kChunk - 1) / kChunk;
  std::vector<uLong> crcs(pieces);
#pragma omp parallel for schedule(dynamic) if (pieces > 1)
  for (int64_t k = 0; k < static_cast<int64_t>(pieces); ++k) {
    const uint64_t at = kHeaderSize + uint64_t(k) * kChunk;
    crcs[k] = crc32_z(crc32(0L, Z_NULL, 0), data + at, std::min<uint64_t>(kChunk, end - at));
  }
  uLong all = crc32(0L, Z_NULL, 0);
  for (uint64_t k = 0; k < pieces; ++k)
    all = crc32_combine(all, crcs[k],
                        static_cast<z_off_t>(std::min<uint64_t>(kChunk, n - k * kChunk)));
  uint32_t want;
  std::memcpy(&want, h.checksum + 4, 4);
  if (static_cast<uint32_t>(all) != want)
    return bad(path, fmt::format("checksum mismatch (CRC32 of the whole file: stored 0x{:08X}, "
                                 "computed 0x{:08X}); the file is corrupted or was altered after "
                                 "atc wrote it: copy it again or re-convert the model with atc",
                                 want, static_cast<uint32_t>(all)));
  c->integrity = "verified (CRC32, whole file)";
  return Status::ok();
}

Result<Container> openContainer(const std::string& path, Verify verify) {
  routeProtobufLogs();
  Container c;
  ASC_TRY(c.file, MappedFile::open(path));
  const size_t size = c.file->size();
  if (size < kHeaderSize)
    return bad(path, fmt::format("the file has {} bytes, less than the 256-byte OM header; it is "
                                 "truncated or not an offline model",
                                 size));
  std::memcpy(&c.header, c.file->data(), sizeof(FileHeader));
  const FileHeader& h = c.header;
  if (h.magic != kMagic)
    return bad(path, fmt::format("bad magic 0x{:08X} (an .om file starts with \"IMOD\"); this is "
                                 "not an offline model",
                                 h.magic));
  if (h.headsize != kHeaderSize)
    return bad(path, fmt::format("header size {} (expected 256)", h.headsize));
  if (h.is_encrypt != 0) return bad(path, "the model is encrypted, which is not supported");
  if (h.model_num > 1)
    return bad(path, fmt::format("the file holds {} models (a multi-model bundle); asc-tools "
                                 "reads files of one model",
                                 h.model_num));
  const uint64_t data_len = size - kHeaderSize;
  // Two generations (docs/om-format.md, "Generations"): the size after the header as the 32-bit
  // `length`, with a table of 32-bit entries; or, from CANN 8, `length` 0 and the uint64
  // `model_length`, with a table of 64-bit entries.
  uint64_t model_length;
  std::memcpy(&model_length, h.reserved + kModelLengthByte, 8);
  const bool wide = h.length == 0 && model_length != 0;
  c.wide_table = wide;
  const uint64_t said = wide ? model_length : h.length;
  if (said != data_len)
    return bad(
        path, fmt::format("the header says {} bytes follow it ({}), the file holds {}; "
                          "the file is truncated or altered",
                          said, wide ? "model_length at byte 184" : "length at byte 76", data_len));
  const uint8_t* base = c.file->data() + kHeaderSize;
  const uint64_t head = wide ? 8 : 4,
                 entry = wide ? sizeof(WidePartitionEntry) : sizeof(PartitionEntry);
  if (data_len < head) return bad(path, "no partition table");
  uint32_t num;
  std::memcpy(&num, base, 4);
  if (num == 0 || num > 32) return bad(path, fmt::format("partition count {} is invalid", num));
  const uint64_t table = head + uint64_t(num) * entry;
  c.table_size = table;
  if (table > data_len) return bad(path, "the partition table runs past the end of the file");
  const uint64_t room = data_len - table;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < num; ++i) {
    uint32_t type;
    uint64_t off, len;
    if (wide) {
      WidePartitionEntry e;
      std::memcpy(&e, base + head + i * entry, sizeof(e));
      type = e.type, off = e.mem_offset, len = e.mem_size;
    } else {
      PartitionEntry e;
      std::memcpy(&e, base + head + i * entry, sizeof(e));
      type = e.type, off = e.mem_offset, len = e.mem_size;
    }
    if (off > room || len > room - off)
      return bad(path, fmt::format("partition {} ({}) [{}, +{}) lies outside the file", i,
                                   partitionName(type), off, len));
    for (const PartitionInfo& p : c.parts)
      if (p.type == type)
        return bad(path, fmt::format("partition {} repeats {}", i, partitionName(type)));
    c.parts.push_back({type, kHeaderSize + table + off, len});
    sum += len;
  }
  if (table + sum != data_len)
    return bad(path, fmt::format("partition sizes add up to {} bytes, the file holds {}",
                                 table + sum, data_len));
  // Sizes that add up to the file can still overlap (leaving a gap elsewhere).
  std::vector<PartitionInfo> order = c.parts;
  std::sort(order.begin(), order.end(),
            [](const PartitionInfo& a, const PartitionInfo& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < order.size(); ++i)
    if (order[i].offset < order[i - 1].offset + order[i - 1].size)
      return bad(path, fmt::format("partitions {} and {} overlap", partitionName(order[i - 1].type),
                                   partitionName(order[i].type)));
  if (!c.find(kModelDef)) return bad(path, "there is no MODEL_DEF partition");
  ASC_RETURN_IF_ERROR(verifyChecksum(path, verify, &c));
  return c;
}

Result<ge::proto::ModelDef> parseModelDef(const std::string& path, const Container& c) {
  const PartitionInfo* p = c.find(kModelDef);
  if (p->size > INT_MAX) return bad(path, "MODEL_DEF is over 2 GB");
  ge::proto::ModelDef m;
  google::protobuf::io::CodedInputStream in(c.file->data() + p->offset, static_cast<int>(p->size));
  in.SetTotalBytesLimit(INT_MAX);
  in.SetRecursionLimit(64);
  if (!m.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    return bad(path, "MODEL_DEF is not a valid ge.proto.ModelDef");
  return m;
}

}  // namespace asc::om
