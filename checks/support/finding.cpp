#include "checks/support/finding.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace aoti::checks {
using namespace aoti::model;

const ModelFacts* model_of(const Case& c, const LogEvent& e) {
  if (!e.model || *e.model >= c.models.size()) return nullptr;
  return &c.models[*e.model];
}

Evidence event_evidence(const LogEvent& e, std::string note) {
  if (e.repeats > 1) note += fmt::format(" (the same line {} times)", e.repeats);
  if (e.where.line <= 0) return fact(e.where, e.text, std::move(note));
  Evidence evidence{e.where, e.text, std::move(note)};
  evidence.kind = EvidenceKind::quote;
  return evidence;
}

std::string code_span(std::string_view text, std::size_t max) {
  std::string content = cut(text, max);
  std::size_t longest = 0, run = 0;
  for (char ch : content) {
    run = ch == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !content.empty() && (content.front() == '`' || content.back() == '`');
  return pad ? fence + " " + content + " " + fence : fence + content + fence;
}

Evidence log_quote(Location where, std::string text, std::string note) {
  if (where.line <= 0) return fact(std::move(where), std::move(text), std::move(note));
  Evidence evidence{std::move(where), std::move(text), std::move(note)};
  evidence.kind = EvidenceKind::quote;
  return evidence;
}

Evidence fact(Location where, std::string statement, std::string note) {
  return Evidence{std::move(where), std::move(statement), std::move(note)};
}

std::string cut(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;  // not inside a character
  return std::string(text.substr(0, end)) + "…";
}

std::string quoted_line(std::string_view line) {
  constexpr std::size_t k_max_quote_line = 1000;
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  return cut(line.substr(first, line.find_last_not_of(" \t\r") - first + 1), k_max_quote_line);
}

Evidence quote_wrapper(const WrapperFacts& w, int first, std::string note, int last) {
  if (last < first) last = first;
  std::string text;
  for (int line = first; line <= last; ++line) {
    if (line > first) text += '\n';
    text += quoted_line(w.source.line(line));
  }
  // A wrapper whose text was not kept (never the case for one the analyzer read) gives no quote.
  if (w.source.line_count() < last || first < 1)
    return fact(wrapper_at(w, first), "", std::move(note));
  Evidence evidence{wrapper_at(w, first), std::move(text), std::move(note)};
  evidence.kind = EvidenceKind::quote;
  if (last > first) evidence.line_end = last + w.line_offset;
  return evidence;
}

int wrapper_line_with(const WrapperFacts& w, int first, std::string_view needle, int span) {
  for (int line = std::max(first, 1); line <= first + span && line <= w.source.line_count(); ++line)
    if (w.source.line(line).find(needle) != std::string_view::npos) return line;
  return 0;
}

Location wrapper_at(const WrapperFacts& w, int line) {
  Location at = w.where;
  at.line = line > 0 ? line + w.line_offset : 0;
  return at;
}

Location kernel_at(const WrapperFacts& w, const TritonKernel& kernel, int line) {
  if (kernel.source.artifact.empty()) return wrapper_at(w, line);
  Location at = kernel.source;
  at.line = line;
  return at;
}

Evidence quote_kernel(const WrapperFacts& w, const TritonKernel& kernel, int line,
                      const std::string& text, std::string statement, std::string note) {
  if (kernel.source.artifact.empty() && line > 0 && line <= w.source.line_count())
    return quote_wrapper(w, line, std::move(note));
  if (!text.empty() && line > 0) {
    Evidence quote{kernel_at(w, kernel, line), text, std::move(note)};
    quote.kind = EvidenceKind::quote;
    return quote;
  }
  return fact(kernel_at(w, kernel, 0), std::move(statement), std::move(note));
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

std::optional<Evidence> device_evidence(const ModelFacts& model) {
  const std::string device = model.device();
  if (device.empty()) return std::nullopt;
  if (const auto it = model.metadata.find("AOTI_DEVICE_KEY");
      it != model.metadata.end() && it->second == device)
    return Evidence{model.metadata_where, "AOTI_DEVICE_KEY = " + device,
                    fmt::format("the device the {} was compiled for", artifact_word(model))};
  if (model.so && !model.so->needed.empty())
    return Evidence{
        model.so->where, "DT_NEEDED: " + join(model.so->needed),
        device == "cuda"
            ? "the model .so links the CUDA runtime (libtorch_cuda / libcuda): compiled for cuda"
            : fmt::format("the model .so links libtorch_cpu and no GPU runtime: compiled for {}",
                          device)};
  return std::nullopt;
}

std::string artifact_word(const ModelFacts& model) {
  return model.so && model.so->where.entry.empty() && !model.package.empty() ? "model .so"
                                                                             : "package";
}

Location core_location(const CoreFacts& core) { return Location{core.artifact, "", 0}; }

}  // namespace aoti::checks
