// A wrapper's input contract and the user's names for its inputs, as findings state them.
#pragma once

#include <string>
#include <string_view>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

int input_index_of(const model::WrapperFacts& w, std::string_view name);

// The user's names for wrapper inputs are facts of the Case (WrapperInput::user_name, dim_names),
// set by correlation with the export's trace.
// "`arg3_1` (your `ids`)", or "`arg3_1`" when the user's name is not known.
std::string input_display(const model::WrapperFacts& w, std::string_view wrapper_input);

// What a launch argument of the wrapper is, for prose: "model input 0 `arg3_1` (your `ids`)",
// "constant `emb_weight` (`emb.weight`, [1000, 64])", "`buf0`".
std::string argument_text(const model::WrapperFacts& w, const std::string& arg);

// The constant the wrapper names `name`; null when it is not one.
const model::WrapperConstant* constant_named(const model::WrapperFacts& w, std::string_view name);

// A Python step on wrapper input `input_index`: `code` with `{0}` standing for the input
// (`"{0} = {0}.to(\"cpu\")"`), written with the name the user's forward gives it (`ids`); where the
// trace does not name it, with `x`, and `what` then says which input `x` is. `w` may be null.
model::NextStep input_step(const model::WrapperFacts* w, int input_index, std::string what,
                           std::string_view code);

// A dynamic_shapes value giving one dim of one input `dim_spec` (a `torch.export.Dim(...)`
// expression): keyed by the forward argument when it is known, else positional (None for the
// other inputs), so that it runs as printed for this model.
std::string dynamic_shapes_text(const model::WrapperFacts& w, int input_index, int dim,
                                const std::string& dim_spec);

// The module the user exported, as their export call names it (`torch.export.export(m, ...)` ->
// "m"), else "model".
std::string user_module_name(const model::Case& c);

// The Dim name to use in a suggestion: the user's own when known, else `fallback`.
std::string dim_name_or(const model::WrapperFacts& w, int input_index, int dim,
                        std::string fallback);

std::string dtype_name_of_code(std::string_view code);  // "5" -> "float16"

std::string device_name_of_code(std::string_view code);  // "0" -> "cpu"

}  // namespace aoti::checks
