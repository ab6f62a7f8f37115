"""gen_large.py KIND N: a large generated input, for the tests that would time out
if the passes or the checker were quadratic again (large-*.test).

  tir-identity N   a .tir chain of N adds of 0 (fold replaces each by its operand)
  tir-duplicate N  a .tir chain where every add is written twice (CSE merges them)
  tess-consts N    a .tess file of N consts, each the one before plus 1
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
out = []
if kind.startswith("tir-"):
    out.append('module "m.tess"')
    out.append('kernel k(%o: array ref<i32[] @global out>, %s: scalar i32, %z: scalar i32) grid (1) {')
    out.append('  %c = const 0 : i32')
    out.append('  %a0 = add %s, %z : i32')
    for i in range(1, n):
        if kind == "tir-identity":
            out.append('  %%a%d = add %%a%d, %%c : i32' % (i, i - 1))
        else:
            out.append('  %%b%d = add %%a%d, %%s : i32' % (i, i - 1))
            out.append('  %%a%d = add %%a%d, %%s : i32' % (i, i - 1))
            out.append('  %%u%d = add %%b%d, %%a%d : i32' % (i, i, i))
            out.append('  store %%o, %%u%d' % i)
    out.append('  store %%o, %%a%d' % (n - 1))
    out.append('}')
else:
    for i in range(n):
        out.append('const C%d = %s;' % (i, 'C%d + 1' % (i - 1) if i else '1'))
    out.append('kernel k(o: out i32[1])\n{\n    o[0] = C%d;\n}' % (n - 1))
print("\n".join(out))
