// exe_graph/runtime/tiling_context.h: gert::TilingContext, as CANN's op_host sources include it.
// asc-tools declares the runtime contexts together in register/op_def_registry.h.
#pragma once

#include "register/op_def_registry.h"
