// exe_graph/runtime/tensor.h: gert::Tensor, as CANN's op_host sources include it. asc-tools
// declares the runtime contexts together in register/op_def_registry.h.
#pragma once

#include "register/op_def_registry.h"
