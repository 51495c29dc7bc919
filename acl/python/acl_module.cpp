// acl_module.cpp: the pyACL-compatible Python module `acl` (with acl.rt, acl.mdl and acl.util) over
// asc-tools' AscendCL (libascendcl.so). Written against the CPython C API only.
//
// Conventions, as pyACL has them:
//  * pointers and handles (streams, contexts, events, model descriptions, datasets, data buffers,
//    tensor descriptions, device and host memory) are Python ints;
//  * a call that produces a value returns (value, ret), a call that only reports a status returns
//    ret (an int, 0 on success); C-level failures are reported through ret, and
//    acl.get_recent_err_msg() says what went wrong;
//  * wrong Python argument types raise TypeError (negative or too large numbers OverflowError),
//    like any builtin.
// Calls that may block (copies, synchronisation, model loading and execution) release the GIL.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"

namespace {

// ---------------------------------------------------------------------------------------------
// Argument conversion ("O&" converters: return 1 on success, 0 with an exception set).

// Any int-like object (int, bool, numpy integer) as an unsigned 64-bit value.
bool toU64(PyObject *obj, const char *what, unsigned long long *out) {
  if (!PyIndex_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an int, not %.200s", what, Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject *index = PyNumber_Index(obj);
  if (index == nullptr) return false;
  const unsigned long long value = PyLong_AsUnsignedLongLong(index);
  Py_DECREF(index);
  if (value == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_OverflowError, "%s must be a non-negative int below 2**64", what);
    }
    return false;
  }
  *out = value;
  return true;
}

// A pointer or handle.
int convPtr(PyObject *obj, void *out) {
  unsigned long long value = 0;
  if (!toU64(obj, "a pointer or handle", &value)) return 0;
  static_assert(sizeof(uintptr_t) <= sizeof(unsigned long long), "pointer wider than 64 bits");
  if (value > static_cast<unsigned long long>(UINTPTR_MAX)) {
    PyErr_SetString(PyExc_OverflowError, "a pointer or handle does not fit in a pointer");
    return 0;
  }
  *static_cast<void **>(out) = reinterpret_cast<void *>(static_cast<uintptr_t>(value));
  return 1;
}

// A size or an index (size_t).
int convSize(PyObject *obj, void *out) {
  unsigned long long value = 0;
  if (!toU64(obj, "a size or index", &value)) return 0;
  if (value > static_cast<unsigned long long>(SIZE_MAX)) {
    PyErr_SetString(PyExc_OverflowError, "a size or index does not fit in size_t");
    return 0;
  }
  *static_cast<size_t *>(out) = static_cast<size_t>(value);
  return 1;
}

// A uint32_t (model ids).
int convU32(PyObject *obj, void *out) {
  unsigned long long value = 0;
  if (!toU64(obj, "a model id", &value)) return 0;
  if (value > 0xFFFFFFFFULL) {
    PyErr_SetString(PyExc_OverflowError, "a model id must be below 2**32");
    return 0;
  }
  *static_cast<uint32_t *>(out) = static_cast<uint32_t>(value);
  return 1;
}

// A uint64_t (batch sizes, heights, widths).
int convU64(PyObject *obj, void *out) {
  unsigned long long value = 0;
  if (!toU64(obj, "a batch size, height or width", &value)) return 0;
  *static_cast<uint64_t *>(out) = static_cast<uint64_t>(value);
  return 1;
}

// An int64_t (tensor dims; -1 is allowed).
bool toI64(PyObject *obj, const char *what, int64_t *out) {
  if (!PyIndex_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s must be an int, not %.200s", what, Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject *index = PyNumber_Index(obj);
  if (index == nullptr) return false;
  const long long value = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (value == -1 && PyErr_Occurred()) return false;
  *out = static_cast<int64_t>(value);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Result building.

PyObject *fromPtr(const void *ptr) { return PyLong_FromVoidPtr(const_cast<void *>(ptr)); }

PyObject *fromRet(aclError ret) { return PyLong_FromLong(static_cast<long>(ret)); }

PyObject *fromSize(size_t value) { return PyLong_FromSize_t(value); }

// (value, ret); takes over the reference to value.
PyObject *pair(PyObject *value, aclError ret) {
  if (value == nullptr) return nullptr;
  return Py_BuildValue("(Ni)", value, static_cast<int>(ret));
}

// A C string the library returned (NULL becomes ""); undecodable bytes are replaced.
PyObject *fromCString(const char *text) {
  if (text == nullptr) return PyUnicode_FromString("");
  return PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(std::strlen(text)), "replace");
}

// {"name": str, "dimCount": int, "dims": [ints]}
PyObject *fromIODims(const aclmdlIODims &dims) {
  const size_t count = dims.dimCount < ACL_MAX_DIM_CNT ? dims.dimCount : ACL_MAX_DIM_CNT;
  const size_t nameLen = strnlen(dims.name, ACL_MAX_TENSOR_NAME_LEN);
  PyObject *list = PyList_New(static_cast<Py_ssize_t>(count));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < count; ++i) {
    PyObject *dim = PyLong_FromLongLong(static_cast<long long>(dims.dims[i]));
    if (dim == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), dim);
  }
  PyObject *name = PyUnicode_DecodeUTF8(dims.name, static_cast<Py_ssize_t>(nameLen), "replace");
  if (name == nullptr) {
    Py_DECREF(list);
    return nullptr;
  }
  return Py_BuildValue("{s:N,s:n,s:N}", "name", name, "dimCount", static_cast<Py_ssize_t>(count),
                       "dims", list);
}

