import torch

@torch.library.custom_op("snip::rep", mutates_args=())
def rep(x: torch.Tensor, n: int) -> torch.Tensor:
    if x.shape[0] > 4:  # the real kernel may branch: it never sees fake tensors
        return x.repeat(n, 1)
    return x.repeat(n, 1)

@rep.register_fake
def _(x, n):
    return x.new_empty(x.shape[0] * n, x.shape[1])
