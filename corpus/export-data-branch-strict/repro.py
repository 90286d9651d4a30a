import torch
class M(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1
x = torch.randn(8, 16, device="cuda")
ep = torch.export.export(M(), (x,), strict=True)
