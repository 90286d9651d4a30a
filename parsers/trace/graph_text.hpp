// Reads the nodes of a readable FX graph (`GraphModule.print_readable()`, `str(ExportedProgram)`)
// one payload line at a time, so a graph is never held as text:
//     def forward(self, x: "f32[s77, 16][16, 1]cuda:0"):
//         # File: /m/gen.py:109 in forward, code: return pad_rows(x)
//         pad_rows: "f32[9, 16][16, 1]cuda:0" = torch.ops.heldout.pad_rows.default(x);  x = None
//     Range constraints: {s77: VR[2, 512]}
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

#include "model/facts/trace.hpp"

namespace aoti::parsers::trace {

class GraphTextReader {
 public:
  static constexpr std::size_t k_max_nodes = 20000;

  explicit GraphTextReader(::aoti::model::TraceGraph& graph) : m_graph(graph) {}
  void line(std::string_view text, int line_number);

 private:
  void add_node(::aoti::model::TraceGraphNode node);
  // A graph input: `x: "f32[s77, 16]"`.
  void add_placeholder(std::string_view name, std::string_view type, int line_number);
  void parameters(std::string_view text, int line_number);  // `x: "f32[...]", y: "..."`
  void statement(std::string_view text, int line_number);
  void range_constraints(std::string_view text);

  ::aoti::model::TraceGraph& m_graph;
  std::unordered_set<std::string> m_names;
  std::string m_source;  // the last "# File:" comment
  bool m_in_parameters = false;
};

// "f32[9, 16][16, 1]cuda:0" -> "f32[9, 16]"; other annotations unchanged.
std::string shape_of(std::string_view type);

}  // namespace aoti::parsers::trace
