// rt.cpp: the acl.rt functions of the pyACL module (devices, contexts, streams, events, memory).
#include "pyacl.h"

namespace pyacl {
namespace {

// =============================================================================================
// acl.rt

PyObject *rt_set_device(PyObject *, PyObject *args) {
  int deviceId = 0;
  if (!PyArg_ParseTuple(args, "i:set_device", &deviceId)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtSetDevice(deviceId));
  return fromRet(ret);
}

PyObject *rt_reset_device(PyObject *, PyObject *args) {
  int deviceId = 0;
  if (!PyArg_ParseTuple(args, "i:reset_device", &deviceId)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtResetDevice(deviceId));
  return fromRet(ret);
}

PyObject *rt_get_device(PyObject *, PyObject *) {
  int32_t deviceId = 0;
  const aclError ret = aclrtGetDevice(&deviceId);
  return pair(PyLong_FromLong(static_cast<long>(deviceId)), ret);
}

PyObject *rt_get_device_count(PyObject *, PyObject *) {
  uint32_t count = 0;
  const aclError ret = aclrtGetDeviceCount(&count);
  return pair(PyLong_FromUnsignedLong(static_cast<unsigned long>(count)), ret);
}

PyObject *rt_get_run_mode(PyObject *, PyObject *) {
  aclrtRunMode mode = ACL_HOST;
  const aclError ret = aclrtGetRunMode(&mode);
  return pair(PyLong_FromLong(static_cast<long>(mode)), ret);
}

PyObject *rt_create_context(PyObject *, PyObject *args) {
  int deviceId = 0;
  if (!PyArg_ParseTuple(args, "i:create_context", &deviceId)) return nullptr;
  aclrtContext context = nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtCreateContext(&context, deviceId));
  return pair(fromPtr(context), ret);
}

PyObject *rt_destroy_context(PyObject *, PyObject *args) {
  void *context = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_context", convPtr, &context)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtDestroyContext(context));
  return fromRet(ret);
}

PyObject *rt_set_context(PyObject *, PyObject *args) {
  void *context = nullptr;
  if (!PyArg_ParseTuple(args, "O&:set_context", convPtr, &context)) return nullptr;
  return fromRet(aclrtSetCurrentContext(context));
}

PyObject *rt_get_context(PyObject *, PyObject *) {
  aclrtContext context = nullptr;
  const aclError ret = aclrtGetCurrentContext(&context);
  return pair(fromPtr(context), ret);
}

PyObject *rt_create_stream(PyObject *, PyObject *) {
  aclrtStream stream = nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtCreateStream(&stream));
  return pair(fromPtr(stream), ret);
}

PyObject *rt_destroy_stream(PyObject *, PyObject *args) {
  void *stream = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_stream", convPtr, &stream)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtDestroyStream(stream));
  return fromRet(ret);
}

PyObject *rt_synchronize_stream(PyObject *, PyObject *args) {
  void *stream = nullptr;
  if (!PyArg_ParseTuple(args, "O&:synchronize_stream", convPtr, &stream)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtSynchronizeStream(stream));
  return fromRet(ret);
}

PyObject *rt_synchronize_device(PyObject *, PyObject *) {
  aclError ret;
  ACL_NOGIL(ret = aclrtSynchronizeDevice());
  return fromRet(ret);
}

PyObject *rt_create_event(PyObject *, PyObject *) {
  aclrtEvent event = nullptr;
  const aclError ret = aclrtCreateEvent(&event);
  return pair(fromPtr(event), ret);
}

PyObject *rt_destroy_event(PyObject *, PyObject *args) {
  void *event = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_event", convPtr, &event)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtDestroyEvent(event));
  return fromRet(ret);
}

PyObject *rt_record_event(PyObject *, PyObject *args) {
  void *event = nullptr;
  void *stream = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&:record_event", convPtr, &event, convPtr, &stream))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtRecordEvent(event, stream));
  return fromRet(ret);
}

