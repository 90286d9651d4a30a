import torch

@torch.library.impl_abstract("snip::resize")
def resize_fake(x, output_size: int):
    return torch.empty_like(x)
