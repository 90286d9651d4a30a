import torch

@torch.library.register_fake("snip::topk2")
def _(x, k):
    n = k.item()
    return x.new_empty(n)
