// The JSON shapes of a model, a finding and a scan record, shared by the single-case report and by
// scans (JSONL lines, baselines, shard merges, the history database), so that every JSON the tool
// writes agrees and what it writes it reads back.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/scan/package_result.hpp"
#include "analyzer/summary/model_summary.hpp"
#include "model/finding.hpp"

namespace aoti::io {

using Json = nlohmann::ordered_json;

Json model_json(const summary::ModelSummary& model);
Json finding_json(const model::Finding& finding);
// [{"what": ..., "command": ..., "language": ...}], as JSON and SARIF carry them.
Json next_steps_json(const std::vector<model::NextStep>& steps);

// The reverses, tolerant of missing keys (lines written by other versions).
summary::ModelSummary model_from_json(const nlohmann::json& j);
model::Finding finding_from_json(const nlohmann::json& j);

// A scan record, schema "aoti-analyze/scan/1": one line, no newline.
std::string to_jsonl_line(const scan::PackageResult& result);
// nullopt when the line is no scan record (not JSON, another schema, an unknown status).
std::optional<scan::PackageResult> from_jsonl_line(const std::string& line);

}  // namespace aoti::io
