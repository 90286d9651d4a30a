#include "parsers/source/source_reader.hpp"

#include <algorithm>
#include <array>

#include "parsers/source/cpp_frontend.hpp"
#include "parsers/source/python_frontend.hpp"
#include "util/open_file.hpp"

namespace aoti::parsers::source {
namespace {

// Extension sources are kilobytes; anything past this is not one, and would only cost time.
constexpr std::uintmax_t k_max_source_bytes = 32u << 20;

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

}  // namespace aoti::parsers::source
