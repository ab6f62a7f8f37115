# Writes an attention-shaped loop that also carries 250 scalars: too many
# values for the overlap pass's value map (loop_edit.h), which must leave
# the loop as written instead of stopping (review of session 31).
import sys
n = 250
vars_ = "\n".join("    var a%d = 0.0;" % i for i in range(n))
upd = "\n".join("        a%d = c;" % i for i in range(n))
sys.stdout.write("""kernel k3(q: f16[64, 32], k: f16[T, 32], v: f16[T, 32], o: out f32[64, 32], c: f32)
    grid (1)
    block q[64, 32] (i) -> (0, 0)
    block k[T, 32] (i) -> (0, 0)
    block v[T, 32] (i) -> (0, 0)
    block o[64, 32] (i) -> (0, 0)
    warps 4
{
    let qt = q[...];
    var acc = zeros([64, 32], f32);
%s
    for j in 0 .. T / 32 {
        let s = dot(qt, k[ds(j * 32, 32), :].T);
        acc = acc + dot(s as f16, v[ds(j * 32, 32), :]);
%s
    }
    o[...] = acc + a0 + a249;
}
""" % (vars_, upd))
