// Small helpers shared by checks: reading the Case, describing facts, building next steps.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "checks/check.hpp"
#include "checks/support/crash.hpp"
#include "util/demangle.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

// The boilerplate every check shares: id, family and summary held as data.
class BasicCheck : public checks::Check {
 public:
  BasicCheck(std::string_view id, std::string_view summary)
      : m_id(id), m_family(id.substr(0, id.find('.'))), m_summary(summary) {}
  std::string_view id() const override { return m_id; }
  std::string_view family() const override { return m_family; }
  std::string_view summary() const override { return m_summary; }

 protected:
  model::Finding new_finding(model::Severity severity, double confidence) const;

 private:
  std::string_view m_id;
  std::string_view m_family;
  std::string_view m_summary;
};

const model::ModelFacts* model_of(const model::Case& c, const model::LogEvent& e);
// At most `max` bytes of `text`, cut on a UTF-8 character boundary, with a visible `…` when cut.
std::string cut(std::string_view text, std::size_t max);
// A line as a quote shows it: surrounding whitespace trimmed, cut (with `…`) past 1,000 bytes.
std::string quoted_line(std::string_view line);

// Evidence is built here only: quotes take the artifact's own text, so they cannot drift from it.
// The log line an event was read from, quoted.
model::Evidence event_evidence(const model::LogEvent& e, std::string note);
// Wrapper lines first..last (last = 0: one line), quoted from the wrapper's text.
model::Evidence quote_wrapper(const model::WrapperFacts& w, int first, std::string note, int last = 0);
// A statement derived from the artifacts at `where`: never shown as the artifact's text.
model::Evidence fact(model::Location where, std::string statement, std::string note);

// "[2, 1024]" for a dim with both bounds in the input contract, "= 16" for a static dim, "" if none.
std::string dim_contract(const model::WrapperFacts& w, int input_index, int dim);
// Every condition on one input, for a person: "dim 0 in [2, 1024], dim 1 = 16, float32, on cuda".
std::string input_contract(const model::WrapperFacts& w, int input_index);
int input_index_of(const model::WrapperFacts& w, std::string_view name);

// ---- the user's names ----------------------------------------------------------------------
// The user's names for wrapper inputs are facts of the Case (WrapperInput::user_name, dim_names),
// set by correlation with the export's trace.
// "`arg3_1` (your `ids`)", or "`arg3_1`" when the user's name is not known.
std::string input_display(const model::WrapperFacts& w, std::string_view wrapper_input);
// A dynamic_shapes value giving one dim of one input `dim_spec` (a `torch.export.Dim(...)`
// expression): keyed by the forward argument when it is known, else positional (None for the
// other inputs), so that it runs as printed for this model.
std::string dynamic_shapes_text(const model::WrapperFacts& w, int input_index, int dim, const std::string& dim_spec);
// The module the user exported, as their export call names it (`torch.export.export(m, ...)` ->
// "m"), else "model".
std::string user_module_name(const model::Case& c);
// The Dim name to use in a suggestion: the user's own when known, else `fallback`.
std::string dim_name_or(const model::WrapperFacts& w, int input_index, int dim, std::string fallback);

// ---- commands that run as printed ---------------------------------------------------------------
// Running the failed program again with `env` ("A=1 B=2") set: the program's own command line when a
// core recorded it, else `export A=1 B=2` with `what` telling to run it again in that shell.
model::NextStep rerun_step(const model::Case& c, std::string what, std::string_view env);
// The same for the program that exported and packaged the model (its command line is known only
// when it is the one a core recorded; otherwise the `export` form).
model::NextStep repackage_step(const model::Case& c, std::string what, std::string_view env);
// `aoti-analyze` on the case's own inputs plus `extra` (already shell-quoted), as the user gave them.
std::string reanalyze_command(const model::Case& c, std::string_view extra);

// The tensor a launch argument names: `(const int64_t*)(arg1_1.data_ptr())` -> "arg1_1".
std::string argument_name(std::string_view arg);
// The argument a kernel parameter received at its launch ("" if the parameter is not in the call).
std::string argument_for(const model::TritonKernel& kernel, const model::KernelCall& call, std::string_view param);

// ---- shapes ---------------------------------------------------------------------------------------
// A fixed bound a kernel asserts on an index computed from a dynamic dim's size (`y0 = (yindex % ks0)`,
// ks0 bound at the launch to dim d of an input) while the input contract admits sizes above it.
struct RangeHazard {
  const model::TritonKernel* kernel = nullptr;
  const model::TritonAssert* assertion = nullptr;
  const model::KernelCall* call = nullptr;
  const model::SymbolBinding* binding = nullptr;
  int input_index = -1;
  std::string param;       // "ks0"
  std::string expression;  // "(yindex % ks0)"
  int expression_line = 0;
  std::int64_t bound = 0;  // 512
  std::int64_t min = 0;
  std::optional<std::int64_t> max;  // the contract's maximum; none: unbounded
  int max_line = 0;
  const model::WrapperConstant* table = nullptr;  // the constant the index addresses, with a dim of `bound`
};
std::vector<RangeHazard> unguarded_ranges(const model::WrapperFacts& w);
// What both the latent finding and the index-assert finding say of a hazard: the sentence, the
// quoted chain (index expression, bound, table rows, launch, binding, input check) and the fix.
std::string range_hazard_sentence(const model::WrapperFacts& w, const RangeHazard& r);
std::vector<model::Evidence> range_hazard_evidence(const model::WrapperFacts& w, const RangeHazard& r);
model::NextStep range_hazard_fix(const model::WrapperFacts& w, const RangeHazard& r);

