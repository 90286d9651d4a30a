// The intermediate value printer's output and the driver's GPU core notice, line by line. The
// printer's texts are those of torch/_inductor/codegen/debug_utils.py (the launches of mode 3, the
// `aoti_torch_print_tensor_handle` blocks and `printf` scalars of mode 2) and the statistics
// c10's tensor printing writes under a block; they may share a line with other output (the
// printer's `printf("\\n")` writes a backslash and an n, not a newline).
#include "parsers/logs/printer_reader.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "parsers/logs/scanner.hpp"
#include "util/text.hpp"

namespace aoti::parsers::logs {
namespace {

using model::PrintPhase;

constexpr std::string_view k_coredump_notice = "Starting GPU coredump generation";
// A log of millions of printer lines costs bounded memory: past these, values are counted and
// not kept, and a run's older launches are let go (its first and its latest, the ones the checks
// read, stay).
constexpr std::size_t k_max_values = 100000;
constexpr std::size_t k_max_launches = 100000;

std::optional<double> number_of(std::string_view text) {
  text = util::trim(text);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// `[8, 20]` -> {8, 20}; empty when the text is not such a list.
std::vector<std::int64_t> list_of(std::string_view text) {
  text = util::trim(text);
  std::vector<std::int64_t> out;
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return out;
  text = text.substr(1, text.size() - 2);
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto part = util::trim(text.substr(0, comma));
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || end != part.data() + part.size()) return {};
    out.push_back(value);
    if (comma == std::string_view::npos) break;
    text = text.substr(comma + 1);
  }
  return out;
}

std::optional<PrintPhase> phase_of(std::string_view word) {
  if (word == "before_launch") return PrintPhase::before_launch;
  if (word == "after_launch") return PrintPhase::after_launch;
  if (word == "aoti_model_inputs") return PrintPhase::model_inputs;
  return std::nullopt;
}

// A path-like token ending in `.nvcudmp` on a line, "" when there is none.
std::string core_file_on(std::string_view line) {
  const auto at = line.find(".nvcudmp");
  if (at == std::string_view::npos) return {};
  std::size_t begin = at;
  while (begin > 0 && line[begin - 1] != ' ' && line[begin - 1] != '\'' && line[begin - 1] != '"' &&
         line[begin - 1] != '=' && line[begin - 1] != ':')
    --begin;
  return std::string(line.substr(begin, at + 8 - begin));
}

}  // namespace

void PrinterReader::scan(std::string_view line, std::string_view raw, int number) {
  if (line.find(k_coredump_notice) != std::string_view::npos && !m_facts.device_exception) {
    m_any = true;
    m_facts.device_exception =
        model::DeviceExceptionNotice{{m_facts.artifact, "", number}, line_text(raw), ""};
  }
  if (m_facts.device_exception && m_facts.device_exception->core_file.empty())
    m_facts.device_exception->core_file = core_file_on(line);

  // Every bracketed printer text on the line, in order.
  bool matched = false;
  for (std::size_t pos = line.find('['); pos != std::string_view::npos;
       pos = line.find('[', pos + 1)) {
    const auto close = line.find(']', pos);
    if (close == std::string_view::npos) break;
    const auto inner = util::trim(line.substr(pos + 1, close - pos - 1));
    const bool is_block = close + 1 < line.size() && line[close + 1] == ':';
    // `before_launch: K` (mode 3)
    if (const auto colon = inner.find(": "); colon != std::string_view::npos && !is_block) {
      const auto word = inner.substr(0, colon);
      if ((word == "before_launch" || word == "after_launch") &&
          inner.find(" - ") == std::string_view::npos) {
        if (const auto kernel = util::trim(inner.substr(colon + 2)); !kernel.empty())
          launch_line(word == "before_launch", kernel, number, raw);
        matched = true;
        pos = close;
        continue;
      }
    }
    // `before_launch - K - ARG` / `before_launch - K - NAME: VALUE` / `aoti_model_inputs - ARG`
    const auto first = inner.find(" - ");
    if (first == std::string_view::npos) continue;
    const auto phase = phase_of(inner.substr(0, first));
    if (!phase) continue;
    const auto rest = inner.substr(first + 3);
    const auto last = rest.rfind(" - ");
    std::string_view kernel, arg;
    if (*phase == PrintPhase::model_inputs) {
      arg = rest;
    } else {
      if (last == std::string_view::npos) continue;
      kernel = rest.substr(0, last);
      arg = rest.substr(last + 3);
    }
    std::string_view scalar;
    bool is_scalar = false;
    if (!is_block) {
      const auto colon = arg.rfind(": ");
      if (colon == std::string_view::npos) continue;
      scalar = util::trim(arg.substr(colon + 2));
      arg = arg.substr(0, colon);
      is_scalar = true;
    }
    if (arg.empty() || (*phase != PrintPhase::model_inputs && kernel.empty())) continue;
    header(*phase, kernel, arg, scalar, is_scalar, number, raw);
    matched = true;
    pos = close;
  }
  if (!matched && m_block >= 0) statistic(line, number);
}

