// util.cpp: the acl.util functions of the pyACL module (pointers to and from Python objects).
#include "pyacl.h"

namespace pyacl {
namespace {

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

}  // namespace

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

}  // namespace pyacl
