#include "util/demangle.hpp"

namespace aoti::util {

std::string short_symbol(std::string_view symbol) {
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
