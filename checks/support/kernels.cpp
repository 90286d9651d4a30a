#include "checks/support/kernels.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "checks/support/contract.hpp"
#include "checks/support/finding.hpp"
#include "util/text.hpp"

namespace aoti::checks {
using namespace aoti::model;

std::vector<std::string> identifiers_in(std::string_view expr) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < expr.size();) {
    if (!util::is_identifier_char(expr[i]) || std::isdigit(static_cast<unsigned char>(expr[i]))) {
      // Skip numbers whole, suffixes included (`1000L`).
      while (i < expr.size() && util::is_identifier_char(expr[i])) ++i;
      if (i < expr.size() && !util::is_identifier_char(expr[i])) ++i;
      continue;
    }
    std::size_t end = i;
    while (end < expr.size() && util::is_identifier_char(expr[end])) ++end;
    std::string name(expr.substr(i, end - i));
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    i = end;
  }
  return out;
}

// The `tmpN` names an expression mentions, in order.
std::vector<std::string> temporaries_in(std::string_view expr) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 3 < expr.size(); ++i) {
    if (expr.compare(i, 3, "tmp") != 0 || (i > 0 && util::is_identifier_char(expr[i - 1])))
      continue;
    std::size_t end = i + 3;
    while (end < expr.size() && std::isdigit(static_cast<unsigned char>(expr[end]))) ++end;
    if (end > i + 3 && (end == expr.size() || !util::is_identifier_char(expr[end])))
      out.emplace_back(expr.substr(i, end - i));
    i = end;
  }
  return out;
}

// The load that defines `var` in `scope` (C++ kernels reuse tmp names in each loop nest).
const TritonLoad* load_of(const TritonKernel& kernel, const std::string& var, int scope) {
  const auto load = std::find_if(
      kernel.loads.begin(), kernel.loads.end(),
      [&](const TritonLoad& l) { return !l.is_store && l.var == var && l.scope == scope; });
  return load == kernel.loads.end() ? nullptr : &*load;
}

// `var` and every temporary it is computed from, following assignments and stopping at loads.
std::set<std::string> derivation(const TritonKernel& kernel, const std::string& var, int scope) {
  std::set<std::string> seen;
  std::vector<std::string> work{var};
  while (!work.empty() && seen.size() < 256) {
    const std::string next = work.back();
    work.pop_back();
    if (!seen.insert(next).second || load_of(kernel, next, scope)) continue;
    if (auto it = kernel.assignments.find(scoped_name(next, scope)); it != kernel.assignments.end())
      for (auto& t : temporaries_in(it->second)) work.push_back(t);
  }
  return seen;
}

// The loads the index value is computed from.
std::vector<const TritonLoad*> index_sources(const TritonKernel& kernel,
                                             const std::string& index_var, int scope) {
  std::vector<const TritonLoad*> out;
  for (const auto& var : derivation(kernel, index_var, scope))
    if (const TritonLoad* load = load_of(kernel, var, scope)) out.push_back(load);
  std::sort(out.begin(), out.end(),
            [](const TritonLoad* a, const TritonLoad* b) { return a->line < b->line; });
  return out;
}

std::vector<IndirectRead> indirect_reads(const TritonKernel& kernel, const KernelCall& call) {
  std::vector<IndirectRead> out;
  for (const auto& access : kernel.loads)
    for (const auto& name : identifiers_in(access.offset))
      for (const TritonLoad* index : index_sources(kernel, name, access.scope)) {
        if (index == &access) continue;
        IndirectRead read{&access, index, argument_for(kernel, call, access.pointer),
                          argument_for(kernel, call, index->pointer)};
        if (read.table_arg.empty() || read.index_arg.empty()) continue;
        if (std::none_of(out.begin(), out.end(), [&](const IndirectRead& r) {
              return r.access == read.access && r.index == read.index;
            }))
          out.push_back(std::move(read));
      }
  return out;
}

