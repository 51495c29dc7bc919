// model.cpp: the aclmdl* calls of asc-tools' AscendCL (docs/acl.md) that load an .om into a pool
// of runtime sessions and execute it on datasets of device buffers (descriptions: model_desc.cpp).
//
// A loaded model keeps a pool of runtime::Session objects over the one mapped file. An execution
// takes an idle session (or loads another, so that threads executing the same model at once
// each have their own activation memory), copies the input buffers in, runs, and copies the
// outputs out. A model with profiles ("gears": dynamic batch, image size or dims) has one more
// input, ACL_DYNAMIC_TENSOR_NAME, as CANN's has: aclmdlSetDynamicBatchSize and friends write the
// profile into that input's buffer, so the choice travels with the dataset.
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "asc/ophost/ophost.h"
#include "asc/trace/trace.h"
#include "model_internal.h"

namespace asc::acl {
namespace {

std::mutex g_models_mu;
std::map<uint32_t, std::shared_ptr<Model>>& models() {
  static auto* m = new std::map<uint32_t, std::shared_ptr<Model>>();
  return *m;
}
uint32_t g_next_id = 1;

}  // namespace

std::shared_ptr<Model> findModel(const char* api, uint32_t id, aclError* err) {
  std::lock_guard<std::mutex> lock(g_models_mu);
  auto it = models().find(id);
  if (it == models().end()) {
    *err = fail(ACL_ERROR_INVALID_MODEL_ID,
                "{}: no model has id {} (not loaded, or unloaded already); load it with "
                "aclmdlLoadFromFile first",
                api, id);
    return nullptr;
  }
  return it->second;
}

aclError loadError(const char* api, const Status& st) {
  const aclError code = st.code() == ErrorCode::FileOpenFailed
                            ? static_cast<aclError>(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID)
                            : static_cast<aclError>(ACL_ERROR_GE_LOAD_MODEL);
  return setError(code, fmt::format("{}: {}", api, st.toString()));
}

ModelInfo describe(const runtime::Session& s) {
  ModelInfo m;
  const ir::Graph& g = s.graph();
  m.dynamic = s.isDynamic();
  if (const om::DynamicShapes* d = s.dynamicShapes()) {
    m.kind = d->kind;
    m.gears = d->gears;
    m.ranges = d->ranges;
  }
  for (size_t i = 0; i < s.inputs().size(); ++i) {
    const auto& t = s.inputs()[i];
    IO io{t.name, t.dtype, t.shape, t.bytes, ACL_FORMAT_ND};
    if (i < g.inputs.size()) io.format = toAclFormat(g.inputs[i]->format);
    // A profile model's input: its largest profile's size, the buffer an application allocates.
    for (const auto& gear : m.gears)
      if (i < gear.size())
        io.bytes = std::max<size_t>(io.bytes, ir::numElements(gear[i]) * ir::dtypeSize(t.dtype));
    m.inputs.push_back(io);
    std::shared_ptr<const ir::Attrs> aipp;
    ir::Shape out;
    if (i < g.inputs.size())
      for (const auto& n : g.nodes())
        if (n->op_type == "Aipp" && !n->inputs.empty() && n->inputs[0] == g.inputs[i]) {
          aipp = std::make_shared<ir::Attrs>(n->attrs);
          if (!n->outputs.empty()) out = n->outputs[0]->shape;
        }
    m.aipp.push_back(aipp);
    m.aipp_out_shapes.push_back(out);
  }
  m.graph_inputs = m.inputs.size();
  if (!m.gears.empty()) {
    size_t k = 0;
    if (m.kind == "batch")
      k = 1;
    else if (m.kind == "image_size")
      k = 2;
    else
      for (const auto& in : m.inputs) k += in.dims.size();
    m.inputs.push_back(
        IO{ACL_DYNAMIC_TENSOR_NAME, ir::DType::I64, {int64_t(k)}, k * 8, ACL_FORMAT_ND});
  }
  const auto outs = s.largestOutputs();
  for (size_t i = 0; i < outs.size(); ++i) {
    const auto& t = outs[i];
    IO io{t.name, t.dtype, t.shape, t.bytes, ACL_FORMAT_ND};
    if (i < g.outputs.size()) io.format = toAclFormat(g.outputs[i]->format);
    m.outputs.push_back(io);
  }
  return m;
}

// The values a profile is chosen by: a dynamic batch's batch, an image size's (h, w), or every
// input's dims concatenated (dynamic dims).
std::vector<int64_t> profileKey(const ModelInfo& m, const std::vector<ir::Shape>& gear) {
  std::vector<int64_t> key;
  if (m.kind == "batch" || m.kind == "image_size") {
    const size_t want = m.kind == "batch" ? 1 : 2;
    for (size_t i = 0; i < m.graph_inputs && key.size() < want; ++i)
      for (size_t d = 0; d < m.inputs[i].dims.size() && key.size() < want; ++d)
        if (m.inputs[i].dims[d] < 0 && d < gear[i].size()) key.push_back(gear[i][d]);
    return key;
  }
  for (const auto& s : gear) key.insert(key.end(), s.begin(), s.end());
  return key;
}

std::string describeProfiles(const ModelInfo& m) {
  std::string out;
  for (const auto& gear : m.gears) {
    auto key = profileKey(m, gear);
    out += (out.empty() ? "" : " ") + fmt::format("{}", fmt::join(key, ","));
  }
  return out;
}

namespace {

aclError load(const char* api, const std::string& path, int memfd, uint32_t* modelId) {
  if (aclError e = requireContext(api)) {
    if (memfd >= 0) close(memfd);
    return e;
  }
  // The custom operators an OM may name, found as atc and msame find them: the folders of
  // ASCEND_CUSTOM_OPP_PATH, then the vendor packages installed under $ASCEND_OPP_PATH/vendors
  // (a folder that does not load is a warning here: a model without custom operators runs).
  if (Status st = ophost::loadCustomOperators("", /*named_must_load=*/false); !st.isOk()) {
    if (memfd >= 0) close(memfd);
    return loadError(api, st);
  }
  auto model = std::make_shared<Model>();
  model->path = path;
  model->memfd = memfd;
  auto s = runtime::Session::load(path);
  if (!s) return loadError(api, s.status());
  model->info = describe(**s);
  model->idle.push_back(std::move(*s));
  std::lock_guard<std::mutex> lock(g_models_mu);
  model->id = g_next_id++;
  models()[model->id] = model;
  *modelId = model->id;
  return ACL_SUCCESS;
}

// Takes an idle session of the model, or loads one more (the file was verified at the first).
Result<std::unique_ptr<runtime::Session>> acquire(Model& m) {
  {
    std::lock_guard<std::mutex> lock(m.mu);
    if (!m.idle.empty()) {
      auto s = std::move(m.idle.back());
      m.idle.pop_back();
      return s;
    }
  }
  runtime::SessionOptions opts;
  opts.verify = om::Verify::Skip;
  return runtime::Session::load(m.path, opts);
}

void release(Model& m, std::unique_ptr<runtime::Session> s, bool ran) {
  std::lock_guard<std::mutex> lock(m.mu);
  if (ran) {
    m.last_outputs.clear();
    for (const auto& t : s->outputs()) m.last_outputs.push_back(t.shape);
  }
  m.idle.push_back(std::move(s));
}

aclError checkDatasets(const char* api, const Model& m, const aclmdlDataset* in,
                       const aclmdlDataset* out) {
  if (!in || !out)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: the {} dataset is a null pointer", api,
                in ? "output" : "input");
  if (in->buffers.size() != m.info.inputs.size())
    return fail(ACL_ERROR_INVALID_PARAM,
                "{}: the input dataset holds {} buffers; model {} has {} inputs{}", api,
                in->buffers.size(), m.id, m.info.inputs.size(),
                m.info.has_profile_input() ? fmt::format(" (the last is {}: add a buffer of "
                                                         "aclmdlGetInputSizeByIndex bytes for it)",
                                                         ACL_DYNAMIC_TENSOR_NAME)
                                           : std::string());
  if (out->buffers.size() != m.info.outputs.size())
    return fail(ACL_ERROR_INVALID_PARAM,
                "{}: the output dataset holds {} buffers; model {} has {} outputs", api,
                out->buffers.size(), m.id, m.info.outputs.size());
  return ACL_SUCCESS;
}

aclError execute(const char* api, Model& m, const aclmdlDataset* in, aclmdlDataset* out) {
  const ModelInfo& info = m.info;
  // The shapes of this execution.
  std::vector<ir::Shape> shapes(info.graph_inputs);
  for (size_t i = 0; i < info.graph_inputs; ++i) shapes[i] = info.inputs[i].dims;
  if (info.has_profile_input()) {
    const aclDataBuffer* b = in->buffers[info.graph_inputs];
    const size_t k = info.inputs[info.graph_inputs].dims[0];
    if (aclError e = checkDeviceRange(api, "profile input's buffer", b->data, k * 8)) return e;
    std::vector<int64_t> want(k);
    std::memcpy(want.data(), b->data, k * 8);
    const std::vector<ir::Shape>* chosen = nullptr;
    for (const auto& gear : info.gears)
      if (profileKey(info, gear) == want) chosen = &gear;
    if (!chosen)
      return fail(
          ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
          "{}: E1001 the profile input holds {}, which is none of the model's profiles ({}); "
          "choose one with aclmdlSetDynamic{} before executing",
          api, fmt::join(want, ","), describeProfiles(info),
          info.kind == "batch"        ? "BatchSize"
          : info.kind == "image_size" ? "HWSize"
                                      : "Dims");
    shapes = *chosen;
  } else if (info.dynamic) {
    for (size_t i = 0; i < info.graph_inputs; ++i)
      if (i < in->descs.size() && in->descs[i]) shapes[i] = in->descs[i]->dims;
  }
  for (size_t i = 0; i < info.graph_inputs; ++i)
    for (int64_t d : shapes[i])
      if (d < 0)
        return fail(ACL_ERROR_GE_SHAPE_INVALID,
                    "{}: input {} ('{}') has dims known only at run time; give its shape with "
                    "aclmdlSetDatasetTensorDesc",
                    api, i, info.inputs[i].name);

  auto acquired = acquire(m);
  if (!acquired) return loadError(api, acquired.status());
  std::unique_ptr<runtime::Session> s = std::move(*acquired);
  auto give_back = [&](aclError e) {
    release(m, std::move(s), e == ACL_SUCCESS);
    return e;
  };
  for (size_t i = 0; i < info.graph_inputs; ++i) {
    if (info.dynamic) {
      Status st = s->setInputShape(i, shapes[i]);
      if (!st)
        return give_back(
            setError(ACL_ERROR_GE_SHAPE_INVALID, fmt::format("{}: {}", api, st.toString())));
    }
    const size_t need = s->inputs()[i].bytes;
    const aclDataBuffer* b = in->buffers[i];
    if (b->size < need)
      return give_back(fail(ACL_ERROR_INVALID_PARAM,
                            "{}: input {} ('{}') needs {} bytes; its buffer holds {}", api, i,
                            info.inputs[i].name, need, b->size));
    if (aclError e = checkDeviceRange(api, "input buffer", b->data, need)) return give_back(e);
    Status st = s->setInput(i, b->data, need);
    if (!st)
      return give_back(
          setError(ACL_ERROR_INVALID_PARAM, fmt::format("{}: {}", api, st.toString())));
  }
  Status st = s->run();
  if (!st)
    return give_back(
        setError(ACL_ERROR_GE_INTERNAL_ERROR, fmt::format("{}: {}", api, st.toString())));
  for (size_t i = 0; i < s->outputs().size() && i < out->buffers.size(); ++i) {
    const auto& t = s->outputs()[i];
    aclDataBuffer* b = out->buffers[i];
    if (b->size < t.bytes)
      return give_back(fail(ACL_ERROR_INVALID_PARAM,
                            "{}: output {} ('{}') is {} bytes; its buffer holds {} (allocate "
                            "aclmdlGetOutputSizeByIndex bytes)",
                            api, i, t.name, t.bytes, b->size));
    if (aclError e = checkDeviceRange(api, "output buffer", b->data, t.bytes)) return give_back(e);
    std::memcpy(b->data, s->outputData(i), t.bytes);
    if (info.dynamic) {
      auto d = std::make_unique<aclTensorDesc>();
      d->dtype = toAclType(t.dtype);
      d->dims = t.shape;
      d->format = info.outputs[i].format;
      d->name = t.name;
      out->descs[i] = std::move(d);
    }
  }
  return give_back(ACL_SUCCESS);
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  ASC_TRACE_SCOPE("AscendCL", "aclmdlLoadFromFile");
  if (!modelPath || !modelId)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromFile: {} is a null pointer",
                modelPath ? "modelId" : "modelPath");
  struct stat sb;
  if (stat(modelPath, &sb) != 0 || !S_ISREG(sb.st_mode))
    return fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                "aclmdlLoadFromFile: E13001 '{}' is not a readable file; check the path",
                modelPath);
  return load("aclmdlLoadFromFile", modelPath, -1, modelId);
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  ASC_TRACE_SCOPE("AscendCL", "aclmdlLoadFromMem");
  if (!model || !modelId || modelSize == 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromMem: {}",
                !model     ? "model is a null pointer"
                : !modelId ? "modelId is a null pointer"
                           : "modelSize is 0");
  // The bytes go to an anonymous file so that the runtime maps them as it maps an .om (CANN
  // copies a model loaded from memory too).
  int fd = memfd_create("model.om", MFD_CLOEXEC);
  if (fd < 0)
    return fail(ACL_ERROR_BAD_ALLOC, "aclmdlLoadFromMem: cannot create an in-memory file");
  const auto* p = static_cast<const char*>(model);
  size_t left = modelSize;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w <= 0) {
      close(fd);
      return fail(ACL_ERROR_BAD_ALLOC, "aclmdlLoadFromMem: cannot copy the {} bytes of the model",
                  modelSize);
    }
    p += w;
    left -= size_t(w);
  }
  return load("aclmdlLoadFromMem", fmt::format("/proc/self/fd/{}", fd), fd, modelId);
}

