// checksum.cpp: the OM's integrity record (checksum.h): XXH3-64 from Debian's libxxhash, with
// its run-time dispatch to the CPU's widest vector unit.
#define XXH_STATIC_LINKING_ONLY
#include "checksum.h"

#include <xxh_x86dispatch.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "format.h"

namespace asc::om {
namespace {

XXH3_state_t* st(void* p) { return static_cast<XXH3_state_t*>(p); }

uint64_t hashOfChunks(const std::vector<uint64_t>& chunks) {
  // The chunk hashes as little-endian bytes (this x86-64 code's native order).
  return XXH3_64bits_dispatch(chunks.data(), chunks.size() * sizeof(uint64_t));
}

}  // namespace

PartitionHasher::PartitionHasher() : state_(XXH3_createState()) {
  XXH3_64bits_reset(st(state_));
}
PartitionHasher::~PartitionHasher() { XXH3_freeState(st(state_)); }

void PartitionHasher::update(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  while (size) {
    const size_t n = std::min(size, kChunk - fill_);
    XXH3_64bits_update_dispatch(st(state_), p, n);
    fill_ += n;
    p += n;
    size -= n;
    if (fill_ == kChunk) {
      chunks_.push_back(XXH3_64bits_digest(st(state_)));
      XXH3_64bits_reset(st(state_));
      fill_ = 0;
    }
  }
}

uint64_t PartitionHasher::finish() {
  if (fill_) chunks_.push_back(XXH3_64bits_digest(st(state_)));
  const uint64_t h = hashOfChunks(chunks_);
  XXH3_64bits_reset(st(state_));
  fill_ = 0;
  chunks_.clear();
  return h;
}

uint64_t partitionHash(const uint8_t* data, uint64_t size) {
  std::vector<uint64_t> chunks((size + kChunk - 1) / kChunk);
  const int64_t n = static_cast<int64_t>(chunks.size());
#pragma omp parallel for schedule(dynamic) if (n > 1)
  for (int64_t k = 0; k < n; ++k) {
    const uint64_t at = uint64_t(k) * kChunk;
    chunks[k] = XXH3_64bits_dispatch(data + at, std::min<uint64_t>(kChunk, size - at));
  }
  return hashOfChunks(chunks);
}

uint64_t headerHash(const uint8_t* header256, const uint8_t* table, size_t table_size) {
  std::vector<uint8_t> bytes(kHeaderSize + table_size);
  std::memcpy(bytes.data(), header256, kHeaderSize);
  std::memset(bytes.data() + offsetof(FileHeader, checksum), 0, sizeof(FileHeader::checksum));
  if (table_size) std::memcpy(bytes.data() + kHeaderSize, table, table_size);
  return XXH3_64bits_dispatch(bytes.data(), bytes.size());
}

void storeTreeChecksum(uint8_t* c, uint64_t header_hash, const std::vector<uint64_t>& parts) {
  std::memset(c, 0, 64);
  std::memcpy(c, kTreeChecksumTag, 4);
  c[4] = kTreeAlgorithmXxh3;
  c[5] = kChunkLog2;
  c[6] = static_cast<uint8_t>(parts.size());
  std::memcpy(c + 8, &header_hash, 8);
  for (size_t i = 0; i < parts.size() && i < kMaxHashedParts; ++i)
    std::memcpy(c + 16 + 8 * i, &parts[i], 8);
}

std::string partitionName(uint32_t type) {
  switch (type) {
    case kModelDef: return "MODEL_DEF";
    case kWeightsData: return "WEIGHTS_DATA";
    case kTaskInfo: return "TASK_INFO";
    case kTbeKernels: return "TBE_KERNELS";
    case kCustAicpuKernels: return "CUST_AICPU_KERNELS";
    default: return fmt::format("type {}", type);
  }
}

Status verifyTreeChecksum(const std::string& path, const uint8_t* file, uint64_t file_size,
                          const std::vector<PartitionInfo>& parts, uint64_t table_offset,
                          uint64_t table_size) {
  auto bad = [&](const std::string& why) {
    return Status::error(ErrorCode::ModelLoadFailed,
                         "Failed to load the model from {}: {}; the file is corrupted or was "
                         "altered after atc wrote it: copy it again or re-convert the model with "
                         "atc",
                         path, why);
  };
  const uint8_t* c = file + offsetof(FileHeader, checksum);
  if (c[4] != kTreeAlgorithmXxh3 || c[5] != kChunkLog2)
    return bad(fmt::format("its checksum record (algorithm {}, chunk 2^{}) is of a kind this "
                           "asc-tools does not know",
                           c[4], c[5]));
  if (c[6] != parts.size() || parts.size() > kMaxHashedParts)
    return bad(fmt::format("the checksum covers {} partitions, the partition table lists {}",
                           c[6], parts.size()));
  // The record's unused bytes are zero as written, so that every byte of the file is checked.
  for (size_t i = 7; i < 64; i = i == 7 ? 16 + 8 * parts.size() : i + 1)
    if (c[i] != 0) return bad(fmt::format("checksum record byte {} is not zero", i));
  if (table_offset + table_size > file_size) return bad("the partition table is cut short");
  uint64_t want;
  std::memcpy(&want, c + 8, 8);
  if (headerHash(file, file + table_offset, table_size) != want)
    return bad("checksum mismatch in the header or the partition table");
  for (size_t i = 0; i < parts.size(); ++i) {
    const PartitionInfo& p = parts[i];
    std::memcpy(&want, c + 16 + 8 * i, 8);
    if (partitionHash(file + p.offset, p.size) != want)
      return bad(fmt::format("checksum mismatch in partition {} ({}, file bytes [{}, {}))", i,
                             partitionName(p.type), p.offset, p.offset + p.size));
  }
  return Status::ok();
}

}  // namespace asc::om
