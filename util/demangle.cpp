#include "util/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace aoti::util {

std::string demangle(std::string_view symbol) {
  // Real symbols, even of deep templates, stay well under this; the demangler's recursion does not.
  constexpr std::size_t k_max_symbol = 4096;
  if (!symbol.starts_with("_Z") || symbol.size() > k_max_symbol) return std::string(symbol);
  const std::string name(symbol);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> plain(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && plain ? std::string(plain.get()) : name;
}

std::string short_symbol(std::string_view symbol) {
  // GCC's clones (`f(int) [clone .isra.0] [clone .cold]`) are the function they were cloned from,
  // and a lambda is named by the function it is in (`f(...)::{lambda(auto:1)#1}::operator()...`).
  if (const auto clone = symbol.find(" [clone "); clone != std::string_view::npos)
    symbol = symbol.substr(0, clone);
  if (const auto lambda = symbol.find("::{lambda"); lambda != std::string_view::npos)
    symbol = symbol.substr(0, lambda);
  std::string out;
  int angle = 0, paren = 0;
  for (std::size_t i = 0; i < symbol.size(); ++i) {
    const char ch = symbol[i];
    // "operator<" and "operator()" name functions; their brackets are not nesting.
    if (symbol.substr(i).starts_with("operator")) {
      const std::size_t end = symbol.find_first_of(
          "(", i + 8 + (i + 8 < symbol.size() && symbol[i + 8] == '(' ? 2 : 0));
      if (angle == 0 && paren == 0)
        out += symbol.substr(i, (end == std::string_view::npos ? symbol.size() : end) - i);
      i = (end == std::string_view::npos ? symbol.size() : end) - 1;
      continue;
    }
    if (ch == '<')
      ++angle;
    else if (ch == '>' && angle > 0)
      --angle;
    else if (ch == '(' && angle == 0)
      ++paren;
    else if (ch == ')' && angle == 0 && paren > 0)
      --paren;
    else if (angle == 0 && paren == 0)
      out += ch;
  }
  while (out.ends_with(" const") || out.ends_with(" "))
    out.resize(out.size() - (out.ends_with(" ") ? 1 : 6));
  // Drop a return type ("void std::f" -> "std::f"), but keep "operator new".
  std::size_t space = out.rfind(' ');
  if (space != std::string::npos && out.compare(space + 1, 8, "operator") != 0 &&
      out.substr(0, space).ends_with("operator"))
    space = out.rfind(' ', space - 1);
  if (space != std::string::npos) out = out.substr(space + 1);
  return out.empty() ? std::string(symbol) : out;
}

}  // namespace aoti::util
