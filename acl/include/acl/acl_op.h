/* acl_op.h: single-operator execution (aclop*). asc-tools runs whole offline models only; this
 * header is here because acl.h includes it, and declares nothing yet (docs/acl.md). */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

#include "acl_base.h"
#include "acl_rt.h"

#endif /* INC_EXTERNAL_ACL_ACL_OP_H_ */
