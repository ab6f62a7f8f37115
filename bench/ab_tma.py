# ab_tma.py: one bench variant with its TMA entry off (TESSRT_TMA=0) and on, interleaved:
# 7 rounds of 20 launches each, medians. From the repository root on the GPU machine, with
# the bench package carried (bench/build.sh): python3 bench/ab_tma.py "VARIANT STEM KERNEL KIND DIMS..." ...
import sys, os, torch, statistics
sys.path.insert(0, "bench")
from tessrt import TessRT
pkg = "build-benchpkg"
rt = TessRT(os.path.join(pkg, "libtessrt.so"))
st = torch.cuda.current_stream().cuda_stream
for spec in sys.argv[1:]:
    w = spec.split(); variant, stem, kname, kind = w[:4]; dims = [int(x) for x in w[4:]]
    m = rt.load(os.path.join(pkg, "artifacts", variant, stem + ".manifest.json"))
    k = m.kernel(kname); k.prepare()
    torch.manual_seed(0)
    if kind == "matmul":
        s = dims[0]
        a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        c = torch.empty(s, s, device="cuda", dtype=torch.float16)
        call = k.bind(a.data_ptr(), b.data_ptr(), c.data_ptr(), s, s, s)
        ref = a.float() @ b.float(); out = c; flops = 2 * s ** 3
    else:
        B, S, H, D = dims
        q, kk, v = [torch.randn(B, S, H, D, device="cuda", dtype=torch.float16) for _ in range(3)]
        o = torch.empty_like(q)
        call = k.bind(q.data_ptr(), kk.data_ptr(), v.data_ptr(), o.data_ptr(), D ** -0.5, B, S, H, S)
        ref = torch.nn.functional.scaled_dot_product_attention(q.transpose(1, 2).float(), kk.transpose(1, 2).float(),
              v.transpose(1, 2).float(), is_causal="causal" in kname, scale=D ** -0.5).transpose(1, 2)
        out = o; flops = 4 * B * H * S * S * D * (0.5 if "causal" in kname else 1)
    res = {"tma": [], "plain": []}
    errs = {}
    for rep in range(7):
        for label, env in (("plain", "0"), ("tma", "1")):
            os.environ["TESSRT_TMA"] = env
            out.zero_()
            for _ in range(2): call(st)
            torch.cuda.synchronize()
            errs[label] = float((out.float() - ref).abs().max())
            e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(20): call(st)
            e1.record(); torch.cuda.synchronize(); res[label].append(e0.elapsed_time(e1) / 20)
    tp, tt = statistics.median(res["plain"]), statistics.median(res["tma"])
    print("%-60s plain %.1f TF/s (err %.1e)  tma %.1f TF/s (err %.1e)  x%.3f" % (spec, flops / tp / 1e9, errs["plain"],
          flops / tt / 1e9, errs["tma"], tp / tt), flush=True)
