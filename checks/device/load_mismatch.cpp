// device.load-mismatch: a package compiled for one device type, loaded or run as another.
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "checks/support.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::core;

class LoadMismatch final : public BasicCheck {
 public:
  LoadMismatch()
      : BasicCheck("device.load-mismatch", "A package compiled for one device type, loaded or run as another") {}

  std::vector<Finding> run(const Case& c) const override {
    std::vector<Finding> out;
    for (const auto& e : c.log_events) {
      if (e.kind != LogEventKind::out_tensor_device) continue;
      const ModelFacts* model = model_of(c, e);
      Finding f = new_finding(Severity::error, 0.75);
      f.explains_failure = true;
      f.subject = "load device";
      f.title = "The model was loaded on another device type than it was compiled for";
      f.message = fmt::format("The run failed with `{}`: the output buffers live on one device type and the "
                              "caller expects another.", e.text);
      f.why = "Cross-device loading (compile on CUDA, load on CPU or the reverse) is not supported; it fails "
              "at load or at the first run, often as a segfault.";
      f.evidence.push_back(event_evidence(e, "the runtime error"));
      if (model && !model->device().empty())
        f.evidence.push_back(Evidence{model->metadata_where, fmt::format("AOTI_DEVICE_KEY = {}", model->device()),
                                      "the device the package was compiled for"});
      const std::string device = model && !model->device().empty() ? model->device() : "<compile device>";
      f.next_steps = {
          {fmt::format("load through the package API, which picks the compiled device type; only the index (\"{}:N\") "
                       "may change", device),
           "runner = torch._inductor.aoti_load_package(\"model.pt2\")"},
          {"or re-export and re-package the model on the device type you deploy on", ""}};
      out.push_back(std::move(f));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Check> make_device_load_mismatch() { return std::make_unique<LoadMismatch>(); }

}  // namespace aoti::checks