model::KernelLaunch* PrinterReader::open_launch(std::string_view kernel) {
  if (m_facts.runs.empty()) return nullptr;
  auto& launches = m_facts.runs.back().launches;
  for (auto it = launches.rbegin(); it != launches.rend(); ++it)
    if (it->kernel == kernel) return it->after_line == 0 ? &*it : nullptr;
  return nullptr;
}

// The run a value or launch at this point belongs to: a new one where the model inputs are printed
// again, or where the run's first kernel is launched again after all its launches returned.
model::PrinterRun& PrinterReader::run_for(PrintPhase phase, std::string_view kernel) {
  bool fresh = m_facts.runs.empty();
  if (!fresh) {
    const auto& run = m_facts.runs.back();
    if (phase == PrintPhase::model_inputs)
      fresh = m_run.past_inputs;
    else if (phase == PrintPhase::before_launch)
      fresh = !m_run.inputs_printed && m_run.unreturned == 0 && !run.launches.empty() &&
              run.launches.front().kernel == kernel;
  }
  if (fresh) {
    m_facts.runs.emplace_back();
    m_run = {};
  }
  return m_facts.runs.back();
}

// The open launch of `kernel` returned at line `number`.
void PrinterReader::returned(std::string_view kernel, int number) {
  if (auto* launch = open_launch(kernel)) {
    launch->after_line = number;
    --m_run.unreturned;
  }
}

void PrinterReader::begin_launch(std::string_view kernel, int number, std::string_view raw) {
  auto& run = run_for(PrintPhase::before_launch, kernel);
  // Past the cap, the older half of the run's launches after its first goes (all had returned
  // or they would be the last): the first and the latest ones stay, in order.
  if (m_launches >= k_max_launches && run.launches.size() > 2) {
    const std::size_t drop = (run.launches.size() - 1) / 2;
    const auto first = run.launches.begin() + 1, last = first + static_cast<long>(drop);
    const auto unreturned =
        std::count_if(first, last, [](const model::KernelLaunch& l) { return l.after_line == 0; });
    m_run.unreturned -= static_cast<std::size_t>(unreturned);
    run.launches.erase(first, last);
    run.launches_not_kept += drop;
    m_launches -= drop;
    m_dropped_launches += drop;
  }
  run.launches.push_back({std::string(kernel), number, 0, line_text(raw)});
  ++m_launches;
  m_run.past_inputs = true;
  ++m_run.unreturned;
  if (run.first_line == 0) run.first_line = number;
  run.last_line = number;
}

void PrinterReader::launch_line(bool before, std::string_view kernel, int number,
                                std::string_view raw) {
  close_block(m_block >= 0 && !m_block_has_stats);
  m_any = true;
  if (before) {
    begin_launch(kernel, number, raw);
    return;
  }
  returned(kernel, number);
  if (!m_facts.runs.empty()) m_facts.runs.back().last_line = number;
}

