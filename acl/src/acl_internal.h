// acl_internal.h: the state behind asc-tools' AscendCL (docs/acl.md). One process-wide state
// (initialised or not, the device's contexts, memory blocks, models) guarded by mutexes; each
// thread has its current context and the message of its last failed call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "acl/acl.h"
#include "asc/ir/dtype.h"

namespace asc::acl {

/// Records `message` as this thread's recent error (aclGetRecentErrMsg) and returns `code`.
aclError setError(aclError code, std::string message);
template <typename... Args>
aclError fail(aclError code, fmt::format_string<Args...> f, Args&&... args) {
  return setError(code, fmt::format(f, std::forward<Args>(args)...));
}
/// Clears this thread's recent error (a call that succeeds leaves the last failure readable, as
/// CANN does; only tests use this).
void clearError();

/// ACL_ERROR_UNINITIALIZE unless aclInit ran (and aclFinalize did not), naming `api`.
aclError requireInit(const char* api);
/// As requireInit, and ACL_ERROR_RT_CONTEXT_NULL when this thread has no current context
/// (aclrtSetDevice or aclrtSetCurrentContext was not called on it).
aclError requireContext(const char* api);

/// The aclrtMalloc block holding [p, p + bytes), or false. `what` names the pointer for errors.
bool isDeviceRange(const void* p, size_t bytes);
/// ACL_ERROR_INVALID_PARAM unless [p, p + bytes) lies in one aclrtMalloc block.
aclError checkDeviceRange(const char* api, const char* what, const void* p, size_t bytes);

/// A stream: an ordered queue of tasks run by a thread of its own (started at the first task).
struct Stream;
/// The stream a handle names (nullptr: the current context's default stream); nullptr and an
/// error when the handle is not a live stream.
Stream* resolveStream(const char* api, aclrtStream handle, aclError* err);
/// Puts `task` on `s`; its failure (non-zero) is returned by the next synchronize.
void enqueue(Stream* s, std::function<aclError()> task);

/// ACL's data type numbers <-> asc-tools'.
aclDataType toAclType(ir::DType t);
ir::DType fromAclType(aclDataType t);
aclFormat toAclFormat(const std::string& format);

}  // namespace asc::acl

/// The structs behind the C API's opaque handles.
struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::string name;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer*> buffers;
  // Per buffer: the shape the application set for an input (aclmdlSetDatasetTensorDesc) or the
  // shape an execution gave an output; owned here.
  std::vector<std::unique_ptr<aclTensorDesc>> descs;
};
