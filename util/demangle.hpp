// Demangled C++ names made readable for people.
#pragma once

#include <string>
#include <string_view>

namespace aoti::util {

// A mangled C++ symbol ("_Z19scatter_rows_kernelPKfPKlPfll"), demangled ("scatter_rows_kernel(float
// const*, long const*, float*, long, long)"); the input unchanged when it is not one (a Triton
// kernel's or a C function's name), cannot be demangled, or is longer than a real symbol gets (a
// hostile name: the demangler recurses on its nesting). The one demangler of the tool, for host
// and device symbols alike.
std::string demangle(std::string_view symbol);

// A demangled name without template arguments, parameters and return type:
// "std::__detail::_Compiler<std::__cxx11::regex_traits<char> >::_M_disjunction()" ->
// "std::__detail::_Compiler::_M_disjunction".
std::string short_symbol(std::string_view symbol);

}  // namespace aoti::util
