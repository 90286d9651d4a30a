// Which model each log event is about: what its text shares with a model (an assert only its
// kernels hold, its wrapper's name, its input contract), then where the log sits.
#include <algorithm>
#include <string>

#include "analyzer/pipeline/analyze.hpp"
#include "analyzer/pipeline/paths.hpp"
#include "analyzer/pipeline/tensor_dumps.hpp"

namespace aoti::pipeline {
using namespace aoti::model;
namespace fs = std::filesystem;
namespace {

// How well an input-check error matches a model's own input contract: the error text repeats the
// bound the wrapper was generated with, so a matching bound names the package that raised it.
int contract_match(const LogEvent& e, const ModelFacts& model) {
  if (!model.wrapper || e.input_index < 0) return 0;
  const auto& w = *model.wrapper;
  if (static_cast<std::size_t>(e.input_index) >= w.inputs.size()) return -1;
  int score = 1;
  for (const auto& check : w.input_checks) {
    if (check.input_index != e.input_index) continue;
    if (check.dim >= 0 && check.dim == e.dim && std::to_string(check.value) == e.expected)
      score += 2;
  }
  return score;
}

// How strongly an event's own text ties it to a model: an assert text only its kernels hold, its
// wrapper's file name, one of its kernels' names, its input contract. Negative: ruled out.
int content_match(const LogEvent& e, const ModelFacts& model) {
  if (!model.wrapper) return 0;
  const auto& w = *model.wrapper;
  if (e.kind == LogEventKind::triton_assert) {
    for (const auto& kernel : w.kernels)
      for (const auto& a : kernel.asserts)
        if (a.message == e.subject && (e.kernel.empty() || e.kernel == kernel.name)) return 10;
  }
  if (e.kind == LogEventKind::api_call_failed &&
      fs::path(e.source_file).filename().string() == w.file_name)
    return 10;
  if (e.kind == LogEventKind::input_check_error) return contract_match(e, model);
  for (const auto& kernel : w.kernels)
    if (e.text.find(kernel.name) != std::string::npos) return 6;
  return 0;
}

std::string artifact_of(const ModelFacts& model) {
  return !model.package.empty() ? model.package
         : model.wrapper        ? model.wrapper->where.artifact
                                : std::string();
}

bool is_within(const fs::path& inner, const fs::path& outer) {
  auto [end, ignored] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return end == outer.end();
}

}  // namespace

void correlate(Case& c) {
  for (auto& e : c.log_events) {
    std::optional<std::size_t> best;
    int best_score = 0;
    bool ruled_out_only_model = false;
    for (std::size_t m = 0; m < c.models.size(); ++m) {
      int score = content_match(e, c.models[m]);
      if (score < 0) {
        ruled_out_only_model = c.models.size() == 1;
        continue;
      }
      // The artifacts of one run usually sit in one folder: a log beside (or below) a package is
      // about that package when nothing in its text says otherwise.
      if (is_within(folder_of(e.where.artifact), folder_of(artifact_of(c.models[m])))) score += 1;
      if (score > best_score) best = m, best_score = score;
    }
    // With a single model in the case, every event is about it unless its contract rules it out.
    if (!best && c.models.size() == 1 && !ruled_out_only_model) best = 0;
    e.model = best;
  }
  correlate_tensor_dumps(c);
}

}  // namespace aoti::pipeline