// The dims dictionary of set_input_dynamic_dims: "dims" is required; "dimCount" (at most
// len(dims)) and "name" are optional.
bool toIODims(PyObject *obj, aclmdlIODims *out) {
  std::memset(out, 0, sizeof(*out));
  if (!PyDict_Check(obj)) {
    PyErr_Format(
        PyExc_TypeError,
        "dims must be a dict {'name': str, 'dimCount': int, 'dims': [int, ...]}, not %.200s",
        Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject *dimsObj = PyDict_GetItemString(obj, "dims");  // borrowed
  if (dimsObj == nullptr) {
    PyErr_SetString(PyExc_KeyError, "dims dict has no 'dims' entry");
    return false;
  }
  if (!PyList_Check(dimsObj) && !PyTuple_Check(dimsObj)) {
    PyErr_Format(PyExc_TypeError, "dims['dims'] must be a list or tuple of ints, not %.200s",
                 Py_TYPE(dimsObj)->tp_name);
    return false;
  }
  PyObject *seq = PySequence_Fast(dimsObj, "dims['dims'] must be a list or tuple of ints");
  if (seq == nullptr) return false;
  const Py_ssize_t available = PySequence_Fast_GET_SIZE(seq);
  size_t count = static_cast<size_t>(available);
  PyObject *countObj = PyDict_GetItemString(obj, "dimCount");  // borrowed
  if (countObj != nullptr && !convSize(countObj, &count)) {
    Py_DECREF(seq);
    return false;
  }
  if (count > static_cast<size_t>(available)) {
    PyErr_Format(PyExc_ValueError, "dims['dimCount'] is %zu but dims['dims'] has %zd entries",
                 count, available);
    Py_DECREF(seq);
    return false;
  }
  if (count > ACL_MAX_DIM_CNT) {
    PyErr_Format(PyExc_ValueError, "at most %d dims, not %zu", ACL_MAX_DIM_CNT, count);
    Py_DECREF(seq);
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!toI64(PySequence_Fast_GET_ITEM(seq, static_cast<Py_ssize_t>(i)), "a dim", &out->dims[i])) {
      Py_DECREF(seq);
      return false;
    }
  }
  Py_DECREF(seq);
  out->dimCount = count;
  PyObject *nameObj = PyDict_GetItemString(obj, "name");  // borrowed
  if (nameObj != nullptr && nameObj != Py_None) {
    if (!PyUnicode_Check(nameObj)) {
      PyErr_Format(PyExc_TypeError, "dims['name'] must be a str, not %.200s",
                   Py_TYPE(nameObj)->tp_name);
      return false;
    }
    Py_ssize_t len = 0;
    const char *utf8 = PyUnicode_AsUTF8AndSize(nameObj, &len);
    if (utf8 == nullptr) return false;
    if (len >= ACL_MAX_TENSOR_NAME_LEN) {
      PyErr_Format(PyExc_ValueError, "dims['name'] is longer than %d bytes",
                   ACL_MAX_TENSOR_NAME_LEN - 1);
      return false;
    }
    std::memcpy(out->name, utf8, static_cast<size_t>(len));
  }
  return true;
}

// A file system path (str, bytes or os.PathLike) as bytes, or None (left as nullptr).
int convOptionalPath(PyObject *obj, void *out) {
  if (obj == Py_None) return 1;
  return PyUnicode_FSConverter(obj, out);
}

// Runs stmt without the GIL (for calls that may block or take a while).
#define ACL_NOGIL(stmt)          \
  do {                           \
    Py_BEGIN_ALLOW_THREADS stmt; \
    Py_END_ALLOW_THREADS         \
  } while (0)

// Casts a method implementation to the PyCFunction that PyMethodDef stores.
template <typename F>
PyCFunction asMethod(F fn) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fn));
}

// =============================================================================================
// acl

PyObject *acl_init(PyObject *, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"config_path", nullptr};
  PyObject *pathObj = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O&:init", const_cast<char **>(keywords),
                                   convOptionalPath, &pathObj))
    return nullptr;
  // No path, None and "" all mean no acl.json (NULL).
  const char *path = nullptr;
  if (pathObj != nullptr) {
    const char *text = PyBytes_AS_STRING(pathObj);
    if (text[0] != '\0') path = text;
  }
  aclError ret;
  ACL_NOGIL(ret = aclInit(path));
  Py_XDECREF(pathObj);
  return fromRet(ret);
}

PyObject *acl_finalize(PyObject *, PyObject *) {
  aclError ret;
  ACL_NOGIL(ret = aclFinalize());
  return fromRet(ret);
}

PyObject *acl_get_recent_err_msg(PyObject *, PyObject *) {
  return fromCString(aclGetRecentErrMsg());
}

PyObject *acl_create_data_buffer(PyObject *, PyObject *args) {
  void *data = nullptr;
  size_t size = 0;
  if (!PyArg_ParseTuple(args, "O&O&:create_data_buffer", convPtr, &data, convSize, &size))
    return nullptr;
  return fromPtr(aclCreateDataBuffer(data, size));
}

PyObject *acl_destroy_data_buffer(PyObject *, PyObject *args) {
  void *buffer = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_data_buffer", convPtr, &buffer)) return nullptr;
  return fromRet(aclDestroyDataBuffer(static_cast<aclDataBuffer *>(buffer)));
}

PyObject *acl_update_data_buffer(PyObject *, PyObject *args) {
  void *buffer = nullptr;
  void *data = nullptr;
  size_t size = 0;
  if (!PyArg_ParseTuple(args, "O&O&O&:update_data_buffer", convPtr, &buffer, convPtr, &data,
                        convSize, &size))
    return nullptr;
  return fromRet(aclUpdateDataBuffer(static_cast<aclDataBuffer *>(buffer), data, size));
}

PyObject *acl_get_data_buffer_addr(PyObject *, PyObject *args) {
  void *buffer = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_data_buffer_addr", convPtr, &buffer)) return nullptr;
  return fromPtr(aclGetDataBufferAddr(static_cast<aclDataBuffer *>(buffer)));
}

PyObject *acl_get_data_buffer_size_v2(PyObject *, PyObject *args) {
  void *buffer = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_data_buffer_size_v2", convPtr, &buffer)) return nullptr;
  return fromSize(aclGetDataBufferSizeV2(static_cast<aclDataBuffer *>(buffer)));
}