void PrinterReader::header(PrintPhase phase, std::string_view kernel, std::string_view arg,
                           std::string_view scalar, bool is_scalar, int number,
                           std::string_view raw) {
  close_block(m_block >= 0 && !m_block_has_stats);
  m_any = true;
  // A block before a launch starts that launch (mode 2 prints no `[ before_launch: K ]` line); one
  // after it says the launch returned.
  if (phase == PrintPhase::before_launch) {
    const auto* run = m_facts.runs.empty() ? nullptr : &m_facts.runs.back();
    const bool started = run && !run->launches.empty() && run->launches.back().kernel == kernel &&
                         run->launches.back().after_line == 0;
    if (!started) begin_launch(kernel, number, raw);
  } else if (phase == PrintPhase::after_launch) {
    returned(kernel, number);
  }
  auto& run = run_for(phase, kernel);
  (phase == PrintPhase::model_inputs ? m_run.inputs_printed : m_run.past_inputs) = true;
  if (run.first_line == 0) run.first_line = number;
  run.last_line = number;
  if (m_values >= k_max_values) {
    ++m_dropped_values;
    return;
  }
  ++m_values;
  model::PrintedValue value;
  value.phase = phase;
  value.kernel = std::string(kernel);
  value.arg = std::string(arg);
  value.where = {m_facts.artifact, "", number};
  value.header = line_text(raw);
  if (is_scalar) {
    value.scalar = std::string(scalar);
  } else {
    value.tensor.emplace();
    m_block = static_cast<int>(run.values.size());
    m_block_has_stats = false;
  }
  run.values.push_back(std::move(value));
}

// One line of a tensor block: a statistic, a printed element, or its type line.
bool PrinterReader::statistic(std::string_view line, int number) {
  line = util::trim(line);
  auto& run = m_facts.runs.back();
  auto& value = run.values[static_cast<std::size_t>(m_block)];
  auto& t = *value.tensor;
  const auto colon = line.find(": ");
  if (line.empty()) {
    if (m_block_has_stats) close_block(false);
    return false;
  }
  if (colon == std::string_view::npos) return false;
  const auto key = line.substr(0, colon);
  const auto text = util::trim(line.substr(colon + 2));
  if (key == "Number of elements") {
    if (const auto n = number_of(text)) t.numel = static_cast<std::int64_t>(*n);
  } else if (key == "Dtype") {
    t.dtype = std::string(text);
  } else if (key == "Mean value") {
    t.mean = number_of(text);
    t.mean_text = std::string(text);
  } else if (key == "Min value") {
    t.min = number_of(text);
    t.min_text = std::string(text);
    t.min_line = number;
  } else if (key == "Max value") {
    t.max = number_of(text);
    t.max_text = std::string(text);
    t.max_line = number;
  } else if (key == "Device") {
    t.device = std::string(text);
  } else if (key == "Size") {
    t.size = list_of(text);
  } else if (key == "Stride") {
    t.stride = list_of(text);
  } else if (key != "Layout" && key != "Is contiguous" && key != "Requires grad") {
    return false;
  }
  m_block_has_stats = true;
  run.last_line = std::max(run.last_line, value.where.line);
  if (key == "Requires grad") close_block(false);
  return true;
}

void PrinterReader::close_block(bool cut) {
  if (m_block < 0) return;
  auto& value = m_facts.runs.back().values[static_cast<std::size_t>(m_block)];
  if (cut) {
    value.cut = true;
    m_facts.problems.push_back(
        "line " + std::to_string(value.where.line) + ": the printer's block `" + value.arg +
        (m_block_has_stats
             ? "` is cut: its statistics stop before `Requires grad:`"
             : "` has no statistics: another block or the end of the log came first"));
  }
  m_block = -1;
  m_block_has_stats = false;
}

std::optional<model::DebugRunFacts> PrinterReader::finish() {
  // A block still open at the end of the log lost its last lines (its statistics end with
  // `Requires grad:` or a blank line).
  close_block(m_block >= 0);
  if (!m_any) return std::nullopt;
  if (m_dropped_values > 0)
    m_facts.problems.push_back(fmt::format("more than {} printed values; {} more were not kept",
                                           k_max_values, m_dropped_values));
  if (m_dropped_launches > 0)
    m_facts.problems.push_back(fmt::format("more than {} launches; {} older ones were not kept",
                                           k_max_launches, m_dropped_launches));
  return std::move(m_facts);
}

}  // namespace aoti::parsers::logs
