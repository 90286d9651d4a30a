// Small, bounds-checked text helpers shared by every reader: every input byte is hostile, so
// nothing here assumes a delimiter is present, that a number fits, or that the text is UTF-8.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aoti::util {

// ASCII classes only: input bytes are never interpreted through the C locale.
bool is_space(char c);
bool is_digit(char c);
bool is_identifier_char(char c);  // [A-Za-z0-9_]

std::string_view trim(std::string_view text);
// The run of ASCII digits starting at `pos` (empty when there is none or `pos` is past the end).
std::string_view digits_at(std::string_view text, std::size_t pos);
// The run of [A-Za-z0-9_] starting at `pos`.
std::string_view identifier_at(std::string_view text, std::size_t pos);
// The identifier at the start of `text` (empty when `text` does not start with one).
std::string_view leading_identifier(std::string_view text);
// Exactly a run of decimal digits that fits in an int; nullopt otherwise.
std::optional<int> to_int(std::string_view digits);
// A C++ or Python integer literal, with an optional sign and `L`/`LL`/`U` suffixes; nullopt when
// `text` is anything else or does not fit in 64 bits.
std::optional<std::int64_t> parse_int(std::string_view text);
// A non-negative integer literal that fits in an int: array indexes, dims, extern node numbers.
std::optional<int> parse_index(std::string_view text);
// The text after the first `marker`, empty when it is absent.
std::string_view after(std::string_view text, std::string_view marker);
// The text between the first `open` and the next `close` after it, empty when either is absent.
std::string_view between(std::string_view text, std::string_view open, std::string_view close);
std::string_view first_word(std::string_view text);
// `text` when it has at most `max` bytes; else its first `max` bytes or fewer (never inside a UTF-8
// character) followed by "… (N bytes cut)", so that whoever reads it knows it was shortened.
std::string cut_marked(std::string_view text, std::size_t max);
std::string_view last_word(std::string_view text);

}  // namespace aoti::util