PyObject *acl_get_data_buffer_size(PyObject *, PyObject *args) {
  void *buffer = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_data_buffer_size", convPtr, &buffer)) return nullptr;
    // pyACL keeps the deprecated call: it is what get_data_buffer_size means.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const uint32_t size = aclGetDataBufferSize(static_cast<aclDataBuffer *>(buffer));
#pragma GCC diagnostic pop
  return PyLong_FromUnsignedLong(size);
}

PyObject *acl_create_tensor_desc(PyObject *, PyObject *args) {
  int dataType = 0;
  PyObject *dimsObj = nullptr;
  int format = 0;
  if (!PyArg_ParseTuple(args, "iOi:create_tensor_desc", &dataType, &dimsObj, &format))
    return nullptr;
  if (!PyList_Check(dimsObj) && !PyTuple_Check(dimsObj)) {
    PyErr_Format(PyExc_TypeError,
                 "create_tensor_desc: dims must be a list or tuple of ints, not %.200s",
                 Py_TYPE(dimsObj)->tp_name);
    return nullptr;
  }
  PyObject *seq = PySequence_Fast(dimsObj, "dims must be a list or tuple of ints");
  if (seq == nullptr) return nullptr;
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
  if (count > INT32_MAX) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "create_tensor_desc: too many dims");
    return nullptr;
  }
  std::vector<int64_t> dims(static_cast<size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    if (!toI64(PySequence_Fast_GET_ITEM(seq, i), "a dim", &dims[static_cast<size_t>(i)])) {
      Py_DECREF(seq);
      return nullptr;
    }
  }
  Py_DECREF(seq);
  aclTensorDesc *desc =
      aclCreateTensorDesc(static_cast<aclDataType>(dataType), static_cast<int>(count),
                          dims.empty() ? nullptr : dims.data(), static_cast<aclFormat>(format));
  return fromPtr(desc);
}

PyObject *acl_destroy_tensor_desc(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_tensor_desc", convPtr, &desc)) return nullptr;
  aclDestroyTensorDesc(static_cast<aclTensorDesc *>(desc));
  Py_RETURN_NONE;
}

PyObject *acl_get_tensor_desc_type(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_tensor_desc_type", convPtr, &desc)) return nullptr;
  return PyLong_FromLong(
      static_cast<long>(aclGetTensorDescType(static_cast<aclTensorDesc *>(desc))));
}

PyObject *acl_get_tensor_desc_format(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_tensor_desc_format", convPtr, &desc)) return nullptr;
  return PyLong_FromLong(
      static_cast<long>(aclGetTensorDescFormat(static_cast<aclTensorDesc *>(desc))));
}

PyObject *acl_get_tensor_desc_size(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_tensor_desc_size", convPtr, &desc)) return nullptr;
  return fromSize(aclGetTensorDescSize(static_cast<aclTensorDesc *>(desc)));
}

PyObject *acl_get_tensor_desc_element_count(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_tensor_desc_element_count", convPtr, &desc)) return nullptr;
  return fromSize(aclGetTensorDescElementCount(static_cast<aclTensorDesc *>(desc)));
}

PyObject *acl_get_tensor_desc_num_dims(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_tensor_desc_num_dims", convPtr, &desc)) return nullptr;
  return fromSize(aclGetTensorDescNumDims(static_cast<aclTensorDesc *>(desc)));
}

PyObject *acl_get_tensor_desc_dim_v2(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_tensor_desc_dim_v2", convPtr, &desc, convSize, &index))
    return nullptr;
  int64_t dim = 0;
  const aclError ret = aclGetTensorDescDimV2(static_cast<aclTensorDesc *>(desc), index, &dim);
  return pair(PyLong_FromLongLong(static_cast<long long>(dim)), ret);
}

PyObject *acl_float16_to_float(PyObject *, PyObject *args) {
  PyObject *valueObj = nullptr;
  if (!PyArg_ParseTuple(args, "O:float16_to_float", &valueObj)) return nullptr;
  unsigned long long value = 0;
  if (!toU64(valueObj, "a float16 bit pattern", &value)) return nullptr;
  if (value > 0xFFFFULL) {
    PyErr_SetString(PyExc_OverflowError, "a float16 bit pattern must be below 2**16");
    return nullptr;
  }
  return PyFloat_FromDouble(static_cast<double>(aclFloat16ToFloat(static_cast<aclFloat16>(value))));
}

PyObject *acl_float_to_float16(PyObject *, PyObject *args) {
  float value = 0.0f;
  if (!PyArg_ParseTuple(args, "f:float_to_float16", &value)) return nullptr;
  return PyLong_FromUnsignedLong(static_cast<unsigned long>(aclFloatToFloat16(value)));
}

