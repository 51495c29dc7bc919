// op.cpp: single-operator execution (acl/acl_op.h, acl/acl_op_compiler.h) over the CPU runtime.
// A loaded single-operator model keeps the op description atc recorded in it (single_op.h);
// aclopExecuteV2 runs the first loaded model whose op matches the call, in stream order. An op
// compiled online (aclopCompile*) is kept as a graph, one per description.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_op_compiler.h"
#include "acl_state.h"
#include "asc/compiler/single_op.h"
#include "asc/om/om_file.h"
#include "asc/ophost/ophost.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/support/log.h"

struct aclopAttr {
  asc::ir::Attrs attrs;
};

namespace asc::acl {
namespace {

struct OpModel {
  singleop::OpDesc desc;
  std::string path;                        // the .om ("" for an op compiled online)
  int memfd = -1;                          // aclopLoad's bytes
  std::shared_ptr<const ir::Graph> graph;  // an op compiled online: each session builds from it
  std::mutex mu;
  std::vector<std::unique_ptr<runtime::Session>> idle;
  ~OpModel() {
    if (memfd >= 0) close(memfd);
  }
};

std::mutex g_ops_mu;
std::vector<std::shared_ptr<OpModel>>& opModels() {
  static std::vector<std::shared_ptr<OpModel>> all;
  return all;
}

aclError opError(const char* api, aclError code, const Status& st) {
  return setError(code, fmt::format("{}: {}", api, st.toString()));
}

// The custom operators a model may name, found as atc and msame find them (a folder that does
// not load is a warning: ops without custom operators run).
aclError loadCustom(const char* api) {
  Status st = ophost::loadCustomOperators("", /*named_must_load=*/false);
  return st.isOk() ? ACL_SUCCESS : opError(api, ACL_ERROR_OP_LOAD_FAILED, st);
}

// Reads the op description of the single-operator model at `path` ("" and ok for an OM of a
// whole model, which a model folder may hold too).
Result<std::string> singleOpOf(const std::string& path) {
  ASC_TRY(om::OmSummary s, om::readOmSummary(path, om::Verify::Whole));
  auto it = s.attrs.find("_asc_single_op");
  return it == s.attrs.end() ? std::string() : it->second;
}

aclError addModel(const char* api, const std::string& path, int memfd, bool must_be_single,
                  bool* added) {
  auto text = singleOpOf(path);
  if (!text) {
    if (memfd >= 0) close(memfd);
    return opError(api, ACL_ERROR_OP_LOAD_FAILED, text.status());
  }
  if (text->empty()) {
    if (memfd >= 0) close(memfd);
    if (!must_be_single) return ACL_SUCCESS;
    return fail(ACL_ERROR_OP_LOAD_FAILED,
                "{}: {} is not a single-operator model (atc --singleop writes those); load a whole "
                "model with aclmdlLoadFromFile",
                api, path);
  }
  auto descs = singleop::parseJson(*text, path);
  if (!descs || descs->size() != 1) {
    if (memfd >= 0) close(memfd);
    return fail(ACL_ERROR_OP_LOAD_FAILED, "{}: {}: its op description does not read back{}", api,
                path, descs ? "" : ": " + descs.status().toString());
  }
  auto m = std::make_shared<OpModel>();
  m->desc = std::move((*descs)[0]);
  m->path = path;
  m->memfd = memfd;
  // Loaded once now: a damaged file or an operator this runtime cannot run fails here, as CANN's
  // load does, not at the first execution.
  auto s = runtime::Session::load(path);
  if (!s) return opError(api, ACL_ERROR_OP_LOAD_FAILED, s.status());
  m->idle.push_back(std::move(*s));
  std::lock_guard<std::mutex> lock(g_ops_mu);
  opModels().push_back(std::move(m));
  if (added) *added = true;
  return ACL_SUCCESS;
}

// The call's op as a description: type, tensors, attributes.
Result<singleop::OpDesc> describeCall(const char* op_type, int num_inputs,
                                      const aclTensorDesc* const input_desc[], int num_outputs,
                                      const aclTensorDesc* const output_desc[],
                                      const aclopAttr* attr) {
  singleop::OpDesc d;
  d.op = op_type;
  for (int side = 0; side < 2; ++side) {
    const int n = side ? num_outputs : num_inputs;
    const aclTensorDesc* const* descs = side ? output_desc : input_desc;
    for (int i = 0; i < n; ++i) {
      const aclTensorDesc* t = descs[i];
      if (!t)
        return Status::error(ErrorCode::InvalidParam, "{} description {} is a null pointer",
                             side ? "output" : "input", i);
      singleop::TensorDesc td;
      td.name = t->name;
      td.dtype = singleop::dtypeFromAcl(t->dtype);
      td.format = singleop::formatFromAcl(t->format);
      td.dims = t->dims;
      if (td.dtype == ir::DType::Undefined || td.format.empty())
        return Status::error(ErrorCode::InvalidParam,
                             "{} {}: dtype {} or format {} is not one asc-tools runs",
                             side ? "output" : "input", i, int(t->dtype), int(t->format));
      (side ? d.outputs : d.inputs).push_back(std::move(td));
    }
  }
  if (attr) d.attrs = attr->attrs;
  return d;
}

aclError checkCall(const char* api, const char* op_type, int num_inputs, const void* in_descs,
                   int num_outputs, const void* out_descs) {
  if (aclError e = requireContext(api)) return e;
  if (!op_type || !*op_type) return fail(ACL_ERROR_INVALID_PARAM, "{}: opType is empty", api);
  if (num_inputs < 0 || num_outputs < 0)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: numInputs {} / numOutputs {} is negative", api,
                num_inputs, num_outputs);
  if ((num_inputs && !in_descs) || (num_outputs && !out_descs))
    return fail(ACL_ERROR_INVALID_PARAM,
                "{}: the input or output description array is a null "
                "pointer",
                api);
  return ACL_SUCCESS;
}

Result<std::unique_ptr<runtime::Session>> acquire(OpModel& m) {
  {
    std::lock_guard<std::mutex> lock(m.mu);
    if (!m.idle.empty()) {
      auto s = std::move(m.idle.back());
      m.idle.pop_back();
      return s;
    }
  }
  if (m.graph) return runtime::Session::fromGraph(m.graph->clone());
  runtime::SessionOptions opts;
  opts.verify = om::Verify::Skip;  // checked whole at load
  return runtime::Session::load(m.path, opts);
}

// What one execution needs after the call returns (the application may destroy its
// descriptions once the call is queued; the buffers it keeps until the stream is synchronized).
struct Call {
  std::string api;
  singleop::OpDesc desc;
  std::vector<std::pair<const void*, size_t>> inputs;
  std::vector<std::pair<void*, size_t>> outputs;
};

aclError run(const Call& c, OpModel& m) {
  const char* api = c.api.c_str();
  auto acquired = acquire(m);
  if (!acquired) return opError(api, ACL_ERROR_OP_LOAD_FAILED, acquired.status());
  std::unique_ptr<runtime::Session> s = std::move(*acquired);
  auto give_back = [&](aclError e) {
    std::lock_guard<std::mutex> lock(m.mu);
    m.idle.push_back(std::move(s));
    return e;
  };
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (s->isDynamic()) {
      Status st = s->setInputShape(i, c.desc.inputs[i].dims);
      if (!st) return give_back(opError(api, ACL_ERROR_OP_INPUT_NOT_MATCH, st));
    }
    const size_t need = s->inputs()[i].bytes;
    if (c.inputs[i].second < need)
      return give_back(fail(ACL_ERROR_INVALID_PARAM,
                            "{}: {} input {} needs {} bytes; its buffer holds {}", api, c.desc.op,
                            i, need, c.inputs[i].second));
    if (aclError e = checkDeviceRange(api, "input buffer", c.inputs[i].first, need))
      return give_back(e);
    if (Status st = s->setInput(i, c.inputs[i].first, need); !st)
      return give_back(opError(api, ACL_ERROR_INVALID_PARAM, st));
  }
  if (Status st = s->run(); !st) return give_back(opError(api, ACL_ERROR_FAILURE, st));
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const size_t bytes = s->outputs()[i].bytes;
    if (c.outputs[i].second < bytes)
      return give_back(fail(ACL_ERROR_INVALID_PARAM,
                            "{}: {} output {} is {} bytes; its buffer holds {}", api, c.desc.op, i,
                            bytes, c.outputs[i].second));
    if (aclError e = checkDeviceRange(api, "output buffer", c.outputs[i].first, bytes))
      return give_back(e);
    std::memcpy(c.outputs[i].first, s->outputData(i), bytes);
  }
  return give_back(ACL_SUCCESS);
}

