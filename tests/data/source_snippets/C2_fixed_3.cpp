#include <torch/extension.h>
// FBGEMM FP8rowwise_to_float_meta after 5ac8ffd8b5: the rank stays an int, the sizes SymInts.
at::Tensor unpack_meta(const at::Tensor& input) {
  const at::SymIntArrayRef input_sizes = input.sym_sizes();
  const auto last_dim = input_sizes.size() - 1;
  const at::SymInt ncols = input_sizes[last_dim];
  const at::SymInt output_columns = ncols - 8;
  c10::SymDimVector output_dims(input_sizes.begin(), input_sizes.end());
  output_dims[last_dim] = output_columns;
  return at::empty_symint(output_dims, input.options().dtype(at::kFloat));
}
TORCH_LIBRARY(snip, m) { m.def("unpack(Tensor input) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("unpack", unpack_meta); }