static aclError checkWithMem(const char* api, void* workPtr, size_t workSize, void* weightPtr,
                             size_t weightSize) {
  // The CPU runtime plans its own activation memory and maps the weights from the file; memory
  // the application passes must still be what it says, as on an NPU.
  if (workPtr)
    if (aclError e = checkDeviceRange(api, "work memory", workPtr, workSize)) return e;
  if (weightPtr)
    if (aclError e = checkDeviceRange(api, "weight memory", weightPtr, weightSize)) return e;
  return ACL_SUCCESS;
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr,
                                   size_t workSize, void* weightPtr, size_t weightSize) {
  if (aclError e =
          checkWithMem("aclmdlLoadFromFileWithMem", workPtr, workSize, weightPtr, weightSize))
    return e;
  return aclmdlLoadFromFile(modelPath, modelId);
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId,
                                  void* workPtr, size_t workSize, void* weightPtr,
                                  size_t weightSize) {
  if (aclError e =
          checkWithMem("aclmdlLoadFromMemWithMem", workPtr, workSize, weightPtr, weightSize))
    return e;
  return aclmdlLoadFromMem(model, modelSize, modelId);
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
  if (!fileName || !workSize || !weightSize)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlQuerySize: a null pointer");
  auto s = asc::om::readOmSummary(fileName);
  if (!s) return loadError("aclmdlQuerySize", s.status());
  *weightSize = 0;
  for (const auto& p : s->partitions)
    if (p.type == 1) *weightSize = p.size;
  auto it = s->attrs.find("memory_size");
  *workSize = it == s->attrs.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
  return ACL_SUCCESS;
}

