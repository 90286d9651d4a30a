import torch

@torch.library.register_fake("snip::embed")
def _(ids, table):
    return torch.empty(128, 64, device=ids.device)
