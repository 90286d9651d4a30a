import torch


@torch.library.register_fake("snip::optimizer_update_32bit")
def _(
    g: torch.Tensor,
    p: torch.Tensor,
    state1: torch.Tensor,
    step: int,
    lr: float,
    skip_zeros: bool = False,
) -> None:
    torch._check(g.numel() == p.numel(), lambda: "g and p must have the same number of elements")
