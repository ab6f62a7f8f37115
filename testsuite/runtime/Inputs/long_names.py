"""long_names.py OUT.tess: a kernel whose three arrays have 300-character
names and whose size has a 300-character name (used in the grid), so that
the names add up to well over 512 characters."""
import sys

a, b, c = ("a" * 300, "b" * 300, "c" * 300)
n = "N" + "n" * 299
with open(sys.argv[1], "w") as f:
    f.write(f"""kernel add<BLOCK = 64>({a}: f32[{n}], {b}: f32[{n}], {c}: out f32[{n}])
    grid (cdiv({n}, BLOCK))
    block {a}[BLOCK] (i) -> (i)
    block {b}[BLOCK] (i) -> (i)
    block {c}[BLOCK] (i) -> (i)
{{
    {c}[...] = {a}[...] + {b}[...];
}}
""")
