# Sourced by the device scripts (device_s42.sh, device_s43c.sh): the A/B of
# each variant's --tma-store=on build (NAME) against its =off one (NAME_off)
# in the package build_ab42.sh builds, $P (default devstage/ab42).
P=${P:-devstage/ab42}
mm() {   # SIZE VARIANT...: each variant's on and off builds
    size=$1; shift; set -- $(for v in "$@"; do printf '%s_off=%s_off/matmul.manifest.json:matmul %s=%s/matmul.manifest.json:matmul ' $v $v $v $v; done)
    timeout 60 python3 bench/ab_matmul.py --pkg $P --size $size "$@" 2>&1 | tail -5
}
attn() {   # SHAPE KERNEL VARIANT...
    shape=$1 k=$2; shift 2; causal=; [ "$k" = mha_fwd_causal ] && causal=--causal
    set -- $(for v in "$@"; do printf '%s_off=%s_off/attention.manifest.json:%s %s=%s/attention.manifest.json:%s ' $v $v $k $v $v $k; done)
    timeout 60 python3 bench/ab_pair.py --pkg $P --shape $shape $causal "$@" 2>&1 | tail -5
}
