// fuzz_bin: raw tensors given a dtype and shape, as msame and mscompare read them
// (tensorio/tensor_file.h): readTensorFile on a .bin, the dtype/shape checks the tools apply,
// msame's .txt rendering of it (formatTxt) and the .txt parser (parseTxt) on the rendering and
// on the raw bytes. Input: byte 0 picks the dtype, byte 1 the rank (0-4) and the next `rank`
// bytes the dims; the rest is the file.
#include <cstring>

#include "asc/tensorio/tensor_file.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  if (size < 2) return 0;
  const auto dtype = static_cast<ir::DType>(1 + data[0] % 13);  // F32 .. Bool
  const size_t rank = data[1] % 5;
  if (size < 2 + rank) return 0;
  ir::Shape shape;
  for (size_t i = 0; i < rank; ++i) shape.push_back(data[2 + i]);
  const uint8_t* body = data + 2 + rank;
  const size_t n = size - 2 - rank;

  const std::string path = fuzz::writeTemp("t.bin", body, n);
  auto lt = tensorio::readTensorFile(path);
  fuzz::report("readTensorFile", lt.isOk() ? Status::ok() : lt.status());
  ASC_FUZZ_CHECK(lt.isOk());  // any readable file is a raw tensor
  ASC_FUZZ_CHECK(!lt->has_dtype && lt->tensor.data->size() == n);
  ASC_FUZZ_CHECK(n == 0 || std::memcmp(lt->tensor.data->data(), body, n) == 0);

  const size_t es = ir::dtypeSize(dtype);
  ir::Tensor t = lt->tensor;
  t.dtype = dtype;
  uint64_t want = 0;
  if (ir::checkedByteSize(shape, dtype, &want) && want == n)
    t.shape = shape;  // as msame feeds it
  else if (n % es == 0)
    t.shape = {static_cast<int64_t>(n / es)};  // as mscompare
  else
    return 0;  // the tools reject it with an error naming both sizes

  const std::string txt = tensorio::formatTxt(t);
  auto back = tensorio::parseTxt(txt.data(), txt.size(), dtype, "formatTxt");
  fuzz::report("parseTxt(formatTxt)", back.isOk() ? Status::ok() : back.status());
  ASC_FUZZ_CHECK(back.isOk());  // what msame writes, mscompare reads
  ASC_FUZZ_CHECK(back->numel() == t.numel());

  auto parsed = tensorio::parseTxt(body, n, dtype, "fuzz.txt");
  fuzz::report("parseTxt", parsed.isOk() ? Status::ok() : parsed.status());
  return 0;
}
