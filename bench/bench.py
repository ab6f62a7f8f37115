#!/usr/bin/env python3
"""bench.py: Tessera's kernels against the peers on one GPU, in one run.

    python3 bench/bench.py --pkg build-benchpkg [--only GROUP,...] [--quick] [--no-pallas]
    python3 bench/bench.py --dry            # no GPU: lists the cases, checks the package

Run on the GPU machine by bench/run.sh. Tessera's kernels are the prebuilt
artifacts in PKG/artifacts (bench/build.sh), launched through libtessrt with
ctypes (bench/tessrt.py) on torch's current stream; the peers are torch eager,
Triton (bench/peers_triton.py), cuBLAS (torch.matmul), torch SDPA (flash and
cuDNN back ends) and, in a second process (--pallas-worker), JAX Pallas
(bench/peers_pallas.py) on the same inputs (same seeds).

Method (docs/performance.md): every implementation's output is poisoned
(NaN), computed once and checked against a float64 (float32 for matmul and
attention, TF32 off) reference: rel L2 error, max abs error, no NaN. Then
timed with CUDA events around each call, after warm-up, while a sleep kernel
keeps the queue ahead of the CPU (sized by the CPU's measured issue time per
call); the median is reported. Calls rotate over
K input/output sets with K * bytes >= 4 * L2 so that no call finds its data
in L2. Repetitions are capped by time; a Tessera case whose single launch
takes over 2 s is skipped with a note. Wall time per call: n back-to-back
calls then one sync (median of 3) for cases under 2 ms.

Prints a table (time, GB/s or TFLOP/s, ratio to the best peer) and writes
$OUT/bench.json when OUT is set (or --json PATH).
"""
import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

T_START = time.time()
SKIP_SLOW_S = 2.0          # a Tessera case whose single launch takes longer is skipped
GROUPS = ["copy", "relu", "softmax", "layernorm", "rowsum", "add2d", "matmul", "attention"]


def log(*a):
    print(*a, flush=True)


# ---- cases ----------------------------------------------------------------------------------
# Each case: name, group, unit ("GB/s" or "TFLOP/s"), amount (bytes or flops),
# make(gen) -> inputs (tuple of tensors / numbers), ref(inputs) -> reference tensor,
# tol (max rel L2), and the implementations (built per framework below).

def case_list(quick=False):
    cases = []
    big = 1 << 28
    cases.append(dict(name="relu2x1 f32 N=2^28", group="relu", kind="relu", n=big))
    cases.append(dict(name="relu2x1 f32 N=1024", group="relu", kind="relu", n=1024))
    for (m, n) in [(8192, 4096), (4096, 1024)]:
        for dt in ["f32", "f16"]:
            cases.append(dict(name="softmax %s %dx%d" % (dt, m, n), group="softmax", kind="softmax", m=m, n=n, dt=dt))
    cases.append(dict(name="layernorm f32 8192x4096", group="layernorm", kind="layernorm", m=8192, n=4096))
    for (m, n) in [(8192, 4096), (4096, 1024)]:
        cases.append(dict(name="rowsum f32 %dx%d" % (m, n), group="rowsum", kind="rowsum", m=m, n=n))
        cases.append(dict(name="add2d f32 %dx%d" % (m, n), group="add2d", kind="add2d", m=m, n=n))
    for dt in ["f16", "bf16"]:
        for s in [1024, 4096, 8192]:
            cases.append(dict(name="matmul %s %d^3" % (dt, s), group="matmul", kind="matmul", s=s, dt=dt))
    for shape in [(2, 512, 4, 64), (4, 1024, 8, 64), (4, 4096, 16, 128)]:
        for causal in [False, True]:
            cases.append(dict(name="attention f16 (%d,%d,%d,%d)%s" % (shape + (" causal" if causal else "",)),
                              group="attention", kind="attention", shape=shape, causal=causal))
    return cases


# Tessera variants (bench/build.sh names) per case kind; the best one is reported.
# Variants also timed writing one output buffer every call (framework
# "tessera-one-output"; not a peer, not Tessera's headline row).
ONE_OUTPUT_VARIANTS = ("add2d_bm1_bn1024_w4", "add2d_bm4_bn1024_w8", "add2d_bm2_bn4096_w8")


