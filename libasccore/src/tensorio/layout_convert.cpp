// layout_convert.cpp: NC1HWC0, FRACTAL_Z and FRACTAL_NZ back to the origin layout (formulas
// at the top of asc/tensorio/layout_convert.h). Each conversion walks the stored tensor in
// its own order (sequential reads) and writes every element that is not padding to its
// origin position; the shapes are validated first, so no index ever leaves either buffer.
#include "asc/tensorio/layout_convert.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "dump_data.pb.h"

namespace asc::tensorio {
namespace {

namespace pb = toolkit::dumpdata;

// The DumpFormat numbers must be dump_data.proto's OutputFormat numbers.
#define ASC_SAME_FORMAT(ours, proto) \
  static_assert(static_cast<int>(ours) == static_cast<int>(pb::proto), #ours " != " #proto)
ASC_SAME_FORMAT(kFormatNCHW, FORMAT_NCHW);
ASC_SAME_FORMAT(kFormatNHWC, FORMAT_NHWC);
ASC_SAME_FORMAT(kFormatND, FORMAT_ND);
ASC_SAME_FORMAT(kFormatNC1HWC0, FORMAT_NC1HWC0);
ASC_SAME_FORMAT(kFormatFractalZ, FORMAT_FRACTAL_Z);
ASC_SAME_FORMAT(kFormatNC1HWC0_C04, FORMAT_NC1HWC0_C04);
ASC_SAME_FORMAT(kFormatFractalZ_C04, FORMAT_FRACTAL_Z_C04);
ASC_SAME_FORMAT(kFormatHWCN, FORMAT_HWCN);
ASC_SAME_FORMAT(kFormatNDHWC, FORMAT_NDHWC);
ASC_SAME_FORMAT(kFormatFractalNZ, FORMAT_FRACTAL_NZ);
ASC_SAME_FORMAT(kFormatNCDHW, FORMAT_NCDHW);
ASC_SAME_FORMAT(kFormatDHWCN, FORMAT_DHWCN);
ASC_SAME_FORMAT(kFormatNDC1HWC0, FORMAT_NDC1HWC0);
ASC_SAME_FORMAT(kFormatFractalZ3D, FORMAT_FRACTAL_Z_3D);
ASC_SAME_FORMAT(kFormatNC, FORMAT_NC);
#undef ASC_SAME_FORMAT

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The element count of a shape read from a file; -1 when the product overflows (a header can
// hold any dims, and a zero dim late in the list does not save an earlier overflow).
int64_t countOf(const ir::Shape& s) {
  int64_t n = 1;
  for (int64_t d : s)
    if (__builtin_mul_overflow(n, d, &n)) return -1;
  return n;
}

// Copies one element of `es` bytes; the switch lets the compiler use a plain load/store.
inline void copyElem(uint8_t* dst, const uint8_t* src, size_t es) {
  switch (es) {
    case 1:
      *dst = *src;
      break;
    case 2:
      std::memcpy(dst, src, 2);
      break;
    case 4:
      std::memcpy(dst, src, 4);
      break;
    case 8:
      std::memcpy(dst, src, 8);
      break;
    default:
      std::memcpy(dst, src, es);
  }
}

// Where n, c, h, w of a 4-D origin tensor live in its layout.
struct Origin4D {
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t sn = 0, sc = 0, sh = 0, sw = 0;  // strides in elements
  const char* layout = "NCHW";
};

Origin4D origin4D(const ir::Shape& o, int origin_format) {
  Origin4D d;
  if (origin_format == kFormatNHWC) {
    d = {o[0], o[3], o[1], o[2], o[1] * o[2] * o[3], 1, o[2] * o[3], o[3], "NHWC"};
  } else if (origin_format == kFormatHWCN) {
    d = {o[3], o[2], o[0], o[1], 1, o[3], o[1] * o[2] * o[3], o[2] * o[3], "HWCN"};
  } else {
    d = {o[0], o[1], o[2], o[3], o[1] * o[2] * o[3], o[2] * o[3], o[3], 1, "NCHW"};
  }
  return d;
}

Status misfit(const std::string& where, const char* format, const ir::Shape& stored,
              const ir::Shape& origin, const char* layout, const std::string& expected) {
  return Status::error(
      ErrorCode::ModelParseFailed,
      "{} is stored in {} as ({}) = {} elements, which does not fit its origin shape ({}) in "
      "{}: that needs {}; check the dump header's original_shape (a wrong or missing origin "
      "shape cannot be converted back, and the data is not compared as flat)",
      where, format, ir::shapeToString(stored), countOf(stored), ir::shapeToString(origin), layout,
      expected);
}

Status checkBasics(const ir::Tensor& t, const std::string& where, const char* format,
                   size_t stored_rank, bool rank_at_least, const ir::Shape& origin,
                   size_t origin_rank, bool origin_at_least) {
  const bool rank_ok =
      rank_at_least ? t.shape.size() >= stored_rank : t.shape.size() == stored_rank;
  if (!rank_ok)
    return Status::error(ErrorCode::ModelParseFailed,
                         "{} is in {} but its stored shape ({}) has {} dims, {} needs {}{}; the "
                         "dump header is inconsistent",
                         where, format, ir::shapeToString(t.shape), t.shape.size(), format,
                         rank_at_least ? "at least " : "", stored_rank);
  if (origin.empty())
    return Status::error(ErrorCode::ModelParseFailed,
                         "{} is in {} but its dump header has no original_shape; without it the "
                         "padding cannot be removed: dump with a CANN version that records "
                         "original_shape, or compare a tensor in ND/NCHW",
                         where, format);
  const bool orank_ok =
      origin_at_least ? origin.size() >= origin_rank : origin.size() == origin_rank;
  if (!orank_ok)
    return Status::error(ErrorCode::ModelParseFailed,
                         "{} is in {} but its original_shape ({}) has {} dims; asc-tools converts "
                         "{} only to {}",
                         where, format, ir::shapeToString(origin), origin.size(), format,
                         origin_at_least
                             ? fmt::format("an origin shape of at least {} dim", origin_rank)
                             : fmt::format("a {}-D origin shape", origin_rank));
  for (int64_t d : t.shape)
    if (d < 0) return Status::error(ErrorCode::ModelParseFailed, "{} has a negative dim", where);
  for (int64_t d : origin)
    if (d < 0 || d > (int64_t(1) << 40))
      return Status::error(ErrorCode::ModelParseFailed,
                           "{} has an original_shape dim of {}; the dump header is corrupted",
                           where, d);
  if (countOf(origin) < 0 || countOf(origin) > t.numel())
    return misfit(where, format, t.shape, origin, "its origin layout",
                  "at most as many elements as are stored");
  if (t.shape.back() <= 0)
    return Status::error(ErrorCode::ModelParseFailed,
                         "{} is in {} with a last stored dim of 0 (C0 must be positive)", where,
                         format);
  if (!t.data || t.data->size() < t.byteSize())
    return Status::error(ErrorCode::ModelParseFailed,
                         "{} holds {} bytes, its stored shape ({}) needs {}", where,
                         t.data ? t.data->size() : 0, ir::shapeToString(t.shape), t.byteSize());
  return Status::ok();
}

// NC1HWC0 [N, C1, H, W, C0] -> origin 4-D.
Result<std::vector<uint8_t>> fromNC1HWC0(const ir::Tensor& t, const ir::Shape& origin,
                                         int origin_format, const std::string& where) {
  ASC_RETURN_IF_ERROR(checkBasics(t, where, "NC1HWC0", 5, false, origin, 4, false));
  const Origin4D o = origin4D(origin, origin_format);
  const int64_t c0 = t.shape[4], c1 = ceilDiv(o.c, c0);
  const ir::Shape expect = {o.n, c1, o.h, o.w, c0};
  if (countOf(expect) != t.numel() || t.shape[1] != c1)
    return misfit(where, "NC1HWC0", t.shape, origin, o.layout,
                  fmt::format("({}) with C0 = {}", ir::shapeToString(expect), c0));
  if (countOf(origin) == 0) return std::vector<uint8_t>{};
  const size_t es = ir::dtypeSize(t.dtype);
  std::vector<uint8_t> out(static_cast<size_t>(countOf(origin)) * es);
  const uint8_t* src = t.data->data();
  for (int64_t n = 0; n < o.n; ++n)
    for (int64_t k1 = 0; k1 < c1; ++k1)
      for (int64_t h = 0; h < o.h; ++h)
        for (int64_t w = 0; w < o.w; ++w)
          for (int64_t k0 = 0; k0 < c0; ++k0, src += es) {
            const int64_t c = k1 * c0 + k0;
            if (c >= o.c) continue;  // channel padding
            const int64_t dst = n * o.sn + c * o.sc + h * o.sh + w * o.sw;
            copyElem(out.data() + static_cast<size_t>(dst) * es, src, es);
          }
  return out;
}

// FRACTAL_Z [C1*H*W, N1, N0, C0] -> origin 4-D weight.
Result<std::vector<uint8_t>> fromFractalZ(const ir::Tensor& t, const ir::Shape& origin,
                                          int origin_format, const std::string& where) {
  ASC_RETURN_IF_ERROR(checkBasics(t, where, "FRACTAL_Z", 4, false, origin, 4, false));
  const Origin4D o = origin4D(origin, origin_format);
  const int64_t n0 = t.shape[2], c0 = t.shape[3];
  if (n0 <= 0) return misfit(where, "FRACTAL_Z", t.shape, origin, o.layout, "N0 > 0");
  const int64_t n1 = ceilDiv(o.n, n0), c1 = ceilDiv(o.c, c0);
  const ir::Shape expect = {countOf({c1, o.h, o.w}), n1, n0, c0};
  if (countOf(expect) != t.numel() || t.shape[1] != n1)
    return misfit(where, "FRACTAL_Z", t.shape, origin, o.layout,
                  fmt::format("({}) with N0 = {}, C0 = {} (group convolution weights are not "
                              "converted)",
                              ir::shapeToString(expect), n0, c0));
  if (countOf(origin) == 0) return std::vector<uint8_t>{};
  const size_t es = ir::dtypeSize(t.dtype);
  std::vector<uint8_t> out(static_cast<size_t>(countOf(origin)) * es);
  const uint8_t* src = t.data->data();
  for (int64_t k1 = 0; k1 < c1; ++k1)
    for (int64_t h = 0; h < o.h; ++h)
      for (int64_t w = 0; w < o.w; ++w)
        for (int64_t j1 = 0; j1 < n1; ++j1)
          for (int64_t j0 = 0; j0 < n0; ++j0)
            for (int64_t k0 = 0; k0 < c0; ++k0, src += es) {
              const int64_t n = j1 * n0 + j0, c = k1 * c0 + k0;
              if (n >= o.n || c >= o.c) continue;  // padding
              const int64_t dst = n * o.sn + c * o.sc + h * o.sh + w * o.sw;
              copyElem(out.data() + static_cast<size_t>(dst) * es, src, es);
            }
  return out;
}

// FRACTAL_NZ [B..., N1, M1, M0, N0] -> ND [B..., M, N].
Result<std::vector<uint8_t>> fromFractalNZ(const ir::Tensor& t, const ir::Shape& origin,
                                           const std::string& where) {
  ASC_RETURN_IF_ERROR(checkBasics(t, where, "FRACTAL_NZ", 4, true, origin, 1, true));
  const size_t r = origin.size();
  const int64_t n = origin[r - 1], m = r >= 2 ? origin[r - 2] : 1;
  const int64_t b = r > 2 ? countOf(ir::Shape(origin.begin(), origin.end() - 2)) : 1;
  const size_t s = t.shape.size();
  const int64_t m0 = t.shape[s - 2], n0 = t.shape[s - 1];
  if (m0 <= 0) return misfit(where, "FRACTAL_NZ", t.shape, origin, "ND", "M0 > 0");
  const int64_t n1 = ceilDiv(n, n0), m1 = ceilDiv(m, m0);
  const int64_t stored_b = countOf(ir::Shape(t.shape.begin(), t.shape.end() - 4));
  if (stored_b != b || t.shape[s - 4] != n1 || t.shape[s - 3] != m1)
    return misfit(where, "FRACTAL_NZ", t.shape, origin, "ND",
                  fmt::format("batch {} x ({}, {}, {}, {}) with M0 = {}, N0 = {}", b, n1, m1, m0,
                              n0, m0, n0));
  if (countOf(origin) == 0) return std::vector<uint8_t>{};
  const size_t es = ir::dtypeSize(t.dtype);
  std::vector<uint8_t> out(static_cast<size_t>(b * m * n) * es);
  const uint8_t* src = t.data->data();
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t j1 = 0; j1 < n1; ++j1)
      for (int64_t i1 = 0; i1 < m1; ++i1)
        for (int64_t i0 = 0; i0 < m0; ++i0)
          for (int64_t j0 = 0; j0 < n0; ++j0, src += es) {
            const int64_t row = i1 * m0 + i0, col = j1 * n0 + j0;
            if (row >= m || col >= n) continue;  // padding
            const int64_t dst = (bi * m + row) * n + col;
            copyElem(out.data() + static_cast<size_t>(dst) * es, src, es);
          }
  return out;
}

}  // namespace

std::string dumpFormatName(int format) {
  if (pb::OutputFormat_IsValid(format)) {
    std::string n = pb::OutputFormat_Name(static_cast<pb::OutputFormat>(format));
    return n.rfind("FORMAT_", 0) == 0 ? n.substr(7) : n;
  }
  return fmt::format("format {}", format);
}

bool isPlainFormat(int format) {
  switch (format) {
    case kFormatNCHW:
    case kFormatNHWC:
    case kFormatND:
    case kFormatHWCN:
    case kFormatNDHWC:
    case kFormatNCDHW:
    case kFormatDHWCN:
    case kFormatNC:
      return true;
    default:
      return false;
  }
}

Result<ir::Tensor> toOriginLayout(const ir::Tensor& stored, int format,
                                  const ir::Shape& origin_shape, int origin_format,
                                  const std::string& where) {
  if (isPlainFormat(format)) return stored;
  if (stored.dtype == ir::DType::Undefined)
    return Status::error(ErrorCode::InvalidParam,
                         "{} has no known data type, so its {} layout cannot be converted", where,
                         dumpFormatName(format));
  Result<std::vector<uint8_t>> bytes = Status::error(ErrorCode::Internal, "unset");
  switch (format) {
    case kFormatNC1HWC0:
      bytes = fromNC1HWC0(stored, origin_shape, origin_format, where);
      break;
    case kFormatFractalZ:
      bytes = fromFractalZ(stored, origin_shape, origin_format, where);
      break;
    case kFormatFractalNZ:
      bytes = fromFractalNZ(stored, origin_shape, where);
      break;
    default:
      return Status::error(ErrorCode::NotImplemented,
                           "{} is stored in device format {} ({}), which asc-tools does not "
                           "convert yet (it converts NC1HWC0, FRACTAL_Z and FRACTAL_NZ); compare "
                           "a dump of this tensor in ND/NCHW, or leave it out",
                           where, dumpFormatName(format), format);
  }
  if (!bytes) return bytes.status();
  ir::Tensor t;
  t.dtype = stored.dtype;
  t.shape = origin_shape;
  t.data = ir::Blob::fromVector(std::move(*bytes));
  return t;
}

}  // namespace asc::tensorio
