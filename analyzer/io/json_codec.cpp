#include "analyzer/io/json_codec.hpp"

namespace aoti::io {
namespace {

const char* state_name(scan::FindingState state) {
  switch (state) {
    case scan::FindingState::new_finding:
      return "new";
    case scan::FindingState::still_there:
      return "still";
    case scan::FindingState::unknown:
      break;
  }
  return nullptr;
}

scan::FindingState state_of(std::string_view name) {
  if (name == "new") return scan::FindingState::new_finding;
  if (name == "still") return scan::FindingState::still_there;
  return scan::FindingState::unknown;
}

std::optional<scan::ScanStatus> status_of(std::string_view name) {
  for (const auto status :
       {scan::ScanStatus::analyzed, scan::ScanStatus::unchanged, scan::ScanStatus::unreadable})
    if (scan::to_string(status) == name) return status;
  return std::nullopt;
}

std::vector<std::string> strings_of(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  for (const auto& item : j.value(key, nlohmann::json::array()))
    if (item.is_string()) out.push_back(item);
  return out;
}

}  // namespace

Json model_json(const summary::ModelSummary& model) {
  Json inputs = Json::array();
  for (const auto& input : model.inputs)
    inputs.push_back(
        {{"name", input.name}, {"user_name", input.user_name}, {"contract", input.contract}});
  return {{"name", model.name},
          {"package", model.package},
          {"device", model.device},
          {"compute_capability", model.compute_capability},
          {"inputs", std::move(inputs)},
          {"input_checks_need_env", model.input_checks_need_env},
          {"kernels", model.kernel_count ? Json(*model.kernel_count) : Json(nullptr)},
          {"extern_ops", model.extern_ops},
          {"compiler", model.compiler}};
}

summary::ModelSummary model_from_json(const nlohmann::json& j) {
  summary::ModelSummary model;
  model.name = j.value("name", "");
  model.package = j.value("package", "");
  model.device = j.value("device", "");
  model.compute_capability = j.value("compute_capability", "");
  for (const auto& input : j.value("inputs", nlohmann::json::array()))
    if (input.is_object())
      model.inputs.push_back(
          {input.value("name", ""), input.value("user_name", ""), input.value("contract", "")});
  model.input_checks_need_env = j.value("input_checks_need_env", false);
  if (j.contains("kernels") && j["kernels"].is_number_unsigned())
    model.kernel_count = j["kernels"].get<std::size_t>();
  model.extern_ops = strings_of(j, "extern_ops");
  model.compiler = j.value("compiler", "");
  return model;
}

Json next_steps_json(const std::vector<model::NextStep>& steps) {
  auto out = Json::array();
  for (const auto& step : steps)
    out.push_back({{"what", step.what}, {"command", step.command}, {"language", step.language}});
  return out;
}

Json finding_json(const model::Finding& finding) {
  Json evidence = Json::array();
  for (const auto& e : finding.evidence)
    // A line of 0 means "no line"; null says so without a sentinel a consumer must know about.
    evidence.push_back({{"kind", model::to_string(e.kind)},
                        {"artifact", e.where.artifact},
                        {"entry", e.where.entry},
                        {"line", e.where.line > 0 ? Json(e.where.line) : Json(nullptr)},
                        {"line_end", e.line_end > 0 ? Json(e.line_end) : Json(nullptr)},
                        {"excerpt", e.excerpt},
                        {"note", e.note}});
  return {{"rank", finding.rank},
          {"check", finding.check},
          {"severity", model::to_string(finding.severity)},
          {"confidence", finding.confidence},
          {"title", finding.title},
          {"message", finding.message},
          {"why", finding.why},
          {"evidence", std::move(evidence)},
          {"next_steps", next_steps_json(finding.next_steps)},
          {"chain", finding.chain},
          {"fingerprint", finding.fingerprint},
          {"explains_failure", finding.explains_failure},
          {"subject", finding.subject}};
}

model::Finding finding_from_json(const nlohmann::json& j) {
  model::Finding f;
  f.rank = j.value("rank", 0);
  f.check = j.value("check", "");
  if (!model::parse_severity(j.value("severity", "note"), f.severity))
    f.severity = model::Severity::note;
  f.confidence = j.value("confidence", 0.0);
  f.title = j.value("title", "");
  f.message = j.value("message", "");
  f.why = j.value("why", "");
  for (const auto& e : j.value("evidence", nlohmann::json::array())) {
    model::Evidence evidence;
    evidence.where.artifact = e.value("artifact", "");
    evidence.where.entry = e.value("entry", "");
    evidence.where.line =
        e.contains("line") && e["line"].is_number_integer() ? e["line"].get<int>() : 0;
    evidence.excerpt = e.value("excerpt", "");
    evidence.kind =
        e.value("kind", "fact") == "quote" ? model::EvidenceKind::quote : model::EvidenceKind::fact;
    evidence.line_end =
        e.contains("line_end") && e["line_end"].is_number_integer() ? e["line_end"].get<int>() : 0;
    evidence.note = e.value("note", "");
    f.evidence.push_back(std::move(evidence));
  }
  for (const auto& s : j.value("next_steps", nlohmann::json::array()))
    f.next_steps.push_back(
        {s.value("what", ""), s.value("command", ""), s.value("language", "sh")});
  f.chain = strings_of(j, "chain");
  f.fingerprint = j.value("fingerprint", "");
  f.explains_failure = j.value("explains_failure", false);
  f.subject = j.value("subject", "");
  return f;
}

std::string to_jsonl_line(const scan::PackageResult& result) {
  Json findings = Json::array();
  for (std::size_t i = 0; i < result.findings.size(); ++i) {
    Json f = finding_json(result.findings[i]);
    if (i < result.states.size())
      if (const char* state = state_name(result.states[i])) f["state"] = state;
    findings.push_back(std::move(f));
  }
  Json models = Json::array();
  for (const auto& model : result.models) models.push_back(model_json(model));
  Json diagnostics = Json::array();
  for (const auto& d : result.diagnostics)
    diagnostics.push_back({{"artifact", d.artifact}, {"message", d.message}});
  const Json line = {
      {"schema", "aoti-analyze/scan/1"},      {"package", result.package},
      {"identity", result.identity},          {"status", scan::to_string(result.status)},
      {"companions", result.companions},      {"models", std::move(models)},
      {"findings", std::move(findings)},      {"fixed", result.fixed},
      {"diagnostics", std::move(diagnostics)}};
  // Strings come from hostile files: invalid UTF-8 becomes U+FFFD rather than an exception.
  return line.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<scan::PackageResult> from_jsonl_line(const std::string& line) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "aoti-analyze/scan/1")
    return std::nullopt;
  const auto status = status_of(j.value("status", ""));
  if (!status) return std::nullopt;
  scan::PackageResult result;
  result.package = j.value("package", "");
  result.identity = j.value("identity", "");
  result.status = *status;
  result.companions = strings_of(j, "companions");
  for (const auto& m : j.value("models", nlohmann::json::array()))
    if (m.is_object()) result.models.push_back(model_from_json(m));
  for (const auto& f : j.value("findings", nlohmann::json::array())) {
    if (!f.is_object()) continue;
    result.findings.push_back(finding_from_json(f));
    result.states.push_back(state_of(f.value("state", "")));
  }
  result.fixed = strings_of(j, "fixed");
  for (const auto& d : j.value("diagnostics", nlohmann::json::array()))
    if (d.is_object())
      result.diagnostics.push_back({d.value("artifact", ""), d.value("message", "")});
  return result;
}

}  // namespace aoti::io
