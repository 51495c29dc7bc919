/* acl.h: AscendCL as asc-tools provides it over its CPU runtime (docs/acl.md). */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_mdl.h"
#include "acl_op.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 11
#define ACL_PATCH_VERSION 0

/* configPath: an acl.json (dump and profiling settings) or NULL. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion,
                                             int32_t *patchVersion);
/* What the latest failed call on this thread was about, with what to do (and the asc-tools
 * error code, E..., where one applies); "" before any call failed. A call that succeeds leaves
 * the message of the failure before it, as CANN's does. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif
#endif /* INC_EXTERNAL_ACL_ACL_H_ */
