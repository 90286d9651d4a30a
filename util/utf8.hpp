// UTF-8 for text quoted in reports: every input byte is hostile, so a sequence is checked before
// it is copied, and a report never carries invalid UTF-8, control characters or terminal escapes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace aoti::util {

// Length of the valid UTF-8 sequence at the start of `text`: 1 for an ASCII byte, 2 to 4 for a
// well-formed multi-byte sequence, 0 when `text` is empty or does not start with one (overlong
// forms, surrogates and code points past U+10FFFF included, as strict JSON encoders reject them).
std::size_t utf8_length(std::string_view text);

// A copy fit for reports: at most `max_bytes`, cut on a character boundary; invalid UTF-8 and
// control characters become '?', a tab a space, ANSI colour sequences are dropped.
std::string clean_text(std::string_view text, std::size_t max_bytes);

}  // namespace aoti::util