PyMethodDef aclMethods[] = {
    {"init", asMethod(acl_init), METH_VARARGS | METH_KEYWORDS,
     "init(config_path='') -> ret\nInitialises AscendCL; an empty path means no acl.json."},
    {"finalize", asMethod(acl_finalize), METH_NOARGS, "finalize() -> ret"},
    {"get_recent_err_msg", asMethod(acl_get_recent_err_msg), METH_NOARGS,
     "get_recent_err_msg() -> str\nWhat the last failed call on this thread was about ('' if "
     "none)."},
    {"create_data_buffer", asMethod(acl_create_data_buffer), METH_VARARGS,
     "create_data_buffer(ptr, size) -> buffer (0 on failure)"},
    {"destroy_data_buffer", asMethod(acl_destroy_data_buffer), METH_VARARGS,
     "destroy_data_buffer(buffer) -> ret"},
    {"update_data_buffer", asMethod(acl_update_data_buffer), METH_VARARGS,
     "update_data_buffer(buffer, ptr, size) -> ret"},
    {"get_data_buffer_addr", asMethod(acl_get_data_buffer_addr), METH_VARARGS,
     "get_data_buffer_addr(buffer) -> ptr"},
    {"get_data_buffer_size_v2", asMethod(acl_get_data_buffer_size_v2), METH_VARARGS,
     "get_data_buffer_size_v2(buffer) -> size"},
    {"get_data_buffer_size", asMethod(acl_get_data_buffer_size), METH_VARARGS,
     "get_data_buffer_size(buffer) -> size (deprecated; a 32-bit size)"},
    {"create_tensor_desc", asMethod(acl_create_tensor_desc), METH_VARARGS,
     "create_tensor_desc(data_type, dims, format) -> desc (0 on failure)"},
    {"destroy_tensor_desc", asMethod(acl_destroy_tensor_desc), METH_VARARGS,
     "destroy_tensor_desc(desc) -> None"},
    {"get_tensor_desc_type", asMethod(acl_get_tensor_desc_type), METH_VARARGS,
     "get_tensor_desc_type(desc) -> int"},
    {"get_tensor_desc_format", asMethod(acl_get_tensor_desc_format), METH_VARARGS,
     "get_tensor_desc_format(desc) -> int"},
    {"get_tensor_desc_size", asMethod(acl_get_tensor_desc_size), METH_VARARGS,
     "get_tensor_desc_size(desc) -> int"},
    {"get_tensor_desc_element_count", asMethod(acl_get_tensor_desc_element_count), METH_VARARGS,
     "get_tensor_desc_element_count(desc) -> int"},
    {"get_tensor_desc_num_dims", asMethod(acl_get_tensor_desc_num_dims), METH_VARARGS,
     "get_tensor_desc_num_dims(desc) -> int"},
    {"get_tensor_desc_dim_v2", asMethod(acl_get_tensor_desc_dim_v2), METH_VARARGS,
     "get_tensor_desc_dim_v2(desc, index) -> (dim, ret)"},
    {"float16_to_float", asMethod(acl_float16_to_float), METH_VARARGS,
     "float16_to_float(bits) -> float\nThe value of a float16 given as its 16-bit pattern."},
    {"float_to_float16", asMethod(acl_float_to_float16), METH_VARARGS,
     "float_to_float16(value) -> int\nThe 16-bit pattern of value as a float16."},
    {nullptr, nullptr, 0, nullptr}};

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

// =============================================================================================
// acl.mdl

aclmdlDesc *asDesc(void *ptr) { return static_cast<aclmdlDesc *>(ptr); }
aclmdlDataset *asDataset(void *ptr) { return static_cast<aclmdlDataset *>(ptr); }

PyObject *mdl_load_from_file(PyObject *, PyObject *args) {
  PyObject *pathObj = nullptr;
  if (!PyArg_ParseTuple(args, "O&:load_from_file", PyUnicode_FSConverter, &pathObj)) return nullptr;
  uint32_t modelId = 0;
  aclError ret;
  const char *path = PyBytes_AS_STRING(pathObj);
  ACL_NOGIL(ret = aclmdlLoadFromFile(path, &modelId));
  Py_DECREF(pathObj);
  return pair(PyLong_FromUnsignedLong(static_cast<unsigned long>(modelId)), ret);
}

PyObject *mdl_load_from_mem(PyObject *, PyObject *args) {
  void *model = nullptr;
  size_t size = 0;
  if (!PyArg_ParseTuple(args, "O&O&:load_from_mem", convPtr, &model, convSize, &size))
    return nullptr;
  uint32_t modelId = 0;
  aclError ret;
  ACL_NOGIL(ret = aclmdlLoadFromMem(model, size, &modelId));
  return pair(PyLong_FromUnsignedLong(static_cast<unsigned long>(modelId)), ret);
}

PyObject *mdl_unload(PyObject *, PyObject *args) {
  uint32_t modelId = 0;
  if (!PyArg_ParseTuple(args, "O&:unload", convU32, &modelId)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlUnload(modelId));
  return fromRet(ret);
}

PyObject *mdl_create_desc(PyObject *, PyObject *) { return fromPtr(aclmdlCreateDesc()); }

PyObject *mdl_destroy_desc(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_desc", convPtr, &desc)) return nullptr;
  return fromRet(aclmdlDestroyDesc(asDesc(desc)));
}

PyObject *mdl_get_desc(PyObject *, PyObject *args) {
  void *desc = nullptr;
  uint32_t modelId = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_desc", convPtr, &desc, convU32, &modelId)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlGetDesc(asDesc(desc), modelId));
  return fromRet(ret);
}

PyObject *mdl_get_num_inputs(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_num_inputs", convPtr, &desc)) return nullptr;
  return fromSize(aclmdlGetNumInputs(asDesc(desc)));
}

PyObject *mdl_get_num_outputs(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_num_outputs", convPtr, &desc)) return nullptr;
  return fromSize(aclmdlGetNumOutputs(asDesc(desc)));
}

PyObject *mdl_get_input_size_by_index(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_input_size_by_index", convPtr, &desc, convSize, &index))
    return nullptr;
  return fromSize(aclmdlGetInputSizeByIndex(asDesc(desc), index));
}

PyObject *mdl_get_output_size_by_index(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_output_size_by_index", convPtr, &desc, convSize, &index))
    return nullptr;
  return fromSize(aclmdlGetOutputSizeByIndex(asDesc(desc), index));
}

using DimsGetter = aclError (*)(const aclmdlDesc *, size_t, aclmdlIODims *);

PyObject *getDims(PyObject *args, const char *format, DimsGetter getter) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, format, convPtr, &desc, convSize, &index)) return nullptr;
  aclmdlIODims dims;
  std::memset(&dims, 0, sizeof(dims));
  const aclError ret = getter(asDesc(desc), index, &dims);
  return pair(fromIODims(dims), ret);
}

PyObject *mdl_get_input_dims(PyObject *, PyObject *args) {
  return getDims(args, "O&O&:get_input_dims", aclmdlGetInputDims);
}

PyObject *mdl_get_output_dims(PyObject *, PyObject *args) {
  return getDims(args, "O&O&:get_output_dims", aclmdlGetOutputDims);
}

PyObject *mdl_get_cur_output_dims(PyObject *, PyObject *args) {
  return getDims(args, "O&O&:get_cur_output_dims", aclmdlGetCurOutputDims);
}

PyObject *mdl_get_input_name_by_index(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_input_name_by_index", convPtr, &desc, convSize, &index))
    return nullptr;
  return fromCString(aclmdlGetInputNameByIndex(asDesc(desc), index));
}

