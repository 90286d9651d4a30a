#include <torch/extension.h>
#include <string>
#include <vector>
// FBGEMM kt_regroup_arguments_meta: shapes from the lengths of list arguments are concrete on
// purpose (the schema says str[][] / int[][]): not a tensor size, not a SymInt problem.
at::Tensor regroup_meta(const at::Tensor& embs, const std::vector<std::vector<std::string>>& keys,
                        const std::vector<std::vector<int64_t>>& lengths) {
  const int32_t in_tensors = keys.size();
  int32_t out_num = 0;
  for (auto i : c10::irange(in_tensors)) out_num += lengths[i].size();
  std::vector<int64_t> out_lengths(in_tensors, 0);
  return at::empty({out_num, in_tensors}, embs.options());
}
TORCH_LIBRARY(snip, m) { m.def("regroup(Tensor embs, str[][] keys, int[][] lengths) -> Tensor"); }
TORCH_LIBRARY_IMPL(snip, Meta, m) { m.impl("regroup", regroup_meta); }
