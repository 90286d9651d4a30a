#include "analyzer/report/common.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checks/support/crash.hpp"
#include "model/describe.hpp"
#include "util/text.hpp"

namespace aoti::report {

namespace {

// An input's contract as the model block shows it: annotated with what export said of each dim,
// and saying when the checks run at all.
std::string contract_summary(const model::WrapperFacts& wrapper, const model::WrapperInput& input) {
  std::string out = model::input_contract(wrapper, input.index, /*annotated=*/true);
  if (out.empty()) return "no checks in the wrapper";
  if (wrapper.checks_gated_by_env) out += "; checks only with AOTI_RUNTIME_CHECK_INPUTS=1";
  return out;
}

std::string first_word(std::string_view command) {
  const auto begin = command.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const auto end = command.find_first_of(" \t", begin);
  return std::string(command.substr(begin, end == std::string_view::npos ? end : end - begin));
}

std::string compiler_of(const model::ModelFacts& model) {
  if (model.so && !model.so->comments.empty()) {
    std::vector<std::string> unique;
    for (const auto& comment : model.so->comments)
      if (std::find(unique.begin(), unique.end(), comment) == unique.end())
        unique.push_back(comment);
    return fmt::format("{}", fmt::join(unique, "; "));
  }
  if (!model.wrapper) return {};
  if (auto word = first_word(model.wrapper->link_cmd); !word.empty()) return word + " (link cmd)";
  if (auto word = first_word(model.wrapper->compile_cmd); !word.empty())
    return word + " (compile cmd)";
  return {};
}

// Decodes one code point at `i`; returns its length, or 0 for an invalid sequence (overlong,
// surrogate, out of range or truncated), so that the caller replaces exactly one byte.
std::size_t decode_utf8(std::string_view s, std::size_t i, char32_t& out) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    out = b0;
    return 1;
  }
  std::size_t length;
  char32_t min;
  if ((b0 & 0xE0) == 0xC0)
    length = 2, min = 0x80, out = b0 & 0x1F;
  else if ((b0 & 0xF0) == 0xE0)
    length = 3, min = 0x800, out = b0 & 0x0F;
  else if ((b0 & 0xF8) == 0xF0)
    length = 4, min = 0x10000, out = b0 & 0x07;
  else
    return 0;
  if (i + length > s.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    out = (out << 6) | (b & 0x3F);
  }
  if (out < min || out > 0x10FFFF || (out >= 0xD800 && out <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

ModelSummary summarize(const model::ModelFacts& model) {
  ModelSummary summary;
  summary.name = model.name;
  summary.package = !model.package.empty() ? model.package
                    : model.wrapper        ? model.wrapper->where.artifact
                                           : std::string();
  summary.device = model.device();
  if (auto it = model.metadata.find("AOTI_COMPUTE_CAPABILITY"); it != model.metadata.end())
    summary.compute_capability = it->second;
  if (model.wrapper) {
    auto inputs = model.wrapper->inputs;
    std::stable_sort(inputs.begin(), inputs.end(),
                     [](const auto& a, const auto& b) { return a.index < b.index; });
    // Names are an input's own words, of any length: each field is bounded like a finding's.
    constexpr std::size_t k_max_field = model::k_max_report_field;
    for (const auto& input : inputs)
      summary.inputs.push_back(
          {util::cut_marked(input.name, k_max_field),
           util::cut_marked(input.user_name, k_max_field),
           util::cut_marked(contract_summary(*model.wrapper, input), k_max_field)});
    summary.input_checks_need_env = model.wrapper->checks_gated_by_env;
    // A CPU package's kernels are C++ functions in <hash>.kernel.cpp: count the distinct ones
    // called.
    std::set<std::string> cpp_kernels;
    for (const auto& call : model.wrapper->kernel_calls)
      if (call.kernel.starts_with("cpp_")) cpp_kernels.insert(call.kernel);
    std::size_t triton_kernels = 0;
    for (const auto& kernel : model.wrapper->kernels) {
      if (kernel.language == model::KernelLanguage::cpp)
        cpp_kernels.insert(kernel.name);
      else
        ++triton_kernels;
    }
    summary.kernel_count = triton_kernels + cpp_kernels.size();
    summary.kernel_kind =
        triton_kernels == 0 && !cpp_kernels.empty() ? "C++ kernel" : "Triton kernel";
  }
  for (const auto& node : model.extern_nodes)
    if (std::find(summary.extern_ops.begin(), summary.extern_ops.end(), node.target) ==
        summary.extern_ops.end())
      summary.extern_ops.push_back(node.target);
  summary.compiler = compiler_of(model);
  return summary;
}

std::string verdict(const std::vector<model::Finding>& findings) {
  if (findings.empty()) return "no findings";
  return fmt::format("rank {}: {}", findings.front().rank, findings.front().title);
}

std::string sanitize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t length = decode_utf8(text, i, cp);
    if (length == 0) {
      out += "\uFFFD";
      ++i;
      continue;
    }
    if ((cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F)
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
    else if (cp >= 0x80 && cp <= 0x9F)
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
    else
      out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::size_t display_width(std::string_view utf8) {
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string truncate(std::string_view utf8, std::size_t max_width) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    if ((static_cast<unsigned char>(utf8[i]) & 0xC0) == 0x80) continue;
    if (width++ == max_width)
      return fmt::format("{}… ({} more bytes)", utf8.substr(0, i), utf8.size() - i);
  }
  return std::string(utf8);
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string human_size(std::uint64_t bytes) {
  static constexpr std::array<std::string_view, 4> k_units = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < k_units.size()) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, k_units[unit]);
}

std::optional<GpuFaultSummary> summarize(const model::GpuCoreFacts& core) {
  if (core.faulting_warps.empty()) return std::nullopt;
  const model::GpuWarp& w = core.faulting_warps.front();
  GpuFaultSummary out;
  out.dump = core.artifact;
  out.exception = w.exception_name;
  if (core.faulting_warps.size() > 1)
    out.exception +=
        fmt::format(" ({} warps faulted; the first is shown)", core.faulting_warps.size());
  const auto& at = w.error ? w.error : w.stop;
  out.where = at ? model::gpu_location_text(*at) : "no PC recorded";
  if (at && w.error) out.where += " (the error PC)";
  out.thread = model::gpu_warp_text(w);
  for (const auto& d : core.devices)
    if (d.index == w.device)
      out.device = fmt::format("{}, {}{}", d.index, d.name.empty() ? "unnamed" : d.name,
                               d.sm_type.empty() ? "" : " (" + d.sm_type + ")");
  if (out.device.empty()) out.device = std::to_string(w.device);
  if (!core.driver_version.empty()) out.device += ", driver " + core.driver_version;
  return out;
}

CrashSummary summarize(const model::CoreFacts& core) {
  CrashSummary out;
  out.core = core.artifact;
  out.signal = core.signal_name.empty() ? "no signal recorded" : core.signal_name;
  if (!core.signal_code_name.empty()) out.signal += " (" + core.signal_code_name + ")";
  if (core.fault_address) out.signal += fmt::format(" at 0x{:x}", *core.fault_address);
  out.fault = core.fault_region;
  out.phase = checks::crash_phase_clause(core);
  out.process = fmt::format("pid {}, {}", core.pid,
                            core.command_line.empty() ? core.executable : core.command_line);
  if (const model::CoreThread* thread = checks::crashing_thread(core)) {
    out.thread = fmt::format("thread {}", thread->tid);
    // The unwound path, named or not (an unnamed frame still says which library crashed); a run of
    // unnamed frames in one library is one line, so the model's frames further out still show.
    const auto unnamed = [](const model::StackFrame& frame) {
      return frame.symbol.empty() && frame.package.empty();
    };
    for (std::size_t i = 0; i < thread->frames.size() && out.frames.size() < 8; ++i) {
      const auto& frame = thread->frames[i];
      if (!frame.unwound()) continue;
      std::size_t last = i;
      while (unnamed(frame) && last + 1 < thread->frames.size() &&
             thread->frames[last + 1].unwound() && unnamed(thread->frames[last + 1]) &&
             thread->frames[last + 1].module == frame.module)
        ++last;
      if (last == i) {
        out.frames.push_back(model::frame_text(frame, i));
        continue;
      }
      const std::string module = std::filesystem::path(frame.module).filename().string();
      out.frames.push_back(fmt::format("#{}-#{} in {} ({} frames without symbols)", i, last,
                                       module.empty() ? "?" : module, last - i + 1));
      i = last;
    }
    for (std::size_t i = 0; i < thread->frames.size() && out.candidates.size() < 8; ++i) {
      const auto& frame = thread->frames[i];
      if (!frame.unwound() && (!frame.symbol.empty() || !frame.package.empty()))
        out.candidates.push_back(model::frame_text(frame, i));
    }
  }
  return out;
}

DiagnosticsView view_diagnostics(const std::vector<model::Diagnostic>& diagnostics) {
  DiagnosticsView view;
  std::size_t from_sources = 0;
  for (const auto& d : diagnostics) from_sources += d.problem != model::SourceProblem::none;
  if (from_sources <= k_max_whole_source_diagnostics) {
    for (const auto& d : diagnostics) view.whole.push_back(&d);
    return view;
  }
  std::map<std::string, int> errors_per_file;
  std::map<std::string, std::set<std::string>> files_per_header;
  std::set<std::string> files_missing_headers;
  std::map<std::string, std::vector<std::string>> functions_per_file;
  for (const auto& d : diagnostics) {
    if (d.problem == model::SourceProblem::none) {
      view.whole.push_back(&d);
      continue;
    }
    ++view.summarized;
    if (d.problem == model::SourceProblem::compile_error) errors_per_file[d.artifact] += d.count;
    if (d.problem == model::SourceProblem::functions_with_errors)
      functions_per_file[d.artifact] = d.names;
    if (d.problem == model::SourceProblem::missing_headers) {
      files_missing_headers.insert(d.artifact);
      for (const auto& name : d.names) files_per_header[name].insert(d.artifact);
    }
  }
  // Most first, then by name, the first `max` as "`name` (n)".
  const auto most = [](std::vector<std::pair<std::string, std::size_t>> counted, std::size_t max) {
    std::sort(counted.begin(), counted.end(), [](const auto& a, const auto& b) {
      return std::tie(b.second, a.first) < std::tie(a.second, b.first);
    });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < counted.size() && i < max; ++i)
      out.push_back(fmt::format("{} ({})", counted[i].first, counted[i].second));
    return fmt::format("{}", fmt::join(out, ", "));
  };
  if (!errors_per_file.empty()) {
    std::vector<std::pair<std::string, std::size_t>> counted;
    std::size_t total = 0;
    for (const auto& [file, count] : errors_per_file) {
      counted.emplace_back(std::filesystem::path(file).filename().string(),
                           static_cast<std::size_t>(count));
      total += static_cast<std::size_t>(count);
    }
    view.summary.push_back(fmt::format(
        "{} C++ source(s) did not compile cleanly ({} errors; each was analyzed with what clang "
        "recovered); the most: {}",
        errors_per_file.size(), total, most(counted, 5)));
  }
  if (!functions_per_file.empty()) {
    // The sources with the most such functions, each with its first few.
    std::vector<std::pair<std::string, const std::vector<std::string>*>> files;
    std::size_t total = 0;
    for (const auto& [file, functions] : functions_per_file) {
      files.emplace_back(file, &functions);
      total += functions.size();
    }
    std::stable_sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
      return a.second->size() > b.second->size();
    });
    std::vector<std::string> shown;
    for (std::size_t i = 0; i < files.size() && i < 3; ++i) {
      const auto& functions = *files[i].second;
      const std::size_t named = std::min<std::size_t>(functions.size(), 3);
      std::string text =
          fmt::format("{}: {}", std::filesystem::path(files[i].first).filename().string(),
                      fmt::join(functions.begin(), functions.begin() + named, ", "));
      if (functions.size() > named) text += fmt::format(" (+{})", functions.size() - named);
      shown.push_back(std::move(text));
    }
    view.summary.push_back(fmt::format(
        "{} function(s) in {} source(s) hold compile errors and were read only as far as clang "
        "recovered them (a check's silence about them is weaker); the most: {}",
        total, files.size(), fmt::join(shown, "; ")));
  }
  if (!files_per_header.empty()) {
    std::vector<std::pair<std::string, std::size_t>> counted;
    for (const auto& [name, files] : files_per_header) counted.emplace_back(name, files.size());
    view.summary.push_back(fmt::format(
        "{} header(s) were found nowhere, in {} source(s) (analyzed without them); the most "
        "included (sources): {}",
        files_per_header.size(), files_missing_headers.size(), most(counted, 10)));
  }
  view.summary.push_back(fmt::format(
      "these {} diagnostics are listed one by one with -v (on stderr) and in --format json",
      view.summarized));
  return view;
}

std::vector<OpInventoryEntry> op_inventory(const model::Case& c) {
  std::map<std::string, OpInventoryEntry> ops;
  for (const auto& source : c.sources) {
    for (const auto& op : source.ops) {
      auto& entry = ops[op.name];
      entry.name = op.name;
      if (entry.defined_in.empty()) {
        entry.schema = op.schema;
        entry.defined_in = source.artifact;
        entry.defined_line = op.line;
        entry.condition = op.condition;
      }
    }
    for (const auto& kernel : source.kernels) {
      if (kernel.op.empty()) continue;
      auto& entry = ops[kernel.op];
      entry.name = kernel.op;
      entry.kernels.push_back({kernel.dispatch_key, kernel.function, source.artifact,
                               kernel.registration_line, kernel.traced, kernel.symint_aware});
      entry.fake = entry.fake || kernel.traced;
    }
  }
  std::vector<OpInventoryEntry> out;
  for (auto& [name, entry] : ops) out.push_back(std::move(entry));
  return out;
}

}  // namespace aoti::report
