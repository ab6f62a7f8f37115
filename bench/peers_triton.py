"""peers_triton.py: Triton kernels of the same algorithms as bench/kernels/*.tess.

Each `run_*` function launches on torch tensors (current stream) and returns
the output; block sizes follow the Tessera kernels / the baselines doc
(relu BLOCK=1024 w4; softmax one row per program, BLOCK = next_pow2(cols),
16 warps at 4096 columns and 4 at 1024; matmul tutorial-03 128x128x64 s3 w8
GROUP_M=8; flash attention: one program per (query block, batch, head), online
softmax in f32, fp16 tl.dot). Imported only on the GPU machine.
"""
import triton
import triton.language as tl


@triton.jit
def relu2x1_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(o_ptr + offs, tl.maximum(x * 2.0 + 1.0, 0.0), mask=mask)


def run_relu(x, o, BLOCK=1024, num_warps=4):
    n = x.numel()
    relu2x1_kernel[(triton.cdiv(n, BLOCK),)](x, o, n, BLOCK=BLOCK, num_warps=num_warps)
    return o


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_warps(cols):
    return 16 if cols >= 4096 else (8 if cols >= 2048 else 4)


def run_softmax(x, y):
    m, n = x.shape
    softmax_kernel[(m,)](x, y, n, x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(n),
                         num_warps=softmax_warps(n))
    return y


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * n_cols + cols, d * rstd * w + b, mask=mask)


def run_layernorm(x, w, b, y, eps):
    m, n = x.shape
    layernorm_kernel[(m,)](x, w, b, y, n, eps, BLOCK=triton.next_power_of_2(n), num_warps=softmax_warps(n))
    return y


@triton.jit
def rowsum_kernel(x_ptr, s_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, tl.cdiv(n_cols, BLOCK)):
        cols = j * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(s_ptr + row, tl.sum(acc, axis=0))


def run_rowsum(x, s):
    m, n = x.shape
    block = 2048 if n >= 2048 else triton.next_power_of_2(n)
    rowsum_kernel[(m,)](x, s, n, BLOCK=block, num_warps=8 if block >= 2048 else 4)
    return s


@triton.jit
def add2d_kernel(a_ptr, b_ptr, c_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    offs = rows[:, None] * N + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, a + b, mask=mask)


def run_add2d(a, b, c, BM=8, BN=512, num_warps=8):
    m, n = a.shape
    add2d_kernel[(triton.cdiv(m, BM), triton.cdiv(n, BN))](a, b, c, m, n, BM=BM, BN=BN, num_warps=num_warps)
    return c


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)   # f16 or bf16, as the output
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def run_matmul(a, b, c, BM=128, BN=128, BK=64, num_stages=3, num_warps=8):
    M, K = a.shape
    N = b.shape[1]
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                        c.stride(1), BM=BM, BN=BN, BK=BK, GROUP_M=8, num_stages=num_stages, num_warps=num_warps)
    return c


@triton.jit
def attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, T, H, scale,
                D: tl.constexpr, BQ: tl.constexpr, BK: tl.constexpr, CAUSAL: tl.constexpr):
    # layout (B, S, H, D), contiguous: row stride H * D
    i = tl.program_id(0)
    b = tl.program_id(1)
    h = tl.program_id(2)
    rs = H * D
    offs_q = i * BQ + tl.arange(0, BQ)
    offs_d = tl.arange(0, D)
    q_base = q_ptr + b * S * rs + h * D
    kv_off = b * T * rs + h * D
    q = tl.load(q_base + offs_q[:, None] * rs + offs_d[None, :], mask=offs_q[:, None] < S, other=0.0)
    m_i = tl.full([BQ], float("-inf"), tl.float32)
    l_i = tl.zeros([BQ], tl.float32)
    acc = tl.zeros([BQ, D], tl.float32)
    qk_scale = scale * 1.44269504  # exp via exp2
    if CAUSAL:
        hi = tl.minimum(T, (i + 1) * BQ)
    else:
        hi = T
    for start in range(0, hi, BK):
        offs_k = start + tl.arange(0, BK)
        kt = tl.load(k_ptr + kv_off + offs_k[None, :] * rs + offs_d[:, None], mask=offs_k[None, :] < T, other=0.0)
        s = tl.dot(q, kt) * qk_scale
        ok = offs_k[None, :] < T
        if CAUSAL:
            ok = ok & (offs_k[None, :] <= offs_q[:, None])
        s = tl.where(ok, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + kv_off + offs_k[:, None] * rs + offs_d[None, :], mask=offs_k[:, None] < T, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    o = acc / l_i[:, None]
    tl.store(o_ptr + b * S * rs + h * D + offs_q[:, None] * rs + offs_d[None, :], o.to(tl.float16),
             mask=offs_q[:, None] < S)


def run_attention(q, k, v, o, scale, causal):
    B, S, H, D = q.shape
    T = k.shape[1]
    BQ, BK = 128, 64
    grid = (triton.cdiv(S, BQ), B, H)
    attn_kernel[grid](q, k, v, o, S, T, H, scale, D=D, BQ=BQ, BK=BK, CAUSAL=bool(causal),
                      num_warps=4 if D <= 64 else 8, num_stages=2)
    return o
