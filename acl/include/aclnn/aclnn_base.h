/* aclnn_base.h: what aclnn operator headers include besides the tensors (acl_meta.h). */
#ifndef OP_API_INC_ACLNN_BASE_H_
#define OP_API_INC_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#endif /* OP_API_INC_ACLNN_BASE_H_ */
