// strings.h: the small string helpers every tool and module needs once: JSON and CSV quoting,
// suffix tests and base names.
#pragma once

#include <string>
#include <string_view>

#include "asc/asc.h"

namespace asc {

/// `s` as a JSON string literal, quotes included: '"' and '\\' escaped, control characters as
/// \n, \r, \t or \u00XX. Bytes >= 0x80 pass through (UTF-8 stays UTF-8).
ASC_API std::string jsonQuote(std::string_view s);
/// `s` as one CSV field (RFC 4180): as it is, or quoted with '"' doubled when it holds a comma,
/// a quote or a line break.
ASC_API std::string csvField(std::string_view s);
ASC_API bool endsWith(std::string_view s, std::string_view suffix);
/// The last component of a path ("a/b/c.om" -> "c.om"; trailing slashes ignored).
ASC_API std::string baseName(std::string_view path);

}  // namespace asc
