#include "parsers/logs/output_code.hpp"

#include "parsers/limits.hpp"
#include "util/text.hpp"

namespace aoti::parsers::logs {
namespace {

constexpr std::string_view k_marker = "[__output_code] ";
constexpr std::string_view k_wrapper_header = "Output wrapper code:";
constexpr std::string_view k_written = "Wrapper code written to: ";

}  // namespace

void OutputCodeReader::scan(std::string_view raw, int number) {
  if (m_done && m_named) return;
  if (raw.ends_with('\r')) raw.remove_suffix(1);
  const auto at = raw.find(k_marker.substr(0, k_marker.size() - 1));
  // What follows the marker and its space; empty when the line ends at the marker.
  const std::string_view text = at != std::string_view::npos && at + k_marker.size() <= raw.size()
                                    ? raw.substr(at + k_marker.size())
                                    : std::string_view{};
  if (m_done) {
    if (text.starts_with(k_written)) {
      m_code->file = std::string(util::trim(text.substr(k_written.size())));
      m_named = true;
    }
    return;
  }
  if (!m_open) {
    if (text.starts_with(k_wrapper_header)) {
      m_open = true;
      m_code.emplace();
      m_code->first_line = number + 1;
    }
    return;
  }
  // The wrapper's lines all carry the marker; the first line without it ends the code.
  if (at == std::string_view::npos) {
    m_open = false;
    m_done = true;
    return;
  }
  if (m_code->code.size() + text.size() + 1 > k_max_wrapper_source) {
    m_code->cut = true;
    m_open = false;
    m_done = true;
    return;
  }
  m_code->code.append(text).push_back('\n');
  m_code->raw.append(raw).push_back('\n');
}

std::optional<OutputCode> OutputCodeReader::finish() {
  if (m_code && m_code->code.empty()) return std::nullopt;
  return std::move(m_code);
}

}  // namespace aoti::parsers::logs