def tessera_variants(c):
    k = c["kind"]
    if k == "relu":
        # relu2x1_rw: x inout, so plain ld.global instead of ld.global.nc
        return [(v, "relu2x1", "relu2x1") for v in
                ("relu_b4096_w8", "relu_b1024_w4", "relu_b2048_w4", "relu_b2048_w8", "relu_b8192_w8")] + \
            [(v, "relu2x1", "relu2x1_rw") for v in ("relu_b4096_w8", "relu_b1024_w4", "relu_b2048_w8")]
    if k == "softmax":
        kern = "softmax" if c["dt"] == "f32" else "softmax_f16"
        rows = kern + "_rows"     # R rows per program, exp via exp2 (bench/kernels/softmax.tess)
        if c["n"] > 1024:
            rw = [("softmax_rows_r1_bn4096_w16", "softmax", "softmax_rows_rw"),
                  ("softmax_rows_r1_bn4096_w8", "softmax", "softmax_rows_rw")] if c["dt"] == "f32" else []
            return [("softmax_bn4096_w16", "softmax", kern), ("softmax_bn4096_w8", "softmax", kern),
                    ("softmax_rows_r1_bn4096_w16", "softmax", rows), ("softmax_rows_r1_bn4096_w8", "softmax", rows)] + rw
        return [("softmax_bn1024_w4", "softmax", kern), ("softmax_bn1024_w8", "softmax", kern),
                ("softmax_bn1024_w2", "softmax", kern)] + \
            [("softmax_rows_r%d_bn1024_w%d" % rw, "softmax", rows)
             for rw in ((1, 1), (1, 2), (1, 4), (2, 2), (2, 4), (2, 8), (4, 2), (4, 4), (4, 8), (8, 8))
             if not (rw == (4, 2) and c["dt"] == "f32")]   # f32 R=4 at 2 warps: 64 floats a thread, spills
    if k == "layernorm":
        # layernorm: as Triton's; _wb: w, b loaded first, 1/N once; _rows: R rows per program (w, b once);
        # _2rows: two rows, both loaded first (bench/kernels/layernorm.tess)
        return [(v, "layernorm", kern) for v, kern in (
            ("layernorm_bn4096_w16", "layernorm"), ("layernorm_bn4096_w8", "layernorm"),
            ("layernorm_bn4096_w4", "layernorm"), ("layernorm_wb_bn4096_w16", "layernorm_wb"),
            ("layernorm_wb_bn4096_w8", "layernorm_wb"), ("layernorm_wb_bn4096_w4", "layernorm_wb"),
            ("layernorm_rows_r2_bn4096_w8", "layernorm_rows"), ("layernorm_rows_r2_bn4096_w16", "layernorm_rows"),
            ("layernorm_rows_r4_bn4096_w16", "layernorm_rows"), ("layernorm_2rows_bn4096_w8", "layernorm_2rows"),
            ("layernorm_2rows_bn4096_w16", "layernorm_2rows"))]
    if k == "rowsum":
        return [("rowsum_bn2048_w8", "rowsum", "rowsum"), ("rowsum_bn1024_w4", "rowsum", "rowsum")]
    if k == "add2d":
        vs = ["add2d_bm8_bn512_w8", "add2d_bm16_bn256_w8", "add2d_bm4_bn1024_w8", "add2d_bm8_bn512_w4",
              "add2d_bm2_bn1024_w4", "add2d_bm1_bn1024_w2", "add2d_bm1_bn1024_w4", "add2d_bm2_bn1024_w2",
              "add2d_bm4_bn1024_w4", "add2d_bm8_bn1024_w8", "add2d_bm1_bn512_w4", "add2d_bm1_bn256_w2",
              "add2d_bm1_bn512_w2"]
        if c["n"] >= 4096:   # blocks wider than 1024 columns only where the rows are that long
            vs += ["add2d_bm1_bn4096_w8", "add2d_bm1_bn4096_w4", "add2d_bm1_bn2048_w4", "add2d_bm2_bn2048_w8",
                   "add2d_bm2_bn4096_w8", "add2d_bm4_bn2048_w8"]
        return [(v, "add2d", "add2d") for v in vs]
    if k == "matmul" and c["dt"] == "bf16":
        return [(v, "matmul_bf16", "matmul_bf16") for v in (
            "mm_bf16_128x128x32_w4_s4", "mm_bf16_128x256x64_w8_s3_sm90a", "mm_bf16_128x128x64_w4_s3_sm90a",
            "mm_bf16_64x128x64_w4_s4_sm90a", "mm_bf16_128x256x64_w8_s3_sm90a_rel",
            # the f16 kernel's winners at 1024^3 (NS 6) and 8192^3 (NS 4), run s28-10
            "mm_bf16_64x128x64_w4_s6_sm90a", "mm_bf16_128x256x64_w8_s4_sm90a",
            # BK 128 halves the 1024^3 loop's trips: 1.16-1.22x the NS 8 tile there (session 32)
            "mm_bf16_64x128x128_w4_s4_sm90a", "mm_bf16_64x128x128_w4_s3_sm90a",
            # persistent (1.01-1.02x per-tile at 4096^3 and 8192^3 on the H100 once a
            # prologue had one barrier a tile, run s37-1; 0.98x at 1024^3)
            "mm_bf16_128x256x64_w8_s3_sm90a_pers", "mm_bf16_128x256x64_w8_s4_sm90a_pers")]
    if k == "matmul":
        return [(v, "matmul", "matmul") for v in ("matmul_128x128x64_w8", "matmul_64x64x32_w4", "matmul_128x128x32_w8",
                                                  "matmul_128x64x64_w4", "matmul_128x128x64_w8_s3",
                                                  "matmul_128x128x64_w8_s2", "matmul_128x128x64_w8_s4",
                                                  "matmul_128x128x32_w8_s3", "matmul_128x128x32_w8_s4",
                                                  "matmul_128x256x32_w8_s3", "matmul_128x64x64_w4_s3",
                                                  "matmul_64x64x32_w4_s4", "matmul_128x128x64_w8_s3_sm80",
                                                  "matmul_128x128x32_w4_s3", "matmul_128x128x32_w4_s4",
                                                  "matmul_128x128x64_w4_s3", "matmul_256x128x32_w8_s3",
                                                  "matmul_128x128x32_w4_s4_sm80", "matmul_128x256x32_w8_s4",
                                                  "matmul_128x256x64_w8_s3_sm90a", "matmul_128x256x64_w8_s4_sm90a",
                                                  "matmul_256x128x64_w8_s3_sm90a", "matmul_128x128x64_w8_s4_sm90a",
                                                  "matmul_128x64x64_w4_s4_sm90a", "matmul_128x128x64_w8_s3_sm90a",
                                                  "matmul_128x128x64_w4_s3_sm90a", "matmul_64x128x64_w4_s4_sm90a",
                                                  "matmul_64x64x64_w4_s4_sm90a", "matmul_128x64x128_w4_s3_sm90a",
                                                  "matmul_128x256x64_w8_s3_sm90a_rel", "matmul_128x256x64_w8_s4_sm90a_rel",
                                                  "matmul_256x128x64_w8_s3_sm90a_rel", "matmul_128x128x64_w8_s4_sm90a_rel",
                                                  "matmul_128x64x64_w4_s6_sm90a", "matmul_128x64x64_w4_s8_sm90a",
                                                  "matmul_64x128x64_w4_s6_sm90a", "matmul_64x128x64_w4_s8_sm90a",
                                                  "matmul_128x128x64_w8_s6_sm90a_rel",
                                                  "matmul_64x128x128_w4_s4_sm90a", "matmul_64x128x128_w4_s3_sm90a",
                                                  "matmul_128x256x64_w8_s3_sm90a_pers", "matmul_128x256x64_w8_s4_sm90a_pers",
                                                  "matmul_128x256x64_w8_s3_sm90a_rel_pers")]
    if k == "attention":
        kern = "mha_fwd_causal" if c["causal"] else "mha_fwd"
        if c["shape"][3] == 64:
            return [(v, "attention", kern) for v in ("attn_d64_bq128_w8", "attn_d64_bq64_w4", "attn_d64_bq128_w8_s1",
                                                     "attn_d64_bq128_w8_s3", "attn_d64_bq128_w8_sm80",
                                                     "attn_d64_bq128_w4", "attn_d64_bq128_bk32_w4_s3",
                                                     "attn_d64_bq128_w8_sm90a", "attn_d64_bq128_w4_sm90a",
                                                     "attn_d64_bq64_w4_sm90a", "attn_d64_bq128_bk128_w8_sm90a",
                                                     "attn_d64_bq64_w4_s3_sm90a", "attn_d64_bq128_w4_s3_sm90a",
                                                     "attn_d64_bq128_w8_sm90a_pp", "attn_d64_bq128_bk128_w8_sm90a_pp",
                                                     # twice the blocks of BQ 128, half the trips of BK 64:
                                                     # 1.67x at (2,512,4,64) in run s32-11
                                                     "attn_d64_bq64_bk128_w4_sm90a", "attn_d64_bq64_bk128_w4_s3_sm90a",
                                                     # persistent and heavy-first (1.135x causal at (4,1024,8,64),
                                                     # run s36-2); a block a tile, as before the persistent
                                                     # default (1.04-1.07x of it at (2,512,4,64): 64 tiles)
                                                     "attn_d64_bq64_bk128_w4_sm90a_hf",
                                                     "attn_d64_bq64_bk128_w4_sm90a_tile",
                                                     "attn_d64_bq64_bk128_w4_s3_sm90a_tile",
                                                     # four consumer warpgroups a block (lockstep), or two
                                                     # of 128 rows under the producer: more warpgroups an SM
                                                     # than the 4-warp kernels' two (FlashAttention-3 runs
                                                     # three at D 64); not measured yet (session 40)
                                                     "attn_d64_bq256_w16_sm90a", "attn_d64_bq256_w16_s3_sm90a",
                                                     "attn_d64_bq256_w8_sm90a", "attn_d64_bq256_w16_sm90a_rel")]
        return [(v, "attention", kern) for v in ("attn_d128_bq64_w8", "attn_d128_bq128_w8", "attn_d128_bq128_w8_s3",
                                                 "attn_d128_bq64_w4", "attn_d128_bq128_w8_s1",
                                                 "attn_d128_bq128_w8_sm80", "attn_d128_bq128_bk32_w4",
                                                 "attn_d128_bq128_bk32_w4_s3", "attn_d128_bq128_w8_sm90a",
                                                 "attn_d128_bq128_w8_s3_sm90a", "attn_d128_bq128_bk128_w8_sm90a",
                                                 "attn_d128_bq64_w4_sm90a", "attn_d128_bq128_bk128_w8_s3_sm90a",
                                                 "attn_d128_bq128_bk128_w8_sm90a_rel", "attn_d128_bq128_bk128_w8_sm90a_pp",
                                                 "attn_d128_bq128_bk128_w8_s3_sm90a_rel",
                                                 "attn_d128_bq128_bk128_w8_s3_sm90a_pp", "attn_d128_bq128_w8_s3_sm90a_pp",
                                                 "attn_d128_bq128_bk128_w8_s3_sm90a_hf",
                                                 "attn_d128_bq128_bk128_w8_sm90a_hf",
                                                 "attn_d128_bq128_bk128_w8_sm90a_pp_hf",
                                                 "attn_d128_bq128_bk128_w8_s3_sm90a_pp_hf")]
    return []


