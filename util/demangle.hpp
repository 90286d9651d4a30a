// Demangled C++ names made readable for people.
#pragma once

#include <string>
#include <string_view>

namespace aoti::util {

// A demangled name without template arguments, parameters and return type:
// "std::__detail::_Compiler<std::__cxx11::regex_traits<char> >::_M_disjunction()" ->
// "std::__detail::_Compiler::_M_disjunction".
std::string short_symbol(std::string_view symbol);

}  // namespace aoti::util
