// The JSON shapes of a model and a finding, shared by the single-case report and by scans
// (JSONL lines, baselines, shard merges), so that every JSON the tool writes agrees.
#pragma once

#include <nlohmann/json.hpp>

#include "analyzer/core/case.hpp"
#include "analyzer/core/finding.hpp"

namespace aoti::report {

using Json = nlohmann::ordered_json;

Json model_json(const core::ModelFacts& model);
Json finding_json(const core::Finding& finding);
// The reverse of finding_json, tolerant of missing keys (lines written by other versions).
core::Finding finding_from_json(const nlohmann::json& j);

}  // namespace aoti::report
