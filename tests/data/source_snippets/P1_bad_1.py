import torch

@torch.library.register_fake("snip::pad")
def _(x):
    n = int(x.shape[0])
    return x.new_empty(n + 1, x.shape[1])
