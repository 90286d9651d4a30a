// SARIF 2.1.0 for code-scanning dashboards: one run, one rule per check, one result per finding.
#include <cctype>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analyzer/io/json_codec.hpp"
#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"
#include "analyzer/version.hpp"
#include "checks/docs.hpp"

namespace aoti::report {

namespace {

using Json = nlohmann::ordered_json;

// Paths as RFC 3986 references: absolute paths become file:// URIs, relative ones stay relative
// (viewers resolve them against the checkout). Everything but unreserved characters and '/' is
// percent-encoded, ':' included, so that "a:b.log" cannot read as a scheme.
std::string to_uri(std::string_view path) {
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += ch;
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

// "triton.index-out-of-bounds" -> "TritonIndexOutOfBounds": SARIF wants rule names that read as
// identifiers.
std::string rule_name(std::string_view id) {
  std::string out;
  bool upper = true;
  for (const char ch : id) {
    const auto c = static_cast<unsigned char>(ch);
    if (!std::isalnum(c)) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(c)) : ch;
    upper = false;
  }
  return out;
}

struct Rules {
  Json list = Json::array();
  std::map<std::string, std::size_t, std::less<>> index;

  void add(std::string_view id, std::string_view summary, std::string_view doc,
           std::string_view family) {
    if (index.count(id)) return;
    Json rule = {{"id", id}, {"name", rule_name(id)}, {"shortDescription", {{"text", summary}}}};
    if (!doc.empty()) {
      rule["fullDescription"] = {{"text", summary}, {"markdown", doc}};
      rule["help"] = {{"text", summary}, {"markdown", doc}};
    }
    if (!family.empty()) rule["properties"] = {{"tags", Json::array({family})}};
    index.emplace(std::string(id), list.size());
    list.push_back(std::move(rule));
  }
};

Rules make_rules(const std::vector<model::Finding>& findings,
                 std::span<const checks::CheckInfo> checks) {
  Rules rules;
  for (const auto& check : checks)
    rules.add(check.id, check.summary, checks::doc_page(check.id), check.family);
  // A finding from a check the registry does not list (a test, a newer plug-in) still needs a
  // rule: SARIF consumers reject a ruleIndex that points nowhere.
  for (const auto& finding : findings) {
    const std::string_view id = finding.check;
    rules.add(id, fmt::format("{}: a check this build does not list", id), "",
              id.substr(0, id.find('.')));
  }
  return rules;
}

class Locations {
 public:
  // `paths`: the run's artifacts, in the order of run.artifacts.
  explicit Locations(const std::vector<std::string>& paths) {
    for (std::size_t i = 0; i < paths.size(); ++i) m_index.emplace(paths[i], i);
  }

  Json artifact_location(const std::string& path) const {
    Json location = {{"uri", to_uri(path)}};
    if (auto it = m_index.find(path); it != m_index.end()) location["index"] = it->second;
    return location;
  }

  // A line inside a package entry is not a line of the package, so a region would point at the
  // wrong bytes: the package stays the artifact, and the entry and its line go in a logical
  // location and the message. Only a line of the artifact itself becomes a region.
  std::optional<Json> location(const model::Evidence& evidence) const {
    const model::Location& where = evidence.where;
    const bool quote = evidence.kind == model::EvidenceKind::quote;
    const std::string_view excerpt = evidence.excerpt;
    const std::string_view note = evidence.note;
    if (where.artifact.empty()) return std::nullopt;
    Json physical = {{"artifactLocation", artifact_location(where.artifact)}};
    Json properties = Json::object();
    // Only a quote is the artifact's text (a region's snippet); a derived fact stays a property.
    if (where.entry.empty() && where.line > 0) {
      physical["region"] = {{"startLine", where.line}};
      if (evidence.line_end > where.line) physical["region"]["endLine"] = evidence.line_end;
      if (!excerpt.empty() && quote) physical["region"]["snippet"] = {{"text", excerpt}};
    }
    if (!excerpt.empty() && !(quote && where.entry.empty() && where.line > 0))
      properties[quote ? "excerpt" : "derived"] = excerpt;
    Json location = {{"physicalLocation", std::move(physical)}};
    std::string text(note);
    if (!where.entry.empty()) {
      const std::string entry =
          where.line > 0 ? fmt::format("{}:{}", where.entry, where.line) : where.entry;
      const auto slash = where.entry.rfind('/');
      location["logicalLocations"] = Json::array(
          {{{"name", slash == std::string::npos ? where.entry : where.entry.substr(slash + 1)},
            {"fullyQualifiedName", entry}}});
      properties["entry"] = where.entry;
      if (where.line > 0) properties["line"] = where.line;
      text = text.empty() ? entry : fmt::format("{}: {}", entry, text);
    }
    if (!text.empty()) location["message"] = {{"text", text}};
    if (!properties.empty()) location["properties"] = std::move(properties);
    return location;
  }

