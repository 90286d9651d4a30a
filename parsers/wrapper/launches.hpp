// Kernel launches (`call_triton_*`, `cpp_*`) and proxy-executor calls (custom ops), each with the
// source nodes and ATen ops of the `// Source Nodes: [...]` comment before it. A comment's scope
// ends at the launch it describes, at a direct ATen call (`aoti_torch_cuda_addmm_out`), or at a
// line at column 0.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/case.hpp"

namespace aoti::parsers::wrapper {

class LaunchReader {
 public:
  explicit LaunchReader(model::WrapperFacts& facts) : m_facts(facts) {}
  // A comment (without its `//`) that may be a source-nodes comment.
  void read_source_nodes(std::string_view comment, int number);
  void read_kernel_call(std::string_view line, int number);
  // `AtenTensorHandle tensor_args_var_0[] = {...};`
  void read_tensor_array(std::string_view line);
  void read_proxy_call(std::string_view line, int number);
  void end_scope() { m_pending_nodes.reset(); }
  void end_scope_at_shim_call(std::string_view line);

 private:
  struct SourceNodes {
    std::vector<std::string> nodes;
    std::vector<std::string> aten_ops;
  };
  // The launch ends the pending comment's scope and takes its nodes (KernelCall or ProxyCall).
  template <typename Call>
  void take_source_nodes(Call& call) {
    if (!m_pending_nodes) return;
    call.source_nodes = std::move(m_pending_nodes->nodes);
    call.aten_ops = std::move(m_pending_nodes->aten_ops);
    m_pending_nodes.reset();
  }

  model::WrapperFacts& m_facts;
  std::map<std::string, std::vector<std::string>> m_tensor_arrays;
  std::optional<SourceNodes> m_pending_nodes;
};

}  // namespace aoti::parsers::wrapper
