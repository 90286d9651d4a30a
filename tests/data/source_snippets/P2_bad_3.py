import torch

BATCH = 8
lib = torch.library.Library("snip", "DEF")
lib.define("gather(Tensor x) -> Tensor")

def gather_meta(x):
    return x.new_empty(BATCH, x.shape[1])

lib.impl("gather", gather_meta, "Meta")
