// exe_graph/runtime/extended_kernel_context.h: gert::ExtendedKernelContext, as CANN's op_host
// sources include it. asc-tools declares the runtime contexts together in
// register/op_def_registry.h.
#pragma once

#include "register/op_def_registry.h"
