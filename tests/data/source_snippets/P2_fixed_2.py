import torch

@torch.library.register_fake("snip::proj")
def _(x, w):
    out = torch.empty(x.shape[0], 4, dtype=x.dtype, device=x.device)
    return out
