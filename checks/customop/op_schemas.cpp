#include "checks/customop/op_schemas.hpp"

#include <algorithm>

#include "torch/schema_types.hpp"

namespace aoti::checks::symint {
namespace {

using namespace aoti::model;

std::string without_overload(const std::string& op) {
  const std::size_t colons = op.find("::");
  const std::size_t dot = op.find('.', colons == std::string::npos ? 0 : colons);
  return dot == std::string::npos ? op : op.substr(0, dot);
}

// Out of line: GCC 12 -Wmaybe-uninitialized misreads `p.id = list ? "C4" : "C3"` inlined.
[[gnu::noinline]] std::string pattern_id(bool list) { return list ? "C4" : "C3"; }

// The traced kernel of `op` in `source` that holds `function`'s parameters.
const SourceKernel* kernel_of(const SourceFacts& source, const std::string& op,
                              const std::string& function) {
  for (const SourceKernel& k : source.kernels)
    if (k.traced && k.op == op && k.function == function && !k.params.empty()) return &k;
  return nullptr;
}

}  // namespace

const SourceOp* find_schema(const Case& c, const std::string& op, const SourceFacts** where) {
  const SourceOp* plain = nullptr;
  const SourceFacts* plain_source = nullptr;
  for (const SourceFacts& source : c.sources)
    for (const SourceOp& candidate : source.ops) {
      if (candidate.schema.empty()) continue;
      if (candidate.name == op) {
        if (where) *where = &source;
        return &candidate;
      }
      if (!plain && candidate.name == without_overload(op) && candidate.name != op) {
        plain = &candidate;
        plain_source = &source;
      }
    }
  if (where) *where = plain_source;
  return plain;
}

const SchemaArg* bound_argument(const SourceKernel& kernel, const SourceOp& schema, std::size_t i) {
  if (i >= kernel.params.size()) return nullptr;
  if (kernel.params.size() == schema.args.size()) return &schema.args[i];
  for (const SchemaArg& arg : schema.args)
    if (arg.name == kernel.params[i].name) return &arg;
  return nullptr;
}

std::vector<SourcePattern> signature_patterns(const Case& c, const SourceFacts& source) {
  std::vector<SourcePattern> out;
  for (const SourceKernel& kernel : source.kernels) {
    if (!kernel.traced || kernel.params.empty()) continue;
    const SourceOp* schema = find_schema(c, kernel.op);
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
      const KernelParam& param = kernel.params[i];
      if (param.line == 0) continue;
      const bool list = param.kind == ParamKind::concrete_int_list;
      const bool scalar =
          param.kind == ParamKind::concrete_int || param.kind == ParamKind::optional_concrete_int;
      if (!list && !scalar) continue;
      std::string schema_type;
      if (schema) {
        const SchemaArg* arg = bound_argument(kernel, *schema, i);
        if (!arg) continue;
        const bool mismatch =
            list ? torch::is_symint_list_type(arg->type)
                 : torch::is_symint_scalar_type(arg->type) &&
                       (arg->type == "SymInt?") == (param.kind == ParamKind::optional_concrete_int);
        if (!mismatch) continue;
        schema_type = arg->type;
      } else if (!param.builds_shape) {
        continue;
      }
      SourcePattern p;
      p.id = pattern_id(list);
      p.form = PatternForm::int_parameter;
      p.op = kernel.op;
      p.function = kernel.function;
      p.file = source.artifact;
      p.line = param.line;
      p.column = param.column;
      p.excerpt = param.excerpt;
      p.name = param.name;
      p.written_type = param.written_type;
      p.schema_type = schema_type;
      out.push_back(std::move(p));
    }
  }
  return out;
}

bool concrete_by_schema(const Case& c, const SourceFacts& source, const SourcePattern& pattern) {
  if (pattern.via_parameters.empty()) return false;
  const SourceOp* schema = find_schema(c, pattern.op);
  const SourceKernel* kernel = kernel_of(source, pattern.op, pattern.function);
  if (!schema || !kernel) return false;
  return std::all_of(pattern.via_parameters.begin(), pattern.via_parameters.end(),
                     [&](const std::string& name) {
                       for (std::size_t i = 0; i < kernel->params.size(); ++i)
                         if (kernel->params[i].name == name) {
                           const SchemaArg* arg = bound_argument(*kernel, *schema, i);
                           return arg && torch::is_concrete_int_type(arg->type);
                         }
                       return false;
                     });
}

bool holds_by_schema(const Case& c, const SourcePattern& pattern) {
  if (pattern.if_tensor_parameter.empty()) return true;
  const SourceOp* schema = find_schema(c, pattern.op);
  if (!schema) return false;
  return std::any_of(schema->args.begin(), schema->args.end(), [&](const SchemaArg& arg) {
    return arg.name == pattern.if_tensor_parameter && arg.type.starts_with("Tensor") &&
           !arg.type.starts_with("Tensor[]");
  });
}

}  // namespace aoti::checks::symint