def amount(c):
    """(unit, bytes or flops) counted as the baselines doc does."""
    k = c["kind"]
    if k == "relu":
        return "GB/s", 8 * c["n"]
    if k == "softmax":
        return "GB/s", 2 * c["m"] * c["n"] * (4 if c["dt"] == "f32" else 2)
    if k == "layernorm":
        return "GB/s", 2 * c["m"] * c["n"] * 4 + 2 * c["n"] * 4
    if k == "rowsum":
        return "GB/s", c["m"] * c["n"] * 4 + c["m"] * 4
    if k == "add2d":
        return "GB/s", 3 * c["m"] * c["n"] * 4
    if k == "matmul":
        return "TFLOP/s", 2 * c["s"] ** 3
    if k == "attention":
        B, S, H, D = c["shape"]
        f = 4 * B * H * S * S * D
        return "TFLOP/s", f // 2 if c["causal"] else f


def set_bytes(c):
    k = c["kind"]
    if k == "matmul":
        return 3 * 2 * c["s"] ** 2
    if k == "attention":
        B, S, H, D = c["shape"]
        return 4 * 2 * B * S * H * D
    return amount(c)[1]


def make_inputs(torch, c, seed):
    """One input set (deterministic in seed), on the GPU. Never zeros."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    dev = "cuda"
    k = c["kind"]
    if k == "relu":
        return (torch.randn(c["n"], generator=g, device=dev, dtype=torch.float32),)
    if k == "softmax":
        dt = torch.float32 if c["dt"] == "f32" else torch.float16
        return ((torch.randn(c["m"], c["n"], generator=g, device=dev) * 3).to(dt),)
    if k == "layernorm":
        return (torch.randn(c["m"], c["n"], generator=g, device=dev),
                torch.randn(c["n"], generator=g, device=dev), torch.randn(c["n"], generator=g, device=dev), 1e-5)
    if k == "rowsum":
        return (torch.randn(c["m"], c["n"], generator=g, device=dev),)
    if k == "add2d":
        return (torch.randn(c["m"], c["n"], generator=g, device=dev), torch.randn(c["m"], c["n"], generator=g, device=dev))
    if k == "matmul":
        s = c["s"]
        dt = torch.bfloat16 if c["dt"] == "bf16" else torch.float16
        return (torch.randn(s, s, generator=g, device=dev).to(dt), torch.randn(s, s, generator=g, device=dev).to(dt))
    if k == "attention":
        B, S, H, D = c["shape"]
        q, kk, v = (torch.randn(B, S, H, D, generator=g, device=dev).half() for _ in range(3))
        return (q, kk, v, 1.0 / math.sqrt(D))


def reference(torch, c, inp):
    k = c["kind"]
    if k == "relu":
        return torch.clamp(2 * inp[0].double() + 1, min=0)
    if k == "softmax":
        return torch.softmax(inp[0].double(), dim=1)
    if k == "layernorm":
        x = inp[0].double()
        mu = x.mean(1, keepdim=True)
        var = ((x - mu) ** 2).mean(1, keepdim=True)
        return (x - mu) / torch.sqrt(var + inp[3]) * inp[1].double() + inp[2].double()
    if k == "rowsum":
        return inp[0].double().sum(1)
    if k == "add2d":
        return inp[0].double() + inp[1].double()
    if k == "matmul":
        return inp[0].float() @ inp[1].float()
    if k == "attention":
        q, kk, v, scale = inp
        outs = []
        for b in range(q.shape[0]):   # one batch at a time: (H, S, S) f32 scores
            qb, kb, vb = (t[b].float().transpose(0, 1) for t in (q, kk, v))
            s = (qb @ kb.transpose(1, 2)) * scale
            if c["causal"]:
                S = s.shape[-1]
                s = s.masked_fill(torch.ones(S, S, device=s.device, dtype=torch.bool).triu(1), float("-inf"))
            outs.append((torch.softmax(s, -1) @ vb).transpose(0, 1))
        return torch.stack(outs)


def tolerance(c):
    k = c["kind"]
    if k in ("relu", "add2d"):
        return 1e-6
    if k in ("softmax",):
        return 1e-5 if c["dt"] == "f32" else 5e-3
    if k in ("layernorm", "rowsum"):
        return 1e-5
    return 1e-2


def check(torch, out, ref, tol):
    o = out.double().reshape(ref.shape)
    r = ref.double()
    nan = int(torch.isnan(o).sum().item())
    diff = (o - r)
    diff = torch.nan_to_num(diff, nan=float("inf"))
    rel = (torch.linalg.vector_norm(diff) / torch.linalg.vector_norm(r)).item()
    mx = diff.abs().max().item()
    ok = nan == 0 and rel <= tol
    return ok, rel, mx, nan


# ---- timing ---------------------------------------------------------------------------------

class Timer:
    def __init__(self, torch, budget_ms, max_reps):
        self.torch = torch
        self.budget_ms = budget_ms
        self.max_reps = max_reps
        self.has_sleep = hasattr(torch.cuda, "_sleep")

    def events(self, n):
        E = self.torch.cuda.Event
        return [E(enable_timing=True) for _ in range(n)], [E(enable_timing=True) for _ in range(n)]

    def run(self, call, wall=True):
        """call(i) launches one call on set i. Returns dict or raises."""
        torch = self.torch
        call(0)
        torch.cuda.synchronize()
        s, e = self.events(1)
        s[0].record()
        call(1)
        e[0].record()
        torch.cuda.synchronize()
        est = s[0].elapsed_time(e[0])
        if est > SKIP_SLOW_S * 1000:
            return {"skipped": "one launch took %.0f ms (> %.0f s)" % (est, SKIP_SLOW_S), "est_ms": est}
        warm = int(min(10, max(1, 25.0 / max(est, 1e-3))))
        t0 = time.perf_counter()
        for i in range(warm):
            call(i)
        cpu_ms = (time.perf_counter() - t0) / warm * 1e3   # the CPU's time to issue one call
        torch.cuda.synchronize()
        n = int(min(self.max_reps, max(3, self.budget_ms / max(est, 1e-3))))
        st, en = self.events(n)
        if self.has_sleep:
            # Keep the GPU busy while the CPU queues the n calls, so that the
            # events time kernels, not the gaps of a call whose CPU side is
            # slower than its GPU side (torch SDPA cuDNN at small shapes issues
            # at 40-60 us a call): n times the measured issue time, 1.5x for
            # safety, at least 40 us a call, at most 1 s. Every call gets it,
            # whatever its length (`est` above includes the CPU's part, so it
            # cannot tell which side is slower), so that every implementation
            # is timed after the same kind of start.
            torch.cuda._sleep(int(min(n * max(cpu_ms * 1.5e-3, 40e-6) + 1e-3, 1.0) * 2.0e9))
        for i in range(n):
            st[i].record()
            call(i)
            en[i].record()
        torch.cuda.synchronize()
        ts = sorted(a.elapsed_time(b) for a, b in zip(st, en))
        res = {"ms": ts[len(ts) // 2], "p20_ms": ts[len(ts) // 5], "min_ms": ts[0], "reps": n}
        if wall and est < 2.0:
            m = min(n, 200)
            trials = []
            for _ in range(3):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for i in range(m):
                    call(i)
                torch.cuda.synchronize()
                trials.append((time.perf_counter() - t0) / m * 1e3)
            res["wall_ms"] = sorted(trials)[1]
        return res


# ---- the implementations ------------------------------------------------------------------------

def tessera_args(c, v, out):
    """The launch arguments of the case's Tessera kernel, in manifest order:
    v = the input set with tensors as device addresses, out = the output's."""
    k = c["kind"]
    if k == "relu":
        return (v[0], out, c["n"])
    if k in ("softmax", "rowsum"):
        return (v[0], out, c["m"], c["n"])
    if k == "layernorm":
        return (v[0], v[1], v[2], out, v[3], c["m"], c["n"])
    if k == "add2d":
        return (v[0], v[1], out, c["m"], c["n"])
    if k == "matmul":
        return (v[0], v[1], out, c["s"], c["s"], c["s"])
    if k == "attention":
        B, S, H, D = c["shape"]
        return (v[0], v[1], v[2], out, v[3], B, S, H, S)


