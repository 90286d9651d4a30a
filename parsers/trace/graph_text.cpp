#include "parsers/trace/graph_text.hpp"

#include <cctype>

#include "util/text.hpp"

namespace aoti::parsers::trace {
namespace {

constexpr std::size_t k_max_field = 2048;  // one name, type, target or comment
constexpr std::size_t k_max_inputs = 64;
constexpr std::size_t k_max_outputs = 256;
constexpr std::size_t k_max_ranges = 4096;

std::string bounded(std::string_view text) { return std::string(text.substr(0, k_max_field)); }

// `: "TYPE"` at the start of `text`: the type, and `text` moved past it.
bool take_annotation(std::string_view& text, std::string_view& type) {
  if (text.substr(0, 3) != ": \"") return false;
  const std::size_t close = text.find('"', 3);
  if (close == std::string_view::npos) return false;
  type = text.substr(3, close - 3);
  text.remove_prefix(close + 1);
  return true;
}

}  // namespace

std::string shape_of(std::string_view type) {
  const std::size_t open = type.find('[');
  if (open == std::string_view::npos || open == 0) return bounded(type);
  for (std::size_t i = 0; i < open; ++i)
    if (!std::isalnum(static_cast<unsigned char>(type[i]))) return bounded(type);
  int depth = 0;
  for (std::size_t i = open; i < type.size(); ++i) {
    if (type[i] == '[') ++depth;
    if (type[i] == ']' && --depth == 0) return bounded(type.substr(0, i + 1));
  }
  return bounded(type);
}

void GraphTextReader::add_node(model::TraceGraphNode node) {
  if (m_graph.nodes.size() >= k_max_nodes) {
    m_graph.truncated = true;
    return;
  }
  m_names.insert(node.name);
  m_graph.nodes.push_back(std::move(node));
}

void GraphTextReader::add_placeholder(std::string_view name, std::string_view type,
                                      int line_number) {
  model::TraceGraphNode node;
  node.name = bounded(name);
  node.op = "placeholder";
  node.type = bounded(type);
  node.shape = shape_of(type);
  node.line = line_number;
  add_node(std::move(node));
}

void GraphTextReader::parameters(std::string_view text, int line_number) {
  while (!text.empty()) {
    text = util::trim(text);
    while (!text.empty() && (text[0] == ',' || text[0] == '(')) text = util::trim(text.substr(1));
    const std::string_view name = util::leading_identifier(text);
    if (name.empty()) return;
    text.remove_prefix(name.size());
    std::string_view type;
    if (name != "self" && take_annotation(text, type)) add_placeholder(name, type, line_number);
    const std::size_t comma = text.find(',');
    if (comma == std::string_view::npos) return;
    text.remove_prefix(comma + 1);
  }
}

void GraphTextReader::range_constraints(std::string_view text) {
  // {u0: VR[-int_oo, 15], s77: VR[2, 512]}
  for (std::size_t at = text.find("VR["); at != std::string_view::npos;
       at = text.find("VR[", at + 3)) {
    if (m_graph.range_constraints.size() >= k_max_ranges) return;
    const std::size_t colon = text.rfind(':', at);
    if (colon == std::string_view::npos) continue;
    std::size_t start = colon;
    while (start > 0 && util::is_identifier_char(text[start - 1])) --start;
    const std::size_t close = text.find(']', at);
    if (close == std::string_view::npos) return;
    const std::string_view bounds = text.substr(at + 3, close - at - 3);
    const std::size_t comma = bounds.find(',');
    if (comma == std::string_view::npos) continue;
    m_graph.range_constraints.push_back({bounded(text.substr(start, colon - start)),
                                         bounded(util::trim(bounds.substr(0, comma))),
                                         bounded(util::trim(bounds.substr(comma + 1)))});
  }
}

void GraphTextReader::statement(std::string_view text, int line_number) {
  const std::string_view name = util::leading_identifier(text);
  if (name.empty()) return;
  std::string_view rest = text.substr(name.size());
  std::string_view type;
  const bool annotated = take_annotation(rest, type);
  if (annotated && (rest.empty() || rest[0] == ';' || rest[0] == ',')) {
    // `arg0_1: "f32[s77, 16]"; ` (flattened inputs) or `x: "f32[...]",` in a multi-line def
    add_placeholder(name, type, line_number);
    return;
  }
  if (!rest.starts_with(" = ")) return;
  std::string_view rhs = rest.substr(3);
  // Drop the `;  x = None` that frees the inputs.
  if (const std::size_t semi = rhs.find(";  "); semi != std::string_view::npos)
    rhs = rhs.substr(0, semi);
  rhs = util::trim(rhs);
  if (!rhs.empty() && rhs.back() == ';') rhs.remove_suffix(1);

  model::TraceGraphNode node;
  node.name = bounded(name);
  node.type = bounded(type);
  node.shape = annotated ? shape_of(type) : std::string();
  node.source = m_source;
  node.line = line_number;
  std::string_view arguments = rhs;
  const std::size_t open = rhs.find('(');
  if (rhs.starts_with("self.")) {
    node.op = "get_attr";
    node.target = bounded(rhs);
  } else if (open != std::string_view::npos && open > 0 && !util::leading_identifier(rhs).empty()) {
    node.op = "call";
    node.target = bounded(util::trim(rhs.substr(0, open)));
    arguments = rhs.substr(open + 1);
  } else {
    node.op = "expr";
    node.target = bounded(rhs);
  }
  // Inputs: identifiers among the arguments that name earlier nodes, skipping attribute names
  // (`x.shape`) and string literals.
  bool in_string = false;
  for (std::size_t i = 0; i < arguments.size() && node.inputs.size() < k_max_inputs;) {
    const char ch = arguments[i];
    if (ch == '\'' || ch == '"') {
      in_string = !in_string;
      ++i;
      continue;
    }
    if (in_string ||
        (i > 0 && (util::is_identifier_char(arguments[i - 1]) || arguments[i - 1] == '.'))) {
      ++i;
      continue;
    }
    const std::string_view ident = util::leading_identifier(arguments.substr(i));
    if (ident.empty()) {
      // An integer literal: digits (after an optional minus) not part of a float or a name.
      std::size_t end = i + (ch == '-' ? 1 : 0);
      while (end < arguments.size() && std::isdigit(static_cast<unsigned char>(arguments[end])))
        ++end;
      const bool whole =
          end < arguments.size() && (arguments[end] == ',' || arguments[end] == ')' ||
                                     arguments[end] == ']' || arguments[end] == ' ');
      if (end > i + (ch == '-' ? 1 : 0) && whole && node.int_literals.size() < k_max_inputs) {
        if (const auto value = util::parse_int(arguments.substr(i, end - i)))
          node.int_literals.push_back(*value);
        i = end;
        continue;
      }
      ++i;
      continue;
    }
    i += ident.size();
    std::string key(ident);
    if (key != node.name && m_names.count(key)) node.inputs.push_back(std::move(key));
  }
  add_node(std::move(node));
}

void GraphTextReader::line(std::string_view raw, int line_number) {
  const std::string_view text = util::trim(raw);
  if (text.empty()) return;
  if (m_in_parameters) {
    if (text[0] == ')') {
      m_in_parameters = false;
      return;
    }
    parameters(text, line_number);
    return;
  }
  if (text.starts_with("# File: ")) {
    m_source = bounded(text.substr(8));
    return;
  }
  if (text[0] == '#') return;
  if (text.starts_with("def forward(")) {
    const std::string_view params = text.substr(12);
    const std::size_t close = params.rfind("):");
    if (close == std::string_view::npos) {
      m_in_parameters = true;
      parameters(params, line_number);
    } else {
      parameters(params.substr(0, close), line_number);
    }
    return;
  }
  if (text.starts_with("Range constraints:")) {
    range_constraints(text.substr(18));
    return;
  }
  if (text.starts_with("return ")) {
    if (!m_graph.outputs.empty()) return;  // keep the outer graph's, printed first
    std::string_view rest = text.substr(7);
    while (!rest.empty() && m_graph.outputs.size() < k_max_outputs) {
      const std::string_view ident = util::leading_identifier(rest);
      if (!ident.empty()) {
        m_graph.outputs.push_back(bounded(ident));
        rest.remove_prefix(ident.size());
      } else {
        rest.remove_prefix(1);
      }
    }
    return;
  }
  if (text.starts_with("class ")) return;
  statement(text, line_number);
}

}  // namespace aoti::parsers::trace
