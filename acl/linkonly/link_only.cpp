// link_only.cpp: the one source of the libraries that applications and Ascend C host programs
// name on their link line next to -lascendcl because CANN splits its API over them:
// - nnopbase: the aclnn tensor API (aclCreateTensor, ...), here in libascendcl.so;
// - tiling_api, register, platform: the host tiling API (matmul_tiling, TilingContext,
//   platform_ascendc), here in headers and libasccore (which ascendcl loads);
// - c_sec: the bounds-checked copies (memcpy_s, ...: securec.h), here in libasccore;
// - ascendalog, unified_dlog, graph_base: logging and graph basics the samples link but do not
//   call;
// - acl_op_compiler: the single-operator compiler (aclopCompile, aclopCompileAndExecute(V2)),
//   here in libascendcl.so.
// Each depends on libascendcl.so, so linking it alone still brings AscendCL.
extern "C" int asc_link_only_library() { return 0; }
