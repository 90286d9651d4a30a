from typing import List, Optional

import torch


@torch.library.impl_abstract("snip::dense_to_jagged")
def dense_to_jagged(
    dense: torch.Tensor,
    offsets: List[torch.Tensor],
    total_L: Optional[int] = None,
    threshold: float = 0.0,
    pad: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    if total_L is None:
        total_L = torch.library.get_ctx().new_dynamic_size()
    if pad is not None and threshold > 0.0 and len(offsets) > 1:
        torch._check(dense.dim() == 3)
    return dense.new_zeros([total_L, dense.size()[-1]])
