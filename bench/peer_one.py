# peer_one.py attention B S H D [causal] | matmul S: torch SDPA's cuDNN back end or cuBLAS, three
# launches, for ncu beside bench/ncu_one.py (Tessera's side). On the GPU machine:
#   ncu -k regex:cudnn|sdpa|fmha --launch-skip 2 --launch-count 1 --metrics ... python3 bench/peer_one.py attention 4 1024 8 64
import sys, torch
from torch.nn.attention import sdpa_kernel, SDPBackend
if sys.argv[1] == "attention":
    B, S, H, D = [int(x) for x in sys.argv[2:6]]
    q, k, v = [torch.randn(B, H, S, D, device="cuda", dtype=torch.float16) for _ in range(3)]
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
        for i in range(3):
            torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=len(sys.argv) > 6)
else:
    s = int(sys.argv[2])
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    for i in range(3):
        a @ b
torch.cuda.synchronize()
