import torch

@torch.library.register_fake("snip::mm_t")
def _(a, b, transpose_b: bool):
    cols = b.shape[0] if transpose_b else b.shape[1]
    return a.new_empty(a.shape[0], cols)
