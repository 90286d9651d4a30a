// What every parser returns on failure: a reason a person can act on.
#pragma once

#include <string>

#include <tl/expected.hpp>

namespace aoti::parsers {

struct ParseError {
  std::string message;  // "truncated: central directory ends past the end of the file"
};

template <class T>
using Parsed = tl::expected<T, ParseError>;

inline tl::unexpected<ParseError> fail(std::string message) {
  return tl::unexpected<ParseError>(ParseError{std::move(message)});
}

}  // namespace aoti::parsers
