import torch

lib = torch.library.Library("snip", "FRAGMENT")
lib.define("uniq(Tensor x) -> Tensor")

@torch.library.register_fake("snip::uniq")
def _(x):
    n = torch.library.get_ctx().new_dynamic_size()
    return x.new_empty(n)
