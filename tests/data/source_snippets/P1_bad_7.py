import torch


def round_up_headdim(head_size: int) -> int:
    if head_size <= 64:
        return 64
    if head_size <= 128:
        return 128
    return 256


@torch.library.register_fake("snip::attn_bwd")
def attn_bwd_fake(q: torch.Tensor, dout: torch.Tensor) -> torch.Tensor:
    head_size_rounded = round_up_headdim(q.size(-1))
    return q.new_empty(q.shape[0], q.shape[1], head_size_rounded)
