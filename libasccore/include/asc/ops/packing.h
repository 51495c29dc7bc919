// packing.h: weights stored in a kernel's packed layout (atc's packed weights, docs/om-format.md
// "Packed weights") read back as plain data, without the reader knowing oneDNN.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "asc/asc.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::ops {

/// Checks that the layout name `packing` describes exactly an fp32 tensor of `shape` inside the
/// `packed` bytes, and returns what writes its plain row-major bytes (NaNs if the reorder fails
/// on this CPU). E10041-style message text when it does not fit (the caller adds the file).
ASC_API Result<std::function<void(uint8_t*)>> plainFromPacked(
    const std::string& packing, const ir::Shape& shape, std::shared_ptr<const ir::Blob> packed);

}  // namespace asc::ops
