import torch

@torch.library.custom_op("snip::pad_rows", mutates_args=())
def pad_rows(x: torch.Tensor) -> torch.Tensor:
    return torch.cat([x, x.new_zeros(1, x.shape[1])], 0)

@pad_rows.register_fake
def _(x):
    return x.new_empty(x.shape[0] + 1, x.shape[1])
