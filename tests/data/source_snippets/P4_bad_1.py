import torch

@torch.library.register_fake("snip::nonzero_rows")
def _(x):
    return x.new_empty(x.shape[0], dtype=torch.long)
