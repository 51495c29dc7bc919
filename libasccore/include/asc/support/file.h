// file.h: reading files through mmap, and writing outputs atomically. An OutputFile writes to a
// temporary file beside the target and renames it on keep(); if keep() is never reached the
// temporary is removed, so a failed command leaves no partial output file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc {

/// A read-only view of a whole file, memory-mapped (or empty for a 0-byte file).
class ASC_API MappedFile {
 public:
  /// E13001 when the file cannot be opened or is a directory; E13003 when it cannot be mapped.
  static Result<std::shared_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  /// Gives back the resident pages wholly inside bytes [offset, offset + size) (MADV_DONTNEED):
  /// they stop counting in the process's memory, and come back from the file, unchanged, if
  /// read again. For bytes read once (a checksum) that nothing else reads. Where the kernel maps
  /// the file in 2 MiB pieces, the pieces those pages lie in go too (and come back the same way).
  void release(uint64_t offset, uint64_t size) const;

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

class ASC_API OutputFile {
 public:
  /// Creates `<path>.tmp.XXXXXX` beside `path`. E13002 when that fails (naming the folder).
  static Result<std::unique_ptr<OutputFile>> create(const std::string& path);
  ~OutputFile();  // removes the temporary unless keep() succeeded
  Status write(const void* data, size_t size);
  Status writeZeros(size_t size);
  /// Writes at an absolute offset (used to fill a header in last).
  Status writeAt(uint64_t offset, const void* data, size_t size);
  uint64_t offset() const { return offset_; }
  /// Flushes, closes and renames onto the target. E13002 on failure.
  Status keep();
  const std::string& path() const { return path_; }

 private:
  OutputFile() = default;
  int fd_ = -1;
  uint64_t offset_ = 0;
  std::string path_, tmp_path_;
  bool kept_ = false;
};

/// Writes a whole small file atomically.
ASC_API Status writeFileAtomic(const std::string& path, const void* data, size_t size);
ASC_API bool isDirectory(const std::string& path);
/// The entries of folder `dir`, sorted by name, without "." and ".." (and without other names
/// starting with '.' unless `hidden`). E13001 when it cannot be opened.
ASC_API Result<std::vector<std::string>> listDir(const std::string& dir, bool hidden = false);
ASC_API bool fileExists(const std::string& path);
/// True when both paths name the same existing file (same device and inode: hard links,
/// symbolic links and "./a" vs "a" included); false when either does not exist.
ASC_API bool sameFile(const std::string& a, const std::string& b);
/// The folder part of a path ("" -> ".").
ASC_API std::string dirName(const std::string& path);
/// The last path component without its extension ("a/b/m.onnx" -> "m").
ASC_API std::string fileStem(const std::string& path);
/// Creates a folder and its parents (like mkdir -p). E13002 on failure.
ASC_API Status makeDirs(const std::string& path);

}  // namespace asc
