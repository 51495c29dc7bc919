// asc.h: version and the export macro of libasccore.
#pragma once

#define ASC_API [[gnu::visibility("default")]]

namespace asc {
/// The suite's version, e.g. "0.1.0".
ASC_API const char* version();
}  // namespace asc