def impls_for(torch, c, sets, pkg, rt):
    """[(impl name, framework, factory)] where factory() -> call(i) returning set i's output."""
    k = c["kind"]
    K = len(sets)
    stream = lambda: torch.cuda.current_stream().cuda_stream
    out = []

    def empty_like_out(i, dtype=None):
        inp = sets[i]
        if k == "rowsum":
            return torch.full((c["m"],), float("nan"), device="cuda", dtype=torch.float32)
        if k == "matmul":
            return torch.full((c["s"], c["s"]), float("nan"), device="cuda", dtype=inp[0].dtype)
        return torch.full_like(inp[0], float("nan"))

    # Tessera: one factory per variant
    # "one output": the same kernel writing one buffer every call, as torch
    # eager's allocating calls do (its caching allocator hands back the block
    # the last call freed), to compare like with like: see docs/performance.md.
    one_out = [(v, st, kn, True) for v, st, kn in tessera_variants(c) if v in ONE_OUTPUT_VARIANTS]
    for variant, stem, kname, single in [(v, st, kn, False) for v, st, kn in tessera_variants(c)] + one_out:
        def fac(variant=variant, stem=stem, kname=kname, single=single):
            man = os.path.join(pkg, "artifacts", variant, stem + ".manifest.json")
            kern = rt.load(man).kernel(kname)
            kern.chosen = kern.prepare()
            outs = [empty_like_out(0)] * K if single else [empty_like_out(i) for i in range(K)]
            binds = []
            for i in range(K):
                inp, o = sets[i], outs[i]
                vals = [t.data_ptr() if hasattr(t, "data_ptr") else t for t in inp]
                a = tessera_args(c, vals, o.data_ptr())
                binds.append(kern.bind(*a))

            def call(i):
                j = i % K
                binds[j](stream())
                return outs[j]
            call.note = "%s (%s, %d threads)" % (variant, kern.chosen.split()[1] if " " in kern.chosen else kern.chosen,
                                                 kern.threads)
            return call
        label = variant + (" rw" if kname.endswith("_rw") else "")   # the inout-input twin
        if single:
            out.append(("tessera[%s] one output" % label, "tessera-one-output", fac))
        else:
            out.append(("tessera[%s]" % label, "tessera", fac))

    # torch eager
    def torch_fac():
        if k == "relu":
            return lambda i: torch.relu(2 * sets[i % K][0] + 1)
        if k == "softmax":
            return lambda i: torch.softmax(sets[i % K][0], dim=1)
        if k == "layernorm":
            return lambda i: torch.nn.functional.layer_norm(sets[i % K][0], (c["n"],), sets[i % K][1], sets[i % K][2], 1e-5)
        if k == "rowsum":
            return lambda i: sets[i % K][0].sum(1)
        if k == "add2d":
            # into rotating outputs, as every other implementation writes (the
            # allocating `a + b` is timed too, as "torch eager, allocating")
            outs = [empty_like_out(i) for i in range(K)]

            def call(i):
                return torch.add(sets[i % K][0], sets[i % K][1], out=outs[i % K])
            return call
        if k == "matmul":
            return lambda i: torch.matmul(sets[i % K][0], sets[i % K][1])
        if k == "attention":
            return None
    if k != "attention":
        out.append(("cuBLAS (torch.matmul)" if k == "matmul" else "torch eager", "torch", torch_fac))
    if k == "add2d":
        # `a + b`: the caching allocator hands back the block the last call
        # freed, so this writes one buffer every call (mostly still in L2);
        # compared with Tessera's "one output" rows, not with the rest.
        out.append(("torch eager, allocating", "torch-one-output", lambda: (lambda i: sets[i % K][0] + sets[i % K][1])))

    if k == "attention":
        # torch SDPA on (B, H, S, D) copies made outside the timed region
        tsets = [tuple(t.transpose(1, 2).contiguous() for t in s[:3]) for s in sets]
        from torch.nn.attention import sdpa_kernel, SDPBackend

        def sdpa_fac(backend):
            def fac():
                def call(i):
                    q, kk, v = tsets[i % K]
                    with sdpa_kernel([backend]):
                        o = torch.nn.functional.scaled_dot_product_attention(q, kk, v, is_causal=c["causal"],
                                                                            scale=sets[0][3])
                    return o.transpose(1, 2)
                return call
            return fac
        out.append(("torch SDPA flash", "torch", sdpa_fac(SDPBackend.FLASH_ATTENTION)))
        out.append(("torch SDPA cuDNN", "torch", sdpa_fac(SDPBackend.CUDNN_ATTENTION)))

    # Triton
    def triton_fac():
        import peers_triton as pt
        outs = [empty_like_out(i) for i in range(K)]

        def call(i):
            j = i % K
            s, o = sets[j], outs[j]
            if k == "relu":
                pt.run_relu(s[0], o)
            elif k == "softmax":
                pt.run_softmax(s[0], o)
            elif k == "layernorm":
                pt.run_layernorm(s[0], s[1], s[2], o, s[3])
            elif k == "rowsum":
                pt.run_rowsum(s[0], o)
            elif k == "add2d":
                pt.run_add2d(s[0], s[1], o)
            elif k == "matmul":
                pt.run_matmul(s[0], s[1], o)
            elif k == "attention":
                pt.run_attention(s[0], s[1], s[2], o, s[3], c["causal"])
            return o
        return call
    out.append(("Triton", "triton", triton_fac))
    return out


