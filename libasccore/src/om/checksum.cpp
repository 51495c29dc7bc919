// checksum.cpp: the OM's integrity record (checksum.h): XXH3-64 from Debian's libxxhash, with
// its run-time dispatch to the CPU's widest vector unit.
#define XXH_STATIC_LINKING_ONLY
#include "checksum.h"

#include <xxh_x86dispatch.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>

#include "format.h"

namespace asc::om {
namespace {

XXH3_state_t* st(void* p) { return static_cast<XXH3_state_t*>(p); }

uint64_t hashOfChunks(const std::vector<uint64_t>& chunks) {
  // The chunk hashes as little-endian bytes (this x86-64 code's native order).
  return XXH3_64bits_dispatch(chunks.data(), chunks.size() * sizeof(uint64_t));
}

}  // namespace

PartitionHasher::PartitionHasher() : state_(XXH3_createState()) { XXH3_64bits_reset(st(state_)); }
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
  // GE's ModelPartitionType (docs/om-format.md, "Partitions").
  static const std::pair<uint32_t, const char*> kNames[] = {{0, "MODEL_DEF"},
                                                            {1, "WEIGHTS_DATA"},
                                                            {2, "TASK_INFO"},
                                                            {3, "TBE_KERNELS"},
                                                            {4, "CUST_AICPU_KERNELS"},
                                                            {5, "SO_BINS"},
                                                            {6, "FLOW_MODEL"},
                                                            {7, "FLOW_SUBMODEL"},
                                                            {8, "MODEL_INOUT_INFO"},
                                                            {9, "STATIC_TASK_DESC"},
                                                            {10, "DYNAMIC_TASK_DESC"},
                                                            {11, "TASK_PARAM"},
                                                            {12, "TILING_DATA"},
                                                            {20, "PRE_MODEL_DESC"},
                                                            {21, "PRE_MODEL_SQE"},
                                                            {22, "PRE_KERNEL_ARGS"},
                                                            {23, "PRE_MODEL_DESC_EXTEND"},
                                                            {24, "BUNDLE_MODEL_INFO"},
                                                            {25, "BUNDLE_MODEL_VAR_INFO"},
                                                            {26, "CUSTOM_OPS"}};
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return fmt::format("type {}", type);
}

PendingCheck::~PendingCheck() = default;

namespace {

Status corrupted(const std::string& path, const std::string& why) {
  return Status::error(ErrorCode::ModelLoadFailed,
                       "Failed to load the model from {}: {}; the file is corrupted or was "
                       "altered after atc wrote it: copy it again or re-convert the model with "
                       "atc",
                       path, why);
}

// The partitions' chunks, hashed by whichever thread takes each next: `helpers` threads of its
// own from the start, and the caller of finish(). The file stays mapped while any thread runs.
class ChunkCheck final : public PendingCheck {
 public:
  struct Part {
    size_t index;  // in the partition table
    PartitionInfo info;
    uint64_t want;
    size_t first_chunk = 0, chunks = 0;
  };
  ChunkCheck(std::string path, std::shared_ptr<const MappedFile> file, std::vector<Part> parts,
             unsigned helpers)
      : path_(std::move(path)), file_(std::move(file)), parts_(std::move(parts)) {
    for (Part& p : parts_) {
      p.first_chunk = spans_.size();
      for (uint64_t at = 0; at < p.info.size; at += kChunk)
        spans_.push_back({p.info.offset + at, std::min<uint64_t>(kChunk, p.info.size - at)});
      p.chunks = spans_.size() - p.first_chunk;
    }
    hashes_.resize(spans_.size());
    hashed_.reset(new std::atomic<bool>[spans_.size()]);
    for (size_t k = 0; k < spans_.size(); ++k) hashed_[k] = false;
    helpers = std::min<unsigned>(helpers, static_cast<unsigned>(spans_.size() / 2));
    for (unsigned i = 0; i < helpers; ++i) {
      try {
        threads_.emplace_back([this] { work(); });
      } catch (const std::system_error&) {
        break;  // no thread to be had: finish() hashes it all
      }
    }
  }
  ~ChunkCheck() override {
    stop_ = true;
    for (auto& t : threads_) t.join();
  }
  void releaseOnceHashed(std::vector<std::pair<uint64_t, uint64_t>> ranges) {
    std::lock_guard<std::mutex> lock(unread_mu_);
    unread_ = std::move(ranges);
    for (size_t k = 0; k < spans_.size(); ++k)
      if (hashed_[k]) releaseUnread(k);
  }
  Status finish() override {
    work();
    for (auto& t : threads_) t.join();
    threads_.clear();
    for (const Part& p : parts_) {
      std::vector<uint64_t> mine(hashes_.begin() + p.first_chunk,
                                 hashes_.begin() + p.first_chunk + p.chunks);
      if (hashOfChunks(mine) != p.want)
        return corrupted(path_, fmt::format("checksum mismatch in partition {} ({}, file bytes "
                                            "[{}, {}))",
                                            p.index, partitionName(p.info.type), p.info.offset,
                                            p.info.offset + p.info.size));
    }
    return Status::ok();
  }

