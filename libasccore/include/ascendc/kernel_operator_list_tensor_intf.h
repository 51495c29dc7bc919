// kernel_operator_list_tensor_intf.h: ListTensorDesc and TensorDesc, how a kernel reads a list
// of tensors passed as one global-memory argument (dynamic inputs such as AddN's). The list is:
// a uint64 with the byte offset of the data pointers; per tensor, a uint64 holding its rank (low
// 32 bits) and index (high 32 bits) followed by its dims; then one uint64 data pointer per
// tensor. Every read is checked against the length given.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernel_operator.h"

namespace AscendC {

template <class T>
class TensorDesc {
 public:
  /// Where GetDesc writes the dims (room for the tensor's rank).
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() const { return dim_; }
  uint64_t GetIndex() const { return index_; }
  uint64_t GetShape(uint32_t offset) const {
    if (!shape_ || offset >= dim_)
      asc::ascendc::detail::failf("TensorDesc::GetShape", "dimension ", offset,
                                  " is outside the tensor's rank ", dim_,
                                  shape_ ? "" : " (no SetShapeAddr)");
    return shape_[offset];
  }
  __gm__ T* GetDataPtr() const { return data_; }
  GlobalTensor<T> GetDataObj() const {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(data_);
    return g;
  }

  // Filled by ListTensorDesc::GetDesc.
  uint64_t dim_ = 0, index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  /// `length`: the list's bytes; `shapeSize`: how many tensors it holds (0xffffffff: as many
  /// data pointers as follow the offset).
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    const char* call = "ListTensorDesc";
    if (!data) asc::ascendc::detail::failf(call, "the list is a null pointer");
    base_ = static_cast<const uint8_t*>(data);
    length_ = length;
    const uint64_t extent = asc::ascendc::detail::gmExtent(data);
    if (extent != 0 && (length_ == 0xffffffffu || length_ > extent)) length_ = uint32_t(extent);
    ptr_offset_ = word(call, 0);
    if (ptr_offset_ % 8 != 0 || ptr_offset_ < 8)
      asc::ascendc::detail::failf(call, "the data pointers' offset ", ptr_offset_,
                                  " is not a multiple of 8 past the first word");
    count_ = shapeSize;
    if (count_ == 0xffffffffu) {
      if (length_ == 0xffffffffu)
        asc::ascendc::detail::failf(call,
                                    "neither the list's length nor its tensor count is known");
      count_ = uint32_t((length_ - ptr_offset_) / 8);
    }
  }
  uint32_t GetSize() const { return count_; }
  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) const {
    check("ListTensorDesc::GetDataPtr", index);
    return reinterpret_cast<__gm__ T*>(
        uintptr_t(word("ListTensorDesc::GetDataPtr", ptr_offset_ / 8 + index)));
  }
  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) const {
    const char* call = "ListTensorDesc::GetDesc";
    check(call, index);
    uint64_t at = 1;  // in words: the first tensor's description
    for (uint32_t i = 0;; ++i) {
      const uint64_t head = word(call, at);
      const uint64_t dim = head & 0xffffffffu;
      if (i == index) {
        desc.dim_ = dim;
        desc.index_ = head >> 32;
        if (dim > 0 && !desc.shape_)
          asc::ascendc::detail::failf(call, "the TensorDesc has no SetShapeAddr for its ", dim,
                                      " dims");
        for (uint64_t d = 0; d < dim; ++d) desc.shape_[d] = word(call, at + 1 + d);
        desc.data_ = GetDataPtr<T>(index);
        return;
      }
      at += 1 + dim;
    }
  }

 private:
  void check(const char* call, uint32_t index) const {
    if (!base_) asc::ascendc::detail::failf(call, "the list was not set (Init)");
    if (index >= count_)
      asc::ascendc::detail::failf(call, "tensor ", index, " is outside the list of ", count_);
  }
  uint64_t word(const char* call, uint64_t i) const {
    if (length_ != 0xffffffffu && (i + 1) * 8 > length_)
      asc::ascendc::detail::failf(call, "reads byte ", i * 8, " of a list of ", length_, " bytes");
    uint64_t v;
    std::memcpy(&v, base_ + i * 8, 8);
    return v;
  }
  const uint8_t* base_ = nullptr;
  uint32_t length_ = 0xffffffffu;
  uint64_t ptr_offset_ = 0;
  uint32_t count_ = 0;
};

}  // namespace AscendC