# ---- main process -------------------------------------------------------------------------------

def device_info(torch):
    p = torch.cuda.get_device_properties(0)
    info = {"gpu": p.name, "sms": p.multi_processor_count, "mem_gib": round(p.total_memory / 2**30, 1),
            "cc": "%d.%d" % (p.major, p.minor), "l2_bytes": getattr(p, "L2_cache_size", 60 * 2**20),
            "torch": torch.__version__, "cuda": torch.version.cuda, "python": platform.python_version()}
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception as e:
        info["triton"] = "FAILED: %s" % e
    try:
        info["cudnn"] = torch.backends.cudnn.version()
    except Exception:
        pass
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw",
                            "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        info["nvidia_smi"] = q.stdout.strip()
    except Exception as e:
        info["nvidia_smi"] = "FAILED: %s" % e
    return info


def launch_overhead(pkg):
    exe = os.path.join(pkg, "launch_overhead")
    manifest = os.path.join(ROOT, "testsuite", "gpu", "Inputs", "kernels.json")
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = pkg + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    try:
        r = subprocess.run([exe, manifest, "20000"], capture_output=True, text=True, timeout=120, env=env)
    except Exception as e:
        return {"error": "FAILED: %s" % e}
    res = {"output": r.stdout + r.stderr, "rc": r.returncode}
    for line in r.stdout.splitlines():
        if "median" in line:
            label = line.split("median")[0].strip()
            try:
                med = float(line.split("median")[1].split("us")[0])
                res[label] = med
            except Exception:
                pass
    bare = res.get("bare cuLaunchKernel")
    tess = res.get("tessrt_launch (primary context current)")
    if bare is not None and tess is not None:
        res["extra_us"] = tess - bare
    return res


def copy_roofline(torch, timer):
    rows = []
    for gib in [2.0, 0.25]:
        n = int(gib * 2**30 / 4)
        src = torch.randn(n, device="cuda")
        dst = torch.empty_like(src)
        r = timer.run(lambda i: dst.copy_(src), wall=False)
        ok = bool(torch.equal(dst, src))
        gbs = 2 * n * 4 / (r["ms"] * 1e-3) / 1e9
        rows.append(dict(case="D2D copy %.2f GiB f32" % gib, group="copy", impl="torch copy_", framework="torch",
                         ms=r["ms"], p20_ms=r["p20_ms"], unit="GB/s", rate=gbs, ok=ok, rel_err=0.0 if ok else None))
        del src, dst
    torch.cuda.empty_cache()
    return rows


