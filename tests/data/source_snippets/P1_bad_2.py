import torch

@torch.library.register_fake("snip::pick")
def pick_fake(x, y):
    assert x.shape[0] == y.shape[0]
    if x.size(1) > 128:
        return x.new_empty(x.shape[0], 128)
    return torch.empty_like(x)
