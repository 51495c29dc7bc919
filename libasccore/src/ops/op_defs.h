// op_defs.h: the declarations of ops.def's `const OpDef& defName()`, one per in-tree operator.
// Private to src/ops.
#pragma once

#include "asc/ops/op_def.h"

namespace asc::ops {

// Each runs once, when the op table is first built. Marked cold, the compiler puts them all in
// .text.unlikely, which the linker gathers into one range: building the table then maps that
// range of the library, not a page or more in every op's file (a process that only loads and
// runs an OM kept about 2 MB more of libasccore's code resident before).
#define ASC_OP(name) [[gnu::cold]] const OpDef& def##name();
#include "ops.def"
#undef ASC_OP

}  // namespace asc::ops
