// fuzz_op_json: opgen's op-definition JSON (opgen::parseOpJson): any text is a list of checked
// op definitions or an error with msopgen's exit code, never a crash.
#include "asc/opgen/opgen.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace asc;
  fuzz::quietLogs();
  std::vector<opgen::OpDesc> ops;
  int code = 0;
  Status st = opgen::parseOpJson(std::string(reinterpret_cast<const char*>(data), size), "op.json",
                                 &ops, &code);
  if (st.isOk() && (code != 0 || ops.empty())) __builtin_trap();  // success is a non-empty list
  if (!st.isOk() && code == 0) __builtin_trap();                  // every error has its code
  for (const auto& d : ops)
    if (d.snake != opgen::snakeCase(d.op) || d.outputs.empty() || d.inputs.empty())
      __builtin_trap();
  return 0;
}
