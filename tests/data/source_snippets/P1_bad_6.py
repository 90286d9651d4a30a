from typing import List, Optional

import torch


@torch.library.impl_abstract("snip::dense_to_jagged")
def dense_to_jagged(
    dense: torch.Tensor, offsets: List[torch.Tensor], total_L: Optional[int] = None
) -> torch.Tensor:
    if not total_L:
        total_L = torch.library.get_ctx().new_dynamic_size()
    return dense.new_zeros([total_L, dense.size()[-1]])