def run_case(torch, c, pkg, rt, timer, deadline, only_impl=None):
    unit, amt = amount(c)
    L2 = timer.l2
    sb = set_bytes(c)
    K = max(1, min(64, math.ceil(4 * L2 / sb)))
    rows = []
    facs = {}
    sets = [make_inputs(torch, c, 1000 + i) for i in range(K)]
    ref = reference(torch, c, sets[0])
    tol = tolerance(c)
    for name, fw, fac in impls_for(torch, c, sets, pkg, rt):
        if only_impl and fw not in only_impl:
            continue
        row = dict(case=c["name"], group=c["group"], impl=name, framework=fw, unit=unit, sets=K)
        if time.time() > deadline:
            row.update(ok=None, note="SKIPPED: time budget of the run spent")
            rows.append(row)
            continue
        try:
            call = fac()
            if call is None:
                continue
            row["note"] = getattr(call, "note", "")
            o = call(0)
            torch.cuda.synchronize()
            ok, rel, mx, nan = check(torch, o, ref, tol)
            row.update(ok=ok, rel_err=rel, max_abs_err=mx, nans=nan, tol=tol)
            if not ok:
                row["note"] = (row.get("note", "") + " WRONG OUTPUT").strip()
            r = timer.run(call)
            if "skipped" in r:
                row["note"] = (row.get("note", "") + " SKIPPED: " + r["skipped"]).strip()
                row["est_ms"] = r["est_ms"]
            else:
                row.update(r)
                row["rate"] = amt / (r["ms"] * 1e-3) / (1e9 if unit == "GB/s" else 1e12)
        except Exception as e:
            row.update(ok=False, note="FAILED: %s: %s" % (type(e).__name__, str(e).splitlines()[0][:300] if str(e) else ""))
            traceback.print_exc(limit=3)
            try:
                torch.cuda.synchronize()
            except Exception:
                pass
        rows.append(row)
        facs[name] = fac
        log("  %-34s %-28s %s" % (c["name"], name, fmt_row(row)))
    paired(torch, timer, rows, facs, deadline)
    del sets, ref
    torch.cuda.empty_cache()
    return rows


PAIRED_ROUNDS = 5
PAIRED_MARGIN = 1.03      # a runner-up within 3% of its side's sweep minimum is timed in the rounds too

