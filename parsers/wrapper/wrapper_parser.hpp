// The generated AOTI C++ wrapper (<hash>.wrapper.cpp): inputs, constants, the input contract,
// symbol bindings, Triton kernels embedded in comments and their launches, proxy-executor calls,
// and the compile / link commands.
#pragma once

#include <string_view>

#include "model/case.hpp"
#include "parsers/parse_error.hpp"

namespace aoti::parsers::wrapper {

// Fails only when the text is not a wrapper at all (binary, or none of the AOTI markers);
// a wrapper with some garbage in it still yields every fact that could be read.
Parsed<::aoti::model::WrapperFacts> parse_wrapper(std::string_view text,
                                                  const ::aoti::model::Location& where);

// Cheap content sniff: the first bytes look like an AOTI wrapper.
bool looks_like_wrapper(std::string_view head);

}  // namespace aoti::parsers::wrapper
