// An op's schema wherever the case has it: real extensions define an op in one file and register
// its Meta kernel in another, so the C++ kernel's parameters are paired with the schema by op
// name across every source. What the schema types SymInt decides C3/C4 and which sizes are
// concrete by contract.
#pragma once

#include <string>
#include <vector>

#include "model/case.hpp"

namespace aoti::checks::symint {

// The schema of `op` ("ns::op" or "ns::op.overload") among the case's sources: the same name, else
// the op without an overload; null when no source defines it with a schema. `where`, when given,
// is set to the source that defines it.
const model::SourceOp* find_schema(const model::Case& c, const std::string& op,
                                   const model::SourceFacts** where = nullptr);

// The schema argument bound to `kernel.params[i]`: by position when the counts agree, else by
// name; null when there is none.
const model::SchemaArg* bound_argument(const model::SourceKernel& kernel,
                                       const model::SourceOp& schema, std::size_t i);

// C3/C4: each traced C++ kernel of `source` whose int64 parameters are bound to SymInt schema
// arguments, or, with the schema nowhere in the case, build the output shape.
std::vector<model::SourcePattern> signature_patterns(const model::Case& c,
                                                     const model::SourceFacts& source);

// True when every parameter the pattern's size comes from is typed int / int[] / int? by the op's
// schema: the value is concrete by contract, and the pattern is not a SymInt problem.
bool concrete_by_schema(const model::Case& c, const model::SourceFacts& source,
                        const model::SourcePattern& pattern);

// True unless the pattern holds only for a Tensor parameter (SourcePattern::if_tensor_parameter)
// and the op's schema is nowhere in the case or types that parameter otherwise.
bool holds_by_schema(const model::Case& c, const model::SourcePattern& pattern);

}  // namespace aoti::checks::symint
