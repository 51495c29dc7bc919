/* acl_op_compiler.h: AscendCL's single-operator compiler (docs/acl.md, "Single operators").
 * aclopCompile compiles an operator described by its tensors and attributes on the CPU runtime
 * (a built-in operator, or a custom one from an installed package); aclopCompileAndExecute(V2)
 * compiles it the first time a description is seen, then runs it. Compile options
 * (aclSetCompileopt) are not declared: asc-tools compiles every operator in the dtypes given. */
#ifndef INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_
#define INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_

#include "acl_base.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclCompileType { ACL_COMPILE_SYS, ACL_COMPILE_UNREGISTERED } aclopCompileType;

ACL_FUNC_VISIBILITY aclError aclopCompile(const char *opType, int numInputs,
                                          const aclTensorDesc *const inputDesc[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[],
                                          const aclopAttr *attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char *opPath);

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
    const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
    aclDataBuffer *const outputs[], const aclopAttr *attr, aclopEngineType engineType,
    aclopCompileType compileFlag, const char *opPath, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError
aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                         aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                         aclDataBuffer *outputs[], aclopAttr *attr, aclopEngineType engineType,
                         aclopCompileType compileFlag, const char *opPath, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_ */
