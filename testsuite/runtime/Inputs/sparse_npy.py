"""sparse_npy.py PATH SHAPE0: a .npy of f32 with shape (SHAPE0,) whose data
is a hole (truncate), so the file is huge but takes no disk space."""
import io
import os
import sys

import numpy as np

path, n = sys.argv[1], int(sys.argv[2])
header = io.BytesIO()
np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False, "shape": (n,)})
with open(path, "wb") as f:
    f.write(header.getvalue())
    f.truncate(len(header.getvalue()) + 4 * n)
