from typing import List

import torch


def combine_abstract(indices_list: List[torch.Tensor], weights_list: List[torch.Tensor]):
    torch._check(len(indices_list) == len(weights_list))
    total_indices = 0
    for index, weight in zip(indices_list, weights_list):
        total_indices = total_indices + index.numel()
        if weight.numel() > 0:
            torch._check(weight.numel() == index.numel())
    return indices_list[0].new_empty([total_indices])


def _setup() -> None:
    def impl_abstract(op_name, fn) -> None:
        if not torch._C._dispatch_has_kernel_for_dispatch_key(op_name, "Meta"):
            torch.library.register_fake(op_name, fn)

    impl_abstract("snip::combine", combine_abstract)