aclError aclmdlUnload(uint32_t modelId) {
  ASC_TRACE_SCOPE("AscendCL", "aclmdlUnload");
  if (aclError e = requireContext("aclmdlUnload")) return e;
  std::shared_ptr<Model> gone;
  {
    std::lock_guard<std::mutex> lock(g_models_mu);
    auto it = models().find(modelId);
    if (it == models().end())
      return fail(ACL_ERROR_INVALID_MODEL_ID,
                  "aclmdlUnload: no model has id {} (unloaded already?)", modelId);
    gone = std::move(it->second);
    models().erase(it);
  }
  return ACL_SUCCESS;  // executions still running keep the model until they end
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  ASC_TRACE_SCOPE("AscendCL", "aclmdlExecute");
  if (aclError e = requireContext("aclmdlExecute")) return e;
  aclError e;
  auto m = findModel("aclmdlExecute", modelId, &e);
  if (!m) return e;
  if (aclError e2 = checkDatasets("aclmdlExecute", *m, input, output)) return e2;
  return execute("aclmdlExecute", *m, input, output);
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                            aclrtStream stream) {
  ASC_TRACE_SCOPE("AscendCL", "aclmdlExecuteAsync");
  aclError e;
  Stream* s = resolveStream("aclmdlExecuteAsync", stream, &e);
  if (!s) return e;
  auto m = findModel("aclmdlExecuteAsync", modelId, &e);
  if (!m) return e;
  if (aclError e2 = checkDatasets("aclmdlExecuteAsync", *m, input, output)) return e2;
  enqueue(s, [m, input, output] { return execute("aclmdlExecuteAsync", *m, input, output); });
  return ACL_SUCCESS;
}

