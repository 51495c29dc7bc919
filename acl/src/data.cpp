// data.cpp: data buffers, tensor descriptions, datasets and fp16 conversion of asc-tools'
// AscendCL (docs/acl.md). These describe memory the application owns; none of them allocates
// tensor data.
#include <limits>

#include "acl_internal.h"
#include "asc/support/fp16.h"

namespace asc::acl {

aclDataType toAclType(ir::DType t) {
  switch (t) {
    case ir::DType::F32:
      return ACL_FLOAT;
    case ir::DType::F16:
      return ACL_FLOAT16;
    case ir::DType::BF16:
      return ACL_BF16;
    case ir::DType::F64:
      return ACL_DOUBLE;
    case ir::DType::I8:
      return ACL_INT8;
    case ir::DType::U8:
      return ACL_UINT8;
    case ir::DType::I16:
      return ACL_INT16;
    case ir::DType::U16:
      return ACL_UINT16;
    case ir::DType::I32:
      return ACL_INT32;
    case ir::DType::U32:
      return ACL_UINT32;
    case ir::DType::I64:
      return ACL_INT64;
    case ir::DType::U64:
      return ACL_UINT64;
    case ir::DType::Bool:
      return ACL_BOOL;
    case ir::DType::C64:
      return ACL_COMPLEX64;
    case ir::DType::C128:
      return ACL_COMPLEX128;
    default:
      return ACL_DT_UNDEFINED;
  }
}

ir::DType fromAclType(aclDataType t) {
  for (auto d : {ir::DType::F32, ir::DType::F16, ir::DType::BF16, ir::DType::F64, ir::DType::I8,
                 ir::DType::U8, ir::DType::I16, ir::DType::U16, ir::DType::I32, ir::DType::U32,
                 ir::DType::I64, ir::DType::U64, ir::DType::Bool, ir::DType::C64, ir::DType::C128})
    if (toAclType(d) == t) return d;
  return ir::DType::Undefined;
}

aclFormat toAclFormat(const std::string& f) {
  if (f == "NCHW") return ACL_FORMAT_NCHW;
  if (f == "NHWC") return ACL_FORMAT_NHWC;
  if (f == "ND") return ACL_FORMAT_ND;
  if (f == "NC1HWC0") return ACL_FORMAT_NC1HWC0;
  if (f == "FRACTAL_Z") return ACL_FORMAT_FRACTAL_Z;
  if (f == "HWCN") return ACL_FORMAT_HWCN;
  if (f == "NDHWC") return ACL_FORMAT_NDHWC;
  if (f == "NCDHW") return ACL_FORMAT_NCDHW;
  if (f == "FRACTAL_NZ") return ACL_FORMAT_FRACTAL_NZ;
  return ACL_FORMAT_ND;
}

}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return asc::halfToFloat(value); }
aclFloat16 aclFloatToFloat16(float value) { return asc::floatToHalf(value); }

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  // CANN allows a buffer with no data (an output whose memory the runtime provides): data may
  // be null only with size 0.
  if (!data && size != 0) {
    fail(ACL_ERROR_INVALID_PARAM, "aclCreateDataBuffer: data is null but size is {}", size);
    return nullptr;
  }
  auto* b = new aclDataBuffer();
  b->data = data;
  b->size = size;
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  if (!dataBuffer)
    return fail(ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: dataBuffer is a null pointer");
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  if (!dataBuffer)
    return fail(ACL_ERROR_INVALID_PARAM, "aclUpdateDataBuffer: dataBuffer is a null pointer");
  if (!data && size != 0)
    return fail(ACL_ERROR_INVALID_PARAM, "aclUpdateDataBuffer: data is null but size is {}", size);
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  if (!dataBuffer) {
    fail(ACL_ERROR_INVALID_PARAM, "aclGetDataBufferAddr: dataBuffer is a null pointer");
    return nullptr;
  }
  return dataBuffer->data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  if (!dataBuffer) return 0;
  return dataBuffer->size > std::numeric_limits<uint32_t>::max()
             ? std::numeric_limits<uint32_t>::max()
             : static_cast<uint32_t>(dataBuffer->size);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  if (!dataBuffer) {
    fail(ACL_ERROR_INVALID_PARAM, "aclGetDataBufferSizeV2: dataBuffer is a null pointer");
    return 0;
  }
  return dataBuffer->size;
}

size_t aclDataTypeSize(aclDataType dataType) {
  if (dataType == ACL_STRING) return 0;
  if (dataType == ACL_COMPLEX64) return 8;
  if (dataType == ACL_COMPLEX128) return 16;
  return asc::ir::dtypeSize(fromAclType(dataType));
}

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                   aclFormat format) {
  if (numDims < 0 || numDims > ACL_MAX_DIM_CNT || (numDims > 0 && !dims)) {
    fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc: {} dims{}", numDims,
         numDims > 0 && !dims ? " but dims is a null pointer" : " is outside 0..128");
    return nullptr;
  }
  auto* d = new aclTensorDesc();
  d->dtype = dataType;
  d->dims.assign(dims, dims + numDims);
  d->format = format;
  return d;
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) { delete desc; }

aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
  return desc ? desc->dtype : ACL_DT_UNDEFINED;
}
aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
  return desc ? desc->format : ACL_FORMAT_UNDEFINED;
}

size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
  if (!desc) return 0;
  size_t n = 1;
  for (int64_t d : desc->dims) {
    if (d < 0) return 0;
    n *= static_cast<size_t>(d);
  }
  return n;
}

size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
  return desc ? aclGetTensorDescElementCount(desc) * aclDataTypeSize(desc->dtype) : 0;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) { return desc ? desc->dims.size() : 0; }

int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index) {
  if (!desc || index >= desc->dims.size()) return -1;
  return desc->dims[index];
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  if (!desc || !dimSize)
    return fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2: a null pointer");
  if (index >= desc->dims.size())
    return fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2: index {} is past the {} dims",
                index, desc->dims.size());
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
  if (desc) desc->name = name ? name : "";
}
const char* aclGetTensorDescName(aclTensorDesc* desc) { return desc ? desc->name.c_str() : ""; }

aclmdlDataset* aclmdlCreateDataset(void) { return new aclmdlDataset(); }

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  if (!dataset)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlDestroyDataset: dataset is a null pointer");
  delete dataset;  // the buffers are the application's (aclDestroyDataBuffer)
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  if (!dataset || !dataBuffer)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlAddDatasetBuffer: {} is a null pointer",
                dataset ? "dataBuffer" : "dataset");
  dataset->buffers.push_back(dataBuffer);
  dataset->descs.emplace_back();
  return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  return dataset ? dataset->buffers.size() : 0;
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  if (!dataset || index >= dataset->buffers.size()) {
    fail(ACL_ERROR_INVALID_PARAM,
         "aclmdlGetDatasetBuffer: index {} is past the dataset's {} buffers", index,
         dataset ? dataset->buffers.size() : 0);
    return nullptr;
  }
  return dataset->buffers[index];
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc,
                                    size_t index) {
  if (!dataset || !tensorDesc)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetDatasetTensorDesc: a null pointer");
  if (index >= dataset->buffers.size())
    return fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlSetDatasetTensorDesc: index {} is past the dataset's {} buffers (add the "
                "buffer first)",
                index, dataset->buffers.size());
  dataset->descs[index] = std::make_unique<aclTensorDesc>(*tensorDesc);  // CANN copies it too
  return ACL_SUCCESS;
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
  if (!dataset || index >= dataset->descs.size()) return nullptr;
  return dataset->descs[index].get();
}

}  // extern "C"