bool is_size_symbol(std::string_view arg) {
  std::size_t i = 0;
  if (arg.starts_with("ks"))
    i = 2;
  else if (!arg.empty() && (arg[0] == 's' || arg[0] == 'u'))
    i = 1;
  else
    return false;
  return i < arg.size() &&
         std::all_of(
             arg.begin() + static_cast<long>(i), arg.end(),
             [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
}

KernelSite kernel_site(const Case& c, std::string_view name) {
  for (const auto& model : c.models) {
    if (!model.wrapper) continue;
    if (const TritonKernel* kernel = find_kernel(*model.wrapper, name))
      return {&model, kernel, launch_of(*model.wrapper, *kernel)};
  }
  return {};
}

const TritonKernel* find_kernel(const WrapperFacts& w, std::string_view name) {
  for (const auto& k : w.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const KernelCall* launch_of(const WrapperFacts& w, const TritonKernel& kernel) {
  const KernelCall* call = nullptr;
  for (const auto& k : w.kernel_calls)
    if (k.kernel == kernel.name || (!kernel.launch_name.empty() && k.kernel == kernel.launch_name))
      call = &k;
  return call;
}

std::string argument_name(std::string_view arg) {
  const auto at = arg.find(".data_ptr()");
  if (at == std::string_view::npos) return std::string(arg);
  std::size_t begin = at;
  while (begin > 0 &&
         (std::isalnum(static_cast<unsigned char>(arg[begin - 1])) || arg[begin - 1] == '_'))
    --begin;
  return std::string(arg.substr(begin, at - begin));
}

std::string argument_for(const TritonKernel& kernel, const KernelCall& call,
                         std::string_view param) {
  const auto it = std::find(kernel.params.begin(), kernel.params.end(), param);
  if (it == kernel.params.end()) return "";
  const auto position = static_cast<std::size_t>(it - kernel.params.begin());
  return position < call.args.size() ? argument_name(call.args[position]) : "";
}

std::vector<RangeHazard> unguarded_ranges(const WrapperFacts& w) {
  // `(yindex % ks0)`: the index runs over 0..ks0-1, whatever the grid.
  static const std::regex k_modulo(R"(^\(?\s*[xyrz]\d?index\s*%\s*(ks\d+)\s*\)?$)");
  std::vector<RangeHazard> out;
  for (const auto& kernel : w.kernels) {
    if (kernel.language != KernelLanguage::triton) continue;
    const KernelCall* call = launch_of(w, kernel);
    if (!call) continue;
    for (const auto& assertion : kernel.asserts) {
      const auto bound = util::parse_int(assertion.bound);
      const auto expression = kernel.assignments.find(assertion.index_var);
      if (!bound || expression == kernel.assignments.end()) continue;
      std::smatch m;
      if (!std::regex_match(expression->second, m, k_modulo)) continue;
      RangeHazard r;
      r.kernel = &kernel, r.assertion = &assertion, r.call = call, r.bound = *bound;
      r.param = m[1].str(), r.expression = expression->second;
      const std::string symbol = argument_for(kernel, *call, r.param);
      for (const auto& b : w.bindings)
        if (b.symbol == symbol && !b.is_stride) r.binding = &b;
      if (!r.binding) continue;
      r.input_index = input_index_of(w, r.binding->input);
      for (const auto& check : w.input_checks) {
        if (check.input_index != r.input_index || check.dim != r.binding->dim) continue;
        if (check.kind == InputCheckKind::dim_min) r.min = check.value;
        if (check.kind == InputCheckKind::dim_max) r.max = check.value, r.max_line = check.line;
      }
      if (r.max && *r.max <= *bound) continue;  // the contract keeps the index below the bound
      r.expression_line = wrapper_line_with(w, kernel.line, assertion.index_var + " = ",
                                            std::max(kernel.source_end - kernel.line, 1));
      // The table the index addresses: a constant loaded with it, with a dim of exactly the bound.
      for (const auto& load : kernel.loads) {
        if (load.offset.find(assertion.index_var) == std::string::npos) continue;
        const std::string arg = argument_for(kernel, *call, load.pointer);
        for (const auto& constant : w.constants)
          if (constant.name == arg && std::find(constant.shape.begin(), constant.shape.end(),
                                                *bound) != constant.shape.end())
            r.table = &constant;
      }
      out.push_back(r);
    }
  }
  return out;
}

namespace {
std::string table_name(const RangeHazard& r) {
  return !r.table ? "" : r.table->original_fqn.empty() ? r.table->name : r.table->original_fqn;
}
std::string range_text(const RangeHazard& r) {
  return r.max ? fmt::format("[{}, {}]", r.min, *r.max) : fmt::format("[{}, int_oo]", r.min);
}
}  // namespace

std::string range_hazard_sentence(const WrapperFacts& w, const RangeHazard& r) {
  const std::string table = table_name(r);
  return fmt::format(
      "The index is not data: `{}` = `{}` runs over dim {} of {} (`{}` is bound at the launch to "
      "`{}`), which the "
      "package accepts in {}, while the kernel only takes indices below {}{}: every size above {} "
      "passes the input "
      "checks and trips `{}`",
      r.assertion->index_var, r.expression, r.binding->dim, input_display(w, r.binding->input),
      r.param, r.binding->symbol, range_text(r), r.bound,
      table.empty() ? "" : fmt::format(" (the rows of `{}`)", table), r.bound,
      r.assertion->message);
}

std::vector<Evidence> range_hazard_evidence(const WrapperFacts& w, const RangeHazard& r) {
  std::vector<Evidence> out;
  if (r.expression_line > 0)
    out.push_back(quote_wrapper(
        w, r.expression_line,
        fmt::format("the index `{}` follows the dim's size", r.assertion->index_var)));
  if (r.table) {
    const int shape_line = wrapper_line_with(
        w, r.table->line, fmt::format("constants_info_[{}].shape", r.table->index));
    out.push_back(quote_wrapper(w, shape_line ? shape_line : r.table->line,
                                fmt::format("`{}` has {} rows", table_name(r), r.bound)));
  }
  out.push_back(quote_wrapper(w, r.binding->line,
                              fmt::format("`{}` is dim {} of {}", r.binding->symbol, r.binding->dim,
                                          input_display(w, r.binding->input))));
  if (r.max_line)
    out.push_back(
        quote_wrapper(w, r.max_line, fmt::format("the input check allows up to {}", *r.max)));
  return out;
}

NextStep range_hazard_fix(const WrapperFacts& w, const RangeHazard& r) {
  const std::string table = table_name(r);
  const std::string dim_name = dim_name_or(w, r.input_index, r.binding->dim, "d");
  return {fmt::format("re-export with the dim's range capped at {}{}, then re-package (or give the "
                      "table as many rows "
                      "as the largest size you serve)",
                      r.bound, table.empty() ? "" : fmt::format(", the rows of `{}`", table)),
          dynamic_shapes_text(
              w, r.input_index, r.binding->dim,
              fmt::format("torch.export.Dim(\"{}\", min={}, max={})", dim_name, r.min, r.bound)),
          "python"};
}

const model::PackageEntry* package_cubin(const model::Case& c, const model::GpuModule& module) {
  for (const auto& package : c.packages)
    for (const auto& entry : package.entries)
      if (entry.name.ends_with(".cubin") && entry.size == module.image_size && module.image_crc32 &&
          entry.crc32 == *module.image_crc32)
        return &entry;
  return nullptr;
}

std::size_t package_cubin_count(const model::Case& c) {
  std::size_t n = 0;
  for (const auto& package : c.packages)
    for (const auto& entry : package.entries) n += entry.name.ends_with(".cubin") ? 1 : 0;
  return n;
}

bool outside_packages(const model::Case& c, const model::GpuCoreFacts& core,
                      const model::GpuCodeLocation& at) {
  if (c.models.empty() || !at.module || *at.module >= core.modules.size() || at.kernel.empty())
    return false;
  const model::GpuModule& module = core.modules[*at.module];
  if (!module.image_crc32 || package_cubin(c, module)) return false;
  return std::none_of(c.models.begin(), c.models.end(), [&](const model::ModelFacts& m) {
    return m.wrapper && find_kernel(*m.wrapper, at.kernel);
  });
}

}  // namespace aoti::checks
