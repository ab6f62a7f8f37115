import sys
import numpy as np
t = sys.argv[1]
# max(-0, +0) = +0, min(+0, -0) = -0, NaN propagates; saturation, NaN -> 0.
want_bits = np.array([0.0, -0.0, np.nan, np.nan]).view(np.uint64)
want_int = np.array([2147483647, 0, 127, -2147483648], np.int32)
for level in "02":
    for name in ("c", "r"):
        got = np.load("%s/%s%s.npy" % (t, name, level))
        nan = np.isnan(got)
        assert (nan == [False, False, True, True]).all(), (name, level, got)
        assert (got.view(np.uint64)[:2] == want_bits[:2]).all(), (name, level, got)
    for name in ("ci", "ri"):
        got = np.load("%s/%s%s.npy" % (t, name, level))
        assert (got == want_int).all(), (name, level, got)
print("agree")
