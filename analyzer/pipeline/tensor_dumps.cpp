#include "analyzer/pipeline/tensor_dumps.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "analyzer/pipeline/paths.hpp"
#include "parsers/pt/tensor_dump.hpp"
#include "torch/debug_printer.hpp"

namespace aoti::pipeline {
using namespace aoti::model;
namespace fs = std::filesystem;
namespace {

std::string file_name_of(const std::string& path) { return fs::path(path).filename().string(); }

// What the artifact's line in a report says of the tensor.
std::string describe(const TensorSummary& tensor) {
  std::string text = fmt::format("tensor dump: {} [{}] on {}", tensor.dtype,
                                 fmt::join(tensor.size, ", "), tensor.device);
  if (tensor.min && tensor.max)
    text += fmt::format(", min {:g}, max {:g}", *tensor.min, *tensor.max);
  if (tensor.mean) text += fmt::format(", mean {:g}", *tensor.mean);
  const std::int64_t nan = tensor.nan_count.value_or(0), inf = tensor.inf_count.value_or(0);
  if (tensor.nan_count && tensor.inf_count && nan == 0 && inf == 0) text += ", no NaN or inf";
  if (nan > 0) text += fmt::format(", {} NaN", nan);
  if (inf > 0) text += fmt::format(", {} inf", inf);
  return text;
}

// The saved-tensor name of a value read from a dump file; nullopt for a value printed in a log.
std::optional<torch::SavedTensorName> dump_name(const PrintedValue& value,
                                                const std::string& file_name) {
  if (!value.header.empty() || value.where.line != 0) return std::nullopt;
  return torch::parse_saved_tensor_name(file_name);
}

PrintPhase phase_of(std::string_view phase) {
  return phase == "after_launch" ? PrintPhase::after_launch : PrintPhase::before_launch;
}

// The save call that wrote the file: the same phase, and kernel and arg joined as the runtime
// joins them. Two calls that join alike write one file, the later one last: that one.
const PrinterCall* save_call_of(const WrapperFacts& wrapper, PrintPhase phase,
                                std::string_view joined) {
  const PrinterCall* found = nullptr;
  for (const PrinterCall& call : wrapper.printer_calls)
    if (call.kind == PrinterCallKind::save && call.phase == phase &&
        joined.size() == call.kernel.size() + 1 + call.arg.size() &&
        joined.starts_with(call.kernel) && joined[call.kernel.size()] == '_' &&
        joined.ends_with(call.arg))
      found = &call;
  return found;
}

}  // namespace

DebugRunFacts& TensorDumpFolders::facts_of(const std::string& display) {
  std::string folder = folder_of(display).string();
  if (folder.empty()) folder = ".";
  DebugRunFacts& facts = m_runs[folder];
  facts.artifact = folder;
  if (facts.runs.empty()) facts.runs.emplace_back();
  return facts;
}

void TensorDumpFolders::load(const SniffedInput& input, Artifact& artifact, Case& c) {
  // Only files named as the printer names them are its values; another torch.save file is listed
  // with what it holds.
  const std::string file_name = input.path.filename().string();  // `name` views it
  const auto name = torch::parse_saved_tensor_name(file_name);
  auto dump = parsers::pt::read_tensor_dump(input.path);
  if (!dump) {
    artifact.note = "tensor dump: " + dump.error().message;
    c.diagnostics.push_back({input.display, artifact.note});
    if (name)
      facts_of(input.display).problems.push_back(input.display + ": " + dump.error().message);
    return;
  }
  artifact.analyzed = true;
  artifact.note = describe(dump->tensor);
  for (const std::string& note : dump->notes) {
    artifact.note += "; " + note;
    c.diagnostics.push_back({input.display, note});
  }
  if (!name) {
    artifact.note += " (not named as the intermediate value printer names its files)";
    return;
  }
  PrintedValue value;
  value.phase = phase_of(name->phase);
  const auto split = torch::split_kernel_and_arg(name->kernel_and_arg);
  value.kernel = std::string(split.kernel);
  value.arg = std::string(split.arg);
  value.names_inferred = true;
  value.where = Location{input.display, "", 0};
  value.tensor = std::move(dump->tensor);
  facts_of(input.display).runs.back().values.push_back(std::move(value));
}

void TensorDumpFolders::finish(Case& c) {
  for (auto& [folder, run] : m_runs) {
    auto& values = run.runs.back().values;
    std::stable_sort(values.begin(), values.end(),
                     [](const PrintedValue& a, const PrintedValue& b) {
                       return a.where.artifact < b.where.artifact;
                     });
    c.debug_runs.push_back(std::move(run));
  }
  m_runs.clear();
}

void correlate_tensor_dumps(Case& c) {
  for (DebugRunFacts& facts : c.debug_runs) {
    // The model whose wrapper saved the most of these files.
    std::size_t best_matches = 0;
    for (std::size_t m = 0; m < c.models.size(); ++m) {
      if (!c.models[m].wrapper) continue;
      std::size_t matches = 0;
      for (const PrinterRun& run : facts.runs)
        for (const PrintedValue& value : run.values) {
          const std::string file_name = file_name_of(value.where.artifact);
          if (const auto name = dump_name(value, file_name))
            matches += save_call_of(*c.models[m].wrapper, phase_of(name->phase),
                                    name->kernel_and_arg) != nullptr;
        }
      if (matches > best_matches) best_matches = matches, facts.model = m;
    }
    if (!facts.model) continue;
    const WrapperFacts& wrapper = *c.models[*facts.model].wrapper;
    for (PrinterRun& run : facts.runs) {
      for (PrintedValue& value : run.values) {
        const std::string file_name = file_name_of(value.where.artifact);
        const auto name = dump_name(value, file_name);
        if (!name) continue;
        const PrinterCall* call =
            save_call_of(wrapper, phase_of(name->phase), name->kernel_and_arg);
        if (!call) continue;
        value.kernel = call->kernel;
        value.arg = call->arg;
        value.wrapper_line = call->line;
        value.names_inferred = false;
      }
      // In the order the wrapper saved them; files no call of it saved after those, as they were.
      std::stable_sort(run.values.begin(), run.values.end(),
                       [](const PrintedValue& a, const PrintedValue& b) {
                         if ((a.wrapper_line == 0) != (b.wrapper_line == 0))
                           return b.wrapper_line == 0;
                         return a.wrapper_line < b.wrapper_line;
                       });
    }
  }
}

}  // namespace aoti::pipeline
