/* asc_opapi.h: what the aclnn sources op_build generates for a custom operator project call
 * (asc-tools' own interface; applications use the generated aclnn_<op>.h instead). A project's
 * libcust_opapi.so lies in <vendor>/op_api/lib; its first call loads the operator library of
 * <vendor> (lib<vendor>_ops.so), whose kernels run on the CPU twin (docs/ascendc.md). */
#ifndef ASC_ACLNN_ASC_OPAPI_H_
#define ASC_ACLNN_ASC_OPAPI_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One attribute: the member of the prototype's attribute type is read. */
typedef struct AscOpapiAttr {
  int64_t i;
  double f;
  bool b;
  const char *s;
  const aclIntArray *ints;
  const aclFloatArray *floats;
} AscOpapiAttr;

/* aclnn<Op>GetWorkspaceSize: `anchor` is an address inside the calling libcust_opapi.so (which
 * locates the vendor folder), `soc` the chip the project was built for, `api` the function's
 * name for messages. A null input is an optional input left out. */
ACL_FUNC_VISIBILITY aclnnStatus ascOpapiPrepare(const void *anchor, const char *soc,
                                                const char *opType, const char *api,
                                                const aclTensor *const *inputs, uint64_t numInputs,
                                                const aclTensor *const *outputs,
                                                uint64_t numOutputs, const AscOpapiAttr *attrs,
                                                uint64_t numAttrs, uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
/* One input of an operator with a DYNAMIC input: a tensor, or (list non-null) a tensor list. */
typedef struct AscOpapiInput {
  const aclTensor *tensor;
  const aclTensorList *list;
} AscOpapiInput;
/* ascOpapiPrepare for an operator with a DYNAMIC input (aclTensorList). */
ACL_FUNC_VISIBILITY aclnnStatus ascOpapiPrepareLists(
    const void *anchor, const char *soc, const char *opType, const char *api,
    const AscOpapiInput *inputs, uint64_t numInputs, const aclTensor *const *outputs,
    uint64_t numOutputs, const AscOpapiAttr *attrs, uint64_t numAttrs, uint64_t *workspaceSize,
    aclOpExecutor **executor);
/* aclnn<Op>: puts the executor's launch on `stream` (null: the default stream) and frees it. */
ACL_FUNC_VISIBILITY aclnnStatus ascOpapiRun(const char *api, void *workspace,
                                            uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASC_ACLNN_ASC_OPAPI_H_ */
