import torch

@torch.library.register_fake("snip::norm")
def _(x):
    return torch.empty(x.shape[0], x.shape[1], device=x.device, dtype=torch.float32)
