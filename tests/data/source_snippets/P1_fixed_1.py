import torch

@torch.library.register_fake("snip::pick")
def pick_fake(x, y):
    torch._check(x.shape[0] == y.shape[0])
    if x.dim() == 2:  # the rank is static
        return x.new_empty(x.shape[0], torch.sym_min(x.shape[1], 128))
    return torch.empty_like(x)
