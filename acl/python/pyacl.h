// pyacl.h: what the files of the pyACL module share: argument converters ("O&" converters
// return 1 on success, 0 with a Python exception set), result builders, and the method tables
// of acl, acl.rt, acl.mdl and acl.util (acl_module.cpp, rt.cpp, mdl.cpp, util.cpp).
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"

namespace pyacl {

// ---------------------------------------------------------------------------------------------
// Argument conversion ("O&" converters: return 1 on success, 0 with an exception set).

// Any int-like object (int, bool, numpy integer) as an unsigned 64-bit value.
inline bool toU64(PyObject *obj, const char *what, unsigned long long *out) {
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
inline int convPtr(PyObject *obj, void *out) {
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
inline int convSize(PyObject *obj, void *out) {
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
inline int convU32(PyObject *obj, void *out) {
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
inline int convU64(PyObject *obj, void *out) {
  unsigned long long value = 0;
  if (!toU64(obj, "a batch size, height or width", &value)) return 0;
  *static_cast<uint64_t *>(out) = static_cast<uint64_t>(value);
  return 1;
}

// An int64_t (tensor dims; -1 is allowed).
inline bool toI64(PyObject *obj, const char *what, int64_t *out) {
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

inline PyObject *fromPtr(const void *ptr) { return PyLong_FromVoidPtr(const_cast<void *>(ptr)); }

inline PyObject *fromRet(aclError ret) { return PyLong_FromLong(static_cast<long>(ret)); }

inline PyObject *fromSize(size_t value) { return PyLong_FromSize_t(value); }

// (value, ret); takes over the reference to value.
inline PyObject *pair(PyObject *value, aclError ret) {
  if (value == nullptr) return nullptr;
  return Py_BuildValue("(Ni)", value, static_cast<int>(ret));
}

// A C string the library returned (NULL becomes ""); undecodable bytes are replaced.
inline PyObject *fromCString(const char *text) {
  if (text == nullptr) return PyUnicode_FromString("");
  return PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(std::strlen(text)), "replace");
}

// {"name": str, "dimCount": int, "dims": [ints]}
inline PyObject *fromIODims(const aclmdlIODims &dims) {
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
inline bool toIODims(PyObject *obj, aclmdlIODims *out) {
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
inline int convOptionalPath(PyObject *obj, void *out) {
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

extern PyMethodDef aclMethods[];
extern PyMethodDef rtMethods[];
extern PyMethodDef mdlMethods[];
extern PyMethodDef utilMethods[];

}  // namespace pyacl
