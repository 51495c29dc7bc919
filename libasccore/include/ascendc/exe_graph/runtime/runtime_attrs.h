// exe_graph/runtime/runtime_attrs.h: gert::RuntimeAttrs, as CANN's op_host sources include it.
// asc-tools declares the runtime contexts together in exe_graph/runtime/contexts.h.
#pragma once

#include "exe_graph/runtime/contexts.h"
