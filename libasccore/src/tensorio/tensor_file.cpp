// tensor_file.cpp: .npy parsing and writing, raw files, msame's text format.
#include "asc/tensorio/tensor_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "asc/support/file.h"
#include "asc/support/fp16.h"

namespace asc::tensorio {
namespace {

Status bad(const std::string& what, const std::string& why) {
  return Status::error(ErrorCode::ModelParseFailed, "{} is not a valid .npy file: {}", what, why);
}

struct NpyType {
  const char* code;  // without byte-order character
  ir::DType dtype;
};
const NpyType kNpyTypes[] = {
    {"f4", ir::DType::F32}, {"f2", ir::DType::F16}, {"f8", ir::DType::F64}, {"i1", ir::DType::I8},
    {"u1", ir::DType::U8},  {"i2", ir::DType::I16}, {"u2", ir::DType::U16}, {"i4", ir::DType::I32},
    {"u4", ir::DType::U32}, {"i8", ir::DType::I64}, {"u8", ir::DType::U64}, {"b1", ir::DType::Bool},
};

// The value of 'key' in the header dict: the text after "'key':" up to the next top-level ','
// or '}' (tuples keep their parentheses).
std::string dictValue(const std::string& h, const std::string& key) {
  auto p = h.find("'" + key + "'");
  if (p == std::string::npos) return "";
  p = h.find(':', p);
  if (p == std::string::npos) return "";
  ++p;
  int depth = 0;
  size_t e = p;
  for (; e < h.size(); ++e) {
    if (h[e] == '(') ++depth;
    if (h[e] == ')') --depth;
    if (depth == 0 && (h[e] == ',' || h[e] == '}')) break;
  }
  std::string v = h.substr(p, e - p);
  v.erase(0, v.find_first_not_of(" \t"));
  v.erase(v.find_last_not_of(" \t") + 1);
  return v;
}

}  // namespace

namespace {
struct NpyHeader {
  ir::Tensor t;  // dtype and shape; no data
  size_t body = 0, bytes = 0;
  bool big_endian = false, fortran = false;
};

Result<NpyHeader> parseNpyHeader(const void* data, size_t size, const std::string& what) {
  const auto* p = static_cast<const uint8_t*>(data);
  if (size < 10 || std::memcmp(p, "\x93NUMPY", 6) != 0) return bad(what, "no \\x93NUMPY magic");
  const int major = p[6];
  size_t hlen, hstart;
  if (major == 1) {
    hlen = p[8] | (p[9] << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) return bad(what, "truncated header");
    hlen = p[8] | (p[9] << 8) | (size_t(p[10]) << 16) | (size_t(p[11]) << 24);
    hstart = 12;
  } else {
    return bad(what, fmt::format("unknown format version {}", major));
  }
  if (hstart + hlen > size) return bad(what, "the header runs past the end of the file");
  std::string h(reinterpret_cast<const char*>(p + hstart), hlen);
  std::string descr = dictValue(h, "descr");
  std::string order = dictValue(h, "fortran_order");
  std::string shape_s = dictValue(h, "shape");
  if (descr.size() < 4 || descr.front() != '\'' || descr.back() != '\'')
    return bad(what, "no dtype in the header");
  descr = descr.substr(1, descr.size() - 2);
  char byteorder = descr[0];
  std::string code = descr.substr(1);
  ir::Tensor t;
  for (const auto& nt : kNpyTypes)
    if (code == nt.code) t.dtype = nt.dtype;
  if (t.dtype == ir::DType::Undefined)
    return Status::error(ErrorCode::NotImplemented, "{}: numpy dtype '{}' is not supported", what,
                         descr);
  if (order != "False" && order != "True") return bad(what, "no fortran_order in the header");
  if (shape_s.size() < 2 || shape_s.front() != '(' || shape_s.back() != ')')
    return bad(what, "no shape in the header");
  std::string inner = shape_s.substr(1, shape_s.size() - 2);
  size_t pos = 0;
  while (pos < inner.size()) {
    size_t c = inner.find(',', pos);
    if (c == std::string::npos) c = inner.size();
    std::string d = inner.substr(pos, c - pos);
    d.erase(0, d.find_first_not_of(" "));
    d.erase(d.find_last_not_of(" ") + 1);
    if (!d.empty()) {
      char* end = nullptr;
      long long v = std::strtoll(d.c_str(), &end, 10);
      if (*end || v < 0 || v > (1LL << 40)) return bad(what, "bad dim '" + d + "'");
      t.shape.push_back(v);
    }
    pos = c + 1;
  }
  uint64_t checked;
  if (!ir::checkedByteSize(t.shape, t.dtype, &checked))
    return bad(what, ir::shapeLimitReason(t.shape, t.dtype));
  const size_t bytes = static_cast<size_t>(checked);
  const size_t body = hstart + hlen;
  if (size - body != bytes)
    return bad(what, fmt::format("the header's shape ({}) needs {} bytes of data, the file has {}",
                                 ir::shapeToString(t.shape), bytes, size - body));
  NpyHeader nh;
  nh.t = t;
  nh.body = body;
  nh.bytes = bytes;
  nh.big_endian = byteorder == '>' && ir::dtypeSize(t.dtype) > 1;
  nh.fortran = order == "True" && t.shape.size() > 1;
  return nh;
}
}  // namespace

Result<ir::Tensor> parseNpy(const void* data, size_t size, const std::string& what) {
  ASC_TRY(NpyHeader nh, parseNpyHeader(data, size, what));
  const auto* p = static_cast<const uint8_t*>(data);
  ir::Tensor t = nh.t;
  const size_t body = nh.body, bytes = nh.bytes;
  std::vector<uint8_t> out(p + body, p + body + bytes);
  const size_t es = ir::dtypeSize(t.dtype);
  if (nh.big_endian)
    for (size_t i = 0; i < out.size(); i += es) std::reverse(out.begin() + i, out.begin() + i + es);
  if (nh.fortran) {
    // Fortran order: transpose into C order.
    std::vector<uint8_t> c(out.size());
    const int64_t n = t.numel();
    const size_t r = t.shape.size();
    std::vector<int64_t> idx(r, 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t f = 0, stride = 1;
      for (size_t d = 0; d < r; ++d) {
        f += idx[d] * stride;
        stride *= t.shape[d];
      }
      std::memcpy(&c[e * es], &out[f * es], es);
      for (int64_t d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
        if (++idx[d] < t.shape[d]) break;
        idx[d] = 0;
      }
    }
    out.swap(c);
  }
  t.data = ir::Blob::fromVector(std::move(out));
  return t;
}

Result<LoadedTensor> readTensorFile(const std::string& path) {
  ASC_TRY(auto f, MappedFile::open(path));
  LoadedTensor lt;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0) {
    ASC_TRY(NpyHeader nh, parseNpyHeader(f->data(), f->size(), path));
    lt.has_dtype = true;
    if (!nh.big_endian && !nh.fortran) {  // the common case: no copy, the data stays mapped
      lt.tensor = nh.t;
      lt.tensor.data = std::make_shared<ir::Blob>(f->data() + nh.body, nh.bytes, f);
      lt.mapped = true;
      return lt;
    }
    ASC_TRY(lt.tensor, parseNpy(f->data(), f->size(), path));
    return lt;
  }
  lt.tensor.dtype = ir::DType::U8;
  lt.tensor.shape = {static_cast<int64_t>(f->size())};
  lt.tensor.data = std::make_shared<ir::Blob>(f->data(), f->size(), f);
  lt.mapped = true;
  return lt;
}

