import torch

@torch.library.register_fake("snip::nonzero_rows")
def _(x):
    ctx = torch.library.get_ctx()
    n = ctx.new_dynamic_size()
    return x.new_empty(n, dtype=torch.long)
