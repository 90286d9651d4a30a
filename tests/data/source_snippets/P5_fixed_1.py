import torch

@torch.library.register_fake("snip::topk2")
def _(x, k):
    n = torch.library.get_ctx().new_dynamic_size()
    return x.new_empty(n)
