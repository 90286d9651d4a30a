// customop.fake-mismatch: a custom op whose fake kernel disagrees with its real one, as the trace
// recorded it.
#include "checks/customop/fake_mismatch.hpp"

#include <fmt/format.h>

#include "checks/customop/fake_kernel_events.hpp"
#include "checks/support/commands.hpp"
#include "checks/support/failures.hpp"
#include "checks/support/finding.hpp"
#include "torch/error_messages.hpp"
#include "util/text.hpp"

namespace aoti::checks {
using namespace aoti::model;

namespace {

// The dims where the real output differs from what the graph was compiled for, as torch's message
// states them: `expected size 32==32, stride 6144==4096 at dim=0` is (real)==(compiled).
std::vector<std::string> mismatches(const LogEvent& e) {
  std::string all = e.value;
  for (const auto& line : e.detail) all += "; " + line;
  std::vector<std::string> out;
  for (auto at = all.find("expected size "); at != std::string::npos;
       at = all.find("expected size ", at + 1)) {
    const auto end = all.find(" at dim=", at);
    if (end == std::string::npos) break;
    const auto dim = util::digits_at(all, end + 8);
    const auto body = std::string_view(all).substr(at + 14, end - at - 14);
    const auto comma = body.find(", stride ");
    if (comma == std::string_view::npos) continue;
    const auto size = body.substr(0, comma);
    const auto stride = body.substr(comma + 9);
    const auto differ = [](std::string_view pair) {
      const auto eq = pair.find("==");
      return eq != std::string_view::npos && pair.substr(0, eq) != pair.substr(eq + 2);
    };
    const auto real = [](std::string_view pair) { return pair.substr(0, pair.find("==")); };
    const auto compiled = [](std::string_view pair) {
      const auto eq = pair.find("==");
      return eq == std::string_view::npos ? pair : pair.substr(eq + 2);
    };
    if (differ(size))
      out.push_back(fmt::format("dim {}: size {} where the graph expects {}", dim, real(size),
                                compiled(size)));
    else if (differ(stride))
      out.push_back(fmt::format("dim {}: stride {} where the graph expects {}", dim, real(stride),
                                compiled(stride)));
  }
  return out;
}

// Inductor's assert_size_stride on an op's output failed: the real kernel returned other sizes or
// strides than the fake kernel promised when the graph was compiled. An op of torch's own (aten)
// is left to the other checks: its meta function is torch's, not the user's.
std::optional<Finding> from_size_stride_assert(const Case& c, const LogEvent& e) {
  const auto [named, detail_index] = failures::checked_op(e);
  const bool custom = torch::is_custom_op_target(named);
  if (!named.empty() && !custom) return std::nullopt;
  const std::string op = custom ? parse_op_name(named).qualified() : "";
  const auto differences = mismatches(e);
  Finding f = new_finding(CustomopFakeMismatchCheck::k_info, Severity::error, custom ? 0.85 : 0.6);
  f.explains_failure = true;
  f.subject = custom ? "op " + op : "op (not named)";
  f.title = custom ? fmt::format("The fake kernel of `{}` disagrees with its real kernel: {}", op,
                                 differences.empty() ? "sizes or strides" : differences.front())
                   : fmt::format("An op's real output disagrees with its fake kernel: {}",
                                 differences.empty() ? "sizes or strides" : differences.front());
  f.message = fmt::format(
      "Line {} of {} is Inductor's check of {} output (`assert_size_stride`): the real kernel "
      "returned {}, other than its fake (meta) kernel promised when the graph was compiled.{}",
      e.where.line, e.where.artifact, custom ? "`" + named + "`'s" : "an op's",
      differences.empty() ? "other sizes or strides" : join(differences, "; "),
      custom ? "" : " The log does not name the op (torch adds `Error in op:` when it knows it).");
  f.why =
      "The compiled graph trusts the fake: later kernels index the output with the strides the "
      "fake promised, so a mismatch reads the wrong elements or out of bounds. A fake that "
      "allocates a fresh contiguous tensor for an op that returns a view or works in place is the "
      "usual cause.";
  f.evidence.push_back(event_evidence(e, "the size/stride check that failed"));
  if (detail_index >= 0)
    failures::add_detail_evidence(e, detail_index, 1, "the op it checked", f.evidence);
  if (custom) {
    f.next_steps = {opcheck_step(c, op, "check the fake against the real kernel"),
                    {"make the fake return exactly the real kernel's sizes and strides (a view or "
                     "the input itself where the kernel returns one)",
                     fake_kernels::register_fake_stub(op), "python"}};
  } else {
    f.next_steps = {
        {"run with the op named in the error (torch adds `Error in op:` from 2.5 on) "
         "and check each custom op with torch.library.opcheck",
         ""}};
  }
  return f;
}

}  // namespace

std::vector<Finding> CustomopFakeMismatchCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const TraceFakeKernelEvent* event :
       fake_kernels::events_of_kind(c, "mismatched_fake_kernel")) {
    Finding f = new_finding(k_info, Severity::error, 0.85);
    f.subject = "op " + event->op;
    f.title = fmt::format("The fake kernel of `{}` disagrees with its real kernel", event->op);
    f.message =
        fmt::format("Running `{}` for real gave other metadata than its fake promised: {}.",
                    event->op, event->reason.empty() ? "(no reason recorded)" : event->reason);
    f.why =
        "The compiled graph trusts the fake: downstream kernels are sized from it, so the package "
        "computes wrong values or reads out of bounds.";
    f.evidence.push_back(fake_kernels::record_evidence(*event));
    f.next_steps = {
        {"make the fake compute exactly the real kernel's output shape, dtype and strides",
         fake_kernels::register_fake_stub(event->op), "python"},
        opcheck_step(c, event->op, "check it")};
    out.push_back(std::move(f));
  }
  // draft_export's report: `Mismatched fake kernel.` / `torch.ops.ns.op.default has a fake kernel
  // implementation, but it has incorrect behavior, based on the real kernel. The reason for the
  // mismatch is: ...`.
  // torch.library.opcheck's test_faketensor: the fake and the real kernel of the op it was given
  // disagree; the reason is on the line under it (`Stride mismatch! Strides are ...`).
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::python_exception || e.problem != "opcheck fake mismatch") continue;
    std::string reason;
    for (const auto& line : e.detail)
      if (const auto text = util::trim(line); !text.empty()) {
        reason = std::string(text);
        break;
      }
    Finding f = new_finding(k_info, Severity::error, 0.75);
    f.explains_failure = true;
    f.subject = "opcheck test_faketensor";
    f.title = fmt::format("opcheck: the op's fake kernel disagrees with its real kernel{}",
                          reason.empty() ? "" : ": " + code_span(reason, 100));
    f.message = fmt::format(
        "torch.library.opcheck ran the op with fake tensors and for real and compared the "
        "results' metadata: test_faketensor failed{}.",
        reason.empty() ? "" : fmt::format(" with `{}`", cut(reason, 300)));
    f.why =
        "A compiled graph trusts the fake: later kernels use the sizes and strides it promised. A "
        "fake that returns a fresh or cloned tensor for a kernel whose output has other strides "
        "(a permuted or non-contiguous result) is the usual cause.";
    f.evidence.push_back(event_evidence(e, "opcheck's failure"));
    failures::add_detail_evidence(e, 0, 1, "the mismatch it found", f.evidence);
    failures::add_user_frame_evidence(e, f.evidence);
    f.next_steps = {
        {"make the fake return the real kernel's sizes and strides (compute them as "
         "the kernel does, e.g. with the same permute), then run opcheck again on the op and the "
         "sample arguments it was given",
         "torch.library.opcheck(op, args)", "python"}};
    out.push_back(std::move(f));
  }
  for (const auto& e : c.log_events) {
    if (e.kind != LogEventKind::python_exception || e.problem != "fake mismatch") continue;
    const std::string op = parse_op_name(e.value).qualified();
    const std::string said = e.detail.empty() ? e.text : e.detail.front();
    const auto reason_at = said.find("The reason for the mismatch is: ");
    std::string reason = reason_at == std::string::npos ? "" : said.substr(reason_at + 32);
    while (!reason.empty() && (reason.back() == '.' || reason.back() == ' ')) reason.pop_back();
    Finding f = new_finding(k_info, Severity::error, 0.85);
    f.subject = "op " + op;
    f.title = fmt::format("The fake kernel of `{}` disagrees with its real kernel", op);
    f.message =
        fmt::format("draft_export ran `{}` for real and its fake kernel gave other metadata{}.", op,
                    reason.empty() ? "" : fmt::format(": {}", reason));
    f.why =
        "The compiled graph trusts the fake: downstream kernels are sized from it, so the package "
        "computes wrong values or reads out of bounds.";
    f.evidence.push_back(event_evidence(e, "draft_export's report"));
    failures::add_detail_evidence(e, 0, 1, "the reason it gives", f.evidence);
    f.next_steps = {
        {"make the fake compute exactly the real kernel's output shape, dtype and strides",
         fake_kernels::register_fake_stub(op), "python"},
        opcheck_step(c, op, "check it")};
    out.push_back(std::move(f));
  }
  for (const auto& e : c.log_events)
    if (e.kind == LogEventKind::python_exception && e.problem == "size/stride assert")
      if (auto f = from_size_stride_assert(c, e)) out.push_back(std::move(*f));
  return out;
}

}  // namespace aoti::checks
