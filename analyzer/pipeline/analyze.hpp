// The pipeline: inputs → sniff → parse → Case → correlate → checks → rank.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "checks/check.hpp"
#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::pipeline {

// Reads every input (files or folders). Never throws: what cannot be read becomes a diagnostic.
// `verify_trace_payloads`: check every trace payload's MD5, however large the log (--verify).
model::Case load_case(const std::vector<std::string>& paths, bool verify_trace_payloads = false);

// Ties artifacts together: each log event to the model it concerns.
void correlate(model::Case& c);

// Runs every registered check; a check that throws becomes a diagnostic whose source is that check.
std::vector<model::Finding> run_checks(model::Case& c);
// The same with the given checks instead of the registry's.
std::vector<model::Finding> run_checks(model::Case& c,
                                       const std::vector<std::unique_ptr<checks::Check>>& checks);

// Orders findings (explains an observed failure, then severity, confidence, check id, subject),
// numbers them from 1 and sets their fingerprints.
// One finding per cause: a finding that is only how another one's failure surfaced (a failed AOTI
// call after the error that made it fail) is merged into it as evidence.
void merge_consequences(std::vector<model::Finding>& findings);

void rank(std::vector<model::Finding>& findings);

// True when at least one artifact could be analyzed.
bool anything_analyzed(const model::Case& c);

}  // namespace aoti::pipeline
