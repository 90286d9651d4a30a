// customop.fake-static-shape: a custom op fed dynamic inputs whose consumers were compiled for a
// constant size — the op's fake/meta kernel returned a static shape.
#include "checks/customop/fake_static_shape.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "checks/support/commands.hpp"
#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"
#include "checks/support/kernels.hpp"
#include "model/describe.hpp"
#include "util/text.hpp"

namespace aoti::checks {
namespace {
using namespace aoti::model;

const ExternNode* find_node(const ModelFacts& model, int index) {
  for (const auto& node : model.extern_nodes)
    if (node.index == index) return &node;
  return nullptr;
}

bool uses_symbols(const KernelCall& call) {
  return std::any_of(call.args.begin(), call.args.end(), [](const std::string& a) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if ((i == 0 || !std::isalnum(static_cast<unsigned char>(a[i - 1]))) &&
          is_size_symbol(a.substr(i, a.find_first_of(" *+-/)", i) - i)))
        return true;
    return false;
  });
}

// The first kernel launched after the op that reads one of its outputs (directly or through a
// buffer the wrapper reuses for it); else the first kernel launched after it.
const KernelCall* first_consumer(const WrapperFacts& w, const ProxyCall& proxy,
                                 const ExternNode& node) {
  std::set<std::string> outputs(node.outputs.begin(), node.outputs.end());
  for (const auto& arg : proxy.tensor_args)
    if (std::none_of(w.inputs.begin(), w.inputs.end(),
                     [&](const WrapperInput& i) { return i.name == arg; }))
      outputs.insert(arg);
  for (const auto& alias : w.buffer_reuses)
    if (outputs.count(alias.from)) outputs.insert(alias.to);
  const KernelCall* next = nullptr;
  for (const auto& call : w.kernel_calls) {
    if (call.line <= proxy.line) continue;
    if (!next || call.line < next->line) next = &call;
    if (std::any_of(call.args.begin(), call.args.end(),
                    [&](const std::string& a) { return outputs.count(a) > 0; }))
      return &call;
  }
  return next;
}

std::optional<Finding> report(const Case& c, const ModelFacts& model, const WrapperFacts& w,
                              const ProxyCall& proxy, const ExternNode& node,
                              const std::vector<const SymbolBinding*>& dynamic_dims,
                              const KernelCall& consumer, const TritonKernel* kernel) {
  std::vector<std::int64_t> sizes;
  for (const auto& a : consumer.args)
    if (auto v = util::parse_int(a)) sizes.push_back(*v);
  if (kernel)
    for (const auto& [name, value] : kernel->constant_numels) sizes.push_back(value);
  if (sizes.empty()) return std::nullopt;
  const std::int64_t numel = *std::max_element(sizes.begin(), sizes.end());

  const SymbolBinding& dim = *dynamic_dims.front();
  const int input = input_index_of(w, dim.input);
  const std::string range = input >= 0 ? dim_contract(w, input, dim.dim) : "";
  // numel / (the input's static dims) = the leading size the fake kernel claimed.
  std::int64_t static_product = 1;
  for (const auto& check : w.input_checks)
    if (check.input_index == input && check.kind == InputCheckKind::dim_equal &&
        check.dim != dim.dim)
      static_product *= std::max<std::int64_t>(check.value, 1);
  const bool divides = static_product > 1 && numel % static_product == 0;

  Finding f = new_finding(CustomopFakeStaticShapeCheck::k_info, Severity::error, 0.8);
  f.subject = fmt::format("op {}", node.target);
  f.title = fmt::format("Custom op `{}` has a static output shape although its input is dynamic",
                        node.target);
  f.message = fmt::format(
      "`{}` receives model input `{}`, whose dim {} is the dynamic symbol `{}`{}; yet kernel `{}`, "
      "launched on "
      "its output, was compiled for a constant {} elements{}. The op's fake (or meta) kernel "
      "returned a fixed "
      "shape instead of one computed from its input's symbolic sizes.",
      node.target, dim.input, dim.dim, dim.symbol, range.empty() ? "" : " " + range,
      consumer.kernel, numel,
      divides ? fmt::format(" (= {} × {}: the fake output had {} rows whatever the batch)",
                            numel / static_product, static_product, numel / static_product)
              : "");
  f.chain = {fmt::format("input {} dim {} = {}{}", dim.input, dim.dim, dim.symbol,
                         range.empty() ? "" : " " + range),
             fmt::format("{} (proxy executor)", node.target),
             divides ? fmt::format("fake output: {} rows", numel / static_product)
                     : "fake output: a fixed shape",
             fmt::format("{}: {} elements", consumer.kernel, numel)};
  f.why =
      "The compiled graph trusts the fake kernel's shape: downstream kernels process only that "
      "many "
      "elements, so at any other size rows are silently left uncomputed or read out of bounds — "
      "wrong "
      "results with no error.";
  f.evidence.push_back(quote_wrapper(w, dim.line,
                                     fmt::format("dim {} of `{}` is dynamic{}", dim.dim, dim.input,
                                                 range.empty() ? "" : " " + range)));
  f.evidence.push_back(quote_wrapper(
      w, proxy.line, fmt::format("the call to `{}` through the proxy executor", node.target)));
  if (!model.extern_nodes_where.artifact.empty())
    f.evidence.push_back(fact(model.extern_nodes_where,
                              fmt::format("extern node {}: target {}", node.name, node.target),
                              "the extern node the call runs"));
  f.evidence.push_back(
      quote_wrapper(w, consumer.line, "the next kernel is launched with constant sizes only"));
  if (kernel)
    for (const auto& [name, value] : kernel->constant_numels)
      if (const int line = wrapper_line_with(w, kernel->line, fmt::format("{} = {}", name, value),
                                             kernel->source_end - kernel->line))
        f.evidence.push_back(
            quote_wrapper(w, line, fmt::format("`{}` hard-codes its size", kernel->name)));
  f.next_steps = {
      {fmt::format(
           "make the fake kernel of `{}` compute its output shape from the input's symbolic sizes "
           "(no constants, no `int(...)` on sizes), e.g. for one extra row:",
           node.target),
       fmt::format("@torch.library.register_fake(\"{}\")\ndef _(x):\n    return "
                   "x.new_empty((x.shape[0] + 1, x.shape[1]))",
                   parse_op_name(node.target).qualified()),
       "python"},
      opcheck_step(c, node.target, "check the fake against the real kernel at several sizes"),
      {"re-export, re-package, and compare the outputs at two batch sizes", ""}};
  return f;
}

// "f32[s77, 16]" has a symbol; "f32[9, 16]" does not.
bool symbolic(std::string_view shape) {
  for (std::size_t i = 0; i + 1 < shape.size(); ++i)
    if ((shape[i] == 's' || shape[i] == 'u') &&
        std::isdigit(static_cast<unsigned char>(shape[i + 1])) &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(shape[i - 1]))))
      return true;
  return false;
}

