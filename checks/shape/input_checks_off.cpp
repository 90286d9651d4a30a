// shape.input-checks-off: the package enforces its input contract only with
// AOTI_RUNTIME_CHECK_INPUTS=1.
#include "checks/shape/input_checks_off.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/crash.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"
#include "model/describe.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

bool is_failure(const LogEvent& e) {
  return failures::is_error(e) && e.kind != LogEventKind::export_specialized;
}

// The core of a process that loaded this model's .so, if any.
const CoreFacts* core_of(const Case& c, const ModelFacts& model) {
  for (const auto& core : c.cores)
    for (const auto& module : core.modules)
      if (!model.package.empty() && module.package == model.package) return &core;
  return nullptr;
}

std::string environment_value(const CoreFacts& core, const std::string& name) {
  const auto it = core.environment.find(name);
  return it == core.environment.end() ? "" : it->second;
}

struct OutsideContract {
  const LogEvent* event = nullptr;
  std::string summary;   // "dim 0 = 4096, compiled for [2, 1024]"
  std::string sentence;  // for the message
  std::string note;      // for the evidence
};

// Results the logs of this model's run show with a leading size outside every input's dim-0 range.
// A printed result's dim 0 is read as the batch (an inference, said as one); ATen's resize warning
// is direct: the output buffer compiled for the contract did not fit the run.
std::vector<OutsideContract> outside_contract(const Case& c, const WrapperFacts& w,
                                              std::size_t model) {
  std::vector<OutsideContract> out;
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::observed_shape || (e.model && *e.model != model)) continue;
    const auto leading = util::parse_int(e.value.substr(0, e.value.find(',')));
    if (!leading) continue;
    for (const auto& input : w.inputs) {
      std::optional<std::int64_t> low, high;
      for (const auto& check : w.input_checks)
        if (check.input_index == input.index && check.dim == 0) {
          if (check.kind == InputCheckKind::dim_min) low = check.value;
          if (check.kind == InputCheckKind::dim_max) high = check.value;
        }
      if (!high || (*leading <= *high && (!low || *leading >= *low))) continue;
      const std::string range = fmt::format("[{}, {}]", low.value_or(0), *high);
      OutsideContract seen;
      seen.event = &e;
      seen.summary = fmt::format("dim 0 = {}, compiled for {}", *leading, range);
      if (e.problem == "resized") {
        seen.sentence = fmt::format(
            "ATen resized an output from [{}] to [{}]: the run needed {} rows where dim 0 of {} is "
            "compiled for {}.",
            e.expected, e.value, *leading, input_display(w, input.name), range);
        seen.note = "an output resized at run time: the run's sizes were not the compiled ones";
      } else {
        seen.sentence = fmt::format(
            "The log shows a result of size [{}]; reading its dim 0 as the batch (an inference), "
            "the run used {} where dim 0 of {} is compiled for {}.",
            e.value, *leading, input_display(w, input.name), range);
        seen.note =
            fmt::format("a result of size [{}] (inferred: its dim 0 is the batch)", e.value);
      }
      out.push_back(std::move(seen));
      break;
    }
  }
  return out;
}

// The AOTI runtime's `Error: mat1 and mat2 shapes cannot be multiplied (3x1 and 2x1)`: an op inside
// the model rejected the sizes it got. The generated code is consistent for every input inside the
// contract it was compiled for, so an input outside it reached the kernels unchecked.
Finding from_shape_error(const LogEvent& e) {
  Finding f = new_finding(ShapeInputChecksOffCheck::k_info, Severity::error, 0.6);
  f.explains_failure = true;
  f.subject = "input checks (shape error)";
  f.title = fmt::format(
      "The model ran on inputs outside its compiled shapes, with input checks off: `{}`",
      cut(e.value, 120));
  f.message = fmt::format(
      "An op inside the AOTI model rejected the sizes it was given: `{}`. The AOTI runtime printed "
      "it (`Error: ...`), and the log shows no input-check error.",
      e.value);
  f.why =
      "The generated code computes every intermediate size from the inputs it was compiled for; a "
      "shape error "
      "inside it means an input outside that contract (another batch size, a static dim of another "
      "size) reached "
      "the kernels. The runtime checks inputs against the contract only with "
      "AOTI_RUNTIME_CHECK_INPUTS=1; "
      "without it the result is an error deep inside an op, an illegal memory access or silently "
      "wrong output.";
  f.evidence.push_back(event_evidence(e, "the AOTI runtime's error"));
  f.next_steps = {
      {"re-run with the runtime's input checks on: they name the input and dim outside the "
       "contract",
       "export AOTI_RUNTIME_CHECK_INPUTS=1"}};
  return f;
}

}  // namespace

std::vector<Finding> ShapeInputChecksOffCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (std::size_t m = 0; m < c.models.size(); ++m) {
    const auto& model = c.models[m];
    if (!model.wrapper || !model.wrapper->checks_gated_by_env ||
        model.wrapper->input_checks.empty())
      continue;
    const auto& w = *model.wrapper;
    const auto events_here = [&](auto predicate) {
      return std::any_of(c.log_events.begin(), c.log_events.end(), [&](const LogEvent& e) {
        return (!e.model || *e.model == m) && predicate(e);
      });
    };
    // An input-check error proves the checks ran; so does the variable in a crashed process.
    if (events_here([](const LogEvent& e) { return e.kind == LogEventKind::input_check_error; }))
      continue;
    const CoreFacts* core = core_of(c, model);
    const std::string env = core ? environment_value(*core, "AOTI_RUNTIME_CHECK_INPUTS") : "";
    if (!env.empty() && env[0] != '0') continue;
    // A crash while loading or destroying the model happened before or after any input was read.
    const std::string phase = core ? crash_phase(*core) : "";
    const bool crash_with_inputs = core && phase != "loading the model" &&
                                   phase != "loading the model's constants" &&
                                   phase != "destroying the model";
    // A model that never loaded never read an input.
    const bool load_failed = events_here([](const LogEvent& e) {
      return e.kind == LogEventKind::mixed_device_constants ||
             (e.kind == LogEventKind::api_call_failed && e.subject.starts_with("create_func_"));
    });
    bool failed = (events_here(is_failure) && !load_failed) || crash_with_inputs;
    // A failure the checks could not have caught: an index assert on a size inside the contract
    // (shape.unguarded-range). Then the checks being off is only a note, and says so.
    const RangeHazard* inside_contract = nullptr;
    const auto hazards = unguarded_ranges(w);
    for (const auto& hazard : hazards)
      if (events_here([&](const LogEvent& e) {
            return e.kind == LogEventKind::triton_assert && e.subject == hazard.assertion->message;
          }))
        inside_contract = &hazard;
    if (inside_contract) failed = false;
    // Sizes the run really used, outside the contract: it ran unchecked on inputs the kernels were
    // not compiled for (results silently wrong or out of bounds), even when nothing failed.
    const auto outside = outside_contract(c, w, m);

    Finding f = new_finding(k_info, failed || !outside.empty() ? Severity::warning : Severity::note,
                            failed ? 0.6 : 0.5);
    f.subject = "input checks " + model.name;
    std::string contract;
    for (const auto& input : w.inputs)
      if (auto text = input_contract(w, input.index); !text.empty())
        contract += fmt::format("{}`{}`: {}", contract.empty() ? "" : "; ", input.name, text);
    f.title =
        failed ? "The run failed with the package's input checks off"
        : !outside.empty()
            ? fmt::format(
                  "The run used sizes outside the package's compiled contract, unchecked: {}",
                  outside.front().summary)
            : "The package's input contract is only enforced with AOTI_RUNTIME_CHECK_INPUTS=1";
    f.message = fmt::format(
        "The wrapper compiles in checks of every input ({}) but runs them only when "
        "AOTI_RUNTIME_CHECK_INPUTS is set to a non-zero value; {}.",
        contract.empty() ? "devices, dtypes, sizes and strides" : contract,
        failed ? "the failing run shows no input-check error, so they were off"
        : inside_contract
            ? fmt::format("they would not have stopped this run's failure, `{}`: the size behind "
                          "it is inside the "
                          "contract (dim {} of `{}` admits up to {})",
                          inside_contract->assertion->message, inside_contract->binding->dim,
                          inside_contract->binding->input,
                          inside_contract->max ? std::to_string(*inside_contract->max)
                                               : std::string("int_oo"))
            : "without it, inputs outside the contract are accepted silently");
    for (const auto& seen : outside) f.message += " " + seen.sentence;
    f.why =
        "An input outside the compiled contract (a wrong device, a size beyond the exported range, "
        "a "
        "non-contiguous tensor) turns into a segfault, an illegal memory access or silently wrong "
        "output instead of a clear error.";
    if (core)
      f.evidence.push_back(
          Evidence{core_location(*core),
                   env.empty() ? "AOTI_RUNTIME_CHECK_INPUTS not in the environment"
                               : "AOTI_RUNTIME_CHECK_INPUTS=" + env,
                   fmt::format("the crashed process's environment (pid {})", core->pid)});
    for (const auto& seen : outside) f.evidence.push_back(event_evidence(*seen.event, seen.note));
    f.evidence.push_back(
        quote_wrapper(w, w.gate_line, "the input checks are skipped unless the variable is set"));
    for (const auto& check : w.input_checks) {
      if (check.kind != InputCheckKind::dim_max && check.kind != InputCheckKind::device_type)
        continue;
      f.evidence.push_back(quote_wrapper(
          w, check.line,
          fmt::format("one of the checks of input {} {}, whose contract is {}", check.input_index,
                      input_display(w, check.input_name), input_contract(w, check.input_index))));
      break;
    }
    f.next_steps = {
        rerun_step(c, "validate every input before the run", "AOTI_RUNTIME_CHECK_INPUTS=1")};
    if (failed)
      f.next_steps.push_back(rerun_step(
          c, "and make a CUDA failure synchronous and reproducible",
          "AOTI_RUNTIME_CHECK_INPUTS=1 CUDA_LAUNCH_BLOCKING=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1"));
    out.push_back(std::move(f));
  }
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::runtime_error && e.problem == "error" &&
        failures::is_shape_error(e.value) &&
        std::none_of(c.log_events.begin(), c.log_events.end(),
                     [&](const LogEvent& other) {
                       return other.kind == LogEventKind::input_check_error &&
                              other.where.artifact == e.where.artifact;
                     }) &&
        std::none_of(out.begin(), out.end(),
                     [](const Finding& f) { return f.subject.starts_with("input checks"); }))
      out.push_back(from_shape_error(e));
  return out;
}

}  // namespace aoti::checks