PyObject *mdl_get_output_name_by_index(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_output_name_by_index", convPtr, &desc, convSize, &index))
    return nullptr;
  return fromCString(aclmdlGetOutputNameByIndex(asDesc(desc), index));
}

PyObject *mdl_get_input_data_type(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_input_data_type", convPtr, &desc, convSize, &index))
    return nullptr;
  return PyLong_FromLong(static_cast<long>(aclmdlGetInputDataType(asDesc(desc), index)));
}

PyObject *mdl_get_output_data_type(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_output_data_type", convPtr, &desc, convSize, &index))
    return nullptr;
  return PyLong_FromLong(static_cast<long>(aclmdlGetOutputDataType(asDesc(desc), index)));
}

PyObject *mdl_get_input_format(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_input_format", convPtr, &desc, convSize, &index))
    return nullptr;
  return PyLong_FromLong(static_cast<long>(aclmdlGetInputFormat(asDesc(desc), index)));
}

PyObject *mdl_get_output_format(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_output_format", convPtr, &desc, convSize, &index))
    return nullptr;
  return PyLong_FromLong(static_cast<long>(aclmdlGetOutputFormat(asDesc(desc), index)));
}

PyObject *mdl_get_input_index_by_name(PyObject *, PyObject *args) {
  void *desc = nullptr;
  const char *name = nullptr;
  if (!PyArg_ParseTuple(args, "O&s:get_input_index_by_name", convPtr, &desc, &name)) return nullptr;
  size_t index = 0;
  const aclError ret = aclmdlGetInputIndexByName(asDesc(desc), name, &index);
  return pair(fromSize(index), ret);
}

PyObject *mdl_get_dynamic_batch(PyObject *, PyObject *args) {
  void *desc = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_dynamic_batch", convPtr, &desc)) return nullptr;
  aclmdlBatch batch;
  std::memset(&batch, 0, sizeof(batch));
  const aclError ret = aclmdlGetDynamicBatch(asDesc(desc), &batch);
  const size_t count = batch.batchCount < ACL_MAX_BATCH_NUM ? batch.batchCount : ACL_MAX_BATCH_NUM;
  PyObject *list = PyList_New(static_cast<Py_ssize_t>(count));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < count; ++i) {
    PyObject *value = PyLong_FromUnsignedLongLong(static_cast<unsigned long long>(batch.batch[i]));
    if (value == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), value);
  }
  return pair(
      Py_BuildValue("{s:n,s:N}", "batchCount", static_cast<Py_ssize_t>(count), "batch", list), ret);
}

PyObject *mdl_get_dynamic_hw(PyObject *, PyObject *args) {
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_dynamic_hw", convPtr, &desc, convSize, &index))
    return nullptr;
  aclmdlHW hw;
  std::memset(&hw, 0, sizeof(hw));
  const aclError ret = aclmdlGetDynamicHW(asDesc(desc), index, &hw);
  const size_t count = hw.hwCount < ACL_MAX_HW_NUM ? hw.hwCount : ACL_MAX_HW_NUM;
  PyObject *list = PyList_New(static_cast<Py_ssize_t>(count));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < count; ++i) {
    PyObject *item = Py_BuildValue("[KK]", static_cast<unsigned long long>(hw.hw[i][0]),
                                   static_cast<unsigned long long>(hw.hw[i][1]));
    if (item == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return pair(Py_BuildValue("{s:n,s:N}", "hwCount", static_cast<Py_ssize_t>(count), "hw", list),
              ret);
}

PyObject *mdl_create_dataset(PyObject *, PyObject *) { return fromPtr(aclmdlCreateDataset()); }

PyObject *mdl_destroy_dataset(PyObject *, PyObject *args) {
  void *dataset = nullptr;
  if (!PyArg_ParseTuple(args, "O&:destroy_dataset", convPtr, &dataset)) return nullptr;
  return fromRet(aclmdlDestroyDataset(asDataset(dataset)));
}

PyObject *mdl_add_dataset_buffer(PyObject *, PyObject *args) {
  void *dataset = nullptr;
  void *buffer = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&:add_dataset_buffer", convPtr, &dataset, convPtr, &buffer))
    return nullptr;
  const aclError ret =
      aclmdlAddDatasetBuffer(asDataset(dataset), static_cast<aclDataBuffer *>(buffer));
  return pair(fromPtr(dataset), ret);
}

PyObject *mdl_get_dataset_num_buffers(PyObject *, PyObject *args) {
  void *dataset = nullptr;
  if (!PyArg_ParseTuple(args, "O&:get_dataset_num_buffers", convPtr, &dataset)) return nullptr;
  return fromSize(aclmdlGetDatasetNumBuffers(asDataset(dataset)));
}

PyObject *mdl_get_dataset_buffer(PyObject *, PyObject *args) {
  void *dataset = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_dataset_buffer", convPtr, &dataset, convSize, &index))
    return nullptr;
  return fromPtr(aclmdlGetDatasetBuffer(asDataset(dataset), index));
}

PyObject *mdl_set_dataset_tensor_desc(PyObject *, PyObject *args) {
  void *dataset = nullptr;
  void *desc = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&O&:set_dataset_tensor_desc", convPtr, &dataset, convPtr, &desc,
                        convSize, &index))
    return nullptr;
  const aclError ret =
      aclmdlSetDatasetTensorDesc(asDataset(dataset), static_cast<aclTensorDesc *>(desc), index);
  return pair(fromPtr(dataset), ret);
}

PyObject *mdl_get_dataset_tensor_desc(PyObject *, PyObject *args) {
  void *dataset = nullptr;
  size_t index = 0;
  if (!PyArg_ParseTuple(args, "O&O&:get_dataset_tensor_desc", convPtr, &dataset, convSize, &index))
    return nullptr;
  return fromPtr(aclmdlGetDatasetTensorDesc(asDataset(dataset), index));
}

PyObject *mdl_execute(PyObject *, PyObject *args) {
  uint32_t modelId = 0;
  void *input = nullptr;
  void *output = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&O&:execute", convU32, &modelId, convPtr, &input, convPtr,
                        &output))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlExecute(modelId, asDataset(input), asDataset(output)));
  return fromRet(ret);
}