PyObject *rt_synchronize_event(PyObject *, PyObject *args) {
  void *event = nullptr;
  if (!PyArg_ParseTuple(args, "O&:synchronize_event", convPtr, &event)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtSynchronizeEvent(event));
  return fromRet(ret);
}

PyObject *rt_event_elapsed_time(PyObject *, PyObject *args) {
  void *start = nullptr;
  void *end = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&:event_elapsed_time", convPtr, &start, convPtr, &end))
    return nullptr;
  float ms = 0.0f;
  const aclError ret = aclrtEventElapsedTime(&ms, start, end);
  return pair(PyFloat_FromDouble(static_cast<double>(ms)), ret);
}

PyObject *rt_query_event_status(PyObject *, PyObject *args) {
  void *event = nullptr;
  if (!PyArg_ParseTuple(args, "O&:query_event_status", convPtr, &event)) return nullptr;
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  const aclError ret = aclrtQueryEventStatus(event, &status);
  return pair(PyLong_FromLong(static_cast<long>(status)), ret);
}

PyObject *rt_malloc(PyObject *, PyObject *args) {
  size_t size = 0;
  int policy = 0;
  if (!PyArg_ParseTuple(args, "O&i:malloc", convSize, &size, &policy)) return nullptr;
  void *ptr = nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtMalloc(&ptr, size, static_cast<aclrtMemMallocPolicy>(policy)));
  return pair(fromPtr(ptr), ret);
}

PyObject *rt_malloc_host(PyObject *, PyObject *args) {
  size_t size = 0;
  if (!PyArg_ParseTuple(args, "O&:malloc_host", convSize, &size)) return nullptr;
  void *ptr = nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtMallocHost(&ptr, size));
  return pair(fromPtr(ptr), ret);
}

PyObject *rt_free(PyObject *, PyObject *args) {
  void *ptr = nullptr;
  if (!PyArg_ParseTuple(args, "O&:free", convPtr, &ptr)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtFree(ptr));
  return fromRet(ret);
}

PyObject *rt_free_host(PyObject *, PyObject *args) {
  void *ptr = nullptr;
  if (!PyArg_ParseTuple(args, "O&:free_host", convPtr, &ptr)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtFreeHost(ptr));
  return fromRet(ret);
}

PyObject *rt_memcpy(PyObject *, PyObject *args) {
  void *dst = nullptr;
  size_t destMax = 0;
  void *src = nullptr;
  size_t count = 0;
  int kind = 0;
  if (!PyArg_ParseTuple(args, "O&O&O&O&i:memcpy", convPtr, &dst, convSize, &destMax, convPtr, &src,
                        convSize, &count, &kind))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtMemcpy(dst, destMax, src, count, static_cast<aclrtMemcpyKind>(kind)));
  return fromRet(ret);
}

PyObject *rt_memcpy_async(PyObject *, PyObject *args) {
  void *dst = nullptr;
  size_t destMax = 0;
  void *src = nullptr;
  size_t count = 0;
  int kind = 0;
  void *stream = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&O&O&iO&:memcpy_async", convPtr, &dst, convSize, &destMax,
                        convPtr, &src, convSize, &count, &kind, convPtr, &stream))
    return nullptr;
  aclError ret;
  ACL_NOGIL(
      ret = aclrtMemcpyAsync(dst, destMax, src, count, static_cast<aclrtMemcpyKind>(kind), stream));
  return fromRet(ret);
}

PyObject *rt_memset(PyObject *, PyObject *args) {
  void *ptr = nullptr;
  size_t maxCount = 0;
  int value = 0;
  size_t count = 0;
  if (!PyArg_ParseTuple(args, "O&O&iO&:memset", convPtr, &ptr, convSize, &maxCount, &value,
                        convSize, &count))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclrtMemset(ptr, maxCount, value, count));
  return fromRet(ret);
}

PyObject *rt_get_soc_name(PyObject *, PyObject *) { return fromCString(aclrtGetSocName()); }