// Finds the loaded model for `d`: the first whose op matches, else the error of the closest
// (a model of the type: its first mismatch).
std::shared_ptr<OpModel> findOp(const char* api, const singleop::OpDesc& d, aclError* err) {
  std::lock_guard<std::mutex> lock(g_ops_mu);
  singleop::Mismatch best = singleop::Mismatch::None;
  std::string why;
  for (const auto& m : opModels()) {
    std::string w;
    const singleop::Mismatch r = singleop::match(m->desc, d, &w);
    if (r == singleop::Mismatch::None) return m;
    if (static_cast<int>(r) > static_cast<int>(best)) best = r, why = w;
  }
  switch (best) {
    case singleop::Mismatch::None:
    case singleop::Mismatch::Type:
      *err = fail(ACL_ERROR_OP_TYPE_NOT_MATCH,
                  "{}: no loaded single-operator model is of type {} ({} loaded); compile it with "
                  "atc --singleop and load its folder with aclopSetModelDir",
                  api, d.op, opModels().size());
      break;
    case singleop::Mismatch::Input:
      *err = fail(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: no loaded {} model takes these inputs: {}",
                  api, d.op, why);
      break;
    case singleop::Mismatch::Output:
      *err = fail(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: no loaded {} model gives these outputs: {}",
                  api, d.op, why);
      break;
    case singleop::Mismatch::Attr:
      *err = fail(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: no loaded {} model has these attributes: {}",
                  api, d.op, why);
      break;
  }
  return nullptr;
}

