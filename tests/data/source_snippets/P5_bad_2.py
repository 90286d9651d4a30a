import torch

@torch.library.register_fake("snip::select_if")
def _(x, flag):
    if bool(flag):
        return torch.empty_like(x)
    return x.new_empty(x.shape[0], x.shape[1] * 2)
