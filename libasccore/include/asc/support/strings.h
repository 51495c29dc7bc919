// strings.h: the small string helpers every tool and module needs once: JSON and CSV quoting,
// suffix tests, base names, splitting and whole-number parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asc/asc.h"

namespace asc {

/// `s` as a JSON string literal, quotes included: '"' and '\\' escaped, control characters as
/// \n, \r, \t or \u00XX. Bytes >= 0x80 pass through (UTF-8 stays UTF-8).
ASC_API std::string jsonQuote(std::string_view s);
/// `s` as one CSV field (RFC 4180): as it is, or quoted with '"' doubled when it holds a comma,
/// a quote or a line break.
ASC_API std::string csvField(std::string_view s);
/// `s` for HTML text or a quoted attribute: '<', '>', '&' and '"' as entities.
ASC_API std::string htmlEscape(std::string_view s);
ASC_API bool endsWith(std::string_view s, std::string_view suffix);
/// The last component of a path ("a/b/c.om" -> "c.om"; trailing slashes ignored).
ASC_API std::string baseName(std::string_view path);
/// The non-empty pieces of `s` between `sep`s ("a,,b" -> {"a", "b"}).
ASC_API std::vector<std::string> splitString(std::string_view s, char sep);
/// `s` as a whole decimal number (optional sign, no spaces, in int64 range), or nullopt.
ASC_API std::optional<int64_t> parseInt64(std::string_view s);

}  // namespace asc
