import torch

@torch.library.register_fake("snip::mm_t")
def _(a, b, transpose_b: bool):
    return a.new_empty(a.shape[0], b.shape[1])
