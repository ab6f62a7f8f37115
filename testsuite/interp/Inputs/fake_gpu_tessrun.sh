#!/bin/sh
# A stand-in for `tessrun -v --device gpu MANIFEST ...` on a machine with no
# GPU (harness-tessrun.test): it says it ran an sm_90a TMA entry, with
# $FAKE_SUFFIX after the tensor maps (", a producer warpgroup" or nothing),
# and runs the kernel on the interpreter with $REAL_TESSRUN.
shift 3
echo "tessrun: ran on device 0 with sm_90a cubin k.sm_90a.cubin, entry k_tma (TMA, 2 tensor maps$FAKE_SUFFIX)" >&2
exec "$REAL_TESSRUN" --device interp "$@"
