// aclnn.cpp: the aclnn single-operator API (aclnn/acl_meta.h) over the CPU twin: tensors,
// scalars and arrays; and the executor behind a custom operator's generated
// aclnn<Op>GetWorkspaceSize / aclnn<Op> (aclnn/asc_opapi.h), which prepares the operator's
// launch (asc::ophost::prepareCall) and runs it in stream order.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "aclnn/asc_opapi.h"
#include "acl_state.h"
#include "asc/ophost/ophost.h"
#include "asc/ops/plugin.h"
#include "asc/support/log.h"

struct aclTensor {
  std::vector<int64_t> view, strides, storage;
  int64_t offset = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  void* data = nullptr;
};
struct aclScalar {
  std::vector<uint8_t> bytes;
  aclDataType dtype = ACL_DT_UNDEFINED;
};
struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclTensorList {
  std::vector<const aclTensor*> tensors;
};
struct aclOpExecutor {
  std::shared_ptr<asc::ophost::PreparedCall> call;
  bool repeatable = false;  // aclSetAclOpExecutorRepeatable: runs until aclDestroyAclOpExecutor
  bool spent = false;       // ran once, single-use: kept among the last kSpentKept, then freed
};

namespace {
/// The executors GetWorkspaceSize made that are still alive. A single-use executor that ran is
/// not freed at once: CANN's runtime for custom operators (nnopbase) keeps its executors in a
/// cache, so programs that launch one executor in a benchmark loop work there, and work here.
/// The last kSpentKept spent executors stay alive; an older one is freed, and a run of it is
/// refused by name (never a use after free).
constexpr size_t kSpentKept = 64;
struct LiveExecutors {
  std::mutex mu;
  std::unordered_set<const aclOpExecutor*> set;
  std::deque<aclOpExecutor*> spent;  // oldest first
};
LiveExecutors& liveExecutors() {
  static LiveExecutors* l = new LiveExecutors();  // outlives static destructors
  return *l;
}
void addLive(const aclOpExecutor* e) {
  std::lock_guard<std::mutex> lock(liveExecutors().mu);
  liveExecutors().set.insert(e);
}
/// Takes a live executor out of the registry (and out of the spent list) and frees it; false,
/// touching nothing, when it is not live. One lock: no other thread frees it in between.
bool destroyLive(aclOpExecutor* e) {
  {
    LiveExecutors& l = liveExecutors();
    std::lock_guard<std::mutex> lock(l.mu);
    if (!l.set.erase(e)) return false;
    if (e->spent) l.spent.erase(std::remove(l.spent.begin(), l.spent.end(), e), l.spent.end());
  }
  delete e;
  return true;
}
/// A run of `e`: under one lock, whether it is live, its call, and (single-use) its place among
/// the spent ones, so another thread's eviction cannot free it in between. Null when not live.
std::shared_ptr<asc::ophost::PreparedCall> callForRun(aclOpExecutor* e) {
  aclOpExecutor* evict = nullptr;
  std::shared_ptr<asc::ophost::PreparedCall> call;
  {
    LiveExecutors& l = liveExecutors();
    std::lock_guard<std::mutex> lock(l.mu);
    if (!l.set.count(e)) return nullptr;
    call = e->call;
    if (!e->repeatable) {
      if (e->spent) l.spent.erase(std::remove(l.spent.begin(), l.spent.end(), e), l.spent.end());
      e->spent = true;
      l.spent.push_back(e);
      if (l.spent.size() > kSpentKept) {
        evict = l.spent.front();
        l.spent.pop_front();
        l.set.erase(evict);
      }
    }
  }
  delete evict;
  return call;
}
/// Makes a live executor repeatable (out of the spent list); false when it is not live.
bool makeRepeatable(aclOpExecutor* e) {
  LiveExecutors& l = liveExecutors();
  std::lock_guard<std::mutex> lock(l.mu);
  if (!l.set.count(e)) return false;
  if (e->spent) l.spent.erase(std::remove(l.spent.begin(), l.spent.end(), e), l.spent.end());
  e->spent = false;
  e->repeatable = true;
  return true;
}
}  // namespace