PyObject *mdl_execute_async(PyObject *, PyObject *args) {
  uint32_t modelId = 0;
  void *input = nullptr;
  void *output = nullptr;
  void *stream = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&O&O&:execute_async", convU32, &modelId, convPtr, &input, convPtr,
                        &output, convPtr, &stream))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlExecuteAsync(modelId, asDataset(input), asDataset(output), stream));
  return fromRet(ret);
}

PyObject *mdl_set_dynamic_batch_size(PyObject *, PyObject *args) {
  uint32_t modelId = 0;
  void *dataset = nullptr;
  size_t index = 0;
  uint64_t batch = 0;
  if (!PyArg_ParseTuple(args, "O&O&O&O&:set_dynamic_batch_size", convU32, &modelId, convPtr,
                        &dataset, convSize, &index, convU64, &batch))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlSetDynamicBatchSize(modelId, asDataset(dataset), index, batch));
  return fromRet(ret);
}

PyObject *mdl_set_dynamic_hw_size(PyObject *, PyObject *args) {
  uint32_t modelId = 0;
  void *dataset = nullptr;
  size_t index = 0;
  uint64_t height = 0;
  uint64_t width = 0;
  if (!PyArg_ParseTuple(args, "O&O&O&O&O&:set_dynamic_hw_size", convU32, &modelId, convPtr,
                        &dataset, convSize, &index, convU64, &height, convU64, &width))
    return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlSetDynamicHWSize(modelId, asDataset(dataset), index, height, width));
  return fromRet(ret);
}

PyObject *mdl_set_input_dynamic_dims(PyObject *, PyObject *args) {
  uint32_t modelId = 0;
  void *dataset = nullptr;
  size_t index = 0;
  PyObject *dimsObj = nullptr;
  if (!PyArg_ParseTuple(args, "O&O&O&O:set_input_dynamic_dims", convU32, &modelId, convPtr,
                        &dataset, convSize, &index, &dimsObj))
    return nullptr;
  aclmdlIODims dims;
  if (!toIODims(dimsObj, &dims)) return nullptr;
  aclError ret;
  ACL_NOGIL(ret = aclmdlSetInputDynamicDims(modelId, asDataset(dataset), index, &dims));
  return fromRet(ret);
}

PyMethodDef mdlMethods[] = {
    {"load_from_file", asMethod(mdl_load_from_file), METH_VARARGS,
     "load_from_file(path) -> (model_id, ret)"},
    {"load_from_mem", asMethod(mdl_load_from_mem), METH_VARARGS,
     "load_from_mem(ptr, size) -> (model_id, ret)"},
    {"unload", asMethod(mdl_unload), METH_VARARGS, "unload(model_id) -> ret"},
    {"create_desc", asMethod(mdl_create_desc), METH_NOARGS, "create_desc() -> desc (0 on failure)"},
    {"destroy_desc", asMethod(mdl_destroy_desc), METH_VARARGS, "destroy_desc(desc) -> ret"},
    {"get_desc", asMethod(mdl_get_desc), METH_VARARGS, "get_desc(desc, model_id) -> ret"},
    {"get_num_inputs", asMethod(mdl_get_num_inputs), METH_VARARGS, "get_num_inputs(desc) -> int"},
    {"get_num_outputs", asMethod(mdl_get_num_outputs), METH_VARARGS,
     "get_num_outputs(desc) -> int"},
    {"get_input_size_by_index", asMethod(mdl_get_input_size_by_index), METH_VARARGS,
     "get_input_size_by_index(desc, index) -> int"},
    {"get_output_size_by_index", asMethod(mdl_get_output_size_by_index), METH_VARARGS,
     "get_output_size_by_index(desc, index) -> int"},
    {"get_input_dims", asMethod(mdl_get_input_dims), METH_VARARGS,
     "get_input_dims(desc, index) -> ({'name': str, 'dimCount': int, 'dims': [int]}, ret)"},
    {"get_output_dims", asMethod(mdl_get_output_dims), METH_VARARGS,
     "get_output_dims(desc, index) -> ({'name': str, 'dimCount': int, 'dims': [int]}, ret)"},
    {"get_cur_output_dims", asMethod(mdl_get_cur_output_dims), METH_VARARGS,
     "get_cur_output_dims(desc, index) -> ({'name': str, 'dimCount': int, 'dims': [int]}, ret)"},
    {"get_input_name_by_index", asMethod(mdl_get_input_name_by_index), METH_VARARGS,
     "get_input_name_by_index(desc, index) -> str"},
    {"get_output_name_by_index", asMethod(mdl_get_output_name_by_index), METH_VARARGS,
     "get_output_name_by_index(desc, index) -> str"},
    {"get_input_data_type", asMethod(mdl_get_input_data_type), METH_VARARGS,
     "get_input_data_type(desc, index) -> int"},
    {"get_output_data_type", asMethod(mdl_get_output_data_type), METH_VARARGS,
     "get_output_data_type(desc, index) -> int"},
    {"get_input_format", asMethod(mdl_get_input_format), METH_VARARGS,
     "get_input_format(desc, index) -> int"},
    {"get_output_format", asMethod(mdl_get_output_format), METH_VARARGS,
     "get_output_format(desc, index) -> int"},
    {"get_input_index_by_name", asMethod(mdl_get_input_index_by_name), METH_VARARGS,
     "get_input_index_by_name(desc, name) -> (index, ret)"},
    {"get_dynamic_batch", asMethod(mdl_get_dynamic_batch), METH_VARARGS,
     "get_dynamic_batch(desc) -> ({'batchCount': int, 'batch': [int]}, ret)"},
    {"get_dynamic_hw", asMethod(mdl_get_dynamic_hw), METH_VARARGS,
     "get_dynamic_hw(desc, index) -> ({'hwCount': int, 'hw': [[h, w]]}, ret)"},
    {"create_dataset", asMethod(mdl_create_dataset), METH_NOARGS,
     "create_dataset() -> dataset (0 on failure)"},
    {"destroy_dataset", asMethod(mdl_destroy_dataset), METH_VARARGS,
     "destroy_dataset(dataset) -> ret"},
    {"add_dataset_buffer", asMethod(mdl_add_dataset_buffer), METH_VARARGS,
     "add_dataset_buffer(dataset, buffer) -> (dataset, ret)"},
    {"get_dataset_num_buffers", asMethod(mdl_get_dataset_num_buffers), METH_VARARGS,
     "get_dataset_num_buffers(dataset) -> int"},
    {"get_dataset_buffer", asMethod(mdl_get_dataset_buffer), METH_VARARGS,
     "get_dataset_buffer(dataset, index) -> buffer (0 if none)"},
    {"set_dataset_tensor_desc", asMethod(mdl_set_dataset_tensor_desc), METH_VARARGS,
     "set_dataset_tensor_desc(dataset, tensor_desc, index) -> (dataset, ret)"},
    {"get_dataset_tensor_desc", asMethod(mdl_get_dataset_tensor_desc), METH_VARARGS,
     "get_dataset_tensor_desc(dataset, index) -> tensor_desc (0 if none)"},
    {"execute", asMethod(mdl_execute), METH_VARARGS, "execute(model_id, input, output) -> ret"},
    {"execute_async", asMethod(mdl_execute_async), METH_VARARGS,
     "execute_async(model_id, input, output, stream) -> ret"},
    {"set_dynamic_batch_size", asMethod(mdl_set_dynamic_batch_size), METH_VARARGS,
     "set_dynamic_batch_size(model_id, dataset, index, batch_size) -> ret"},
    {"set_dynamic_hw_size", asMethod(mdl_set_dynamic_hw_size), METH_VARARGS,
     "set_dynamic_hw_size(model_id, dataset, index, height, width) -> ret"},
    {"set_input_dynamic_dims", asMethod(mdl_set_input_dynamic_dims), METH_VARARGS,
     "set_input_dynamic_dims(model_id, dataset, index, {'name': str, 'dimCount': int, 'dims': "
     "[int]}) -> ret"},
    {nullptr, nullptr, 0, nullptr}};