// The sizes of "f32[64, s55]": "64", "s55".
std::vector<std::string> dims_of(std::string_view shape) {
  std::vector<std::string> out;
  const auto open = shape.find('[');
  const auto close = shape.find(']', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return out;
  std::string_view rest = shape.substr(open + 1, close - open - 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    out.emplace_back(util::trim(rest.substr(0, comma)));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return out;
}

// Every static size of the output where the input's is symbolic is a constant the caller passed
// (`scatter_rows.default(linear, slots, 64)` returning f32[64, 8]): the size is the op's argument,
// static by the model's own call, not one the fake kernel made up.
bool sized_by_caller(const TraceGraphNode& node, const TraceGraphNode& input) {
  const auto out = dims_of(node.shape);
  const auto in = dims_of(input.shape);
  bool any = false;
  for (std::size_t i = 0; i < out.size() && i < in.size(); ++i) {
    if (!symbolic(in[i]) || symbolic(out[i])) continue;
    const auto value = util::parse_int(out[i]);
    if (!value || std::find(node.int_literals.begin(), node.int_literals.end(), *value) ==
                      node.int_literals.end())
      return false;
    any = true;
  }
  return any;
}

// "torch.ops.heldout.pad_rows.default" -> "heldout::pad_rows"; "" for torch's own namespaces.
std::string custom_op_of(std::string_view target) {
  if (!target.starts_with("torch.ops.")) return "";
  target.remove_prefix(10);
  const auto dot = target.find('.');
  if (dot == std::string_view::npos) return "";
  const std::string_view ns = target.substr(0, dot);
  if (ns == "aten" || ns == "prims" || ns == "higher_order" || ns == "_c10d_functional" ||
      ns == "inductor" || ns == "quantized")
    return "";
  const std::string_view rest = target.substr(dot + 1);
  return std::string(ns) + "::" + std::string(rest.substr(0, rest.find('.')));
}

// The trace's graph shows the op's output shape next to its inputs': `pad_rows: f32[9, 16]` from
// `x: f32[s77, 16]`. That is the fake kernel's answer, seen directly.
void add_trace_graphs(const Case& c, std::vector<Finding>& out) {
  for (const auto& trace : c.traces)
    for (const auto& graph : trace.graphs)
      for (const auto& node : graph.nodes) {
        const std::string op = custom_op_of(node.target);
        if (op.empty() || node.shape.empty() || symbolic(node.shape)) continue;
        const TraceGraphNode* dynamic_input = nullptr;
        for (const auto& name : node.inputs)
          for (const auto& other : graph.nodes)
            if (other.name == name && symbolic(other.shape) && !dynamic_input)
              dynamic_input = &other;
        if (!dynamic_input || sized_by_caller(node, *dynamic_input)) continue;
        Evidence seen{
            Location{graph.payload_artifact, "", node.line},
            fmt::format("{}: \"{}\" = {}({})  # from {}: \"{}\"", node.name, node.shape,
                        node.target, join(node.inputs), dynamic_input->name, dynamic_input->shape),
            fmt::format(
                "the traced graph ({}): the op's output is static while its input `{}` is symbolic",
                graph.name, dynamic_input->name)};
        const std::string subject = "op " + op;
        auto existing = std::find_if(out.begin(), out.end(),
                                     [&](const Finding& f) { return f.subject == subject; });
        if (existing != out.end()) {
          // One graph is enough evidence; traces hold the same node in several graph dumps.
          if (std::none_of(
                  existing->evidence.begin(), existing->evidence.end(),
                  [](const Evidence& e) { return e.note.starts_with("the traced graph"); })) {
            existing->evidence.insert(existing->evidence.begin(), std::move(seen));
            existing->confidence = 0.95;
          }
          continue;
        }
        Finding f = new_finding(CustomopFakeStaticShapeCheck::k_info, Severity::error, 0.85);
        f.subject = subject;
        f.title = fmt::format(
            "Custom op `{}` has a static output shape although its input is dynamic", op);
        f.message = fmt::format(
            "In the traced graph `{}`, `{}` returns `{}` from `{}: {}`: its fake (or meta) kernel "
            "returned a fixed shape instead of one computed from its input's symbolic sizes.",
            graph.name, node.name, node.shape, dynamic_input->name, dynamic_input->shape);
        f.why =
            "The compiled graph trusts the fake kernel's shape: downstream kernels process only "
            "that many "
            "elements, so at any other size results are silently wrong.";
        f.evidence.push_back(std::move(seen));
        f.chain = {fmt::format("{}: {}", dynamic_input->name, dynamic_input->shape), op,
                   fmt::format("{}: {}", node.name, node.shape)};
        f.next_steps = {
            {fmt::format("make the fake kernel of `{}` compute its output shape from the input's "
                         "symbolic sizes",
                         op),
             ""},
            opcheck_step(c, op, "check the fake against the real kernel at several sizes")};
        out.push_back(std::move(f));
      }
}

}  // namespace

std::vector<Finding> CustomopFakeStaticShapeCheck::run(const Case& c) const {
  std::vector<Finding> out;
  for (const auto& model : c.models) {
    if (!model.wrapper) continue;
    const auto& w = *model.wrapper;
    for (const auto& proxy : w.proxy_calls) {
      const ExternNode* node = find_node(model, proxy.extern_node_index);
      if (!node) continue;
      // The op's dynamic inputs: model inputs with a size symbol bound to them.
      std::vector<const SymbolBinding*> dynamic_dims;
      for (const auto& arg : proxy.tensor_args)
        for (const auto& b : w.bindings)
          if (b.input == arg && !b.is_stride) dynamic_dims.push_back(&b);
      if (dynamic_dims.empty()) continue;
      const KernelCall* consumer = first_consumer(w, proxy, *node);
      if (!consumer || uses_symbols(*consumer)) continue;
      const TritonKernel* kernel = find_kernel(w, consumer->kernel);
      if (auto f = report(c, model, w, proxy, *node, dynamic_dims, *consumer, kernel))
        out.push_back(std::move(*f));
    }
  }
  add_trace_graphs(c, out);
  return out;
}

}  // namespace aoti::checks
