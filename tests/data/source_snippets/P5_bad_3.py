import torch

@torch.library.register_fake("snip::split_by")
def _(x, sizes):
    parts = sizes.tolist()
    return [x.new_empty(p, x.shape[1]) for p in parts]