// An op compiled online for `d` (compiled now the first time a description is seen).
std::shared_ptr<OpModel> compiledOp(const char* api, const singleop::OpDesc& d, aclError* err) {
  {
    std::lock_guard<std::mutex> lock(g_ops_mu);
    for (const auto& m : opModels())
      if (m->graph && singleop::match(m->desc, d, nullptr) == singleop::Mismatch::None) return m;
  }
  if ((*err = loadCustom(api))) return nullptr;
  auto g = singleop::buildGraph(d);
  if (!g) {
    *err = opError(api, ACL_ERROR_OP_NOT_FOUND, g.status());
    return nullptr;
  }
  auto m = std::make_shared<OpModel>();
  m->desc = d;
  m->graph = std::make_shared<const ir::Graph>(std::move(*g));
  auto s = runtime::Session::fromGraph(m->graph->clone());
  if (!s) {
    *err = opError(api, ACL_ERROR_OP_LOAD_FAILED, s.status());
    return nullptr;
  }
  m->idle.push_back(std::move(*s));
  std::lock_guard<std::mutex> lock(g_ops_mu);
  opModels().push_back(m);
  return m;
}

aclError execute(const char* api, bool compile, const char* op_type, int num_inputs,
                 const aclTensorDesc* const input_desc[], const aclDataBuffer* const inputs[],
                 int num_outputs, const aclTensorDesc* const output_desc[],
                 aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) {
  if (aclError e = checkCall(api, op_type, num_inputs, input_desc, num_outputs, output_desc))
    return e;
  if ((num_inputs && !inputs) || (num_outputs && !outputs))
    return fail(ACL_ERROR_INVALID_PARAM, "{}: the input or output buffer array is a null pointer",
                api);
  aclError e;
  Stream* s = resolveStream(api, stream, &e);
  if (!s) return e;
  auto d = describeCall(op_type, num_inputs, input_desc, num_outputs, output_desc, attr);
  if (!d) return opError(api, ACL_ERROR_INVALID_PARAM, d.status());
  auto m = compile ? compiledOp(api, *d, &e) : findOp(api, *d, &e);
  if (!m) return e;
  auto call = std::make_shared<Call>();
  call->api = api;
  call->desc = std::move(*d);
  for (int i = 0; i < num_inputs; ++i) {
    if (!inputs[i]) return fail(ACL_ERROR_INVALID_PARAM, "{}: input buffer {} is null", api, i);
    call->inputs.emplace_back(inputs[i]->data, inputs[i]->size);
  }
  for (int i = 0; i < num_outputs; ++i) {
    if (!outputs[i]) return fail(ACL_ERROR_INVALID_PARAM, "{}: output buffer {} is null", api, i);
    call->outputs.emplace_back(outputs[i]->data, outputs[i]->size);
  }
  enqueue(s, [call, m] { return run(*call, *m); });
  return ACL_SUCCESS;
}

