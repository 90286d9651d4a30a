import torch

@torch.library.register_fake("snip::norm")
def _(x):
    return torch.empty_like(x).cuda()
