// tensor.h: constant tensor data. A Blob is an immutable byte range whose storage is owned
// elsewhere (a vector, a protobuf string, an mmapped file), kept alive by a shared owner, so
// importing a model or loading an OM never copies the weights.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/dtype.h"

namespace asc::ir {

class ASC_API Blob {
 public:
  Blob(const void* data, size_t size, std::shared_ptr<const void> owner)
      : data_(static_cast<const uint8_t*>(data)), size_(size), owner_(std::move(owner)) {}
  /// A Blob that owns a copy of `bytes`.
  static std::shared_ptr<const Blob> fromVector(std::vector<uint8_t> bytes);
  static std::shared_ptr<const Blob> copyOf(const void* data, size_t size);
  /// A Blob of `size` bytes that `make` writes the first time data() is asked for (once, even
  /// from several threads; `make` must not fail). Weights an OM stores only in a kernel's packed
  /// layout get their plain bytes this way: they exist only if something reads them.
  static std::shared_ptr<const Blob> lazy(size_t size, std::function<void(uint8_t*)> make);
  /// A Blob over `size` bytes at `data`, which may lie at any address (a protobuf field in a
  /// mapped file): kernels read constants as typed arrays, so data() gives an aligned copy,
  /// made the first time it is asked for, while copyTo() reads the bytes where they lie.
  static std::shared_ptr<const Blob> unaligned(const void* data, size_t size,
                                               std::shared_ptr<const void> owner);
  const uint8_t* data() const { return lazy_ ? make() : data_; }
  /// Writes the size() bytes to `dst`. A lazy Blob not made yet has its `make` write them there
  /// and keeps no copy: atc streams weights into the OM this way, through one reused buffer,
  /// rather than holding a second copy of them all.
  void copyTo(void* dst) const;
  size_t size() const { return size_; }
  /// False for a lazy Blob whose bytes have not been made yet.
  bool ready() const;
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data());
  }

 private:
  struct Lazy;
  const uint8_t* make() const;
  const uint8_t* data_;
  size_t size_;
  std::shared_ptr<const void> owner_;
  std::shared_ptr<Lazy> lazy_;
};

/// A dense, row-major tensor value (used for constants and constant evaluation).
struct ASC_API Tensor {
  DType dtype = DType::Undefined;
  Shape shape;
  std::shared_ptr<const Blob> data;

  int64_t numel() const { return numElements(shape); }
  size_t byteSize() const { return static_cast<size_t>(numel()) * dtypeSize(dtype); }
  /// Reads element i as int64/double whatever the stored integer or float type.
  int64_t intAt(int64_t i) const;
  double floatAt(int64_t i) const;
  /// All elements as int64 (for shape-like tensors).
  std::vector<int64_t> toInts() const;
  /// Same dtype, shape and bytes.
  bool operator==(const Tensor& o) const;
};

}  // namespace asc::ir
