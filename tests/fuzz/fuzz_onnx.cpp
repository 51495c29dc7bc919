// fuzz_onnx: ONNX model import (frontend/onnx.h) from a file, with external data.
// Input: the model's bytes, optionally followed by kSeparator and the bytes of its external
// data file, which is written beside the model as "tiny_external.onnx.data" (the location the
// seed models name). Runs importOnnx and precheckOnnx (atc --mode=3) on the model.
#include <cstring>
#include <string_view>

#include "asc/frontend/onnx.h"
#include "fuzz_util.h"

namespace {
constexpr std::string_view kSeparator = "\n--ASC-EXTERNAL-DATA--\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  std::string_view all(reinterpret_cast<const char*>(data), size);
  std::string_view model = all, external;
  if (size_t p = all.find(kSeparator); p != std::string_view::npos) {
    model = all.substr(0, p);
    external = all.substr(p + kSeparator.size());
  }
  fuzz::writeTemp("tiny_external.onnx.data", reinterpret_cast<const uint8_t*>(external.data()),
                  external.size());
  const std::string path =
      fuzz::writeTemp("model.onnx", reinterpret_cast<const uint8_t*>(model.data()), model.size());

  auto g = frontend::importOnnx(path);
  fuzz::report("importOnnx", g.isOk() ? Status::ok() : g.status());
  if (g.isOk()) {
    // An imported graph is a valid one: the verifier must accept it.
    Status v = ir::verify(*g);
    fuzz::report("verify", v);
    ASC_FUZZ_CHECK(v.isOk());
    (void)ir::printGraph(*g);
  }

  auto pre = frontend::precheckOnnx(path);
  // The pre-check reads the same file; it fails only when the file is not ONNX at all.
  fuzz::report("precheckOnnx", pre.isOk() ? Status::ok() : pre.status());
  return 0;
}
