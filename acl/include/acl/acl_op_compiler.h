/* acl_op_compiler.h: AscendCL's single-operator compiler (aclopCompile, aclopCompileAndExecute,
 * aclSetCompileopt, ...). asc-tools has no operator compiler: single operators run through the
 * aclnn API (aclnn/acl_meta.h) or in offline models, so this header declares none of them and a
 * program that calls one fails to compile, naming it. aclnn applications include the header
 * (as CANN's samples do) without calling anything from it. */
#ifndef INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_
#define INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_

#include "acl_base.h"
#include "acl_op.h"

#endif /* INC_EXTERNAL_ACL_ACL_OP_COMPILER_H_ */
