// The order of the findings, and each one's fingerprint: what a scan compares runs by.
#include <algorithm>

#include <fmt/format.h>

#include "analyzer/pipeline/analyze.hpp"
#include "util/fnv1a.hpp"

namespace aoti::pipeline {
using namespace aoti::model;
namespace {

// Fingerprints only need to be stable, not secret.
std::string fingerprint_of(std::string_view text) {
  return fmt::format("{:016x}", util::fnv1a(text));
}

}  // namespace

void rank(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.explains_failure != b.explains_failure) return a.explains_failure;
    // Of two explained failures, the one that ended the run (a traceback's last exception) first.
    if (a.explains_failure && a.severity == b.severity && a.ends_run != b.ends_run)
      return a.ends_run;
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.confidence != b.confidence) return a.confidence > b.confidence;
    if (a.check != b.check) return a.check < b.check;
    return a.subject < b.subject;
  });
  for (std::size_t i = 0; i < findings.size(); ++i) {
    findings[i].rank = static_cast<int>(i + 1);
    // The artifact (not the entry: wrapper names change at every build) tells apart the same
    // problem in two packages of one scan.
    const std::string artifact =
        findings[i].evidence.empty() ? "" : findings[i].evidence.front().where.artifact;
    findings[i].fingerprint =
        fingerprint_of(findings[i].check + "\n" + findings[i].subject + "\n" + artifact);
  }
}

}  // namespace aoti::pipeline
