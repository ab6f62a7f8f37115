"""peers_pallas.py: JAX Pallas kernels of the same algorithms (jax 0.11.2; the
default pallas_call backend on the H200 is Triton, see the baselines doc).

Each make_* returns a jitted function of jax arrays. Imported only by the
Pallas worker of bench.py (its own process, XLA_PYTHON_CLIENT_PREALLOCATE=false).
"""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

try:
    from jax.experimental.pallas import triton as pltriton
except Exception:  # older/newer layouts
    pltriton = None


def _params(num_warps, num_stages=None):
    if pltriton is None:
        return None
    kw = {"num_warps": num_warps}
    if num_stages is not None:
        kw["num_stages"] = num_stages
    return pltriton.CompilerParams(**kw)


def make_relu(n, blk=1024):
    def kernel(x_ref, o_ref):
        o_ref[...] = jnp.maximum(x_ref[...] * 2.0 + 1.0, 0.0)
    blk = min(blk, n)
    f = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((n,), jnp.float32), grid=(pl.cdiv(n, blk),),
                       in_specs=[pl.BlockSpec((blk,), lambda i: (i,))], out_specs=pl.BlockSpec((blk,), lambda i: (i,)),
                       compiler_params=_params(4))
    return jax.jit(f)


def _next_pow2(n):
    return 1 << (n - 1).bit_length()


def make_softmax(m, n, dtype):
    assert n == _next_pow2(n)

    def kernel(x_ref, y_ref):
        x = x_ref[...].astype(jnp.float32)
        e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
        y_ref[...] = (e / jnp.sum(e, axis=1, keepdims=True)).astype(y_ref.dtype)
    f = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m, n), dtype), grid=(m,),
                       in_specs=[pl.BlockSpec((1, n), lambda i: (i, 0))], out_specs=pl.BlockSpec((1, n), lambda i: (i, 0)),
                       compiler_params=_params(16 if n >= 4096 else 4))
    return jax.jit(f)


def make_layernorm(m, n, eps):
    def kernel(x_ref, w_ref, b_ref, y_ref):
        x = x_ref[...]
        mean = jnp.mean(x, axis=1, keepdims=True)
        d = x - mean
        var = jnp.mean(d * d, axis=1, keepdims=True)
        y_ref[...] = d * jax.lax.rsqrt(var + eps) * w_ref[...][None, :] + b_ref[...][None, :]
    f = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32), grid=(m,),
                       in_specs=[pl.BlockSpec((1, n), lambda i: (i, 0)), pl.BlockSpec((n,), lambda i: (0,)),
                                 pl.BlockSpec((n,), lambda i: (0,))],
                       out_specs=pl.BlockSpec((1, n), lambda i: (i, 0)), compiler_params=_params(16 if n >= 4096 else 4))
    return jax.jit(f)


def make_rowsum(m, n):
    def kernel(x_ref, s_ref):
        s_ref[...] = jnp.sum(x_ref[...], axis=1)
    f = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m,), jnp.float32), grid=(m,),
                       in_specs=[pl.BlockSpec((1, n), lambda i: (i, 0))], out_specs=pl.BlockSpec((1,), lambda i: (i,)),
                       compiler_params=_params(8 if n >= 2048 else 4))
    return jax.jit(f)


def make_add2d(m, n, bm=8, bn=512):
    def kernel(a_ref, b_ref, c_ref):
        c_ref[...] = a_ref[...] + b_ref[...]
    spec = pl.BlockSpec((bm, bn), lambda i, j: (i, j))
    f = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
                       grid=(pl.cdiv(m, bm), pl.cdiv(n, bn)), in_specs=[spec, spec], out_specs=spec,
                       compiler_params=_params(8))
    return jax.jit(f)


def make_matmul(m, n, k, bm=128, bn=128, bk=64, dtype=jnp.float16):
    def kernel(a_ref, b_ref, c_ref):
        def body(i, acc):
            a = a_ref[:, pl.ds(i * bk, bk)]
            b = b_ref[pl.ds(i * bk, bk), :]
            return acc + pl.dot(a, b)
        acc = jax.lax.fori_loop(0, k // bk, body, jnp.zeros((bm, bn), jnp.float32))
        c_ref[...] = acc.astype(c_ref.dtype)
    f = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m, n), dtype), grid=(m // bm, n // bn),
                       in_specs=[pl.BlockSpec((bm, k), lambda i, j: (i, 0)), pl.BlockSpec((k, bn), lambda i, j: (0, j))],
                       out_specs=pl.BlockSpec((bm, bn), lambda i, j: (i, j)), compiler_params=_params(8, 3))
    return jax.jit(f)


def make_attention(causal, scale):
    from jax.experimental.pallas.ops.gpu import attention as pattn
    return jax.jit(functools.partial(pattn.mha, segment_ids=None, sm_scale=scale, causal=causal))
