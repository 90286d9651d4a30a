// shape.dim-specialized: a dim marked dynamic that export or compile turned into a constant.
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::core;

class DimSpecialized final : public BasicCheck {
 public:
  DimSpecialized()
      : BasicCheck("shape.dim-specialized", "A dim marked dynamic was specialized to a constant during export") {}

  std::vector<Finding> run(const Case& c) const override {
    std::vector<Finding> out;
    for (const auto& e : c.log_events) {
      if (e.kind != LogEventKind::export_specialized) continue;
      Finding f = new_finding(Severity::error, 0.9);
      f.explains_failure = true;
      f.subject = "dim " + e.subject;
      f.title = fmt::format("Dynamic dim `{}` was specialized to the constant {} during export", e.subject, e.value);
      f.message = fmt::format(
          "`{0}` was marked dynamic, but tracing the model produced a guard that fixes it to {1}, so export "
          "refused the dynamic shape{2}.",
          e.subject, e.value, e.value.empty() ? "" : fmt::format(" (suggested fix: `{} = {}`)", e.subject, e.value));
      f.why = "A package exported this way runs only at that size: other sizes are refused by the input checks, "
              "or, with checks off, crash or compute garbage. The usual culprit is code that reads a concrete "
              "size — `x.size(0)` in a C++ meta kernel, `int(x.shape[0])` in a Python fake kernel, a branch on a size.";
      f.evidence.push_back(event_evidence(e, "the export error"));

      std::vector<std::string> ops;
      // The package the error was tied to, or every package when it could not be.
      std::vector<const ModelFacts*> models;
      if (const ModelFacts* tied = model_of(c, e)) models.push_back(tied);
      else for (const auto& model : c.models) models.push_back(&model);
      for (const ModelFacts* model_ptr : models) {
        const ModelFacts& model = *model_ptr;
        if (model.wrapper)
          for (const auto& check : model.wrapper->input_checks)
            if (check.kind == InputCheckKind::dim_equal && std::to_string(check.value) == e.value)
              f.evidence.push_back(Evidence{wrapper_at(*model.wrapper, check.line),
                                            fmt::format("if ({} != {}_size[{}])", check.value, check.input_name, check.dim),
                                            fmt::format("the package is static in dim {} of `{}` (= {})", check.dim,
                                                        check.input_name, check.value)});
        for (const auto& node : model.extern_nodes) {
          ops.push_back(node.target);
          f.evidence.push_back(Evidence{model.extern_nodes_where, node.target,
                                        "a custom op the package calls: its meta / fake kernel may read concrete sizes"});
        }
      }
      f.next_steps = {
          {"print the guard and the user line that specialized it", "TORCH_LOGS=\"+dynamic\" python <your script>"},
          {"list every specialization with its frame: call `torch.export.draft_export` where you call `export`",
           "ep = torch.export.draft_export(model, args, dynamic_shapes=dynamic_shapes)"}};
      for (const auto& op : ops)
        f.next_steps.push_back(
            {fmt::format("make the meta / fake kernel of `{}` SymInt-aware: `x.sym_size(0)` instead of `x.size(0)`, "
                         "`at::empty_symint` instead of `at::empty` (C++), no `int(...)` on sizes (Python); then "
                         "give its sources to the analyzer", op),
             "aoti-analyze model.pt2 <op sources>"});
      out.push_back(std::move(f));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Check> make_shape_dim_specialized() { return std::make_unique<DimSpecialized>(); }

}  // namespace aoti::checks
