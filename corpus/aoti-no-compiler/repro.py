import torch
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU()).cuda().eval()
x = torch.randn(4, 16, device="cuda")
ep = torch.export.export(m, (x,))
torch._inductor.aoti_compile_and_package(ep, package_path="model.pt2")
