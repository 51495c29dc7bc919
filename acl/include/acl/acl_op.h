/* acl_op.h: single-operator execution (docs/acl.md, "Single operators"). Operators compiled
 * by `atc --singleop` into a folder are loaded with aclopSetModelDir (or one at a time with
 * aclopLoad) and run with aclopExecuteV2, which finds the model whose operator matches the
 * call: type, each tensor's dtype, format and shape (a -1 dim of the model takes any size in its
 * range), and the attributes. Names, values and signatures are CANN's. */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

typedef enum aclEngineType {
  ACL_ENGINE_SYS,
  ACL_ENGINE_AICORE,
  ACL_ENGINE_VECTOR,
} aclopEngineType;

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr();
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName,
                                              uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName,
                                             int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName,
                                               float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName,
                                                const char *attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName,
                                                  aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName,
                                                  int numValues, const uint8_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName,
                                                 int numValues, const int64_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName,
                                                   int numValues, const float *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName,
                                                    int numValues, const char **values);

/* Loads every single-operator model (*.om written by atc --singleop) in the folder. */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir);
/* Loads one single-operator model from memory (the bytes of such an .om). */
ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize);

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs,
                                            aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                                            int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr,
                                            aclrtStream stream);
ACL_DEPRECATED_MESSAGE("aclopExecute is deprecated, use aclopExecuteV2 instead")
ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs,
                                          const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[],
                                          aclDataBuffer *const outputs[], const aclopAttr *attr,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_OP_H_ */
