// onnx_tensor.cpp: ONNX TensorProto -> ir::Tensor: raw data (referenced where it lies: the
// mapped file, or the parsed message), the typed repeated fields (converted), external data
// (mapped, with its offset and length checked), int4/uint4 unpacked from two per byte, and the
// shape checked against the limits.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "asc/ops/registry.h"
#include "frontend/field_decode.h"
#include "frontend/onnx/onnx_import.h"

namespace asc::frontend::onnx_import {
namespace {

// An external_data "offset" or "length": decimal digits that fit an int64, nothing else.
Result<int64_t> externalNumber(const onnx::TensorProto& t, const std::string& key,
                               const std::string& v) {
  bool ok = !v.empty() && v.size() <= 18 &&
            std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!ok)
    return invalid(
        fmt::format("initializer '{}': external data {} '{}' is not a byte count "
                    "(decimal digits, below 10^18); re-save the model's external data",
                    t.name(), key, v));
  return static_cast<int64_t>(std::stoll(v));
}

Result<std::shared_ptr<const ir::Blob>> externalData(ImportState& st, const onnx::TensorProto& t,
                                                     size_t want) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : t.external_data()) {
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset") {
      ASC_TRY(offset, externalNumber(t, kv.key(), kv.value()));
    } else if (kv.key() == "length") {
      ASC_TRY(length, externalNumber(t, kv.key(), kv.value()));
    }
  }
  if (location.empty())
    return invalid(fmt::format("initializer '{}' is external but names no location", t.name()));
  if (location[0] == '/' || location.find("..") != std::string::npos)
    return invalid(
        fmt::format("initializer '{}': external data location '{}' must be a path "
                    "inside the model's folder",
                    t.name(), location));
  std::string path = st.base_dir + "/" + location;
  auto it = st.external_files.find(path);
  if (it == st.external_files.end()) {
    // A symbolic link may still lead out of the folder: the resolved file must lie inside it.
    char* dir_real = ::realpath(st.base_dir.empty() ? "." : st.base_dir.c_str(), nullptr);
    char* file_real = ::realpath(path.c_str(), nullptr);
    const std::string dir_s = dir_real ? std::string(dir_real) + "/" : "",
                      file_s = file_real ? file_real : "";
    std::free(dir_real);
    std::free(file_real);
    if (!dir_s.empty() && !file_s.empty() && file_s.compare(0, dir_s.size(), dir_s) != 0)
      return invalid(
          fmt::format("initializer '{}': external data location '{}' resolves to '{}', "
                      "outside the model's folder '{}'; copy the data file into it",
                      t.name(), location, file_s, dir_s));
    auto f = MappedFile::open(path);
    if (!f)
      return f.status().withContext(fmt::format("external data of initializer '{}'", t.name()));
    it = st.external_files.emplace(path, *f).first;
  }
  const auto& file = it->second;
  if (length < 0) length = static_cast<int64_t>(want);
  if (offset < 0 || static_cast<uint64_t>(offset) + static_cast<uint64_t>(length) > file->size())
    return invalid(
        fmt::format("initializer '{}': external data [{}, +{}) lies outside '{}' ({} "
                    "bytes)",
                    t.name(), offset, length, path, file->size()));
  if (static_cast<size_t>(length) != want)
    return invalid(fmt::format("initializer '{}': external data holds {} bytes, its shape needs {}",
                               t.name(), length, want));
  return std::shared_ptr<const ir::Blob>(
      std::make_shared<ir::Blob>(file->data() + offset, want, file));
}

// The packed bytes of an int4/uint4 tensor from wherever the file keeps them (raw data in the
// file or the proto, external data, or int32_data with one packed byte per value), unpacked.
Result<ir::Tensor> unpackInt4(ImportState& st, const onnx::TensorProto& t, ir::Tensor out) {
  const size_t n = static_cast<size_t>(out.numel()), packed = (n + 1) / 2;
  std::vector<uint8_t> bytes(packed);
  auto wrong = [&](size_t have, const char* what) {
    return invalid(fmt::format(
        "tensor '{}' holds {} {}, its shape [{}] of {} needs {} (two "
        "values to a byte)",
        t.name(), have, what, ir::shapeToString(out.shape), ir::dtypeName(out.dtype), packed));
  };
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    ASC_TRY(auto blob, externalData(st, t, packed));
    if (packed) std::memcpy(bytes.data(), blob->data(), packed);
  } else if (auto ref = st.raw_refs.find(&t); ref != st.raw_refs.end()) {
    if (ref->second.size != packed) return wrong(ref->second.size, "bytes of raw data");
    if (packed) std::memcpy(bytes.data(), ref->second.data, packed);
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != packed) return wrong(t.raw_data().size(), "bytes of raw data");
    if (packed) std::memcpy(bytes.data(), t.raw_data().data(), packed);
  } else {
    if (static_cast<size_t>(t.int32_data_size()) != packed)
      return wrong(static_cast<size_t>(t.int32_data_size()), "int32_data values");
    for (size_t i = 0; i < packed; ++i)
      bytes[i] = static_cast<uint8_t>(t.int32_data(static_cast<int>(i)));
  }
  const bool is_signed = out.dtype == ir::DType::I4;
  std::vector<uint8_t> values(n);
  for (size_t i = 0; i < n; ++i) {
    const unsigned nib = (bytes[i / 2] >> (4 * (i % 2))) & 0xF;
    values[i] = static_cast<uint8_t>(is_signed && nib >= 8 ? nib - 16 : nib);
  }
  out.data = ir::Blob::fromVector(std::move(values));
  return out;
}

}  // namespace

