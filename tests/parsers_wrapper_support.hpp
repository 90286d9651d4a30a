// What the wrapper parser's tests share: the corpus wrappers parsed, and lookups into their facts.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "parsers/wrapper/wrapper_parser.hpp"
#include "tests/support.hpp"

namespace aoti::test::wrapper {

using model::InputCheck;
using model::InputCheckKind;
using model::WrapperFacts;
using parsers::wrapper::looks_like_wrapper;
using parsers::wrapper::parse_wrapper;

inline const model::Location k_where{"model.pt2", "model/data/aotinductor/model/x.wrapper.cpp", 0};

inline std::string wrapper_text(const std::string& case_name) {
  return corpus_entry_text(case_name, ".wrapper.cpp");
}

inline WrapperFacts parse_case(const std::string& case_name) {
  const std::string text = wrapper_text(case_name);
  REQUIRE_FALSE(text.empty());
  auto parsed = parse_wrapper(text, k_where);
  REQUIRE(parsed.has_value());
  return std::move(*parsed);
}

inline const model::TritonKernel* find_kernel(const WrapperFacts& facts, const std::string& name) {
  const auto it = std::find_if(facts.kernels.begin(), facts.kernels.end(),
                               [&](const auto& kernel) { return kernel.name == name; });
  return it == facts.kernels.end() ? nullptr : &*it;
}

inline const model::KernelCall* find_call(const WrapperFacts& facts, const std::string& kernel) {
  const auto it = std::find_if(facts.kernel_calls.begin(), facts.kernel_calls.end(),
                               [&](const auto& call) { return call.kernel == kernel; });
  return it == facts.kernel_calls.end() ? nullptr : &*it;
}

inline const InputCheck* find_check(const WrapperFacts& facts, InputCheckKind kind, int dim = -1) {
  const auto it =
      std::find_if(facts.input_checks.begin(), facts.input_checks.end(),
                   [&](const auto& check) { return check.kind == kind && check.dim == dim; });
  return it == facts.input_checks.end() ? nullptr : &*it;
}

inline const model::WrapperConstant* find_constant(const WrapperFacts& facts,
                                                   const std::string& name) {
  const auto it = std::find_if(facts.constants.begin(), facts.constants.end(),
                               [&](const auto& constant) { return constant.name == name; });
  return it == facts.constants.end() ? nullptr : &*it;
}

// The 1-based line `line` of `text`.
inline std::string line_of(const std::string& text, int line) {
  std::size_t begin = 0;
  for (int i = 1; i < line && begin != std::string::npos; ++i) {
    begin = text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find('\n', begin) - begin);
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

inline std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace aoti::test::wrapper
