// Running the checks, and keeping one finding per cause.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "analyzer/pipeline/analyze.hpp"
#include "analyzer/pipeline/paths.hpp"
#include "checks/registry.hpp"
#include "util/text.hpp"

namespace aoti::pipeline {
using namespace aoti::model;
namespace fs = std::filesystem;
namespace {

// Every field within k_max_report_field. A quote is already cut line by line where it is made.
void bound_text(Finding& f) {
  constexpr std::size_t k_max_finding_text = k_max_report_field;
  const auto bound = [](std::string& text) {
    if (text.size() > k_max_finding_text) text = util::cut_marked(text, k_max_finding_text);
  };
  for (std::string* text : {&f.title, &f.message, &f.why, &f.subject}) bound(*text);
  for (Evidence& e : f.evidence) {
    bound(e.note);
    if (e.kind == EvidenceKind::fact) bound(e.excerpt);
  }
  for (NextStep& step : f.next_steps) {
    bound(step.what);
    // A command cut short would not run as printed: it is left out, and the step says so.
    if (step.command.size() > k_max_finding_text) {
      step.what +=
          " (its command, " + std::to_string(step.command.size()) + " bytes long, is left out)";
      step.command.clear();
    }
  }
  for (std::string& label : f.chain) bound(label);
}

}  // namespace

std::vector<Finding> run_checks(Case& c) { return run_checks(c, checks::all_checks()); }

std::vector<Finding> run_checks(Case& c,
                                const std::vector<std::unique_ptr<checks::Check>>& checks) {
  std::vector<Finding> findings;
  std::vector<Finding> last_resort;
  for (const auto& check : checks) {
    try {
      auto found = check->run(c);
      for (auto& f : found) {
        if (f.check.empty()) f.check = std::string(check->id());
        bound_text(f);
        (check->last_resort() ? last_resort : findings).push_back(std::move(f));
      }
    } catch (const std::exception& ex) {
      c.diagnostics.push_back({std::string(check->id()),
                               std::string("check failed internally: ") + ex.what(),
                               DiagnosticSource::check});
    } catch (...) {
      c.diagnostics.push_back(
          {std::string(check->id()), "check failed internally", DiagnosticSource::check});
    }
  }
  merge_consequences(findings);
  // The error that ended each log's run: its last exception (or a crash after it).
  std::vector<Location> endings;
  for (const auto& e : c.log_events)
    if ((e.kind == LogEventKind::python_exception && e.final) || e.kind == LogEventKind::segfault)
      endings.push_back(e.where);
  for (auto& f : findings)
    f.ends_run = f.explains_failure &&
                 std::any_of(f.evidence.begin(), f.evidence.end(), [&](const Evidence& ev) {
                   return std::any_of(endings.begin(), endings.end(), [&](const Location& where) {
                     return where.line > 0 && ev.where.line == where.line &&
                            ev.where.artifact == where.artifact;
                   });
                 });
  // A last-resort finding stands for an artifact whose error no other check explained: neither in
  // it nor in another output of the same run (stdout beside stderr, in one folder).
  std::vector<fs::path> explained;
  for (const auto& f : findings)
    if (f.explains_failure)
      for (const auto& e : f.evidence) explained.push_back(folder_of(e.where.artifact));
  for (auto& f : last_resort) {
    const bool covered = !f.evidence.empty() &&
                         std::find(explained.begin(), explained.end(),
                                   folder_of(f.evidence.front().where.artifact)) != explained.end();
    if (!covered) findings.push_back(std::move(f));
  }
  return findings;
}

void merge_consequences(std::vector<Finding>& findings) {
  // One finding per cause. Two findings are one when
  // - one is how another's failure surfaced: a failed AOTI runtime call ("API call failed at ...")
  //   after an error another finding explains on an earlier line of the same log;
  // - one is a generic failure (export failed, a runner error) of the same run (the same folder) as
  // a
  //   finding that names its cause (a missing fake kernel, a data-dependent guard, ...);
  // - the same check found the same thing twice in one run (export retried in strict mode);
  // - one reads a GPU fault generically (cuda.illegal-memory-access: the dump's kernel and line)
  //   and another names the code behind the same fault (a custom op's kernel): both begin with the
  //   same derived statement of the same dump's warp.
  // The consequence joins the cause as evidence instead of standing as a second finding.
  const auto first_quote = [](const Finding& f) -> const Evidence* {
    for (const auto& e : f.evidence)
      if (e.kind == EvidenceKind::quote) return &e;
    return nullptr;
  };
  const auto one_run = [](const Finding& a, const Finding& b) {
    return !a.evidence.empty() && !b.evidence.empty() &&
           same_run(a.evidence.front().where.artifact, b.evidence.front().where.artifact);
  };
  const auto generic = [](const Finding& f) {
    return f.check == "export.failed" || f.check == "runtime.runner-error" ||
           f.check == "runtime.api-call-failed";
  };
  const auto same_fault = [](const Finding& generic_read, const Finding& other) {
    return generic_read.check == "cuda.illegal-memory-access" &&
           other.check != generic_read.check && !generic_read.evidence.empty() &&
           !other.evidence.empty() && generic_read.evidence.front().kind == EvidenceKind::fact &&
           other.evidence.front().kind == EvidenceKind::fact &&
           generic_read.evidence.front().where.artifact == other.evidence.front().where.artifact &&
           generic_read.evidence.front().excerpt == other.evidence.front().excerpt;
  };
  for (std::size_t i = 0; i < findings.size();) {
    const Finding& consequence = findings[i];
    const Evidence* failed = first_quote(consequence);
    Finding* cause = nullptr;
    bool restated = false;  // the same fault read twice: nothing "surfaced"
    for (std::size_t k = 0; k < findings.size() && !cause && consequence.explains_failure; ++k) {
      Finding& other = findings[k];
      if (k == i || !other.explains_failure) continue;
      const Evidence* line = first_quote(other);
      if (same_fault(consequence, other)) {
        cause = &other;
        restated = true;
      } else if (consequence.check == "runtime.api-call-failed") {
        if (failed && line && other.check != consequence.check &&
            line->where.artifact == failed->where.artifact &&
            line->where.entry == failed->where.entry && line->where.line <= failed->where.line)
          cause = &other;
      } else if (generic(consequence) && !generic(other) && one_run(other, consequence)) {
        cause = &other;
      } else if (k < i && other.check == consequence.check && other.title == consequence.title &&
                 one_run(other, consequence)) {
        cause = &other;
      }
    }
    if (!cause) {
      ++i;
      continue;
    }
    if (cause->check != consequence.check && !restated) {
      std::string surfaced = consequence.title;
      if (!surfaced.empty())
        surfaced[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(surfaced[0])));
      cause->message += fmt::format(" It surfaced as {}.", surfaced);
    }
    for (const auto& e : consequence.evidence)
      if (std::none_of(cause->evidence.begin(), cause->evidence.end(), [&](const Evidence& have) {
            return have.where.artifact == e.where.artifact && have.where.line == e.where.line &&
                   have.excerpt == e.excerpt;
          }))
        cause->evidence.push_back(e);
    for (const auto& step : consequence.next_steps)
      if (std::none_of(cause->next_steps.begin(), cause->next_steps.end(), [&](const NextStep& s) {
            return s.command == step.command && s.what == step.what;
          }))
        cause->next_steps.push_back(step);
    findings.erase(findings.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace aoti::pipeline
