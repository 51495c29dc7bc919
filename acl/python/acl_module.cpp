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

#include "pyacl.h"

namespace pyacl {
namespace {

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

}  // namespace

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

namespace {

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
}  // namespace pyacl

PyMODINIT_FUNC PyInit_acl(void) {
  using namespace pyacl;
  PyObject *module = PyModule_Create(&aclModule);
  if (module == nullptr) return nullptr;
  if (!addSubmodule(module, &rtModule, "rt") || !addSubmodule(module, &mdlModule, "mdl") ||
      !addSubmodule(module, &utilModule, "util")) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