namespace asc::acl {
namespace {

/// Records the message as the recent error, logs it (an aclnn failure is otherwise only a
/// number in the application's output) and returns `code`.
template <typename... Args>
aclnnStatus nnFail(aclnnStatus code, fmt::format_string<Args...> f, Args&&... args) {
  std::string msg = fmt::format(f, std::forward<Args>(args)...);
  log::write(log::Level::Error, "aclnn", msg);
  setError(code, std::move(msg));
  return code;
}

size_t elementSize(aclDataType t) {
  const ir::DType d = fromAclType(t);
  return d == ir::DType::Undefined ? 0 : ir::dtypeSize(d);
}

/// The vendor folder of the libcust_opapi.so holding `anchor`, which must lie in
/// <vendor>/op_api/lib (empty otherwise: nothing else is loaded from a folder not laid out so).
std::string vendorOf(const void* anchor) {
  Dl_info info{};
  if (!anchor || !dladdr(anchor, &info) || !info.dli_fname) return {};
  // The folder the library really lies in (a simple project's build_out/op_api is a link to its
  // vendor's op_api).
  std::string p = info.dli_fname;
  if (char* real = ::realpath(info.dli_fname, nullptr)) {
    p = real;
    std::free(real);
  }
  std::vector<std::string> parts;
  for (int up = 0; up < 3; ++up) {
    const size_t slash = p.rfind('/');
    if (slash == std::string::npos) return {};
    parts.push_back(p.substr(slash + 1));
    p.erase(slash);
  }
  if (parts[1] != "lib" || parts[2] != "op_api") return {};
  return p.empty() ? "/" : p;
}

aclnnStatus toNn(const Status& st) {
  switch (st.code()) {
    case ErrorCode::InvalidParam:
    case ErrorCode::UnsupportedOp:
    case ErrorCode::NotImplemented:
      return ACLNN_ERR_PARAM_INVALID;
    default:
      return ACLNN_ERR_INNER;
  }
}

/// One tensor of a call: checks it names aclrtMalloc'ed memory holding its contiguous view.
aclnnStatus callTensor(const char* api, const char* what, uint64_t i, const aclTensor* t,
                       ophost::CallTensor* out) {
  if (!t) {
    out->present = false;
    return ACLNN_SUCCESS;
  }
  const size_t elem = elementSize(t->dtype);
  int64_t numel = 1, expect = 1;
  for (size_t d = t->view.size(); d-- > 0;) {
    if (!t->strides.empty() && t->view[d] > 1 && t->strides[d] != expect)
      return nnFail(ACLNN_ERR_PARAM_INVALID,
                    "{}: {} {} is a non-contiguous view (stride {} in dimension {}, {} for "
                    "row-major order); asc-tools' kernels read contiguous tensors only",
                    api, what, i, t->strides[d], d, expect);
    expect *= t->view[d];
    numel *= t->view[d];
  }
  const char* base = static_cast<const char*>(t->data) + t->offset * static_cast<int64_t>(elem);
  const size_t bytes = static_cast<size_t>(numel) * elem;
  if (numel > 0 && !isDeviceRange(base, bytes))
    return nnFail(ACLNN_ERR_PARAM_INVALID,
                  "{}: {} {}'s data ({} bytes at {}) is not in one block of device memory; "
                  "allocate it with aclrtMalloc and copy the host data with aclrtMemcpy",
                  api, what, i, bytes, static_cast<const void*>(base));
  out->data = const_cast<char*>(base);
  out->dtype = t->dtype;
  out->dims = t->view;
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

namespace {
// aclnn<Op>GetWorkspaceSize's work, the inputs given by `fill_inputs` (single tensors, or a
// DYNAMIC input's list).
template <typename FillInputs>
aclnnStatus prepare(const void* anchor, const char* soc, const char* opType, const char* api,
                    bool inputs_null, FillInputs fill_inputs, const aclTensor* const* outputs,
                    uint64_t numOutputs, const AscOpapiAttr* attrs, uint64_t numAttrs,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (!opType || !api) return ACLNN_ERR_PARAM_NULLPTR;
  if (!workspaceSize || !executor)
    return nnFail(ACLNN_ERR_PARAM_NULLPTR, "{}: workspaceSize or executor is a null pointer", api);
  if (inputs_null || (numOutputs > 0 && !outputs) || (numAttrs > 0 && !attrs))
    return ACLNN_ERR_PARAM_NULLPTR;
  if (aclError e = requireContext(api)) {
    asc::log::write(asc::log::Level::Error, "aclnn", recentError());
    return e;
  }
  // The operator library of the vendor folder this libcust_opapi.so belongs to (once per file).
  const std::string vendor = vendorOf(anchor);
  if (vendor.empty())
    return nnFail(ACLNN_ERR_INNER,
                  "{}: cannot tell which vendor folder the operator library "
                  "is in (libcust_opapi.so is expected in <vendor>/op_api/lib)",
                  api);
  // A package laid out as CANN's (its op_host and opc-built kernels), else opgen's (one plugin).
  bool cann = false;
  if (asc::Status st = asc::ophost::loadCannVendor(vendor, &cann); !st.isOk())
    return nnFail(ACLNN_ERR_INNER, "{}: {}", api, st.message());
  if (!cann)
    if (asc::Status st = asc::ops::loadPlugins(vendor); !st.isOk())
      return nnFail(ACLNN_ERR_INNER, "{}: {}", api, st.message());

  std::vector<asc::ophost::CallTensor> ins, outs(numOutputs);
  if (aclnnStatus s = fill_inputs(&ins)) return s;
  for (uint64_t i = 0; i < numOutputs; ++i) {
    if (!outputs[i])
      return nnFail(ACLNN_ERR_PARAM_NULLPTR, "{}: output {} is a null pointer", api, i);
    if (aclnnStatus s = callTensor(api, "output", i, outputs[i], &outs[i])) return s;
  }
  std::vector<asc::ophost::CallAttr> as(numAttrs);
  for (uint64_t i = 0; i < numAttrs; ++i) {
    as[i].i = attrs[i].i;
    as[i].f = attrs[i].f;
    as[i].b = attrs[i].b;
    if (attrs[i].s) as[i].s = attrs[i].s;
    if (attrs[i].ints) as[i].ints = attrs[i].ints->values;
    if (attrs[i].floats) as[i].floats = attrs[i].floats->values;
  }
  auto call = asc::ophost::prepareCall(api, opType, ins, outs, as, soc ? soc : "");
  if (!call.isOk()) return nnFail(toNn(call.status()), "{}", call.status().message());
  auto* ex = new aclOpExecutor();
  ex->call = std::move(call).value();
  *workspaceSize = ex->call->workspaceBytes();
  addLive(ex);
  *executor = ex;
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  constexpr uint64_t kMaxRank = 25;  // gert::Shape::kMaxDimNum
  if ((viewDimsNum > 0 && !viewDims) || (storageDimsNum > 0 && !storageDims)) {
    nnFail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensor: viewDims or storageDims is a null pointer");
    return nullptr;
  }
  if (viewDimsNum > kMaxRank || storageDimsNum > kMaxRank) {
    nnFail(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: rank {} (storage {}); at most {}",
           viewDimsNum, storageDimsNum, kMaxRank);
    return nullptr;
  }
  if (elementSize(dataType) == 0) {
    nnFail(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: data type {} is not one asc-tools knows",
           static_cast<int>(dataType));
    return nullptr;
  }
  if (offset < 0) {
    nnFail(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: offset {} is negative", offset);
    return nullptr;
  }
  auto t = std::make_unique<aclTensor>();
  t->view.assign(viewDims, viewDims + viewDimsNum);
  if (storageDims) t->storage.assign(storageDims, storageDims + storageDimsNum);
  if (stride) t->strides.assign(stride, stride + viewDimsNum);
  for (int64_t d : t->view)
    if (d < 0) {
      nnFail(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor: dimension {} is negative", d);
      return nullptr;
    }
  t->offset = offset;
  t->dtype = dataType;
  t->format = format;
  t->data = tensorData;
  return t.release();
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  const size_t elem = elementSize(dataType);
  if (!value || elem == 0) {
    nnFail(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar: a null value or an unknown data type {}",
           static_cast<int>(dataType));
    return nullptr;
  }
  auto* s = new aclScalar();
  s->dtype = dataType;
  s->bytes.assign(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + elem);
  return s;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (size > 0 && !value) return nullptr;
  auto* a = new aclIntArray();
  if (size > 0) a->values.assign(value, value + size);
  return a;
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  if (size > 0 && !value) return nullptr;
  auto* a = new aclFloatArray();
  if (size > 0) a->values.assign(value, value + size);
  return a;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (size > 0 && !value) return nullptr;
  auto* a = new aclBoolArray();
  if (size > 0) a->values.assign(value, value + size);
  return a;
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  if (size > 0 && !value) return nullptr;
  auto* l = new aclTensorList();
  if (size > 0) l->tensors.assign(value, value + size);
  return l;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  delete tensor;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  delete scalar;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}
// The list owns its tensors, as in CANN.
aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  if (array)
    for (const aclTensor* t : array->tensors) delete t;
  delete array;
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (!tensor || !viewDims || !viewDimsNum) return ACLNN_ERR_PARAM_NULLPTR;
  *viewDims = const_cast<int64_t*>(tensor->view.data());
  *viewDimsNum = tensor->view.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) {
  if (!tensor || !storageDims || !storageDimsNum) return ACLNN_ERR_PARAM_NULLPTR;
  *storageDims = const_cast<int64_t*>(tensor->storage.data());
  *storageDimsNum = tensor->storage.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) {
  if (!tensor || !stridesValue || !stridesNum) return ACLNN_ERR_PARAM_NULLPTR;
  if (tensor->strides.empty()) {  // row-major, computed once on request
    auto* t = const_cast<aclTensor*>(tensor);
    t->strides.resize(t->view.size());
    int64_t s = 1;
    for (size_t d = t->view.size(); d-- > 0;) {
      t->strides[d] = s;
      s *= t->view[d];
    }
  }
  *stridesValue = const_cast<int64_t*>(tensor->strides.data());
  *stridesNum = tensor->strides.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  if (!tensor || !offset) return ACLNN_ERR_PARAM_NULLPTR;
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  if (!tensor || !format) return ACLNN_ERR_PARAM_NULLPTR;
  *format = tensor->format;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (!tensor || !dataType) return ACLNN_ERR_PARAM_NULLPTR;
  *dataType = tensor->dtype;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  if (!array || !size) return ACLNN_ERR_PARAM_NULLPTR;
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  if (!array || !size) return ACLNN_ERR_PARAM_NULLPTR;
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  if (!array || !size) return ACLNN_ERR_PARAM_NULLPTR;
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  if (!tensorList || !size) return ACLNN_ERR_PARAM_NULLPTR;
  *size = tensorList->tensors.size();
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (!executor)
    return nnFail(ACLNN_ERR_PARAM_NULLPTR,
                  "aclSetAclOpExecutorRepeatable: the executor is a null pointer");
  if (!makeRepeatable(executor))
    return nnFail(ACLNN_ERR_PARAM_INVALID,
                  "aclSetAclOpExecutorRepeatable: {} is no executor of aclnn<Op>GetWorkspaceSize "
                  "that is still alive (it was destroyed, or ran more than {} single-use "
                  "executors ago and was freed)",
                  static_cast<const void*>(executor), kSpentKept);
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (!executor) return ACLNN_SUCCESS;
  if (!destroyLive(executor))
    return nnFail(ACLNN_ERR_PARAM_INVALID,
                  "aclDestroyAclOpExecutor: {} is no live executor (it was destroyed already, or "
                  "it ran single-use more than {} executors ago and was freed)",
                  static_cast<const void*>(executor), kSpentKept);
  return ACLNN_SUCCESS;
}

aclnnStatus ascOpapiPrepare(const void* anchor, const char* soc, const char* opType,
                            const char* api, const aclTensor* const* inputs, uint64_t numInputs,
                            const aclTensor* const* outputs, uint64_t numOutputs,
                            const AscOpapiAttr* attrs, uint64_t numAttrs, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
  auto fill = [&](std::vector<asc::ophost::CallTensor>* ins) -> aclnnStatus {
    ins->resize(numInputs);
    for (uint64_t i = 0; i < numInputs; ++i)
      if (aclnnStatus s = callTensor(api, "input", i, inputs[i], &(*ins)[i])) return s;
    return ACLNN_SUCCESS;
  };
  return prepare(anchor, soc, opType, api, numInputs > 0 && !inputs, fill, outputs, numOutputs,
                 attrs, numAttrs, workspaceSize, executor);
}

aclnnStatus ascOpapiPrepareLists(const void* anchor, const char* soc, const char* opType,
                                 const char* api, const AscOpapiInput* inputs, uint64_t numInputs,
                                 const aclTensor* const* outputs, uint64_t numOutputs,
                                 const AscOpapiAttr* attrs, uint64_t numAttrs,
                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  auto fill = [&](std::vector<asc::ophost::CallTensor>* ins) -> aclnnStatus {
    ins->resize(numInputs);
    for (uint64_t i = 0; i < numInputs; ++i) {
      asc::ophost::CallTensor& t = (*ins)[i];
      if (!inputs[i].list) {
        if (aclnnStatus s = callTensor(api, "input", i, inputs[i].tensor, &t)) return s;
        continue;
      }
      t.is_list = true;
      const auto& tensors = inputs[i].list->tensors;
      t.list.resize(tensors.size());
      for (size_t k = 0; k < tensors.size(); ++k) {
        if (!tensors[k])
          return nnFail(ACLNN_ERR_PARAM_NULLPTR,
                        "{}: input {}'s tensor list holds a null tensor "
                        "at {}",
                        api, i, k);
        if (aclnnStatus s = callTensor(api, "input", i, tensors[k], &t.list[k])) return s;
      }
    }
    return ACLNN_SUCCESS;
  };
  return prepare(anchor, soc, opType, api, numInputs > 0 && !inputs, fill, outputs, numOutputs,
                 attrs, numAttrs, workspaceSize, executor);
}

aclnnStatus ascOpapiRun(const char* api, void* workspace, uint64_t workspaceSize,
                        aclOpExecutor* executor, aclrtStream stream) {
  if (!api) return ACLNN_ERR_PARAM_NULLPTR;
  if (!executor)
    return nnFail(ACLNN_ERR_PARAM_NULLPTR,
                  "{}: the executor is a null pointer (GetWorkspaceSize failed, or its executor "
                  "was run already)",
                  api);
  if (workspaceSize > 0 && !isDeviceRange(workspace, workspaceSize))
    return nnFail(ACLNN_ERR_PARAM_INVALID,
                  "{}: the workspace ({} bytes at {}) is not in one block of device memory; "
                  "allocate it with aclrtMalloc",
                  api, workspaceSize, workspace);
  aclError err = ACL_SUCCESS;
  Stream* s = resolveStream(api, stream, &err);
  if (!s) {
    asc::log::write(asc::log::Level::Error, "aclnn", recentError());
    return err;
  }
  std::shared_ptr<asc::ophost::PreparedCall> call = callForRun(executor);
  if (!call)
    return nnFail(ACLNN_ERR_PARAM_INVALID,
                  "{}: the executor at {} is not a live one: it was destroyed, or it ran "
                  "single-use and more than {} executors ran after it, so it was freed (call "
                  "GetWorkspaceSize for each run, or make it reusable with "
                  "aclSetAclOpExecutorRepeatable)",
                  api, static_cast<const void*>(executor), kSpentKept);
  std::string name = api;
  enqueue(s, [call, workspace, workspaceSize, name]() -> aclError {
    asc::Status st = call->run(workspace, workspaceSize);
    if (st.isOk()) return ACL_SUCCESS;
    asc::log::write(asc::log::Level::Error, "aclnn", st.message());
    return fail(ACL_ERROR_RT_FAILURE, "EZ9999 {}: {}", name, st.message());
  });
  return ACLNN_SUCCESS;
}

}  // extern "C"
