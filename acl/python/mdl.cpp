// mdl.cpp: the acl.mdl functions of the pyACL module (load, describe, datasets, execute, profiles).
#include "pyacl.h"

namespace pyacl {
namespace {

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

}  // namespace

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

}  // namespace pyacl