PyObject *rt_get_mem_info(PyObject *, PyObject *args) {
  int attr = 0;
  if (!PyArg_ParseTuple(args, "i:get_mem_info", &attr)) return nullptr;
  size_t freeBytes = 0;
  size_t totalBytes = 0;
  const aclError ret = aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &freeBytes, &totalBytes);
  return Py_BuildValue("(KKi)", static_cast<unsigned long long>(freeBytes),
                       static_cast<unsigned long long>(totalBytes), static_cast<int>(ret));
}

}  // namespace

PyMethodDef rtMethods[] = {
    {"set_device", asMethod(rt_set_device), METH_VARARGS, "set_device(device_id) -> ret"},
    {"reset_device", asMethod(rt_reset_device), METH_VARARGS, "reset_device(device_id) -> ret"},
    {"get_device", asMethod(rt_get_device), METH_NOARGS, "get_device() -> (device_id, ret)"},
    {"get_device_count", asMethod(rt_get_device_count), METH_NOARGS,
     "get_device_count() -> (count, ret)"},
    {"get_run_mode", asMethod(rt_get_run_mode), METH_NOARGS, "get_run_mode() -> (run_mode, ret)"},
    {"create_context", asMethod(rt_create_context), METH_VARARGS,
     "create_context(device_id) -> (context, ret)"},
    {"destroy_context", asMethod(rt_destroy_context), METH_VARARGS,
     "destroy_context(context) -> ret"},
    {"set_context", asMethod(rt_set_context), METH_VARARGS, "set_context(context) -> ret"},
    {"get_context", asMethod(rt_get_context), METH_NOARGS, "get_context() -> (context, ret)"},
    {"create_stream", asMethod(rt_create_stream), METH_NOARGS, "create_stream() -> (stream, ret)"},
    {"destroy_stream", asMethod(rt_destroy_stream), METH_VARARGS, "destroy_stream(stream) -> ret"},
    {"synchronize_stream", asMethod(rt_synchronize_stream), METH_VARARGS,
     "synchronize_stream(stream) -> ret"},
    {"synchronize_device", asMethod(rt_synchronize_device), METH_NOARGS,
     "synchronize_device() -> ret"},
    {"create_event", asMethod(rt_create_event), METH_NOARGS, "create_event() -> (event, ret)"},
    {"destroy_event", asMethod(rt_destroy_event), METH_VARARGS, "destroy_event(event) -> ret"},
    {"record_event", asMethod(rt_record_event), METH_VARARGS, "record_event(event, stream) -> ret"},
    {"synchronize_event", asMethod(rt_synchronize_event), METH_VARARGS,
     "synchronize_event(event) -> ret"},
    {"event_elapsed_time", asMethod(rt_event_elapsed_time), METH_VARARGS,
     "event_elapsed_time(start, end) -> (milliseconds, ret)"},
    {"query_event_status", asMethod(rt_query_event_status), METH_VARARGS,
     "query_event_status(event) -> (status, ret)"},
    {"malloc", asMethod(rt_malloc), METH_VARARGS, "malloc(size, policy) -> (device_ptr, ret)"},
    {"malloc_host", asMethod(rt_malloc_host), METH_VARARGS, "malloc_host(size) -> (host_ptr, ret)"},
    {"free", asMethod(rt_free), METH_VARARGS, "free(device_ptr) -> ret"},
    {"free_host", asMethod(rt_free_host), METH_VARARGS, "free_host(host_ptr) -> ret"},
    {"memcpy", asMethod(rt_memcpy), METH_VARARGS, "memcpy(dst, dest_max, src, count, kind) -> ret"},
    {"memcpy_async", asMethod(rt_memcpy_async), METH_VARARGS,
     "memcpy_async(dst, dest_max, src, count, kind, stream) -> ret"},
    {"memset", asMethod(rt_memset), METH_VARARGS,
     "memset(device_ptr, max_count, value, count) -> ret"},
    {"get_soc_name", asMethod(rt_get_soc_name), METH_NOARGS, "get_soc_name() -> str"},
    {"get_mem_info", asMethod(rt_get_mem_info), METH_VARARGS,
     "get_mem_info(attr) -> (free, total, ret)"},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace pyacl
