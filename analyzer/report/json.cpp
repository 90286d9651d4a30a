// The machine-readable report, schema "aoti-analyze/1": keys in contract order, never truncated.
#include "analyzer/io/json_codec.hpp"
#include "analyzer/report/common.hpp"
#include "analyzer/report/report.hpp"
#include "analyzer/version.hpp"

namespace aoti::report {
using io::Json;

std::string render_json(const model::Case& c, const std::vector<model::Finding>& findings) {
  Json artifacts = Json::array();
  for (const auto& a : c.artifacts)
    artifacts.push_back({{"path", a.path},
                         {"kind", model::to_string(a.kind)},
                         {"size", a.size},
                         {"analyzed", a.analyzed},
                         {"note", a.note}});
  Json models = Json::array();
  for (const auto& model : c.models) models.push_back(io::model_json(summarize(model)));
  Json results = Json::array();
  for (const auto& finding : findings) results.push_back(io::finding_json(finding));
  Json diagnostics = Json::array();
  for (const auto& d : c.diagnostics)
    diagnostics.push_back({{"artifact", d.artifact}, {"message", d.message}});

  Json ops = Json::array();
  for (const auto& op : op_inventory(c)) {
    Json kernels = Json::array();
    for (const auto& k : op.kernels)
      kernels.push_back({{"dispatch_key", k.dispatch_key},
                         {"function", k.function},
                         {"artifact", k.artifact},
                         {"line", k.line},
                         {"traced", k.traced},
                         {"symint_aware", k.symint_aware}});
    ops.push_back({{"name", op.name},
                   {"schema", op.schema},
                   {"defined_in", op.defined_in.empty() ? Json() : Json(op.defined_in)},
                   {"defined_line", op.defined_line},
                   {"condition", op.condition.empty() ? Json() : Json(op.condition)},
                   {"kernels", std::move(kernels)},
                   {"fake_or_meta", op.fake}});
  }
  const Json report = {{"schema", "aoti-analyze/1"},
                       {"tool", {{"name", "aoti-analyze"}, {"version", aoti::k_version}}},
                       {"artifacts", std::move(artifacts)},
                       {"models", std::move(models)},
                       {"ops", std::move(ops)},
                       {"findings", std::move(results)},
                       {"diagnostics", std::move(diagnostics)}};
  // Strings come from hostile files: invalid UTF-8 becomes U+FFFD rather than an exception.
  return report.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace aoti::report