// Wrapper symbols are `s77`, `u0`, `ks0`: anything else in a call argument is a constant or buffer.
bool is_size_symbol(std::string_view arg);
std::optional<std::int64_t> integer_literal(std::string_view arg);  // "144L" -> 144

// `unzip -p PACKAGE ENTRY | sed -n 'A,Bp'`: shows lines of a file inside a package.
std::string show_lines_command(const model::Location& where, int first, int last);
// The same for wrapper lines first..last, wherever the wrapper's text is (package, file, trace).
std::string show_wrapper_lines_command(const model::WrapperFacts& w, int first, int last);
std::string shell_quote(std::string_view text);  // 'it'\''s' for the shell
std::string shell_word(std::string_view text);   // quoted only when the shell would split or expand it
// The first wrapper line in first..first+span holding `needle` (0 if none): where one field of a
// multi-line declaration is, e.g. `constants_info_[2].device_type` after `constants_info_[2].name`.
int wrapper_line_with(const model::WrapperFacts& w, int first, std::string_view needle, int span = 24);
// The wrapper's own location with `line` set.
model::Location wrapper_at(const model::WrapperFacts& w, int line);
// Where line `line` of a kernel's source is: the wrapper for Triton kernels (and C++ kernels a
// single-file wrapper defines), the kernel file (<hash>.kernel.cpp, a trace's dump) otherwise.
model::Location kernel_at(const model::WrapperFacts& w, const model::TritonKernel& kernel, int line);
// A line of a kernel, quoted: from the wrapper's own text for a kernel embedded in it, else the line
// the parser kept from the kernel's file (<hash>.kernel.cpp, a trace's kernel dump); `statement`
// as a derived fact when neither is there.
model::Evidence quote_kernel(const model::WrapperFacts& w, const model::TritonKernel& kernel, int line, const std::string& text,
                            std::string statement, std::string note);

// An op as torch spells it in each place, from any of "ns::op", "ns::op.overload", "ns.op.default"
// or "torch.ops.ns.op.default": register_fake("ns::op") and torch.ops.ns.op.default.
struct OpName {
  std::string ns, name, overload = "default";
  bool valid() const { return !ns.empty() && !name.empty(); }
  std::string qualified() const { return ns + "::" + name; }                               // "ns::op"
  std::string overload_path() const { return "torch.ops." + ns + "." + name + "." + overload; }  // torch.ops.ns.op.default
};
OpName parse_op_name(std::string_view text);
// `torch.library.opcheck(torch.ops.ns.op.default, (x, 0.5))` with the op's real arguments (the
// extern node's schema names for tensors, its literal values for scalars) when a package calls it.
model::NextStep opcheck_step(const model::Case& c, std::string_view op, std::string what);
std::string shape_text(const std::vector<std::int64_t>& shape);  // "[1000, 32]"
std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");

// Where a model's device type comes from, as evidence: the metadata's AOTI_DEVICE_KEY, else the
// device runtime its .so links (a bare model .so has no metadata); nullopt when only the wrapper
// suggests it.
std::optional<model::Evidence> device_evidence(const model::ModelFacts& model);
// "package" for a model read from a .pt2, "model .so" for a bare one: what the user handed over.
std::string artifact_word(const model::ModelFacts& model);

// ---- crashes ----------------------------------------------------------------------------------
// Frames of the C++ runtime itself: std::, __cxxabiv1, __gnu_cxx.
bool is_cxx_runtime_symbol(std::string_view symbol);
// "#3 torch::aot_inductor::parse_device_str in the model .so", for evidence.
std::string frame_text(const model::StackFrame& frame, std::size_t index);
// Which frames (by index in the thread) a frame list shows.
using FrameFilter = std::function<bool(std::size_t index)>;
// A crashing thread's frames for evidence: the unwound call path (frames `keep` accepts, at most
// `max`), then apart, under model::k_stack_scan_label, at most `max_candidates` stack-scan frames
// that have a name or lie in a model .so. A stack-scan frame is never shown as part of the path.
std::string frames_excerpt(const model::CoreThread& thread, std::size_t max, std::size_t max_candidates,
                           const FrameFilter& keep = {});
// Only the candidate part of frames_excerpt(), without the path: "" when there is none.
std::string candidate_frames(const model::CoreThread& thread, std::size_t max, const FrameFilter& keep = {});
std::string module_name(std::string_view path);  // the file name of a module path
// The process mapped a module whose file name starts with `prefix` ("libstdc++.so.6", "libcuda.so").
const model::MappedModule* mapped(const model::CoreFacts& core, std::string_view prefix);
// A core's location as evidence.
model::Location core_location(const model::CoreFacts& core);

std::string dtype_name_of_code(std::string_view code);   // "5" -> "float16"
std::string device_name_of_code(std::string_view code);  // "0" -> "cpu"

}  // namespace aoti::checks
