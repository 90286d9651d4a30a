// The JSON shapes of a model and a finding, shared by the single-case report and by scans
// (JSONL lines, baselines, shard merges), so that every JSON the tool writes agrees.
#pragma once

#include <nlohmann/json.hpp>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::report {

using Json = nlohmann::ordered_json;

Json model_json(const model::ModelFacts& model);
Json finding_json(const model::Finding& finding);
// The reverse of finding_json, tolerant of missing keys (lines written by other versions).
model::Finding finding_from_json(const nlohmann::json& j);

}  // namespace aoti::report