// =============================================================================================
// acl.util

PyObject *util_numpy_to_ptr(PyObject *, PyObject *arg) {
  Py_buffer view;
  if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) != 0) {
    PyErr_Clear();
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) != 0) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError,
                   "numpy_to_ptr: expected a C-contiguous array or buffer, not %.200s "
                   "(use numpy.ascontiguousarray)",
                   Py_TYPE(arg)->tp_name);
      return nullptr;
    }
  }
  // The pointer stays valid while the array lives (and is not resized); no copy is made.
  void *ptr = view.buf;
  PyBuffer_Release(&view);
  return fromPtr(ptr);
}

PyObject *util_bytes_to_ptr(PyObject *, PyObject *arg) {
  if (!PyBytes_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "bytes_to_ptr: expected bytes, not %.200s",
                 Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  // The bytes object's own storage: valid while it lives, and not to be written through.
  return fromPtr(PyBytes_AS_STRING(arg));
}

struct NpyType {
  int number;   // numpy's NPY_TYPES value
  char code;    // numpy's type character for it
  size_t size;  // bytes per element
};

const NpyType kNpyTypes[] = {
    {0, '?', 1},                            // NPY_BOOL
    {1, 'b', 1},                            // NPY_BYTE
    {2, 'B', 1},                            // NPY_UBYTE
    {3, 'h', sizeof(short)},                // NPY_SHORT
    {4, 'H', sizeof(unsigned short)},       // NPY_USHORT
    {5, 'i', sizeof(int)},                  // NPY_INT
    {6, 'I', sizeof(unsigned int)},         // NPY_UINT
    {7, 'l', sizeof(long)},                 // NPY_LONG
    {8, 'L', sizeof(unsigned long)},        // NPY_ULONG
    {9, 'q', sizeof(long long)},            // NPY_LONGLONG
    {10, 'Q', sizeof(unsigned long long)},  // NPY_ULONGLONG
    {11, 'f', sizeof(float)},               // NPY_FLOAT
    {12, 'd', sizeof(double)},              // NPY_DOUBLE
    {23, 'e', 2},                           // NPY_HALF
};

PyObject *util_ptr_to_numpy(PyObject *, PyObject *args) {
  void *ptr = nullptr;
  PyObject *shapeObj = nullptr;
  int npyType = 0;
  if (!PyArg_ParseTuple(args, "O&Oi:ptr_to_numpy", convPtr, &ptr, &shapeObj, &npyType))
    return nullptr;
  const NpyType *type = nullptr;
  for (const NpyType &candidate : kNpyTypes)
    if (candidate.number == npyType) type = &candidate;
  if (type == nullptr) {
    PyErr_Format(PyExc_ValueError,
                 "ptr_to_numpy: unsupported numpy type number %d (supported: 0-12 and 23)",
                 npyType);
    return nullptr;
  }
  if (!PyTuple_Check(shapeObj) && !PyList_Check(shapeObj)) {
    PyErr_Format(PyExc_TypeError, "ptr_to_numpy: shape must be a tuple or list of ints, not %.200s",
                 Py_TYPE(shapeObj)->tp_name);
    return nullptr;
  }
  // The shape as a tuple of ints, and the byte size it spans.
  const Py_ssize_t nd = PySequence_Size(shapeObj);
  if (nd < 0) return nullptr;
  PyObject *shape = PyTuple_New(nd);
  if (shape == nullptr) return nullptr;
  size_t nbytes = type->size;
  bool tooBig = false;
  for (Py_ssize_t i = 0; i < nd; ++i) {
    PyObject *item = PySequence_GetItem(shapeObj, i);
    if (item == nullptr) {
      Py_DECREF(shape);
      return nullptr;
    }
    size_t extent = 0;
    const int ok = convSize(item, &extent);
    Py_DECREF(item);
    if (!ok) {
      Py_DECREF(shape);
      return nullptr;
    }
    PyObject *extentObj = fromSize(extent);
    if (extentObj == nullptr) {
      Py_DECREF(shape);
      return nullptr;
    }
    PyTuple_SET_ITEM(shape, i, extentObj);
    if (extent == 0) {
      nbytes = 0;
    } else if (nbytes != 0) {
      if (nbytes > static_cast<size_t>(PY_SSIZE_T_MAX) / extent)
        tooBig = true;
      else
        nbytes *= extent;
    }
  }
  if (tooBig && nbytes != 0) {
    Py_DECREF(shape);
    PyErr_SetString(PyExc_ValueError, "ptr_to_numpy: the shape spans more bytes than memory has");
    return nullptr;
  }
  if (ptr == nullptr && nbytes != 0) {
    Py_DECREF(shape);
    PyErr_SetString(PyExc_ValueError, "ptr_to_numpy: null pointer");
    return nullptr;
  }
  static char emptyStorage[1];
  PyObject *memory =
      PyMemoryView_FromMemory(ptr != nullptr ? static_cast<char *>(ptr) : emptyStorage,
                              static_cast<Py_ssize_t>(nbytes), PyBUF_WRITE);
  if (memory == nullptr) {
    Py_DECREF(shape);
    return nullptr;
  }
  PyObject *numpy = PyImport_ImportModule("numpy");
  if (numpy == nullptr) {
    Py_DECREF(memory);
    Py_DECREF(shape);
    return nullptr;
  }
  const char code[2] = {type->code, '\0'};
  PyObject *flat = PyObject_CallMethod(numpy, "frombuffer", "Os", memory, code);
  Py_DECREF(numpy);
  Py_DECREF(memory);
  if (flat == nullptr) {
    Py_DECREF(shape);
    return nullptr;
  }
  // "(O)", not "O": a lone tuple would be taken as the whole argument list (reshape(*shape)).
  PyObject *result = PyObject_CallMethod(flat, "reshape", "(O)", shape);
  Py_DECREF(flat);
  Py_DECREF(shape);
  return result;
}

PyObject *util_ptr_to_bytes(PyObject *, PyObject *args) {
  void *ptr = nullptr;
  size_t size = 0;
  if (!PyArg_ParseTuple(args, "O&O&:ptr_to_bytes", convPtr, &ptr, convSize, &size)) return nullptr;
  if (size > static_cast<size_t>(PY_SSIZE_T_MAX)) {
    PyErr_SetString(PyExc_OverflowError, "ptr_to_bytes: size too large");
    return nullptr;
  }
  if (size == 0) return PyBytes_FromStringAndSize(nullptr, 0);
  if (ptr == nullptr) {
    PyErr_SetString(PyExc_ValueError, "ptr_to_bytes: null pointer");
    return nullptr;
  }
  return PyBytes_FromStringAndSize(static_cast<const char *>(ptr), static_cast<Py_ssize_t>(size));
}

PyMethodDef utilMethods[] = {{"numpy_to_ptr", asMethod(util_numpy_to_ptr), METH_O,
                              "numpy_to_ptr(array) -> ptr\nThe address of a C-contiguous array's "
                              "data (no copy); valid while the "
                              "array lives."},
                             {"bytes_to_ptr", asMethod(util_bytes_to_ptr), METH_O,
                              "bytes_to_ptr(data) -> ptr\nThe address of a bytes object's contents "
                              "(no copy); valid while it lives, "
                              "read only."},
                             {"ptr_to_numpy", asMethod(util_ptr_to_numpy), METH_VARARGS,
                              "ptr_to_numpy(ptr, shape, npy_type) -> numpy.ndarray\nA writable "
                              "array viewing the memory at ptr (no "
                              "copy); npy_type is numpy's NPY_TYPES number (0 bool ... 11 float32, "
                              "12 float64, 23 float16)."},
                             {"ptr_to_bytes", asMethod(util_ptr_to_bytes), METH_VARARGS,
                              "ptr_to_bytes(ptr, size) -> bytes\nA copy of size bytes at ptr."},
                             {nullptr, nullptr, 0, nullptr}};

// =============================================================================================
// Module set-up.

PyModuleDef aclModule = {PyModuleDef_HEAD_INIT,
                         "acl",
                         "AscendCL for Python (pyACL-compatible), over asc-tools' CPU runtime.",
                         -1,
                         aclMethods,
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr};
PyModuleDef rtModule = {PyModuleDef_HEAD_INIT,
                        "acl.rt",
                        "AscendCL runtime: devices, contexts, streams, events, memory.",
                        -1,
                        rtMethods,
                        nullptr,
                        nullptr,
                        nullptr,
                        nullptr};
PyModuleDef mdlModule = {PyModuleDef_HEAD_INIT,
                         "acl.mdl",
                         "AscendCL offline models: load, describe, execute.",
                         -1,
                         mdlMethods,
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr};
PyModuleDef utilModule = {PyModuleDef_HEAD_INIT,
                          "acl.util",
                          "Conversions between Python objects and pointers.",
                          -1,
                          utilMethods,
                          nullptr,
                          nullptr,
                          nullptr,
                          nullptr};

// Creates the submodule, makes it acl.<attr> and sys.modules["acl.<attr>"].
bool addSubmodule(PyObject *parent, PyModuleDef *def, const char *attr) {
  PyObject *sub = PyModule_Create(def);
  if (sub == nullptr) return false;
  PyObject *sysModules = PyImport_GetModuleDict();  // borrowed
  if (PyDict_SetItemString(sysModules, def->m_name, sub) != 0) {
    Py_DECREF(sub);
    return false;
  }
  if (PyModule_AddObject(parent, attr, sub) != 0) {  // steals sub on success
    Py_DECREF(sub);
    return false;
  }
  return true;
}

}  // namespace

PyMODINIT_FUNC PyInit_acl(void) {
  PyObject *module = PyModule_Create(&aclModule);
  if (module == nullptr) return nullptr;
  if (!addSubmodule(module, &rtModule, "rt") || !addSubmodule(module, &mdlModule, "mdl") ||
      !addSubmodule(module, &utilModule, "util")) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
