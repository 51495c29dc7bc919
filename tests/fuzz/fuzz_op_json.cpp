// fuzz_op_json: opgen's op-definition JSON (opgen::parseOpJson): any text is a list of checked
// op definitions or an error with msopgen's exit code, never a crash; and every file opgen
// writes for an operator it accepted is made (in memory) without one.
#include "asc/opgen/opgen.h"
#include "fuzz_util.h"
#include "opgen/templates.h"

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
  const opgen::ProjectInfo info{"Ascend310P3", "ascend310p", "/usr/local/Ascend/latest", "onnx"};
  for (const auto& d : ops) {
    bool lists = false;
    for (const auto& p : d.inputs) lists |= p.param_type == "dynamic";
    std::string all = opgen::tilingHeader(d) + opgen::opHost(d, info) + opgen::opKernel(d) +
                      opgen::frameworkPlugin(d, info) + opgen::kernelCmakeLine(d);
    if (!lists)  // (no UT or ST for an operator with a tensor list: project.cpp)
      all += opgen::referenceHeader(d) + opgen::harnessHeader(d) + opgen::utSource(d) +
             opgen::stSource(d) + opgen::utCmakeLine(d) + opgen::stCmakeLine(d);
    if (all.empty()) __builtin_trap();
  }
  return 0;
}
