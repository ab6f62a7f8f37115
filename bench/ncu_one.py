# ncu_one.py: launches one Tessera bench variant a few times on random inputs, for
# ncu and compute-sanitizer (bench/ncu.sh). Run from the repository root on the GPU
# machine with the package carried:
#   python3 bench/ncu_one.py VARIANT STEM KERNEL matmul SIZE
#   python3 bench/ncu_one.py VARIANT STEM KERNEL attention B S H D
# and prints the max abs error against a float32 matmul or torch SDPA (causal when
# KERNEL's name says so).

import sys, os, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tessrt import TessRT
pkg = os.environ.get("TESS_BENCH_PKG", "build-benchpkg")
rt = TessRT(os.path.join(pkg, "libtessrt.so"))
variant, stem, kname, kind = sys.argv[1:5]
m = rt.load(os.path.join(pkg, "artifacts", variant, stem + ".manifest.json"))
k = m.kernel(kname)
print(k.prepare())
if kind == "matmul":
    s = int(sys.argv[5])
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    c = torch.empty(s, s, device="cuda", dtype=torch.float16)
    call = k.bind(a.data_ptr(), b.data_ptr(), c.data_ptr(), s, s, s)
    ref = (a.float() @ b.float())
    check = lambda: float((c.float() - ref).abs().max())
else:
    B, S, H, D = [int(x) for x in sys.argv[5:9]]
    q, kk, v = [torch.randn(B, S, H, D, device="cuda", dtype=torch.float16) for _ in range(3)]
    o = torch.empty_like(q)
    call = k.bind(q.data_ptr(), kk.data_ptr(), v.data_ptr(), o.data_ptr(), D ** -0.5, B, S, H, S)
    ref = torch.nn.functional.scaled_dot_product_attention(
        q.transpose(1, 2).float(), kk.transpose(1, 2).float(), v.transpose(1, 2).float(),
        is_causal="causal" in kname, scale=D ** -0.5).transpose(1, 2)
    check = lambda: float((o.float() - ref).abs().max())
for i in range(3):
    call(torch.cuda.current_stream().cuda_stream)
torch.cuda.synchronize()
print("maxerr", check())