 private:
  std::map<std::string, std::size_t> m_index;
};

Json result_json(const model::Finding& finding, std::size_t rule_index, const Locations& locations,
                 const model::Case& c) {
  std::string text = finding.title;
  if (!finding.message.empty()) text += (text.empty() ? "" : "\n\n") + finding.message;
  if (text.empty()) text = finding.check;
  Json result = {{"ruleId", finding.check},
                 {"ruleIndex", rule_index},
                 {"level", model::to_string(finding.severity)},
                 {"message", {{"text", text}}}};
  // The first piece of evidence is where the finding is; the rest supports it.
  Json primary = Json::array(), related = Json::array();
  for (const auto& evidence : finding.evidence) {
    auto location = locations.location(evidence);
    if (!location) continue;
    if (primary.empty()) {
      primary.push_back(std::move(*location));
    } else {
      (*location)["id"] = related.size();
      related.push_back(std::move(*location));
    }
  }
  // Code-scanning uploads reject results without a location; a finding about the whole case
  // points at the package it concerns, else at the first input.
  if (primary.empty()) {
    const std::string anchor = !c.models.empty() && !c.models.front().package.empty()
                                   ? c.models.front().package
                               : !c.artifacts.empty() ? c.artifacts.front().path
                                                      : std::string();
    if (!anchor.empty())
      primary.push_back(
          {{"physicalLocation", {{"artifactLocation", locations.artifact_location(anchor)}}}});
  }
  if (!primary.empty()) result["locations"] = std::move(primary);
  if (!related.empty()) result["relatedLocations"] = std::move(related);
  if (!finding.fingerprint.empty())
    result["partialFingerprints"] = {{"aotiAnalyze/v1", finding.fingerprint}};
  result["properties"] = {{"rank", finding.rank},
                          {"confidence", finding.confidence},
                          {"explainsFailure", finding.explains_failure},
                          {"subject", finding.subject},
                          {"why", finding.why},
                          {"nextSteps", io::next_steps_json(finding.next_steps)}};
  return result;
}

}  // namespace

std::string render_sarif(const model::Case& c, const std::vector<model::Finding>& findings,
                         std::span<const checks::CheckInfo> checks) {
  const Rules rules = make_rules(findings, checks);
  // An artifact without a path has no URI to give; it still shows in the other formats.
  std::vector<std::string> paths;
  Json artifacts = Json::array();
  for (const auto& artifact : c.artifacts) {
    if (artifact.path.empty()) continue;
    paths.push_back(artifact.path);
    Json entry = {{"location", {{"uri", to_uri(artifact.path)}}}, {"length", artifact.size}};
    if (artifact.analyzed) entry["roles"] = Json::array({"analysisTarget"});
    entry["properties"] = {{"kind", model::to_string(artifact.kind)},
                           {"analyzed", artifact.analyzed},
                           {"note", artifact.note}};
    artifacts.push_back(std::move(entry));
  }
  const Locations locations(paths);

  Json results = Json::array();
  for (const auto& finding : findings)
    results.push_back(result_json(finding, rules.index.find(finding.check)->second, locations, c));

  Json notifications = Json::array();
  for (const auto& diagnostic : c.diagnostics) {
    Json notification = {
        {"level", "warning"},
        {"message",
         {{"text", diagnostic.message.empty() ? "could not be read" : diagnostic.message}}}};
    if (diagnostic.source == model::DiagnosticSource::check)
      notification["associatedRule"] = {{"id", diagnostic.artifact}};
    else if (!diagnostic.artifact.empty())
      notification["locations"] = Json::array(
          {{{"physicalLocation",
             {{"artifactLocation", locations.artifact_location(diagnostic.artifact)}}}}});
    notifications.push_back(std::move(notification));
  }

  const Json driver = {{"name", "aoti-analyze"},
                       {"version", aoti::k_version},
                       {"semanticVersion", aoti::k_version},
                       {"rules", rules.list}};
  const Json run = {
      {"tool", {{"driver", driver}}},
      {"invocations", Json::array({{{"executionSuccessful", true},
                                    {"toolExecutionNotifications", std::move(notifications)}}})},
      {"artifacts", std::move(artifacts)},
      {"results", std::move(results)},
      {"properties", {{"verdict", verdict(findings)}}}};
  const Json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", Json::array({run})}};
  return sarif.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace aoti::report
