import torch

@torch.library.register_fake("snip::ident")
def _(x):
    return x
