#include "parsers/source/source_reader.hpp"

#include <algorithm>
#include <array>

#include "parsers/source/cpp_frontend.hpp"
#include "parsers/source/python_frontend.hpp"
#include "util/open_file.hpp"
#include "util/text.hpp"

namespace aoti::parsers::source {
namespace {

// Extension sources are kilobytes; anything past this is not one, and would only cost time.

constexpr std::array<std::string_view, 10> k_cpp_extensions{".cpp", ".cc", ".cxx", ".c++", ".cu",
                                                            ".cuh", ".h",  ".hpp", ".hh",  ".hxx"};

// Text: no NUL byte, and no more than 1 in 20 bytes a control character other than whitespace.
// UTF-8 passes (bytes >= 0x80 are not control characters).
bool looks_like_text(std::string_view bytes) {
  std::size_t control = 0;
  for (unsigned char ch : bytes) {
    if (ch == 0) return false;
    if (ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t' && ch != '\f' && ch != '\v') ++control;
  }
  return control * 20 <= bytes.size();
}

}  // namespace

bool is_python_source(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".py" || ext == ".pyi";
}

bool is_cuda_source(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".cu" || ext == ".cuh";
}

bool looks_like_source(const std::filesystem::path& path, std::string_view head) {
  const std::string ext = path.extension().string();
  const bool known =
      is_python_source(path) ||
      std::find(k_cpp_extensions.begin(), k_cpp_extensions.end(), ext) != k_cpp_extensions.end();
  return known && looks_like_text(head);
}

Parsed<SourceRead> read_source(const std::filesystem::path& path, const std::string& display,
                               const SourceOptions& options) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return fail("cannot read: " + ec.message());
  if (size > k_max_source_bytes)
    return fail("source file is " + std::to_string(size) + " bytes, over the " +
                std::to_string(k_max_source_bytes) + "-byte limit for sources");
  auto read = util::read_regular_file(path, k_max_source_bytes);
  if (!read) return fail("cannot read: " + read.error());
  const std::string& text = *read;
  if (!looks_like_text(text))
    return fail("not a source file: binary content (NUL or control bytes)");
  if (is_python_source(path)) return read_python(text, display);
  return read_cpp(path, text, display, options);
}

namespace {

bool names_registration(std::string_view text, const std::vector<std::string>& macros) {
  for (std::string_view word : {"TORCH_LIBRARY", "torch::Library", "TORCH_SELECTIVE"})
    if (text.find(word) != std::string_view::npos) return true;
  for (const auto& macro : macros) {
    // As a whole word: `REGISTER_OPS` is not found inside `REGISTER_OPS_HELPER_X`.
    for (auto at = text.find(macro); at != std::string_view::npos; at = text.find(macro, at + 1)) {
      const auto end = at + macro.size();
      const bool starts = at == 0 || !util::is_identifier_char(text[at - 1]);
      const bool ends = end == text.size() || !util::is_identifier_char(text[end]);
      if (starts && ends) return true;
    }
  }
  return false;
}

}  // namespace

bool may_register(std::string_view text, const std::vector<std::string>& macros) {
  return names_registration(text, macros);
}

std::vector<std::string> registration_macros(std::string_view text,
                                             const std::vector<std::string>& known) {
  std::vector<std::string> out;
  for (auto at = text.find("#define "); at != std::string_view::npos;
       at = text.find("#define ", at + 1)) {
    auto name_at = at + 8;
    while (name_at < text.size() && text[name_at] == ' ') ++name_at;
    const auto name = util::identifier_at(text, name_at);
    if (name.empty()) continue;
    // The definition runs to the first line that does not end with a backslash.
    auto end = text.find('\n', name_at);
    while (end != std::string_view::npos && end > 0 &&
           (text[end - 1] == '\\' || (text[end - 1] == '\r' && end > 1 && text[end - 2] == '\\')))
      end = text.find('\n', end + 1);
    const auto body = text.substr(name_at + name.size(), end == std::string_view::npos
                                                             ? std::string_view::npos
                                                             : end - name_at - name.size());
    if (names_registration(body, known)) out.emplace_back(name);
  }
  return out;
}

}  // namespace aoti::parsers::source
