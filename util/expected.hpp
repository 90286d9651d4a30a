// Forwarding a tl::expected's error to the caller, as ccache's util/expected.hpp does: the
// hand-written `if (!x) return tl::unexpected(x.error());` after every call that can fail.
#pragma once

#include <utility>

#include <tl/expected.hpp>

#define AOTI_EXPECTED_CONCAT_INNER(a_, b_) a_##b_
#define AOTI_EXPECTED_CONCAT(a_, b_) AOTI_EXPECTED_CONCAT_INNER(a_, b_)

// Evaluates `expression_` (a tl::expected) and returns its error from the enclosing function
// when it holds one.
#define TRY(expression_)                                                     \
  do {                                                                       \
    auto&& try_result_ = (expression_);                                      \
    if (!try_result_) return tl::unexpected(std::move(try_result_).error()); \
  } while (false)

// `TRY_ASSIGN(auto file, open(path));` declares `file` with the value of `open(path)`, or returns
// its error from the enclosing function. A statement, not an expression: use it in a block.
#define TRY_ASSIGN(declaration_, expression_) \
  TRY_ASSIGN_IMPL(AOTI_EXPECTED_CONCAT(try_assign_result_, __LINE__), declaration_, expression_)
#define TRY_ASSIGN_IMPL(result_, declaration_, expression_)        \
  auto&& result_ = (expression_);                                  \
  if (!result_) return tl::unexpected(std::move(result_).error()); \
  declaration_ = std::move(result_).value()
