// link_only.cpp: the one source of libnnopbase.so and libacl_op_compiler.so, libraries that
// aclnn applications name on their link line (-lnnopbase -lacl_op_compiler) next to
// -lascendcl. In asc-tools the aclnn tensor API they hold in CANN (aclCreateTensor, ...) is in
// libascendcl.so, which each of them depends on; the operator compiler's API (aclopCompile, ...)
// is not provided, so a program that calls it fails to link, naming the function.
extern "C" int asc_link_only_library() { return 0; }