// opPath (an operator's source, for ACL_COMPILE_UNREGISTERED): there is no operator compiler.
aclError refuseOpPath(const char* api, const char* opPath) {
  if (!opPath || !*opPath) return ACL_SUCCESS;
  return fail(ACL_ERROR_API_NOT_SUPPORT,
              "{}: opPath '{}' (an operator's source for ACL_COMPILE_UNREGISTERED) is not "
              "supported by asc-tools; install the operator's package instead",
              api, opPath);
}

aclError setAttr(const char* api, aclopAttr* attr, const char* name, ir::AttrValue v) {
  if (!attr || !name || !*name)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: {} is {}", api, attr ? "attrName" : "attr",
                attr && name ? "empty" : "a null pointer");
  attr->attrs.set(name, std::move(v));
  return ACL_SUCCESS;
}

template <typename T, typename Out = T>
aclError setList(const char* api, aclopAttr* attr, const char* name, int n, const T* values) {
  if (n < 0 || (n > 0 && !values))
    return fail(ACL_ERROR_INVALID_PARAM, "{}: numValues {} with values {}", api, n,
                values ? "given" : "a null pointer");
  std::vector<Out> out;
  for (int i = 0; i < n; ++i) out.push_back(Out(values[i]));
  return setAttr(api, attr, name, std::move(out));
}

}  // namespace
}  // namespace asc::acl

using namespace asc;
using namespace asc::acl;

extern "C" {

aclopAttr* aclopCreateAttr() { return new aclopAttr(); }
void aclopDestroyAttr(const aclopAttr* attr) { delete attr; }

aclError aclopSetAttrBool(aclopAttr* attr, const char* name, uint8_t v) {
  return setAttr("aclopSetAttrBool", attr, name, int64_t(v != 0));
}
aclError aclopSetAttrInt(aclopAttr* attr, const char* name, int64_t v) {
  return setAttr("aclopSetAttrInt", attr, name, v);
}
aclError aclopSetAttrFloat(aclopAttr* attr, const char* name, float v) {
  return setAttr("aclopSetAttrFloat", attr, name, v);
}
aclError aclopSetAttrString(aclopAttr* attr, const char* name, const char* v) {
  if (!v) return fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrString: attrValue is a null pointer");
  return setAttr("aclopSetAttrString", attr, name, std::string(v));
}
aclError aclopSetAttrDataType(aclopAttr* attr, const char* name, aclDataType v) {
  return setAttr("aclopSetAttrDataType", attr, name, int64_t(v));
}
aclError aclopSetAttrListBool(aclopAttr* attr, const char* name, int n, const uint8_t* v) {
  if (n < 0 || (n > 0 && !v))
    return fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListBool: numValues {} with values {}", n,
                v ? "given" : "a null pointer");
  std::vector<int64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(v[i] != 0);
  return setAttr("aclopSetAttrListBool", attr, name, std::move(out));
}
aclError aclopSetAttrListInt(aclopAttr* attr, const char* name, int n, const int64_t* v) {
  return setList<int64_t>("aclopSetAttrListInt", attr, name, n, v);
}
aclError aclopSetAttrListFloat(aclopAttr* attr, const char* name, int n, const float* v) {
  return setList<float>("aclopSetAttrListFloat", attr, name, n, v);
}
aclError aclopSetAttrListString(aclopAttr* attr, const char* name, int n, const char** v) {
  if (n < 0 || (n > 0 && !v))
    return fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListString: numValues {} with values {}", n,
                v ? "given" : "a null pointer");
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    if (!v[i])
      return fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListString: value {} is a null pointer", i);
    out.emplace_back(v[i]);
  }
  return setAttr("aclopSetAttrListString", attr, name, std::move(out));
}

