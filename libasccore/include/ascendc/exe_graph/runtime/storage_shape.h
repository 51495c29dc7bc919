// exe_graph/runtime/storage_shape.h: gert::StorageShape, as CANN's op_host sources include it.
// asc-tools declares the runtime contexts together in register/op_def_registry.h.
#pragma once

#include "register/op_def_registry.h"
