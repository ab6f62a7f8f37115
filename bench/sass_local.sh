#!/bin/sh
# bench/sass_local.sh CUBIN: the SASS (to stdout) of a ptxas 13 sm_90/sm_90a cubin on
# the build machine, which has no CUDA disassembler (the device has cuobjdump).
#
# Debian 12's non-free nvidia-cuda-toolkit (CUDA 11.8) has nvdisasm; this
# downloads that one package once (apt-get download, dpkg -x: nothing is
# installed, the non-free source is added for the download and removed) into
# $NVDISASM_DIR (default /tmp/tessera-nvdisasm). nvdisasm 11.8 reads a CUDA 13
# cubin once its ELF header is in the old form: ABI version 7 and e_flags
# 0x005a055a (sm_90, 64-bit addresses) instead of 8 and 0x6005a04 (and so for
# other SMs); the instructions are the same. The input is only read: a copy is
# rewritten. A developer's tool, not a dependency of the build.
# Exit status: 0, 1 (a failure, with a message), 2 (bad usage).
set -eu
[ $# -eq 1 ] || { echo "usage: sh bench/sass_local.sh CUBIN" >&2; exit 2; }
DIR=${NVDISASM_DIR:-/tmp/tessera-nvdisasm}
NV=$DIR/x/usr/bin/nvdisasm
SRC=/etc/apt/sources.list.d/tessera-nonfree-tmp.sources
TMP=
cleanup() {
    [ -z "$TMP" ] || rm -f "$TMP"
    if [ -f "$SRC" ]; then
        rm -f "$SRC"
        apt-get update -qq >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if [ ! -x "$NV" ]; then
    [ "$(id -u)" = 0 ] || { echo "sass_local.sh: fetching nvdisasm needs root (apt-get)" >&2; exit 1; }
    mkdir -p "$DIR"
    rm -f "$DIR"/nvidia-cuda-toolkit_*.deb
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$SRC"
    if ! { apt-get update -qq >/dev/null 2>&1 &&
           (cd "$DIR" && apt-get download -qq nvidia-cuda-toolkit >/dev/null 2>&1 &&
            dpkg -x nvidia-cuda-toolkit_*.deb x) && [ -x "$NV" ]; }; then
        echo "sass_local.sh: could not fetch nvdisasm (Debian non-free nvidia-cuda-toolkit) into $DIR" >&2
        exit 1
    fi
    rm -f "$SRC"
    apt-get update -qq >/dev/null 2>&1 || true
fi
TMP=$(mktemp)
python3 - "$1" "$TMP" <<'PY'
import struct, sys
try:
    d = bytearray(open(sys.argv[1], "rb").read())
except OSError as e:
    sys.exit("sass_local.sh: %s: %s" % (sys.argv[1], e.strerror))
if len(d) < 0x34 or d[:4] != b"\x7fELF" or d[4] != 2:
    sys.exit("sass_local.sh: %s is not a 64-bit ELF cubin" % sys.argv[1])
if d[8] == 8:   # CUDA 13's form: the SM in bits 8-15 of e_flags; the old one has it in 0-7 and 16-23
    sm = (struct.unpack_from("<I", d, 0x30)[0] >> 8) & 0xff
    d[8] = 7
    struct.pack_into("<I", d, 0x30, sm | 0x500 | sm << 16)
open(sys.argv[2], "wb").write(d)
PY
"$NV" -c "$TMP" || { echo "sass_local.sh: nvdisasm could not read $1" >&2; exit 1; }
