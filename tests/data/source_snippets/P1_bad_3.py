import torch

@torch.library.custom_op("snip::rep", mutates_args=())
def rep(x: torch.Tensor, n: int) -> torch.Tensor:
    return x.repeat(n, 1)

@rep.register_fake
def _(x, n):
    rows = [x.shape[1] for _ in range(n)]
    return x.new_empty(x.shape[0] * n, rows[0])
