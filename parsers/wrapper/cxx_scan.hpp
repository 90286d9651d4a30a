// Small linear-time scanners over the C++ and Python literals of one line of generated code
// (brackets, comma lists, string literals), shared by the wrapper parser and the readers of the
// Triton and C++ kernels embedded in it. None of them allocates more than its result
// and none of them recurses: lines can be megabytes of hostile bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aoti::parsers::wrapper {

// Lists longer than this are treated as garbage rather than facts, so that a hostile line of
// millions of commas cannot turn into millions of strings.
inline constexpr std::size_t k_max_list_items = 4096;

// The position of the bracket closing the one at `open` ('(', '[' or '{'), skipping string
// literals; npos when the line ends first.
std::size_t find_closing(std::string_view text, std::size_t open);

// The text between the bracket at `open` and its closing one; nullopt when unbalanced.
std::optional<std::string_view> bracket_contents(std::string_view text, std::size_t open);

// Splits at commas outside brackets, template angle brackets and string literals; items are
// trimmed and a trailing empty item (`{8L, }`) is dropped. nullopt past k_max_list_items.
std::optional<std::vector<std::string_view>> split_top_level(std::string_view text);

// The items of the bracketed list or call arguments whose bracket is at `open`: bracket_contents,
// then split_top_level. nullopt when unbalanced, past k_max_list_items, or with fewer than
// `min_items` items.
std::optional<std::vector<std::string_view>> top_level_items(std::string_view text,
                                                             std::size_t open,
                                                             std::size_t min_items = 0);

// The value of a C++ or Python string literal ("..." or '...', escapes resolved), or of a C++
// raw string literal R"d(...)d"; nullopt when `text` is not exactly one literal.
std::optional<std::string> unquote(std::string_view text);

// `(x)` -> `x`, only when the outer parentheses enclose everything.
std::string_view strip_outer_parens(std::string_view text);

// The items of a bracketed list `[a, b]` starting at `open`, as strings.
std::vector<std::string> bracketed_items(std::string_view text, std::size_t open);

}  // namespace aoti::parsers::wrapper
