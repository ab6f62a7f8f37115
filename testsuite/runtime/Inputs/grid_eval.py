"""Random grid expressions and sizes: libtessrt's answer (runtime_test grid)
against a reference computed here, in Python's integers, from Python's own
parse of the same text (the manifest grammar is a subset of Python's).

usage: grid_eval.py RUNTIME_TEST OUTDIR SEED
Prints "N launches, E expected errors, M mismatches" (and the first mismatches).
"""
import ast
import json
import os
import random
import subprocess
import sys

runtime_test, outdir, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(seed)
os.makedirs(outdir, exist_ok=True)
open(os.path.join(outdir, "k.ptx"), "w").close()
SIZES = ["M", "N", "K"]
I64 = 2**63
LIMITS = [2**31 - 1, 65535, 65535]


class Fail(Exception):
    pass


def expr(depth):
    r = rng.random()
    if depth == 0 or r < 0.25:
        return str(rng.randrange(0, 400)) if rng.random() < 0.5 else rng.choice(SIZES)
    r = rng.random()
    a, b = expr(depth - 1), expr(depth - 1)
    if r < 0.3:
        return f"{rng.choice(['cdiv', 'min', 'max'])}({a},{' ' * rng.randrange(2)}{b})"
    if r < 0.35:
        return f"-({a})"
    op = rng.choice(["+", "-", "*", "/", "%"])
    return f"({a}){op}({b})" if rng.random() < 0.5 else f"{a} {op} {b}"


def check(v):
    if not -I64 <= v < I64:
        raise Fail("overflow")
    return v


def tdiv(a, b):
    if b == 0:
        raise Fail("division by zero")
    q = abs(a) // abs(b)
    return check(q if (a < 0) == (b < 0) else -q)


def evaluate(node, env):
    if isinstance(node, ast.Expression):
        return evaluate(node.body, env)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return check(-evaluate(node.operand, env))
    if isinstance(node, ast.Call):
        a, b = (evaluate(x, env) for x in node.args)
        name = node.func.id
        if name == "cdiv":
            if b == 0:
                raise Fail("division by zero")
            return check(-((-a) // b))
        return min(a, b) if name == "min" else max(a, b)
    if isinstance(node, ast.BinOp):
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        if isinstance(node.op, ast.Add):
            return check(a + b)
        if isinstance(node.op, ast.Sub):
            return check(a - b)
        if isinstance(node.op, ast.Mult):
            return check(a * b)
        if isinstance(node.op, ast.Div):
            return tdiv(a, b)
        if isinstance(node.op, ast.Mod):
            q = tdiv(a, b)
            return check(a - b * q)
    raise ValueError(ast.dump(node))


kernels = []
for i in range(60):
    rank = rng.randrange(1, 4)
    grid = [expr(rng.randrange(0, 5)) for _ in range(rank)]
    kernels.append({
        "name": f"k{i}", "entry": f"k{i}", "cparams": {},
        "params": [{"name": s, "kind": "size", "dtype": "i32", "shape": []} for s in SIZES],
        "grid": grid, "warps": 1, "stages": 1, "threads": 32, "shared_bytes": 0,
        "contracts": [],
        "artifacts": [{"arch": "sm_80", "kind": "ptx", "file": "k.ptx", "ptx_version": "7.0",
                       "registers": None, "spills": None, "shared_bytes": 0}],
        "compute_capability": {"min": "8.0", "max": None},
    })
manifest = {"schema": "tessera-manifest/1", "source": "random.tess", "source_sha256": "0" * 64,
            "tessc_version": "0.1.0", "kernels": kernels}
path = os.path.join(outdir, "random.json")
with open(path, "w") as f:
    json.dump(manifest, f, indent=1)

launches = errors = mismatches = 0
for k in kernels:
    trees = [ast.parse(g, mode="eval") for g in k["grid"]]
    envs = [{s: rng.choice([0, 1, rng.randrange(2**31), rng.randrange(5000)]) for s in SIZES}
            for _ in range(40)]
    stdin = "".join(f"{e['M']} {e['N']} {e['K']}\n" for e in envs)
    out = subprocess.run([runtime_test, "grid", path, k["name"]], input=stdin,
                         capture_output=True, text=True).stdout.splitlines()
    for env, got in zip(envs, out):
        launches += 1
        try:
            want = []
            for d in range(3):
                v = evaluate(trees[d], env) if d < len(trees) else 1
                if not 0 <= v <= LIMITS[d]:
                    raise Fail("out of range")
                want.append(v)
            want_text = " ".join(map(str, want))
        except Fail:
            errors += 1
            want_text = "error"
        ok = got == want_text or (want_text == "error" and got.startswith("error: "))
        if not ok:
            mismatches += 1
            if mismatches <= 5:
                print(f"MISMATCH grid {k['grid']} sizes {env}: want {want_text}, got {got}")
    if len(out) != len(envs):
        mismatches += 1
        print(f"MISMATCH {k['name']}: {len(out)} answers for {len(envs)} launches")
print(f"{launches} launches, {errors} expected errors, {mismatches} mismatches")
