// session_internal.h: what the runtime's own files share about Session beyond its public API.
#pragma once

#include <string>

#include "asc/runtime/session.h"

namespace asc::runtime {

/// Names the model and chip in the session's trace records (msprof), when tracing is on.
void setTraceModel(Session& s, const std::string& model, const std::string& soc);

}  // namespace asc::runtime
