// checksum.h: the integrity record of an asc-tools OM (docs/om-format.md, "Integrity").
//
// The header's checksum[64] holds, from atc 2026-12 on:
//   [0..4)   "ASCX"
//   [4]      1: XXH3-64 over a two-level tree (below)
//   [5]      log2 of the chunk size (22: 4 MiB)
//   [6]      n, the number of partitions covered (the table's count; at most kMaxHashedParts)
//   [7]      0
//   [8..16)  XXH3-64 of the header with checksum[] zeroed, then the partition table
//   [16+8i)  partition i's hash (table order): XXH3-64 of the little-endian XXH3-64s of its
//            chunks, each kChunk bytes from the partition's start (the last shorter)
// Every byte of the file is covered, and the chunks hash independently, so a reader checks the
// whole file on all cores at once and names the partition that differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "asc/om/om_file.h"
#include "asc/support/file.h"
#include "asc/support/status.h"

namespace asc::om {

constexpr char kTreeChecksumTag[4] = {'A', 'S', 'C', 'X'};
constexpr uint8_t kTreeAlgorithmXxh3 = 1;
constexpr unsigned kChunkLog2 = 22;
constexpr size_t kChunk = size_t(1) << kChunkLog2;
constexpr size_t kMaxHashedParts = 6;

/// The hash of one partition's bytes, fed in order in pieces of any size (the writer's side).
class PartitionHasher {
 public:
  PartitionHasher();
  ~PartitionHasher();
  PartitionHasher(const PartitionHasher&) = delete;
  PartitionHasher& operator=(const PartitionHasher&) = delete;
  void update(const void* data, size_t size);
  /// The partition's hash; the hasher is then ready for the next partition.
  uint64_t finish();

 private:
  void* state_;  // XXH3_state_t
  size_t fill_ = 0;
  std::vector<uint64_t> chunks_;
};

/// The hash of the header bytes (checksum[] treated as zeros) followed by the partition table.
uint64_t headerHash(const uint8_t* header256, const uint8_t* table, size_t table_size);

/// Writes the record into checksum[64].
void storeTreeChecksum(uint8_t* checksum64, uint64_t header_hash,
                       const std::vector<uint64_t>& part_hashes);

/// Checks a file whose header carries "ASCX" (the table at byte 256, `table_size` bytes): the
/// record, the header and every partition, their 4 MiB chunks hashed by the calling thread and
/// helpers at once (all cores). With `defer_weights`, WEIGHTS_DATA's chunks are left to one
/// helper thread and the check of them is returned (finish() before the weights are trusted);
/// otherwise null. On a mismatch, E10041 naming the file, the partition and its byte range, and
/// saying to re-convert the model.
Result<std::unique_ptr<PendingCheck>> checkTreeChecksum(const std::string& path,
                                                        std::shared_ptr<const MappedFile> file,
                                                        const std::vector<PartitionInfo>& parts,
                                                        uint64_t table_size, bool defer_weights);

/// Bytes of the file (offset, size) that nothing reads but the check (the plain copies of
/// weights a kernel reads packed): as soon as the check has hashed them, their pages are given
/// back (MappedFile::release), so hashing them costs no resident memory. A check of another kind
/// ignores this.
void releaseOnceHashed(PendingCheck& check, std::vector<std::pair<uint64_t, uint64_t>> ranges);

}  // namespace asc::om