def paired(torch, timer, rows, facs, deadline):
    """The headline pair again: Tessera's fastest variants and the fastest
    peers of this process, timed in PAIRED_ROUNDS interleaved rounds (in
    order, then in reverse, ...), each row's paired_ms the median of its
    rounds' timings. The
    sweep above times every implementation once, in a fixed order, and on the
    H100 and H200 the power cap moves the SM clock by up to 10% within
    seconds (bench/experiments/clocks_s40.py: 1590-1980 MHz under the same
    kernel): whichever runs after a long stretch of tensor-core variants is
    timed at a lower clock. Interleaving gives both sides the same
    conditions, as bench/ab_pair.py does. Since the sweep's single timings
    may also have picked the wrong winner on either side, each side's
    runner-up joins the rounds when its sweep time is within PAIRED_MARGIN
    of the side's minimum; the side's row with the lower paired median is
    its headline. Rows from another process (Pallas) have no factory here
    and are not paired; the table then uses the sweep's times. Past the
    run's deadline the rounds stop and nothing is paired."""
    ok = [r for r in rows if r.get("ms") and r.get("ok") and r["impl"] in facs]
    tess = sorted([r for r in ok if r["framework"] == "tessera"], key=lambda r: r["ms"])
    peers = sorted([r for r in ok if not r["framework"].startswith("tessera")
                    and not r["framework"].endswith("-one-output")], key=lambda r: r["ms"])
    if not tess or not peers or time.time() > deadline:
        return
    sides = [[r for r in side[:2] if r["ms"] <= side[0]["ms"] * PAIRED_MARGIN] for side in (tess, peers)]
    cand = sides[0] + sides[1]
    try:
        calls = [facs[r["impl"]]() for r in cand]
        times = [[] for _ in cand]
        for rnd in range(PAIRED_ROUNDS):
            if time.time() > deadline:
                log("  paired rounds stopped: the run's time budget is spent")
                return
            for j in (range(len(cand)) if rnd % 2 == 0 else reversed(range(len(cand)))):
                times[j].append(timer.run(calls[j], wall=False)["ms"])
    except Exception as e:
        log("  paired rounds failed: %s: %s" % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else ""))
        return
    med = [sorted(t)[PAIRED_ROUNDS // 2] for t in times]
    for j, r in enumerate(cand):
        r["paired_ms"] = med[j]
        r["paired_rounds_ms"] = times[j]
    head = [min(range(len(sides[0])), key=lambda j: med[j]),
            len(sides[0]) + min(range(len(sides[1])), key=lambda j: med[len(sides[0]) + j])]
    for j in range(len(cand)):
        cand[j]["paired_with"] = cand[head[1] if j < len(sides[0]) else head[0]]["impl"]   # the other side's headline
        cand[j]["paired_headline"] = j in head
    log("  %-34s paired: %s" % (cand[0]["case"], ", ".join(
        "%s %.4f ms%s" % (r["impl"], r["paired_ms"], " *" if j in head else "") for j, r in enumerate(cand))))


def headline_pair(tess, peers):
    """The Tessera row and the peer row that paired() made its sides'
    headlines; (None, None) if it paired nothing."""
    t = next((r for r in tess if r.get("paired_headline")), None)
    p = next((r for r in peers if r.get("paired_headline")), None)
    return (t, p) if t and p else (None, None)


def fmt_row(r):
    if r.get("ms") is None:
        return r.get("note", "")
    s = "%9.4f ms  %8.1f %s" % (r["ms"], r["rate"], r["unit"])
    if r.get("wall_ms") is not None:
        s += "  wall %8.4f ms" % r["wall_ms"]
    s += "  err %.1e %s" % (r.get("rel_err") or 0.0, "ok" if r.get("ok") else "WRONG")
    return s


# ---- the Pallas worker (its own process) ---------------------------------------------------------

def pallas_worker(args):
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import torch
    rows = []
    try:
        import jax
        import jax.numpy as jnp
        try:
            import jax.dlpack  # noqa: F401
        except Exception:
            pass
        import peers_pallas as pp
        ver = jax.__version__
    except Exception as e:
        json.dump({"rows": [], "error": "FAILED: import jax/pallas: %s" % e}, open(args.json, "w"))
        return 0
    L2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 60 * 2**20)
    deadline = time.time() + args.budget_s
    groups = set(args.only.split(",")) if args.only else set(GROUPS)

    def to_jax(t):
        if not hasattr(t, "data_ptr"):
            return t
        try:
            return jax.dlpack.from_dlpack(t.contiguous())
        except Exception:
            return jnp.asarray(t.cpu().numpy())

    for c in case_list():
        if c["group"] not in groups:
            continue
        unit, amt = amount(c)
        row = dict(case=c["name"], group=c["group"], impl="JAX Pallas (Triton backend)", framework="pallas", unit=unit)
        if time.time() > deadline:
            row.update(ok=None, note="SKIPPED: time budget of the Pallas worker spent")
            rows.append(row)
            continue
        try:
            K = max(1, min(64, math.ceil(4 * L2 / set_bytes(c))))
            tsets = [make_inputs(torch, c, 1000 + i) for i in range(K)]
            ref = reference(torch, c, tsets[0])
            torch.cuda.synchronize()
            jsets = [tuple(to_jax(t) for t in s) for s in tsets]
            k = c["kind"]
            if k == "relu":
                f = pp.make_relu(c["n"])
                fn = lambda s: f(s[0])
            elif k == "softmax":
                f = pp.make_softmax(c["m"], c["n"], jnp.float32 if c["dt"] == "f32" else jnp.float16)
                fn = lambda s: f(s[0])
            elif k == "layernorm":
                f = pp.make_layernorm(c["m"], c["n"], 1e-5)
                fn = lambda s: f(s[0], s[1], s[2])
            elif k == "rowsum":
                f = pp.make_rowsum(c["m"], c["n"])
                fn = lambda s: f(s[0])
            elif k == "add2d":
                f = pp.make_add2d(c["m"], c["n"])
                fn = lambda s: f(s[0], s[1])
            elif k == "matmul":
                f = pp.make_matmul(c["s"], c["s"], c["s"], dtype=jnp.bfloat16 if c["dt"] == "bf16" else jnp.float16)
                fn = lambda s: f(s[0], s[1])
            elif k == "attention":
                f = pp.make_attention(c["causal"], tsets[0][3])
                fn = lambda s: f(s[0], s[1], s[2])
            t0 = time.perf_counter()
            o = fn(jsets[0])
            o.block_until_ready()
            row["first_call_s"] = time.perf_counter() - t0
            try:
                out = torch.from_dlpack(o)
            except Exception:
                import numpy as np
                out = torch.from_numpy(np.asarray(o).astype(np.float64)).cuda()
            ok, rel, mx, nan = check(torch, out, ref, tolerance(c))
            row.update(ok=ok, rel_err=rel, max_abs_err=mx, nans=nan, sets=K)
            # pipelined wall per call (JAX's own stream: torch events cannot see it)
            est_t = time.perf_counter()
            fn(jsets[1 % K]).block_until_ready()
            est = (time.perf_counter() - est_t) * 1e3
            n = int(min(200, max(3, 150.0 / max(est, 1e-3))))
            trials = []
            for _ in range(3):
                t0 = time.perf_counter()
                outs = [fn(jsets[i % K]) for i in range(n)]
                outs[-1].block_until_ready()
                trials.append((time.perf_counter() - t0) / n * 1e3)
                del outs
            ms = sorted(trials)[1]
            row.update(ms=ms, wall_ms=ms, reps=n, rate=amt / (ms * 1e-3) / (1e9 if unit == "GB/s" else 1e12),
                       note="jax %s; time = pipelined wall per call (dispatch included)" % ver)
            del jsets, tsets, ref, out
        except Exception as e:
            row.update(ok=False, note="FAILED: %s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:300]))
        rows.append(row)
        log("  %-34s %-28s %s" % (c["name"], row["impl"], fmt_row(row)))
        torch.cuda.empty_cache()
    json.dump({"rows": rows, "jax": ver}, open(args.json, "w"), indent=1)
    return 0


# ---- table --------------------------------------------------------------------------------------

def table(rows, lo):
    lines = []
    hdr = "%-34s %-44s %10s %10s %9s %10s %8s  %s" % ("case", "impl", "ms", "rate", "wall ms", "paired ms", "vs best",
                                                      "check")
    lines += [hdr, "-" * len(hdr)]
    by_case = {}
    for r in rows:
        by_case.setdefault(r["case"], []).append(r)
    for case, rs in by_case.items():
        peers = [r for r in rs if not r["framework"].startswith("tessera") and not r["framework"].endswith("-one-output")
                 and r.get("ms") and r.get("ok")]
        tess = [r for r in rs if r["framework"] == "tessera" and r.get("ms") and r.get("ok")]
        # the paired rounds' headlines, else the sweep's fastest
        head_t, head_p = headline_pair(tess, peers)
        best_peer = head_p or (min(peers, key=lambda r: r["ms"]) if peers else None)
        # the best sm_80 variant too (its PTX, JIT-compiled by the driver): the mma.sync path measured
        sm80 = [r for r in tess if "_sm80" in r["impl"]]
        best_sm80 = min(sm80, key=lambda r: r["ms"]) if sm80 else None
        best_tess = head_t or (min(tess, key=lambda r: r["ms"]) if tess else None)
        # and the best without sm_90a's wgmma (the sm_90 cubins' mma.sync path)
        mma = [r for r in tess if "_sm90a" not in r["impl"]]
        best_mma = min(mma, key=lambda r: r["ms"]) if mma else None
        for r in rs:
            if r["framework"] == "tessera" and best_tess is not None and r not in (best_tess, best_sm80, best_mma):
                continue   # other variants: JSON only
            if r.get("ms"):
                ratio = ""
                if best_peer is not None and r["framework"] in ("tessera",):
                    if r is head_t:
                        ratio = "%.2fx" % (best_peer["paired_ms"] / r["paired_ms"])
                    else:   # the sweep's single timings: marked
                        ratio = "%.2fx s" % (best_peer["ms"] / r["ms"])
                elif best_peer is r:
                    ratio = "best"
                elif r["framework"] == "tessera-one-output":
                    # against torch eager's allocating call, which also writes one buffer
                    te = [p for p in rs if p["framework"] == "torch-one-output" and p.get("ms") and p.get("ok")]
                    ratio = "%.2fx 1o" % (te[0]["ms"] / r["ms"]) if te else ""
                rate = "%.1f %s" % (r["rate"], "GB/s" if r["unit"] == "GB/s" else "TF/s")
                wall = "%.4f" % r["wall_ms"] if r.get("wall_ms") else ""
                chk = ("ok %.1e" % r["rel_err"]) if r.get("ok") else ("WRONG %.1e" % (r.get("rel_err") or float("nan")))
                pms = "%.4f" % r["paired_ms"] if r.get("paired_ms") else ""
                lines.append("%-34s %-44s %10.4f %10s %9s %10s %8s  %s" % (case[:34], r["impl"][:44], r["ms"], rate, wall,
                                                                          pms, ratio, chk))
            else:
                lines.append("%-34s %-44s %s" % (case[:34], r["impl"][:44], r.get("note", "")[:120]))
    lines.append("(vs best: best peer's time / Tessera's time; > 1 means Tessera is faster. Tessera's fastest "
                 "variant and the fastest peer (each with a runner-up within 3%%) are timed again in %d interleaved "
                 "rounds: 'paired ms' is a row's median of the rounds' medians, and the headline ratio is of the "
                 "two sides' best paired medians; a ratio marked 's' is of 'ms', the sweep's single timings (the "
                 "other Tessera rows, or no pair). All variants are in the JSON. Every implementation writes rotating outputs "
                 "except the 'one output' / 'allocating' rows, which write one buffer every call and are compared "
                 "only with each other: '1o' = torch eager allocating's time / the row's.)" % PAIRED_ROUNDS)
    if lo:
        if "error" in lo:
            lines.append("launch overhead: %s" % lo["error"])
        else:
            lines.append("launch overhead (1024-element relu, C, 20000 calls): bare cuLaunchKernel %s us, "
                         "tessrt_launch %s us, extra %s us (target <= 1 us); no current context: %s us" % (
                             lo.get("bare cuLaunchKernel"), lo.get("tessrt_launch (primary context current)"),
                             "%.3f" % lo["extra_us"] if "extra_us" in lo else "?",
                             lo.get("tessrt_launch (no current context: push/pop)")))
    return "\n".join(lines)


def dry(args):
    """No GPU: list the cases and check that every artifact the cases need is in the package."""
    missing = 0
    for c in case_list():
        unit, amt = amount(c)
        vs = tessera_variants(c)
        for v, stem, kern in vs:
            man = os.path.join(args.pkg, "artifacts", v, stem + ".manifest.json")
            ok = os.path.exists(man)
            if ok:
                m = json.load(open(man))
                ok = any(k["name"] == kern for k in m["kernels"])
            missing += not ok
            log("%-36s %-8s %.3e  %-22s %-16s %s" % (c["name"], unit, amt, v, kern, "ok" if ok else "MISSING"))
    for f in ["libtessrt.so", "libcjson.so.1", "launch_overhead", "tessc"]:
        p = os.path.join(args.pkg, f)
        log("%-40s %s" % (p, "ok" if os.path.exists(p) else "MISSING"))
        missing += not os.path.exists(p)
    if args.pkg and os.path.exists(os.path.join(args.pkg, "libtessrt.so")):
        import tessrt
        rt = tessrt.TessRT(os.path.join(args.pkg, "libtessrt.so"))
        for c in case_list():
            for v, stem, kern in tessera_variants(c):
                k = rt.load(os.path.join(args.pkg, "artifacts", v, stem + ".manifest.json")).kernel(kern)
                fake = [1 << 20, 2 << 20, 3 << 20, 0.5][:4]
                if c["kind"] == "attention":
                    fake[3] = 0.125
                elif c["kind"] == "layernorm":
                    fake[3] = 1e-5
                grid = k.grid(*tessera_args(c, fake, 4 << 20))
                log("  %-36s %-22s grid %s, %d threads" % (c["name"], v, grid, k.threads))
        log("libtessrt loads every manifest and kernel, and accepts every case's arguments")
    log("%d missing" % missing)
    return 1 if missing else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pkg", default=os.path.join(ROOT, "build-benchpkg"))
    ap.add_argument("--only", default="", help="groups: " + ",".join(GROUPS))
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--no-pallas", action="store_true")
    ap.add_argument("--dry", action="store_true")
    ap.add_argument("--json", default="")
    ap.add_argument("--budget-s", type=float, default=330, help="main process time budget (s)")
    ap.add_argument("--pallas-budget-s", type=float, default=150)
    ap.add_argument("--pallas-worker", action="store_true")
    args = ap.parse_args()
    args.pkg = os.path.abspath(args.pkg)
    if args.dry:
        return dry(args)
    if args.pallas_worker:
        return pallas_worker(args)

    import torch
    if not torch.cuda.is_available():
        log("no CUDA device")
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    import tessrt
    rt = tessrt.TessRT(os.path.join(args.pkg, "libtessrt.so"))
    info = device_info(torch)
    log("device:", json.dumps(info))
    timer = Timer(torch, budget_ms=60 if args.quick else 150, max_reps=100 if args.quick else 300)
    timer.l2 = info["l2_bytes"] or 60 * 2**20
    groups = set(args.only.split(",")) if args.only else set(GROUPS)
    deadline = T_START + args.budget_s

    lo = launch_overhead(args.pkg)
    log("launch_overhead:", lo.get("output", lo.get("error", "")).strip().replace("\n", " | "))
    rows = []
    if "copy" in groups or "relu" in groups:
        rows += copy_roofline(torch, timer)
        for r in rows:
            log("  %-34s %-28s %s" % (r["case"], r["impl"], fmt_row(r)))
    for c in case_list(args.quick):
        if c["group"] in groups:
            rows += run_case(torch, c, args.pkg, rt, timer, deadline)

    pallas = {}
    if not args.no_pallas:
        torch.cuda.empty_cache()
        pj = os.path.join(os.environ.get("OUT") or "/tmp", "pallas.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--pallas-worker", "--json", pj, "--pkg", args.pkg,
               "--budget-s", str(args.pallas_budget_s)] + (["--only", args.only] if args.only else [])
        log("pallas worker:", " ".join(cmd))
        try:
            env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
            r = subprocess.run(cmd, timeout=args.pallas_budget_s + 90, env=env)
            pallas = json.load(open(pj))
        except Exception as e:
            pallas = {"rows": [], "error": "FAILED: %s" % e}
        if pallas.get("error"):
            log("pallas:", pallas["error"])
        # place each Pallas row after its case's rows
        for pr in pallas.get("rows", []):
            idx = max([i for i, r in enumerate(rows) if r["case"] == pr["case"]], default=len(rows) - 1)
            rows.insert(idx + 1, pr)

    t = table(rows, lo)
    log("\n" + t)
    result = {"device": info, "launch_overhead": lo, "rows": rows, "pallas_error": pallas.get("error"),
              "jax": pallas.get("jax"), "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
              "elapsed_s": time.time() - T_START, "table": t}
    path = args.json or (os.path.join(os.environ["OUT"], "bench.json") if os.environ.get("OUT") else "")
    if path:
        with open(path, "w") as f:
            json.dump(result, f, indent=1, default=str)
        log("wrote", path)
    bad = [r for r in rows if r.get("ok") is False and r["framework"].startswith("tessera")]
    log("elapsed %.0f s; %d Tessera rows wrong or failed" % (time.time() - T_START, len(bad)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
