/* acl_mdl.h: AscendCL's offline-model calls over asc-tools' CPU runtime (docs/acl.md): load an .om
 * that asc-tools' atc wrote, describe it, execute it on datasets of device buffers. */
#ifndef INC_EXTERNAL_ACL_ACL_MODEL_H_
#define INC_EXTERNAL_ACL_ACL_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DIM_ENDPOINTS 2
#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_MAX_SHAPE_COUNT 128
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

/* The extra input of a model with profiles (dynamic batch, image size or dims): the profile to
 * run is written into its buffer by aclmdlSetDynamicBatchSize/HWSize/InputDynamicDims. */
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;

typedef enum {
  ACL_YUV420SP_U8 = 1,
  ACL_XRGB8888_U8 = 2,
  ACL_RGB888_U8 = 3,
  ACL_YUV400_U8 = 4,
  ACL_NC1HWC0DI_FP16 = 5,
  ACL_NC1HWC0DI_S8 = 6,
  ACL_ARGB8888_U8 = 7,
  ACL_YUYV_U8 = 8,
  ACL_YUV422SP_U8 = 9,
  ACL_AYUV444_U8 = 10,
  ACL_RAW10 = 11,
  ACL_RAW12 = 12,
  ACL_RAW16 = 13,
  ACL_RAW24 = 14,
  ACL_AIPP_RESERVED = 0xFFFF
} aclAippInputFormat;

typedef enum {
  ACL_DATA_WITHOUT_AIPP = 0,
  ACL_DATA_WITH_STATIC_AIPP,
  ACL_DATA_WITH_DYNAMIC_AIPP,
  ACL_DYNAMIC_AIPP_NODE
} aclmdlInputAippType;

typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

typedef struct aclmdlIODimsRange {
  size_t rangeCount;
  int64_t range[ACL_MAX_DIM_CNT][ACL_DIM_ENDPOINTS];
} aclmdlIODimsRange;

typedef struct aclAippDims {
  aclmdlIODims srcDims;
  size_t srcSize;
  aclmdlIODims aippOutdims;
  size_t aippOutSize;
} aclAippDims;

typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

typedef struct aclmdlHW {
  size_t hwCount;
  uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

typedef struct aclAippInfo {
  aclAippInputFormat inputFormat;
  int32_t srcImageSizeW;
  int32_t srcImageSizeH;
  int8_t cropSwitch;
  int32_t loadStartPosW;
  int32_t loadStartPosH;
  int32_t cropSizeW;
  int32_t cropSizeH;
  int8_t resizeSwitch;
  int32_t resizeOutputW;
  int32_t resizeOutputH;
  int8_t paddingSwitch;
  int32_t leftPaddingSize;
  int32_t rightPaddingSize;
  int32_t topPaddingSize;
  int32_t bottomPaddingSize;
  int8_t cscSwitch;
  int8_t rbuvSwapSwitch;
  int8_t axSwapSwitch;
  int8_t singleLineMode;
  int32_t matrixR0C0;
  int32_t matrixR0C1;
  int32_t matrixR0C2;
  int32_t matrixR1C0;
  int32_t matrixR1C1;
  int32_t matrixR1C2;
  int32_t matrixR2C0;
  int32_t matrixR2C1;
  int32_t matrixR2C2;
  int32_t outputBias0;
  int32_t outputBias1;
  int32_t outputBias2;
  int32_t inputBias0;
  int32_t inputBias1;
  int32_t inputBias2;
  int32_t meanChn0;
  int32_t meanChn1;
  int32_t meanChn2;
  int32_t meanChn3;
  float minChn0;
  float minChn1;
  float minChn2;
  float minChn3;
  float varReciChn0;
  float varReciChn1;
  float varReciChn2;
  float varReciChn3;
  aclFormat srcFormat;
  aclDataType srcDatatype;
  size_t srcDimNum;
  size_t shapeCount;
  aclAippDims outDims[ACL_MAX_SHAPE_COUNT];
} aclAippInfo;

/* Model descriptions. */
ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index,
                                                aclmdlIODims *dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index,
                                                  aclmdlIODims *dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index,
                                                     aclmdlIODimsRange *dimsRange);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index,
                                                 aclmdlIODims *dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index,
                                                    aclmdlIODims *dims);
ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc,
                                                          size_t index);
ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc,
                                                           size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc,
                                                       const char *name, size_t *index);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc,
                                                        const char *name, size_t *index);
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index,
                                                aclmdlHW *hw);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc,
                                                            size_t index, size_t *gearCount);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index,
                                                       aclmdlIODims *dims, size_t gearCount);

/* Datasets: the buffers of a model's inputs or outputs, in order. */
ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                                    aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset,
                                                          size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset,
                                                        aclTensorDesc *tensorDesc, size_t index);
ACL_FUNC_VISIBILITY aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset,
                                                              size_t index);

/* Loading. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize,
                                               uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId,
                                                       void *workPtr, size_t workSize,
                                                       void *weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize,
                                                      uint32_t *modelId, void *workPtr,
                                                      size_t workSize, void *weightPtr,
                                                      size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize,
                                             size_t *weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

/* Execution. */
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input,
                                           aclmdlDataset *output);
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input,
                                                aclmdlDataset *output, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset,
                                                       size_t index, uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset,
                                                    size_t index, uint64_t height, uint64_t width);
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset,
                                                       size_t index, const aclmdlIODims *dims);

/* AIPP (static AIPP, as atc's --insert_op_conf compiled it into the model). */
ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index,
                                               aclmdlInputAippType *type,
                                               size_t *dynamicAttachedDataIndex);
ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index,
                                                    aclAippInfo *aippInfo);

#ifdef __cplusplus
}
#endif
#endif /* INC_EXTERNAL_ACL_ACL_MODEL_H_ */