 private:
  void work() {
    for (;;) {
      if (stop_) return;
      const size_t k = next_.fetch_add(1);
      if (k >= spans_.size()) return;
      hashes_[k] = XXH3_64bits_dispatch(file_->data() + spans_[k].first, spans_[k].second);
      hashed_[k] = true;
      std::lock_guard<std::mutex> lock(unread_mu_);
      releaseUnread(k);
    }
  }
  // The parts of chunk k that nothing reads once they are hashed: their pages are given back.
  void releaseUnread(size_t k) {
    const uint64_t from = spans_[k].first, to = from + spans_[k].second;
    for (const auto& [at, size] : unread_) {
      const uint64_t a = std::max(at, from), b = std::min(at + size, to);
      if (a < b) file_->release(a, b - a);
    }
  }
  std::string path_;
  std::shared_ptr<const MappedFile> file_;
  std::vector<Part> parts_;
  std::vector<std::pair<uint64_t, uint64_t>> spans_;  // file offset and size of each chunk
  std::vector<uint64_t> hashes_;
  std::unique_ptr<std::atomic<bool>[]> hashed_;
  std::mutex unread_mu_;
  std::vector<std::pair<uint64_t, uint64_t>> unread_;  // releaseOnceHashed's bytes
  std::atomic<size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace

void releaseOnceHashed(PendingCheck& check, std::vector<std::pair<uint64_t, uint64_t>> ranges) {
  if (auto* c = dynamic_cast<ChunkCheck*>(&check)) c->releaseOnceHashed(std::move(ranges));
}

Result<std::unique_ptr<PendingCheck>> checkTreeChecksum(const std::string& path,
                                                        std::shared_ptr<const MappedFile> file,
                                                        const std::vector<PartitionInfo>& parts,
                                                        uint64_t table_size, bool defer_weights) {
  const uint8_t* data = file->data();
  const uint8_t* c = data + offsetof(FileHeader, checksum);
  if (c[4] != kTreeAlgorithmXxh3 || c[5] != kChunkLog2)
    return corrupted(path, fmt::format("its checksum record (algorithm {}, chunk 2^{}) is of a "
                                       "kind this asc-tools does not know",
                                       c[4], c[5]));
  if (c[6] != parts.size() || parts.size() > kMaxHashedParts)
    return corrupted(path, fmt::format("the checksum covers {} partitions, the partition table "
                                       "lists {}",
                                       c[6], parts.size()));
  // The record's unused bytes are zero as written, so that every byte of the file is checked.
  for (size_t i = 7; i < 64; i = i == 7 ? 16 + 8 * parts.size() : i + 1)
    if (c[i] != 0) return corrupted(path, fmt::format("checksum record byte {} is not zero", i));
  if (kHeaderSize + table_size > file->size())
    return corrupted(path, "the partition table is cut short");
  uint64_t want;
  std::memcpy(&want, c + 8, 8);
  if (headerHash(data, data + kHeaderSize, table_size) != want)
    return corrupted(path, "checksum mismatch in the header or the partition table");
  std::vector<ChunkCheck::Part> now, later;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::memcpy(&want, c + 16 + 8 * i, 8);
    (defer_weights && parts[i].type == kWeightsData ? later : now).push_back({i, parts[i], want});
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  ChunkCheck first(path, file, std::move(now), std::min(cores, 8u) - 1);
  ASC_RETURN_IF_ERROR(first.finish());
  if (later.empty()) return std::unique_ptr<PendingCheck>();
  return std::unique_ptr<PendingCheck>(new ChunkCheck(path, std::move(file), std::move(later), 1));
}

}  // namespace asc::om