static aclError setProfile(const char* api, uint32_t modelId, aclmdlDataset* dataset, size_t index,
                           const char* kind, const std::vector<int64_t>& key) {
  if (aclError e = requireContext(api)) return e;
  if (!dataset) return fail(ACL_ERROR_INVALID_PARAM, "{}: dataset is a null pointer", api);
  aclError e;
  auto m = findModel(api, modelId, &e);
  if (!m) return e;
  const ModelInfo& info = m->info;
  if (info.kind != kind)
    return fail(ACL_ERROR_MODEL_NOT_DYNAMIC, "{}: model {} has no {} profiles (its kind: {})", api,
                modelId,
                kind == std::string("batch")        ? "dynamic batch"
                : kind == std::string("image_size") ? "image size"
                                                    : "dims",
                info.kind.empty() ? "static" : info.kind);
  if (index != info.graph_inputs)
    return fail(
        ACL_ERROR_INVALID_PARAM,
        "{}: index {} is not the profile input; it is {} (aclmdlGetInputIndexByName with {})", api,
        index, info.graph_inputs, ACL_DYNAMIC_TENSOR_NAME);
  if (index >= dataset->buffers.size())
    return fail(ACL_ERROR_INVALID_PARAM, "{}: the dataset has no buffer {} yet; add it first", api,
                index);
  bool known = false;
  for (const auto& gear : info.gears) known = known || profileKey(info, gear) == key;
  if (!known)
    return fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                "{}: {} is not one of the model's profiles ({})", api, fmt::join(key, ","),
                describeProfiles(info));
  aclDataBuffer* b = dataset->buffers[index];
  const size_t bytes = key.size() * 8;
  if (!b || b->size < bytes)
    return fail(ACL_ERROR_INVALID_PARAM,
                "{}: the profile input's buffer holds {} bytes; it needs {}", api, b ? b->size : 0,
                bytes);
  if (aclError e2 = checkDeviceRange(api, "profile input's buffer", b->data, bytes)) return e2;
  std::memcpy(b->data, key.data(), bytes);
  return ACL_SUCCESS;
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   uint64_t batchSize) {
  return setProfile("aclmdlSetDynamicBatchSize", modelId, dataset, index, "batch",
                    {int64_t(batchSize)});
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                uint64_t height, uint64_t width) {
  return setProfile("aclmdlSetDynamicHWSize", modelId, dataset, index, "image_size",
                    {int64_t(height), int64_t(width)});
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   const aclmdlIODims* dims) {
  if (!dims)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetInputDynamicDims: dims is a null pointer");
  if (dims->dimCount > ACL_MAX_DIM_CNT)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetInputDynamicDims: dimCount {} is over {}",
                dims->dimCount, ACL_MAX_DIM_CNT);
  return setProfile("aclmdlSetInputDynamicDims", modelId, dataset, index, "dims",
                    std::vector<int64_t>(dims->dims, dims->dims + dims->dimCount));
}

}  // extern "C"
