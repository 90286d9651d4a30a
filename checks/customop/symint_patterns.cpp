#include "checks/customop/symint_patterns.hpp"

namespace aoti::checks::symint {
namespace {

using model::PatternForm;
using model::SourcePattern;

// C1: "x.size(0)" → "x.sym_size(0)" from the call's own text; "x.sizes().size()" → "x.dim()"; a
// generic form when the call was not short and on one line.
std::string symbolic_size_read(const SourcePattern& p) {
  const std::string symbolic = "sym_" + p.name;
  if (!p.matched_text.empty()) {
    const std::size_t at = p.matched_text.rfind("." + p.name + "(");
    if (at != std::string::npos) {
      if (p.form == PatternForm::rank_read) return p.matched_text.substr(0, at) + ".dim()";
      return std::string(p.matched_text).replace(at + 1, p.name.size(), symbolic);
    }
  }
  return "x." + symbolic +
         (p.name == "sizes" || p.name == "strides" || p.name == "numel" ? "()" : "(i)");
}

PatternAdvice cpp_int_parameter(const SourcePattern& p) {
  const std::string symbolic_type = p.id == "C4" ? "c10::SymIntArrayRef"
                                    : p.written_type.find("optional") != std::string::npos
                                        ? "std::optional<c10::SymInt>"
                                        : "c10::SymInt";
  if (p.schema_type.empty())
    return {"parameter '" + p.name + "' is " + p.written_type +
                " and the kernel builds its output shape from it; the op's schema is not among "
                "the inputs: if it says SymInt, the dispatcher guards the value to a constant "
                "(guard_int), if int, the caller's symbolic size is guarded at the call",
            symbolic_type + " " + p.name + ", with SymInt in the schema"};
  const std::string head =
      "parameter '" + p.name + "' is " + p.written_type + " but the schema says ";
  if (p.id == "C4")
    return {head + p.schema_type +
                ": symbolic sizes fail with \"SymIntArrayRef expected to contain only concrete "
                "integers\"",
            "c10::SymIntArrayRef " + p.name};
  if (p.schema_type == "SymInt?")
    return {head + "SymInt?: the value is specialized through guard_int()",
            "std::optional<c10::SymInt> " + p.name};
  return {
      head +
          "SymInt: the dispatcher calls guard_int() on it, silently specializing the dynamic value",
      "c10::SymInt " + p.name};
}

// A Python condition in a suggestion, "..." when it was too long or spanned lines.
std::string condition(const SourcePattern& p) {
  return p.matched_text.empty() ? "..." : p.matched_text;
}

}  // namespace

PatternAdvice advice_for(const SourcePattern& p, std::string_view language) {
  switch (p.form) {
    case PatternForm::size_read:
    case PatternForm::rank_read:
      return {"." + p.name +
                  "() reads a concrete size: under dynamic shapes it fails with \"Cannot call " +
                  (p.name == "size" ? std::string("sizes") : p.name) +
                  "() on tensor with symbolic sizes/strides\" (latent while shapes are static)",
              symbolic_size_read(p)};
    case PatternForm::size_factory:
      return {p.name +
                  "() takes concrete int64 sizes: the first traced sizes are baked into the graph "
                  "instead of symbols",
              p.callee_namespace.empty()
                  ? "." + p.name + "_symint(...)"
                  : p.callee_namespace + "::" + p.name + "_symint(c10::SymDimVector{...}, ...)"};
    case PatternForm::size_container:
      return {
          "a container of int64_t sizes cannot hold symbolic sizes: building a shape in it forces "
          "concrete values",
          "c10::SymDimVector " + p.name};
    case PatternForm::size_local:
      return {"the size is kept in a concrete " + p.written_type +
                  ": the symbolic value is guarded to its traced value",
              "c10::SymInt " + p.name};
    case PatternForm::int_parameter:
      return cpp_int_parameter(p);
    case PatternForm::int_schema_argument:
      return {
          "schema argument '" + p.name + "' is " + p.schema_type +
              " but carries a size: a symbolic value passed to it is guarded to a constant at the "
              "call site" +
              (language == "python" ? "" : " (and breaks AOTI runtime dispatch of SymInt values)"),
          "SymInt" + p.schema_type.substr(3) + " " + p.name};  // int[] → SymInt[], int? → SymInt?
    case PatternForm::size_check:
      return {
          "TORCH_CHECK on sizes converts the symbolic comparison to bool (guard_bool): it adds a "
          "guard, or raises "
          "a data-dependent error for unbacked sizes",
          "TORCH_SYM_CHECK(sym_eq(a.sym_size(0), b.sym_size(0)), ...)"};
    case PatternForm::size_branch:
      if (p.id == "P1")
        return {
            "branching on a size guards on it: the traced range is specialized (or a "
            "data-dependent error for "
            "unbacked sizes)",
            "torch._check(" + condition(p) +
                ") for a requirement; torch.sym_max / sym_min / torch.sym_ite to compute "
                "both cases"};
      return {
          "branching on a size guards on it: the traced range is specialized (export: "
          "ConstraintViolation), and an "
          "unbacked size raises a data-dependent error",
          "compute both cases symbolically (c10::sym_max / sym_min), or state a requirement with "
          "TORCH_SYM_CHECK; "
          "c10::guard_or_false(...) where a fallback is acceptable"};
    case PatternForm::data_read:
      if (p.id == "P5")
        return {"." + p.name +
                    "() reads tensor data: fake tensors have none (data access error, or an "
                    "unbacked symbol)",
                "derive outputs from shapes only; for a data-dependent size use "
                "torch.library.get_ctx().new_dynamic_size()"};
      return {"." + p.name +
                  "() touches tensor data in a kernel that runs on fake tensors: \"Cannot access "
                  "data pointer "
                  "of Tensor (e.g. FakeTensor, FunctionalTensor)\"",
              "compute only output metadata here; keep data access in the real CPU/CUDA kernel (an "
              "opaque custom op)"};
    case PatternForm::size_assert:
      return {"assert on a size guards on it (silent specialization)",
              "torch._check(" + condition(p) + ")"};
    case PatternForm::size_conditional:
      return {"a conditional expression on a size guards on it",
              "torch.sym_ite(...) / torch.sym_max / torch.sym_min"};
    case PatternForm::size_compare_builtin:
      return {p.name + "() on sizes compares them in Python: a guard",
              "torch.sym_" + p.name + "(...)"};
    case PatternForm::size_to_number:
      if (p.name == "len") {  // len(t) on a tensor: FBGEMM 21d1260435 made it t.size(0)
        const std::string& text = p.matched_text;
        const bool whole = text.starts_with("len(") && text.ends_with(")");
        return {"len() of a tensor is its first dim as a Python int: export specializes it",
                whole ? text.substr(4, text.size() - 5) + ".size(0)" : "t.size(0)"};
      }
      return {p.name + "() on a SymInt posts a guard: the size is specialized to its example value",
              "keep the SymInt (drop " + p.name + "()); torch._check(...) to state a requirement"};
    case PatternForm::size_range:
      return {"range() over a size specializes it (a Python loop needs a concrete count)",
              "express the computation with tensor operations on symbolic sizes"};
    case PatternForm::tensor_to_number:
      return {p.name + "() on a tensor reads its data: fake tensors have none",
              "derive outputs from shapes only"};
    case PatternForm::device_move:
      return {"the fake moves its output to a hard-coded device", "device=x.device"};
    case PatternForm::device_literal:
      return {"the fake hard-codes device \"" + p.name + "\"", "device=x.device"};
    case PatternForm::get_ctx_in_meta:
      return {
          "get_ctx() raises when the op runs with meta tensors (\"You're trying to run this "
          "operator with meta "
          "Tensors\")",
          "register the function with torch.library.register_fake instead of as a Meta kernel"};
    case PatternForm::literal_shape:
    case PatternForm::literal_leading_dim:
    case PatternForm::outside_size: {
      const std::string what = p.form == PatternForm::literal_shape ? "a hard-coded shape"
                               : p.form == PatternForm::literal_leading_dim
                                   ? "a hard-coded leading dimension (" + p.matched_text +
                                         ") while the other dims follow the input"
                                   : "a size read from outside the function ('" + p.name + "')";
      return {"the fake returns " + what +
                  ": the graph records it for every input size (silently wrong once the "
                  "dynamic dim differs)",
              "derive each size from the inputs (e.g. x.shape[0]); for a data-dependent size "
              "torch.library.get_ctx().new_dynamic_size()"};
    }
    case PatternForm::returns_input:
      return {"the fake returns its input '" + p.name +
                  "': the output aliases an input of a functional op",
              "return " + p.name + ".clone() or torch.empty_like(" + p.name + ")"};
    case PatternForm::unused_shape_parameter:
      return {"the fake ignores '" + p.name +
                  "', which can change the output shape: the compiled graph trusts a wrong "
                  "shape (silent wrong output or an illegal memory access)",
              "use '" + p.name + "' to compute the output shape as the real kernel does"};
    case PatternForm::data_dependent_size:
      return {
          "the output size of '" + p.op +
              "' depends on data, but the fake derives it from input shapes",
          "ctx = torch.library.get_ctx(); n = ctx.new_dynamic_size(); return x.new_empty(n, ...)"};
  }
  return {};
}

}  // namespace aoti::checks::symint