aclError aclopSetModelDir(const char* modelDir) {
  const char* api = "aclopSetModelDir";
  if (aclError e = requireInit(api)) return e;
  if (!modelDir || !*modelDir) return fail(ACL_ERROR_INVALID_PARAM, "{}: modelDir is empty", api);
  auto files = listDir(modelDir);
  if (!files)
    return fail(ACL_ERROR_INVALID_FILE, "{}: cannot read the folder '{}': {}", api, modelDir,
                files.status().message());
  if (aclError e = loadCustom(api)) return e;
  size_t loaded = 0;
  for (const auto& f : *files) {
    if (f.size() < 3 || f.compare(f.size() - 3, 3, ".om") != 0) continue;
    bool added = false;
    if (aclError e = addModel(api, std::string(modelDir) + "/" + f, -1, false, &added)) return e;
    loaded += added;
  }
  if (!loaded)
    return fail(ACL_ERROR_INVALID_FILE,
                "{}: the folder '{}' holds no single-operator model (*.om written by atc "
                "--singleop)",
                api, modelDir);
  ASC_LOG_INFO("{}: {} single-operator models loaded from {}", api, loaded, modelDir);
  return ACL_SUCCESS;
}

aclError aclopLoad(const void* model, size_t modelSize) {
  const char* api = "aclopLoad";
  if (aclError e = requireInit(api)) return e;
  if (!model || modelSize == 0)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: {}", api,
                model ? "modelSize is 0" : "model is a null pointer");
  if (aclError e = loadCustom(api)) return e;
  int fd = memfd_create("op.om", MFD_CLOEXEC);
  if (fd < 0) return fail(ACL_ERROR_BAD_ALLOC, "{}: cannot create an in-memory file", api);
  const auto* p = static_cast<const char*>(model);
  for (size_t left = modelSize; left;) {
    const ssize_t w = write(fd, p, left);
    if (w <= 0) {
      close(fd);
      return fail(ACL_ERROR_BAD_ALLOC, "{}: cannot copy the {} bytes of the model", api, modelSize);
    }
    p += w;
    left -= size_t(w);
  }
  return addModel(api, fmt::format("/proc/self/fd/{}", fd), fd, true, nullptr);
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                        aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                        aclDataBuffer* outputs[], aclopAttr* attr, aclrtStream stream) {
  return execute("aclopExecuteV2", false, opType, numInputs, inputDesc, inputs, numOutputs,
                 outputDesc, outputs, attr, stream);
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                      const aclopAttr* attr, aclrtStream stream) {
  return execute("aclopExecute", false, opType, numInputs, inputDesc, inputs, numOutputs,
                 outputDesc, outputs, attr, stream);
}

aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      int numOutputs, const aclTensorDesc* const outputDesc[],
                      const aclopAttr* attr, aclopEngineType, aclopCompileType,
                      const char* opPath) {
  const char* api = "aclopCompile";
  if (aclError e = checkCall(api, opType, numInputs, inputDesc, numOutputs, outputDesc)) return e;
  if (aclError e = refuseOpPath(api, opPath)) return e;
  auto d = describeCall(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
  if (!d) return opError(api, ACL_ERROR_INVALID_PARAM, d.status());
  aclError e = ACL_SUCCESS;
  return compiledOp(api, *d, &e) ? ACL_SUCCESS : e;
}

aclError aclopCompileAndExecute(const char* opType, int numInputs,
                                const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[],
                                aclDataBuffer* const outputs[], const aclopAttr* attr,
                                aclopEngineType, aclopCompileType, const char* opPath,
                                aclrtStream stream) {
  if (aclError e = refuseOpPath("aclopCompileAndExecute", opPath)) return e;
  return execute("aclopCompileAndExecute", true, opType, numInputs, inputDesc, inputs, numOutputs,
                 outputDesc, outputs, attr, stream);
}

aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                  aclDataBuffer* inputs[], int numOutputs,
                                  aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                  aclopAttr* attr, aclopEngineType, aclopCompileType,
                                  const char* opPath, aclrtStream stream) {
  if (aclError e = refuseOpPath("aclopCompileAndExecuteV2", opPath)) return e;
  return execute("aclopCompileAndExecuteV2", true, opType, numInputs, inputDesc, inputs, numOutputs,
                 outputDesc, outputs, attr, stream);
}

}  // extern "C"