Result<ir::Tensor> tensorFromProto(ImportState& st, const onnx::TensorProto& t) {
  ir::Tensor out;
  out.dtype = ir::dtypeFromOnnx(t.data_type());
  if (out.dtype == ir::DType::Undefined)
    return Status::error(ErrorCode::NotImplemented,
                         "tensor '{}' has data type {}, which asc-tools does not support "
                         "(string, complex, float4e2m1 and float8e8m0 are not read)",
                         t.name(), t.data_type());
  if (static_cast<size_t>(t.dims_size()) > ir::kMaxRank)
    return invalid(fmt::format("tensor '{}' has {} dims, over the limit of {}", t.name(),
                               t.dims_size(), ir::kMaxRank));
  for (auto d : t.dims()) {
    if (d < 0) return invalid(fmt::format("tensor '{}' has a negative dim", t.name()));
    out.shape.push_back(d);
  }
  uint64_t checked;
  if (!ir::checkedByteSize(out.shape, out.dtype, &checked))
    return invalid(
        fmt::format("tensor '{}': {}", t.name(), ir::shapeLimitReason(out.shape, out.dtype)));
  const size_t n = static_cast<size_t>(out.numel());
  // int4/uint4 lie packed in the file, two to a byte, the first element in the low nibble;
  // asc-tools holds one per byte (sign-extended), so they are unpacked once read.
  if (ir::isInt4(out.dtype)) return unpackInt4(st, t, std::move(out));
  const size_t want = out.byteSize();
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    ASC_TRY(out.data, externalData(st, t, want));
    return out;
  }
  if (auto ref = st.raw_refs.find(&t); ref != st.raw_refs.end()) {  // raw_data in the file
    if (ref->second.size != want)
      return invalid(
          fmt::format("tensor '{}' holds {} bytes of raw data, its shape [{}] of {} "
                      "needs {}",
                      t.name(), ref->second.size, ir::shapeToString(out.shape),
                      ir::dtypeName(out.dtype), want));
    // A protobuf field may start at any byte: kernels read constants as typed arrays, so raw
    // data off its element size's alignment is copied, small ones now, large ones only if read
    // as such (atc packs most weights, and writes the others, from where they lie); the rest
    // stays in the mapped file.
    if (reinterpret_cast<uintptr_t>(ref->second.data) %
        std::max<size_t>(1, ir::dtypeSize(out.dtype)))
      out.data = want < (size_t(64) << 10)
                     ? ir::Blob::copyOf(ref->second.data, want)
                     : ir::Blob::unaligned(ref->second.data, want, st.raw_owner);
    else
      out.data = std::make_shared<ir::Blob>(ref->second.data, want, st.raw_owner);
    return out;
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != want)
      return invalid(
          fmt::format("tensor '{}' holds {} bytes of raw data, its shape [{}] of {} "
                      "needs {}",
                      t.name(), t.raw_data().size(), ir::shapeToString(out.shape),
                      ir::dtypeName(out.dtype), want));
    out.data = std::make_shared<ir::Blob>(t.raw_data().data(), want, st.model);
    return out;
  }
  auto count_ok = [&](int have) { return static_cast<size_t>(have) == n; };
  auto bad_count = [&](int have) {
    return invalid(fmt::format("tensor '{}' holds {} values, its shape [{}] needs {}", t.name(),
                               have, ir::shapeToString(out.shape), n));
  };
  switch (out.dtype) {
    case ir::DType::F32:
      if (!count_ok(t.float_data_size())) return bad_count(t.float_data_size());
      out.data = blobFromField<float>(t.float_data(), n, false);
      break;
    case ir::DType::F64:
      if (!count_ok(t.double_data_size())) return bad_count(t.double_data_size());
      out.data = blobFromField<double>(t.double_data(), n, false);
      break;
    case ir::DType::I64:
      if (!count_ok(t.int64_data_size())) return bad_count(t.int64_data_size());
      out.data = blobFromField<int64_t>(t.int64_data(), n, false);
      break;
    case ir::DType::U64:
    case ir::DType::U32:
      if (!count_ok(t.uint64_data_size())) return bad_count(t.uint64_data_size());
      out.data = out.dtype == ir::DType::U64 ? blobFromField<uint64_t>(t.uint64_data(), n, false)
                                             : blobFromField<uint32_t>(t.uint64_data(), n, false);
      break;
    case ir::DType::I32:
    case ir::DType::I16:
    case ir::DType::I8:
    case ir::DType::U8:
    case ir::DType::U16:
    case ir::DType::Bool:
    case ir::DType::F16:
    case ir::DType::BF16:
    case ir::DType::F8E4M3FN:
    case ir::DType::F8E4M3FNUZ:
    case ir::DType::F8E5M2:
    case ir::DType::F8E5M2FNUZ: {
      if (!count_ok(t.int32_data_size())) return bad_count(t.int32_data_size());
      switch (out.dtype) {
        case ir::DType::I32:
          out.data = blobFromField<int32_t>(t.int32_data(), n, false);
          break;
        case ir::DType::I16:
          out.data = blobFromField<int16_t>(t.int32_data(), n, false);
          break;
        case ir::DType::I8:
          out.data = blobFromField<int8_t>(t.int32_data(), n, false);
          break;
        case ir::DType::U8:
        case ir::DType::Bool:
        case ir::DType::F8E4M3FN:  // float8: the code, one per value
        case ir::DType::F8E4M3FNUZ:
        case ir::DType::F8E5M2:
        case ir::DType::F8E5M2FNUZ:
          out.data = blobFromField<uint8_t>(t.int32_data(), n, false);
          break;
        default:
          out.data = blobFromField<uint16_t>(t.int32_data(), n, false);
          break;  // bits
      }
      break;
    }
    default:
      return invalid(fmt::format("tensor '{}': unsupported data layout", t.name()));
  }
  return out;
}

}  // namespace asc::frontend::onnx_import
