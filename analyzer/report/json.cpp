// The machine-readable report, schema "aoti-analyze/1": keys in contract order, never truncated.
#include <nlohmann/json.hpp>

#include "analyzer/report/common.hpp"
#include "analyzer/report/json_model.hpp"
#include "analyzer/report/report.hpp"
#include "analyzer/version.hpp"

namespace aoti::report {

Json model_json(const model::ModelFacts& model) {
  const ModelSummary summary = summarize(model);
  Json inputs = Json::array();
  for (const auto& input : summary.inputs)
    inputs.push_back({{"name", input.name}, {"user_name", input.user_name}, {"contract", input.contract}});
  return {{"name", summary.name},
          {"package", summary.package},
          {"device", summary.device},
          {"compute_capability", summary.compute_capability},
          {"inputs", std::move(inputs)},
          {"input_checks_need_env", summary.input_checks_need_env},
          {"kernels", summary.kernel_count ? Json(*summary.kernel_count) : Json(nullptr)},
          {"extern_ops", summary.extern_ops},
          {"compiler", summary.compiler}};
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
  if (!model::parse_severity(j.value("severity", "note"), f.severity)) f.severity = model::Severity::note;
  f.confidence = j.value("confidence", 0.0);
  f.title = j.value("title", "");
  f.message = j.value("message", "");
  f.why = j.value("why", "");
  for (const auto& e : j.value("evidence", nlohmann::json::array())) {
    model::Evidence evidence;
    evidence.where.artifact = e.value("artifact", "");
    evidence.where.entry = e.value("entry", "");
    evidence.where.line = e.contains("line") && e["line"].is_number_integer() ? e["line"].get<int>() : 0;
    evidence.excerpt = e.value("excerpt", "");
    evidence.kind = e.value("kind", "fact") == "quote" ? model::EvidenceKind::quote : model::EvidenceKind::fact;
    evidence.line_end = e.contains("line_end") && e["line_end"].is_number_integer() ? e["line_end"].get<int>() : 0;
    evidence.note = e.value("note", "");
    f.evidence.push_back(std::move(evidence));
  }
  for (const auto& s : j.value("next_steps", nlohmann::json::array()))
    f.next_steps.push_back({s.value("what", ""), s.value("command", ""), s.value("language", "sh")});
  for (const auto& step : j.value("chain", nlohmann::json::array()))
    if (step.is_string()) f.chain.push_back(step);
  f.fingerprint = j.value("fingerprint", "");
  f.explains_failure = j.value("explains_failure", false);
  f.subject = j.value("subject", "");
  return f;
}

std::string render_json(const model::Case& c, const std::vector<model::Finding>& findings) {
  Json artifacts = Json::array();
  for (const auto& a : c.artifacts)
    artifacts.push_back({{"path", a.path},
                         {"kind", model::to_string(a.kind)},
                         {"size", a.size},
                         {"analyzed", a.analyzed},
                         {"note", a.note}});
  Json models = Json::array();
  for (const auto& model : c.models) models.push_back(model_json(model));
  Json results = Json::array();
  for (const auto& finding : findings) results.push_back(finding_json(finding));
  Json diagnostics = Json::array();
  for (const auto& d : c.diagnostics)
    diagnostics.push_back({{"artifact", d.artifact}, {"message", d.message}});

  const Json report = {{"schema", "aoti-analyze/1"},
                       {"tool", {{"name", "aoti-analyze"}, {"version", aoti::k_version}}},
                       {"artifacts", std::move(artifacts)},
                       {"models", std::move(models)},
                       {"findings", std::move(results)},
                       {"diagnostics", std::move(diagnostics)}};
  // Strings come from hostile files: invalid UTF-8 becomes U+FFFD rather than an exception.
  return report.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace aoti::report
