// What each SymInt-unaware pattern of failure-modes.md §1.3 means and how to fix it: the text of
// C1–C8 and P1–P8 for the records parsers/source matched. Read by customop.meta-not-symint and
// customop.fake-not-symint.
#pragma once

#include <string>
#include <string_view>

#include "model/facts/source.hpp"

namespace aoti::checks::symint {

struct PatternAdvice {
  std::string message;     // what is wrong and what it does under dynamic shapes
  std::string suggestion;  // the SymInt-aware replacement ("x.sym_size(0)",
                           // "at::empty_symint(...)") or a sentence
};

// `language` is the source's ("c++" | "python"): a schema argument (C5) reads differently in each.
PatternAdvice advice_for(const model::SourcePattern& pattern, std::string_view language);

}  // namespace aoti::checks::symint
