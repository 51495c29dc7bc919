// fuzz_single_op: atc --singleop's op-description JSON (singleop::parseJson), the file name and
// the description the OM records for each op (fileName, toJson), and the graph each op builds
// (buildGraph: its operator's checks and shape inference): any text is a list of ops that read
// back as themselves, or an error with its code, never a crash.
#include "asc/compiler/single_op.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  auto ops = singleop::parseJson(std::string(reinterpret_cast<const char*>(data), size), "f.json");
  if (!ops.isOk()) {
    if (ops.status().code() == ErrorCode::Ok) __builtin_trap();  // every error has its code
    return 0;
  }
  if (ops->empty()) __builtin_trap();
  for (size_t i = 0; i < ops->size() && i < 8; ++i) {
    const singleop::OpDesc& d = (*ops)[i];
    const std::string name = singleop::fileName(d, i);
    if (name.size() > 131 || name.substr(name.size() - 3) != ".om") __builtin_trap();
    // What an OM records reads back as the same op.
    auto back = singleop::parseJson(singleop::toJson(d), "om");
    if (!back.isOk() || back->size() != 1) __builtin_trap();
    std::string why;
    if (singleop::match((*back)[0], d, &why) != singleop::Mismatch::None) __builtin_trap();
    // Large shapes are left out: inference on them is fine, but it costs the fuzzer its speed.
    int64_t elems = 1;
    bool small = d.inputs.size() <= 8;
    for (const auto& t : d.inputs)
      for (int64_t dim : t.dims) {
        elems *= dim > 0 ? dim : 1;
        small = small && elems <= (1 << 16);
      }
    if (small) (void)singleop::buildGraph(d);
  }
  return 0;
}
