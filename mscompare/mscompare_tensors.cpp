// mscompare_tensors.cpp: the tensors mscompare compares: each file classified by its name (a
// dump's op, type, index and timestamp; a golden .npy's op and index; msame's output stems) and
// read as a tensor view (dumps once per file, device layouts such as NC1HWC0, FRACTAL_Z and
// FRACTAL_NZ brought back to their origin layout).
#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/tensorio/layout_convert.h"
#include "mscompare_tensors.h"

namespace asc::mscompare {

bool allDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

uint64_t mtimeNs(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return 0;
  return static_cast<uint64_t>(st.st_mtim.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(st.st_mtim.tv_nsec);
}

// "<name>_output_<i>" -> name, i (msame's output names).
bool parseMsameName(const std::string& stem, std::string* name, int* index) {
  auto p = stem.rfind("_output_");
  if (p == std::string::npos || p == 0) return false;
  std::string idx = stem.substr(p + 8);
  if (!allDigits(idx) || idx.size() > 6) return false;
  *name = stem.substr(0, p);
  *index = std::stoi(idx);
  return true;
}

// The entries one file holds (a dump file: one per output). `loose`: a single file given on
// the command line, so any name is accepted.
Status classify(const std::string& path, bool loose, std::vector<Entry>* out) {
  const std::string name = baseName(path);
  Entry e;
  e.path = path;
  tensorio::DumpName dn;
  if (endsWith(name, ".npy") || endsWith(name, ".bin") || endsWith(name, ".txt")) {
    e.kind = endsWith(name, ".npy") ? Kind::Npy : endsWith(name, ".bin") ? Kind::Bin : Kind::Txt;
    const std::string stem = name.substr(0, name.size() - 4);
    std::string msame_name;
    int idx = 0;
    // Golden naming {op}.{output_index}.{timestamp}.npy.
    auto p2 = stem.rfind('.');
    auto p1 = p2 == std::string::npos || p2 == 0 ? std::string::npos : stem.rfind('.', p2 - 1);
    if (p1 != std::string::npos && p1 > 0 && allDigits(stem.substr(p1 + 1, p2 - p1 - 1)) &&
        allDigits(stem.substr(p2 + 1)) && p2 - p1 - 1 <= 6 && stem.size() - p2 - 1 <= 19) {
      e.op = stem.substr(0, p1);
      e.index = std::stoi(stem.substr(p1 + 1, p2 - p1 - 1));
      e.timestamp = std::stoull(stem.substr(p2 + 1));
      e.key = tensorio::dumpSafeName(e.op);
    } else if (parseMsameName(stem, &msame_name, &idx)) {
      e.op = msame_name;
      e.index = idx;
      e.key = msame_name;
      e.timestamp = mtimeNs(path);
    } else {
      e.op = stem;
      e.key = tensorio::dumpSafeName(stem);
      e.timestamp = mtimeNs(path);
    }
    out->push_back(e);
    return Status::ok();
  }
  if (tensorio::parseDumpFileName(name, &dn) || loose) {
    ASC_TRY(auto dump, tensorio::readDumpFile(path));
    e.kind = Kind::Dump;
    e.op = dn.op_name.empty() ? dump.op_name : dn.op_name;
    e.op_type = dn.op_type;
    e.key = tensorio::dumpSafeName(e.op);
    e.timestamp = dn.timestamp ? dn.timestamp : dump.dump_time;
    for (size_t i = 0; i < dump.inputs.size(); ++i) {
      Entry in = e;
      in.input = true;
      in.index = static_cast<int>(i);
      out->push_back(in);
    }
    for (size_t i = 0; i < dump.outputs.size(); ++i) {
      Entry o = e;
      o.index = static_cast<int>(i);
      o.original_op = dump.outputs[i].original_op_name;
      o.original_index = static_cast<int>(dump.outputs[i].original_output_index);
      out->push_back(o);
    }
    return Status::ok();
  }
  ASC_LOG_INFO("skipping '{}': neither a dump file nor a .npy/.bin/.txt tensor", path);
  return Status::ok();
}

Result<ir::DType> parseDtype(const std::string& s) {
  for (int i = 1; i <= static_cast<int>(ir::DType::Bool); ++i) {
    auto t = static_cast<ir::DType>(i);
    if (s == ir::dtypeName(t)) return t;
  }
  std::string up;
  for (char c : s) up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto t = ir::dtypeFromAtcName(up);
  if (t != ir::DType::Undefined) return t;
  return Status::error(ErrorCode::InvalidParam,
                       "Value {} for parameter --dtype is invalid. Reason: use a numpy name such "
                       "as float32, float16, bfloat16, float64, int8..int64, uint8..uint64, bool",
                       s);
}

Result<Loaded> load(const Entry& e, ir::DType raw_dtype, DumpCache* cache) {
  Loaded l;
  if (e.kind == Kind::Dump) {
    if (!cache->dump || cache->path != e.path) {
      cache->dump.reset();
      ASC_TRY(auto d, tensorio::readDumpFile(e.path));
      cache->dump = std::make_shared<const tensorio::DumpData>(std::move(d));
      cache->path = e.path;
    }
    const tensorio::DumpData& dump = *cache->dump;
    const auto& list = e.input ? dump.inputs : dump.outputs;
    if (e.index >= static_cast<int>(list.size()))
      return Status::error(ErrorCode::FileReadFailed, "'{}' has no {} {}", e.path, kindName(e),
                           e.index);
    const auto& t = list[static_cast<size_t>(e.index)];
    if (t.tensor.dtype == ir::DType::Undefined)
      return Status::error(ErrorCode::InvalidParam,
                           "'{}' {} {} has dump data type {}, which cannot be compared", e.path,
                           kindName(e), e.index, t.raw_data_type);
    l.stored = t.tensor;
    l.format = t.format;
    l.original_format = t.original_format;
    l.original_shape = t.original_shape;
    l.view.dtype = t.tensor.dtype;
    l.view.data = t.tensor.data ? t.tensor.data->data() : nullptr;
    l.view.count = static_cast<uint64_t>(t.tensor.numel());
    l.view.releasable = true;
    l.shape = t.tensor.shape;
    l.address = t.address;
    l.has_address = true;
    l.keep = t.tensor.data;
    return l;
  }
  if (e.kind == Kind::Txt) {
    ASC_TRY(auto f, MappedFile::open(e.path));
    ASC_TRY(auto t, tensorio::parseTxt(f->data(), f->size(), raw_dtype, e.path));
    l.view.dtype = t.dtype;
    l.view.data = t.data->data();
    l.view.count = static_cast<uint64_t>(t.numel());
    l.shape = t.shape;
    l.keep = t.data;
    return l;
  }
  ASC_TRY(auto lt, tensorio::readTensorFile(e.path));
  ir::Tensor t = lt.tensor;
  if (!lt.has_dtype) {  // raw .bin: --dtype
    const size_t es = ir::dtypeSize(raw_dtype);
    if (t.data->size() % es != 0)
      return Status::error(ErrorCode::InvalidParam,
                           "'{}' has {} bytes, not a whole number of {} elements; check --dtype",
                           e.path, t.data->size(), ir::dtypeName(raw_dtype));
    t.dtype = raw_dtype;
    t.shape = {static_cast<int64_t>(t.data->size() / es)};
  }
  l.view.dtype = t.dtype;
  l.view.data = t.data ? t.data->data() : nullptr;
  l.view.count = static_cast<uint64_t>(t.numel());
  l.view.releasable = lt.mapped;
  l.shape = t.shape;
  l.keep = t.data;
  return l;
}

// A dump tensor in a device layout (NC1HWC0, FRACTAL_Z, FRACTAL_NZ) rearranged into its
// origin layout and shape, as msaccucmp converts before it compares; plain layouts stay as
// they are (mapped, not copied).
Status toOrigin(const Entry& e, Loaded* l) {
  if (e.kind != Kind::Dump || tensorio::isPlainFormat(l->format)) return Status::ok();
  const std::string where = fmt::format("'{}' {} {}", e.path, kindName(e), e.index);
  ASC_TRY(ir::Tensor t, tensorio::toOriginLayout(l->stored, l->format, l->original_shape,
                                                 l->original_format, where));
  ASC_LOG_INFO("{}: {} ({}) converted to its origin shape ({})", where,
               tensorio::dumpFormatName(l->format), ir::shapeToString(l->stored.shape),
               ir::shapeToString(t.shape));
  l->view.data = t.data->data();
  l->view.count = static_cast<uint64_t>(t.numel());
  l->view.releasable = false;  // an owned copy, not a file mapping
  l->shape = t.shape;
  l->keep = t.data;
  l->stored = ir::Tensor();
  return Status::ok();
}

}  // namespace asc::mscompare
