// dump_file.cpp: Ascend dump files through the project's dump_data.proto (format in
// asc/tensorio/dump_file.h). The reader validates every size against the file before it
// trusts one; the tensors it returns point into the mapping.
#include "asc/tensorio/dump_file.h"

#include <fmt/format.h>

#include <cctype>
#include <climits>
#include <cstring>

#include "asc/support/file.h"
#include "dump_data.pb.h"
#include "support/protobuf_log.h"

namespace asc::tensorio {
namespace {

namespace pb = toolkit::dumpdata;

Status bad(const std::string& path, const std::string& why) {
  return Status::error(ErrorCode::ModelParseFailed,
                       "'{}' is not a valid Ascend dump file: {}; check that it is a complete "
                       "dump file (8-byte length, DumpData header, tensors)",
                       path, why);
}

template <typename Msg>
Result<DumpTensor> takeTensor(const Msg& m, const std::string& path, const char* what, int i,
                              const std::shared_ptr<MappedFile>& file, uint64_t* offset) {
  DumpTensor t;
  t.raw_data_type = m.data_type();
  t.tensor.dtype = ir::dtypeFromGe(m.data_type());
  t.format = m.format();
  for (auto d : m.shape().dim()) {
    if (d > (uint64_t(1) << 40)) return bad(path, fmt::format("{} {} has a dim of {}", what, i, d));
    t.tensor.shape.push_back(static_cast<int64_t>(d));
  }
  for (auto d : m.original_shape().dim()) t.original_shape.push_back(static_cast<int64_t>(d));
  t.address = m.address();
  const uint64_t size = m.size();
  if (size > file->size() - *offset)
    return bad(path, fmt::format("{} {} needs {} bytes at offset {}, the file has {}", what, i,
                                 size, *offset, file->size()));
  if (t.tensor.dtype != ir::DType::Undefined) {
    uint64_t need = 0;
    if (!ir::checkedByteSize(t.tensor.shape, t.tensor.dtype, &need))
      return bad(path, fmt::format("{} {}: {}", what, i,
                                   ir::shapeLimitReason(t.tensor.shape, t.tensor.dtype)));
    if (need != size)
      return bad(path, fmt::format("{} {}: shape ({}) of {} needs {} bytes, its size is {}", what,
                                   i, ir::shapeToString(t.tensor.shape),
                                   ir::dtypeName(t.tensor.dtype), need, size));
  }
  t.tensor.data =
      std::make_shared<ir::Blob>(file->data() + *offset, static_cast<size_t>(size), file);
  *offset += size;
  return t;
}

// Digits to uint64, saturating (names may carry up to 255 digits; never throws).
uint64_t toU64(const std::string& s) {
  uint64_t v = 0;
  for (char c : s) {
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return UINT64_MAX;
    v = v * 10 + d;
  }
  return v;
}

bool allDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

template <typename Msg>
Status fillTensor(Msg* m, const DumpTensor& t, const char* what, size_t i) {
  const size_t bytes = t.tensor.data ? t.tensor.data->size() : 0;
  if (t.tensor.dtype == ir::DType::Undefined)
    m->set_data_type(static_cast<pb::OutputDataType>(t.raw_data_type));
  else
    m->set_data_type(static_cast<pb::OutputDataType>(ir::dtypeToGe(t.tensor.dtype)));
  if (t.tensor.dtype != ir::DType::Undefined && bytes != t.tensor.byteSize())
    return Status::error(ErrorCode::InvalidParam,
                         "dump {} {}: shape ({}) of {} needs {} bytes, the data has {}", what, i,
                         ir::shapeToString(t.tensor.shape), ir::dtypeName(t.tensor.dtype),
                         t.tensor.byteSize(), bytes);
  m->set_format(static_cast<pb::OutputFormat>(t.format));
  for (int64_t d : t.tensor.shape) m->mutable_shape()->add_dim(static_cast<uint64_t>(d));
  for (int64_t d : t.original_shape) m->mutable_original_shape()->add_dim(static_cast<uint64_t>(d));
  m->set_size(bytes);
  m->set_address(t.address);
  return Status::ok();
}

}  // namespace

Result<DumpData> readDumpFile(const std::string& path) {
  routeProtobufLogs();
  ASC_TRY(auto file, MappedFile::open(path));
  if (file->size() < 8) return bad(path, fmt::format("only {} bytes", file->size()));
  uint64_t len;
  std::memcpy(&len, file->data(), 8);
  if (len > file->size() - 8)
    return bad(path,
               fmt::format("the header length {} runs past the end ({} bytes)", len, file->size()));
  if (len > static_cast<uint64_t>(INT_MAX))
    return bad(path, fmt::format("the header length {} is over the 2 GiB protobuf limit", len));
  pb::DumpData msg;
  if (!msg.ParseFromArray(file->data() + 8, static_cast<int>(len)))
    return bad(path, "the DumpData header does not parse");
  DumpData d;
  d.version = msg.version();
  d.dump_time = msg.dump_time();
  d.op_name = msg.op_name();
  for (const auto& a : msg.attr()) d.attrs.emplace_back(a.name(), a.value());
  uint64_t offset = 8 + len;
  for (int i = 0; i < msg.input_size(); ++i) {
    ASC_TRY(auto t, takeTensor(msg.input(i), path, "input", i, file, &offset));
    d.inputs.push_back(std::move(t));
  }
  for (int i = 0; i < msg.output_size(); ++i) {
    ASC_TRY(auto t, takeTensor(msg.output(i), path, "output", i, file, &offset));
    const auto& oo = msg.output(i).original_op();
    t.original_op_name = oo.name();
    t.original_output_index = oo.output_index();
    t.original_format = oo.format();
    d.outputs.push_back(std::move(t));
  }
  // Buffer and workspace sizes: summed without wrapping (each must fit what is left).
  uint64_t rest = 0;
  bool over = false;
  for (const auto& b : msg.buffer()) over = over || __builtin_add_overflow(rest, b.size(), &rest);
  for (const auto& s : msg.space()) over = over || __builtin_add_overflow(rest, s.size(), &rest);
  if (over)
    return bad(path, fmt::format("the buffer and workspace sizes add up to more than 2^64 bytes, "
                                 "the file has {}",
                                 file->size()));
  d.buffer_count = static_cast<size_t>(msg.buffer_size());
  d.workspace_count = static_cast<size_t>(msg.space_size());
  if (rest != file->size() - offset)
    return bad(path, fmt::format("the header describes {} bytes of data, the file has {}",
                                 offset - 8 - len + rest, file->size() - 8 - len));
  return d;
}

Status writeDumpFile(const std::string& path, const DumpData& dump) {
  pb::DumpData msg;
  msg.set_version(dump.version);
  msg.set_dump_time(dump.dump_time);
  msg.set_op_name(dump.op_name);
  for (const auto& a : dump.attrs) {
    auto* attr = msg.add_attr();
    attr->set_name(a.first);
    attr->set_value(a.second);
  }
  for (size_t i = 0; i < dump.inputs.size(); ++i)
    ASC_RETURN_IF_ERROR(fillTensor(msg.add_input(), dump.inputs[i], "input", i));
  for (size_t i = 0; i < dump.outputs.size(); ++i) {
    auto* o = msg.add_output();
    ASC_RETURN_IF_ERROR(fillTensor(o, dump.outputs[i], "output", i));
    if (!dump.outputs[i].original_op_name.empty() || dump.outputs[i].original_format != 0) {
      o->mutable_original_op()->set_name(dump.outputs[i].original_op_name);
      o->mutable_original_op()->set_output_index(dump.outputs[i].original_output_index);
      o->mutable_original_op()->set_format(
          static_cast<pb::OutputFormat>(dump.outputs[i].original_format));
    }
  }
  std::string header;
  if (!msg.SerializeToString(&header))
    return Status::error(ErrorCode::Internal, "cannot serialize the dump header of '{}'", path);
  ASC_TRY(auto out, OutputFile::create(path));
  const uint64_t len = header.size();
  ASC_RETURN_IF_ERROR(out->write(&len, 8));
  ASC_RETURN_IF_ERROR(out->write(header.data(), header.size()));
  for (const auto* list : {&dump.inputs, &dump.outputs})
    for (const auto& t : *list)
      if (t.tensor.data)
        ASC_RETURN_IF_ERROR(out->write(t.tensor.data->data(), t.tensor.data->size()));
  return out->keep();
}

std::string dumpSafeName(const std::string& name) {
  std::string o = name;
  for (char& c : o)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return o.empty() ? "_" : o;
}

std::string dumpFileName(const std::string& op_type, const std::string& op_name, uint64_t task_id,
                         uint64_t stream_id, uint64_t timestamp_us) {
  return fmt::format("{}.{}.{}.{}.{:016d}", dumpSafeName(op_type), dumpSafeName(op_name), task_id,
                     stream_id, timestamp_us);
}

bool parseDumpFileName(const std::string& name, DumpName* out) {
  std::vector<std::string> parts;
  size_t p = 0;
  while (true) {
    size_t e = name.find('.', p);
    parts.push_back(name.substr(p, e == std::string::npos ? std::string::npos : e - p));
    if (e == std::string::npos) break;
    p = e + 1;
  }
  // {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}; also the 4-part form without a
  // stream id and the newer forms with trailing numeric fields (ascend-facts.md 6.3).
  if (parts.size() < 4) return false;
  for (size_t i = 0; i < 2; ++i) {
    if (parts[i].empty()) return false;
    for (char c : parts[i])
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  for (size_t i = 2; i < parts.size(); ++i)
    if (!allDigits(parts[i])) return false;
  DumpName n;
  n.op_type = parts[0];
  n.op_name = parts[1];
  n.task_id = toU64(parts[2]);
  if (parts.size() == 4) {
    n.timestamp = toU64(parts[3]);
  } else {
    n.stream_id = toU64(parts[3]);
    n.timestamp = toU64(parts[4]);
  }
  *out = n;
  return true;
}

}  // namespace asc::tensorio