ir::DType npyCarrier(ir::DType t) {
  if (t == ir::DType::I4) return ir::DType::I8;
  if (t == ir::DType::U4 || ir::isFloat8(t)) return ir::DType::U8;
  if (t == ir::DType::BF16) return ir::DType::U16;
  return t;
}

std::string encodeNpy(const ir::Tensor& t) {
  const char* code = "u1";
  for (const auto& nt : kNpyTypes)
    if (nt.dtype == npyCarrier(t.dtype)) code = nt.code;
  std::string shape;
  for (size_t i = 0; i < t.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(t.shape[i]);
  if (t.shape.size() == 1) shape += ",";
  std::string dict = fmt::format("{{'descr': '{}{}', 'fortran_order': False, 'shape': ({}), }}",
                                 ir::dtypeSize(t.dtype) == 1 ? "|" : "<", code, shape);
  size_t total = 10 + dict.size() + 1;
  size_t pad = (64 - total % 64) % 64;
  dict.append(pad, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>((dict.size() >> 8) & 0xff);
  out += dict;
  if (t.data) out.append(reinterpret_cast<const char*>(t.data->data()), t.data->size());
  return out;
}

std::string formatTxt(const ir::Tensor& t) {
  std::string out;
  const int64_t n = t.numel();
  const int64_t row = t.shape.empty() ? 1 : std::max<int64_t>(1, t.shape.back());
  out.reserve(static_cast<size_t>(n) * 10);
  for (int64_t i = 0; i < n; ++i) {
    if (ir::isFloat(t.dtype))
      out += fmt::format("{:g} ", t.floatAt(i));
    else if (t.dtype == ir::DType::U64)
      out += fmt::format("{} ", static_cast<uint64_t>(t.intAt(i)));
    else
      out += fmt::format("{} ", t.intAt(i));
    if ((i + 1) % row == 0) out += '\n';
  }
  return out;
}

}  // namespace asc::tensorio

namespace asc::tensorio {

namespace {

bool isIntegerType(ir::DType t) {
  switch (t) {
    case ir::DType::I8:
    case ir::DType::U8:
    case ir::DType::I16:
    case ir::DType::U16:
    case ir::DType::I32:
    case ir::DType::U32:
    case ir::DType::I64:
    case ir::DType::U64:
      return true;
    default:
      return false;
  }
}
bool isUnsignedType(ir::DType t) {
  return t == ir::DType::U8 || t == ir::DType::U16 || t == ir::DType::U32 || t == ir::DType::U64;
}

// One .txt token as the integer type `t`, exactly: an integer literal is read as one (so
// 64-bit values keep every digit), anything else as a number truncated toward zero. False when
// the token is not a number or its value is outside t's range (the caller names both).
bool parseIntToken(const std::string& tok, ir::DType t, uint64_t* bits) {
  const size_t bytes = ir::dtypeSize(t);
  const bool is_unsigned = isUnsignedType(t);
  errno = 0;
  char* e = nullptr;
  if (is_unsigned) {
    if (tok.find('-') == std::string::npos) {
      unsigned long long u = std::strtoull(tok.c_str(), &e, 10);
      if (e != tok.c_str() && !*e) {
        if (errno == ERANGE) return false;
        if (bytes < 8 && u >> (8 * bytes)) return false;
        *bits = u;
        return true;
      }
    }
  } else {
    long long v = std::strtoll(tok.c_str(), &e, 10);
    if (e != tok.c_str() && !*e) {
      if (errno == ERANGE) return false;
      const int64_t lo = bytes < 8 ? -(int64_t(1) << (8 * bytes - 1)) : INT64_MIN;
      const int64_t hi = bytes < 8 ? (int64_t(1) << (8 * bytes - 1)) - 1 : INT64_MAX;
      if (v < lo || v > hi) return false;
      *bits = static_cast<uint64_t>(v);
      return true;
    }
  }
  double d = std::strtod(tok.c_str(), &e);
  if (e == tok.c_str() || *e) return false;
  d = std::trunc(d);  // NaN stays NaN and fails both comparisons below
  // The exclusive upper bound 2^bits (unsigned) or 2^(bits-1) (signed) is exact in a double.
  const double hi = std::ldexp(1.0, static_cast<int>(8 * bytes - (is_unsigned ? 0 : 1)));
  const double lo = is_unsigned ? 0.0 : -hi;
  if (!(d >= lo && d < hi)) return false;
  *bits = is_unsigned ? static_cast<uint64_t>(d) : static_cast<uint64_t>(static_cast<int64_t>(d));
  return true;
}

// A double outside float's range reads as +-inf, as numpy does (the cast would be undefined).
float toFloat(double v) {
  if (std::isfinite(v) && std::fabs(v) > FLT_MAX) return v > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(v);
}

}  // namespace

Result<ir::Tensor> parseTxt(const void* data, size_t size, ir::DType dtype,
                            const std::string& what) {
  const size_t es = ir::dtypeSize(dtype);
  if (es == 0)
    return Status::error(ErrorCode::InvalidParam, "{}: cannot read text as {}", what,
                         ir::dtypeName(dtype));
  const bool integer = isIntegerType(dtype);
  const char* p = static_cast<const char*>(data);
  const char* end = p + size;
  std::vector<uint8_t> out;
  size_t count = 0;
  int64_t row_len = -1, rows = 0, cur = 0;
  bool ragged = false;
  std::string tok;
  auto endRow = [&] {
    if (cur == 0) return;
    if (row_len < 0)
      row_len = cur;
    else if (row_len != cur)
      ragged = true;
    ++rows;
    cur = 0;
  };
  while (p < end) {
    const char c = *p;
    if (c == '\n') {
      endRow();
      ++p;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == ',') {
      ++p;
      continue;
    }
    const char* s = p;
    while (p < end && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r' && *p != ',') ++p;
    tok.assign(s, p);
    out.resize(out.size() + es);
    uint8_t* o = out.data() + count * es;
    if (integer) {
      uint64_t bits = 0;
      if (!parseIntToken(tok, dtype, &bits))
        return Status::error(ErrorCode::ModelParseFailed,
                             "{}: '{}' (value {}) is not a number that fits {}; a .txt tensor "
                             "holds numbers separated by spaces, one row per line",
                             what, tok, count, ir::dtypeName(dtype));
      std::memcpy(o, &bits, es);  // little-endian: the low bytes are the value
    } else {
      char* e = nullptr;
      const double v = std::strtod(tok.c_str(), &e);
      if (e == tok.c_str() || *e)
        return Status::error(ErrorCode::ModelParseFailed,
                             "{}: '{}' (value {}) is not a number; a .txt tensor holds numbers "
                             "separated by spaces, one row per line",
                             what, tok, count);
      switch (dtype) {
        case ir::DType::F32: {
          const float x = toFloat(v);
          std::memcpy(o, &x, 4);
          break;
        }
        case ir::DType::F64:
          std::memcpy(o, &v, 8);
          break;
        case ir::DType::Bool:
          *o = v != 0;
          break;
        case ir::DType::F16: {
          const uint16_t h = floatToHalf(toFloat(v));
          std::memcpy(o, &h, 2);
          break;
        }
        case ir::DType::BF16: {
          const uint16_t h = floatToBf16(toFloat(v));
          std::memcpy(o, &h, 2);
          break;
        }
        default:
          return Status::error(ErrorCode::InvalidParam, "{}: cannot read text as {}", what,
                               ir::dtypeName(dtype));
      }
    }
    ++count;
    ++cur;
  }
  endRow();
  ir::Tensor t;
  t.dtype = dtype;
  if (!ragged && rows > 1)
    t.shape = {rows, row_len};
  else
    t.shape = {static_cast<int64_t>(count)};
  t.data = ir::Blob::fromVector(std::move(out));
  return t;
}

}  // namespace asc::tensorio
