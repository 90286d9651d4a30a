// Recognizers of what a run's inputs and devices did: the generated wrapper's input-check errors,
// device placement errors, host memory passed as device memory, and the sizes a run really used.
#include "parsers/logs/scanner.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/text.hpp"
#include "util/utf8.hpp"

namespace aoti::parsers::logs {

namespace {

// The label in `6(at::kFloat)`, "" when there is none.
std::string_view label_of(std::string_view printed) {
  const auto open = printed.find('(');
  if (open == std::string_view::npos || !printed.ends_with(')')) return {};
  return printed.substr(open + 1, printed.size() - open - 2);
}

}  // namespace

// Error: input_handles[0]: dim value is too large at 0, expected to be <= 1024, but got: 4096
void Scanner::input_check(std::uint64_t) {
  const auto at = m_line.find("input_handles[");
  auto rest = m_line.substr(at + 14);
  const auto index = util::digits_at(rest, 0);
  if (index.empty() || !rest.substr(index.size()).starts_with("]: ")) return;
  rest.remove_prefix(index.size() + 3);
  const auto expected_at = rest.find("expected");
  const auto got_at = rest.find("but got:");
  if (expected_at == std::string_view::npos || got_at == std::string_view::npos ||
      got_at < expected_at)
    return;

  auto e = event(LogEventKind::input_check_error);
  e.input_index = util::to_int(index).value_or(-1);
  auto problem = rest.substr(0, std::min(rest.find(", "), expected_at));
  if (const auto dim_at = problem.find(" at "); dim_at != std::string_view::npos) {
    e.dim = util::to_int(util::digits_at(problem, dim_at + 4)).value_or(-1);
    problem = problem.substr(0, dim_at);
  }
  e.problem = util::clean_text(util::trim(problem), k_max_field);
  // "expected: 16", "expected to be <= 1024", "expected it to be >= 2": the value is the last word.
  auto expected = util::trim(rest.substr(expected_at + 8, got_at - expected_at - 8));
  if (expected.ends_with(',')) expected.remove_suffix(1);
  expected = util::last_word(expected);
  e.expected = util::clean_text(expected, k_max_field);
  // torch 2.11 prints the runtime code and then the codegen'd label, which itself starts with the
  // code: `expected: 11(cuda)` is code 1 followed by "1(cuda)". `expected` stays as printed;
  // `value` gets the meaning from the label.
  e.value = util::clean_text(label_of(expected), k_max_field);
  e.actual = util::clean_text(util::first_word(util::trim(rest.substr(got_at + 8))), k_max_field);
  const auto key =
      fmt::format("{}|{}|{}|{}|{}", e.input_index, e.problem, e.dim, e.expected, e.actual);
  add(std::move(e), key);
}

// Error: Mixed-device constants are only supported when ... Constant 'linear_weight' was ...
void Scanner::mixed_device(std::uint64_t) {
  auto e = event(LogEventKind::mixed_device_constants);
  e.subject = util::clean_text(util::between(m_line, "Constant '", "'"), k_max_field);
  const auto key = e.subject;
  add(std::move(e), key);
}

// "... but found at least two devices, cuda:0 and cpu!" or, in older torch,
// "... but got index is on cpu, different from other tensors on cuda:0 (when checking ...)".
void Scanner::same_device(std::uint64_t) {
  auto e = event(LogEventKind::tensors_on_different_devices);
  if (auto pair = util::between(m_line, "at least two devices, ", "!"); !pair.empty()) {
    e.value = util::clean_text(pair, k_max_field);
  } else {
    const auto on = util::between(m_line, " is on ", ",");
    const auto other = util::first_word(util::after(m_line, "different from other tensors on "));
    if (!on.empty() && !other.empty())
      e.value = util::clean_text(fmt::format("{} and {}", on, other), k_max_field);
  }
  const auto key = e.value;
  add(std::move(e), key);
}

// at::getDeviceFromPtr, called by from_blob / TensorMaker::make_tensor for a CUDA tensor:
// "The specified pointer resides on host memory and is not registered with any CUDA device."
void Scanner::host_pointer(std::uint64_t) {
  auto e = event(LogEventKind::pointer_on_host);
  e.problem = "blob on host";
  add(std::move(e), e.problem);
}

// ExecuTorch's CUDA backend: `Tensor 0 has device_type=CUDA but its data pointer 0x... is not
// backed by CUDA device memory (cudaPointerGetAttributes err=0, cudaMemoryType=0).` — a tensor that
// says CUDA whose memory is the host's, often broken over lines; the sentence's further lines are
// kept.
void Scanner::tagged_cuda_on_host(std::uint64_t) {
  auto e = event(LogEventKind::pointer_on_host);
  e.problem = "tensor on host";
  const LogEvent* added = add(std::move(e), "tensor on host");
  if (!appended(added) || util::trim(m_line).ends_with(".")) return;
  m_statement_event = index_of(added);
}

void Scanner::continue_statement() {
  auto& e = m_events[static_cast<std::size_t>(m_statement_event)];
  if (static_cast<int>(e.detail.size()) != m_number - e.where.line - 1 || e.detail.size() >= 3 ||
      util::trim(m_line).empty()) {
    m_statement_event = -1;
    return;
  }
  e.detail.push_back(util::clean_text(m_raw, k_max_text));
  if (util::trim(m_line).ends_with(".")) m_statement_event = -1;
}

// Expected out tensor to have device cuda:0, but got cpu instead
void Scanner::out_tensor(std::uint64_t) {
  auto e = event(LogEventKind::out_tensor_device);
  e.expected = util::clean_text(util::between(m_line, "Expected out tensor to have device ", ","),
                                k_max_field);
  e.actual = util::clean_text(util::first_word(util::after(m_line, "but got ")), k_max_field);
  e.value = e.actual;
  const auto key = e.expected + "|" + e.actual;
  add(std::move(e), key);
}

// What the program saw of its results: a printed `torch.Size([4096, 8])`, or ATen's warning
// (aten/src/ATen/native/Resize.cpp) "An output with one or more elements was resized since it had
// shape [1024, 8], which does not match the required output shape [4096, 8]". Both show the sizes
// a run really used, to hold against the package's compiled contract.
void Scanner::observed_shape(std::uint64_t found) {
  auto e = event(LogEventKind::observed_shape);
  if (found & a_resized) {
    e.problem = "resized";
    e.expected = util::clean_text(util::between(m_line, "it had shape [", "]"), k_max_field);
    e.value = util::clean_text(util::between(m_line, "required output shape [", "]"), k_max_field);
  } else {
    e.problem = "printed";
    e.value = util::clean_text(util::between(m_line, "torch.Size([", "])"), k_max_field);
  }
  if (e.value.empty()) return;
  const auto key = e.problem + "|" + e.value;
  add(std::move(e), key);
}

}  // namespace aoti::parsers::logs
