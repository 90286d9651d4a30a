#include <torch/extension.h>
#include <vector>
// FBGEMM permute_multi_embedding_meta after 7f3b88e19b.
#define DISPATCH_TO_META(name, function) \
  m.impl(name, torch::dispatch(c10::DispatchKey::Meta, TORCH_FN(function)))
std::vector<at::Tensor> permute_meta(const at::Tensor& x, c10::SymIntArrayRef out_lengths) {
  std::vector<at::Tensor> outputs;
  for (const auto i : c10::irange(out_lengths.size()))
    outputs.push_back(at::empty_symint({x.sym_size(0), out_lengths[i]}, x.options()));
  return outputs;
}
TORCH_LIBRARY_FRAGMENT(snip, m) {
  m.def("permute(Tensor x, SymInt[] out_lengths) -> Tensor[]");
  DISPATCH_TO_META("permute", permute_meta);
}
