#include "parsers/wrapper/launches.hpp"

#include <array>
#include <utility>

#include "parsers/wrapper/cxx_scan.hpp"
#include "util/text.hpp"

namespace aoti::parsers::wrapper {

namespace {

// Fallback ATen ops the wrapper calls directly (`aoti_torch_cuda_addmm_out`): each ends the
// scope of the `// ... Source Nodes` comment before it, as a kernel launch does.
constexpr std::array<std::string_view, 5> k_shim_op_prefixes = {
    "aoti_torch_cpu_", "aoti_torch_cuda_", "aoti_torch_xpu_", "aoti_torch_mps_", "aoti_torch_hip_"};

}  // namespace

void LaunchReader::read_source_nodes(std::string_view comment, int number) {
  const std::size_t nodes = comment.find("Source Nodes:");
  if (nodes == std::string_view::npos) return;
  SourceNodes pending;
  const std::size_t nodes_open = comment.find('[', nodes);
  if (nodes_open != std::string_view::npos) pending.nodes = bracketed_items(comment, nodes_open);
  const std::size_t aten = comment.find("Original ATen:", nodes);
  if (aten != std::string_view::npos) {
    const std::size_t aten_open = comment.find('[', aten);
    if (aten_open != std::string_view::npos) pending.aten_ops = bracketed_items(comment, aten_open);
  }
  m_facts.source_node_comments.push_back({pending.nodes, pending.aten_ops, number});
  m_pending_nodes = std::move(pending);
}

void LaunchReader::read_kernel_call(std::string_view line, int number) {
  const std::string_view name = util::leading_identifier(line);
  if (name.size() >= line.size() || line[name.size()] != '(') return;
  const auto args = top_level_items(line, name.size());
  if (!args) return;
  model::KernelCall call;
  call.kernel = std::string(name.starts_with("call_") ? name.substr(5) : name);
  call.args.assign(args->begin(), args->end());
  call.line = number;
  call.text = std::string(line);
  take_source_nodes(call);
  m_facts.kernel_calls.push_back(std::move(call));
}

// Older wrappers pass the proxy executor named arrays: `AtenTensorHandle tensor_args_var_0[] =
// {...};`.
void LaunchReader::read_tensor_array(std::string_view line) {
  const std::string_view rest = util::trim(line.substr(16));
  const std::string_view name = util::leading_identifier(rest);
  const std::size_t open = rest.find('{');
  if (name.empty() || open == std::string_view::npos) return;
  m_tensor_arrays[std::string(name)] = bracketed_items(rest, open);
}

void LaunchReader::read_proxy_call(std::string_view line, int number) {
  constexpr std::string_view k_call = "aoti_torch_proxy_executor_call_function(";
  const std::size_t open = line.find(k_call) + k_call.size() - 1;
  const auto args = top_level_items(line, open, 2);
  if (!args) return;
  const auto node = util::parse_index((*args)[1]);
  if (!node) return;
  model::ProxyCall call;
  call.extern_node_index = *node;
  call.line = number;
  for (const auto arg : *args) {
    if (arg.find("AtenTensorHandle") != std::string_view::npos) {
      const std::size_t brace = arg.find('{');
      if (brace != std::string_view::npos) call.tensor_args = bracketed_items(arg, brace);
    } else if (const auto named = m_tensor_arrays.find(std::string(util::leading_identifier(arg)));
               named != m_tensor_arrays.end()) {
      call.tensor_args = named->second;
    }
  }
  take_source_nodes(call);
  m_facts.proxy_calls.push_back(std::move(call));
}

void LaunchReader::end_scope_at_shim_call(std::string_view line) {
  if (!m_pending_nodes) return;
  for (const auto prefix : k_shim_op_prefixes) {
    if (line.find(prefix) != std::string_view::npos) {
      m_pending_nodes.reset();
      return;
    }
  }
}

}  // namespace aoti::parsers::wrapper
