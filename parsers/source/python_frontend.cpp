// The Python front end: the file is parsed (python_syntax), its ops and their fake / Meta kernels
// are found (python_registrations), and each kernel's body is checked for the P patterns of
// failure-modes.md §1.3 (python_patterns).
#include "parsers/source/python_frontend.hpp"

#include "parsers/source/python_patterns.hpp"
#include "parsers/source/python_registrations.hpp"
#include "parsers/source/python_syntax.hpp"
#include "parsers/source/source_text.hpp"

namespace aoti::parsers::source {

SourceRead read_python(std::string_view text, const std::string& display) {
  SourceRead out;
  out.facts.artifact = display;
  out.facts.language = "python";
  const py::Module module = py::parse(text);
  for (const py::SyntaxError& e : module.errors)
    out.diagnostics.push_back(
        {display, display + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) +
                      ": syntax error: " + e.message + " (the rest of the file was analyzed)"});
  const PythonRegistrations registrations = collect_python_registrations(module, out.facts.ops);
  find_python_patterns(registrations, text, display, out.facts);
  sort_by_place(out.facts.violations);
  return out;
}

}  // namespace aoti::parsers::source
