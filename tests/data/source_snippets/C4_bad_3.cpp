#include <torch/extension.h>
#include <vector>
// FBGEMM permute_multi_embedding_meta before 7f3b88e19b: std::vector<int64_t> for a schema
// SymInt[], registered through the project's macro (FBGEMM's dispatch_macros.h).
#define DISPATCH_TO_META(name, function) \
  m.impl(name, torch::dispatch(c10::DispatchKey::Meta, TORCH_FN(function)))
std::vector<at::Tensor> permute_meta(const at::Tensor& x, const std::vector<int64_t>& out_lengths) {
  std::vector<at::Tensor> outputs;
  for (const auto i : c10::irange(out_lengths.size()))
    outputs.push_back(at::empty_symint({x.sym_size(0), out_lengths[i]}, x.options()));
  return outputs;
}
TORCH_LIBRARY_FRAGMENT(snip, m) {
  m.def("permute(Tensor x, SymInt[] out_lengths) -> Tensor[]");
  DISPATCH_TO_META("permute", permute_meta);
}
