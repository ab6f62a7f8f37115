"""tessrt.py: a small ctypes binding of libtessrt (runtime/include/tessrt.h).

    rt = TessRT("build-benchpkg/libtessrt.so")
    m = rt.load("artifacts/relu_b4096_w8/relu2x1.manifest.json")
    k = m.kernel("relu2x1")              # None: the only kernel
    print(k.prepare())                    # "sm_90 cubin relu2x1.relu2x1.sm_90.cubin"
    call = k.bind(x.data_ptr(), o.data_ptr(), N)   # arguments in manifest order
    call(stream)                          # tessrt_launch on a CUstream (int or None)

bind() checks the arguments once (tessrt_kernel_check: kinds, dtypes, sizes,
contracts, grid) and keeps the packed tessrt_arg array, so a call costs one
ctypes call into tessrt_launch. Array arguments are device addresses (ints,
e.g. torch's data_ptr()); scalar arguments are Python numbers converted to the
parameter's dtype; size arguments are ints. Every failure raises TessError
with tessrt_last_error()'s message.
"""
import ctypes
import os
import struct

# tessrt_status, tessrt_dtype, tessrt_param_kind, tessrt_arg_kind (tessrt.h)
OK = 0
DTYPES = ["bool", "i8", "i16", "i32", "i64", "u8", "u32", "f16", "bf16", "f32", "f64", "u16", "u64", "f8e4m3", "f8e5m2"]
PARAM_ARRAY, PARAM_SCALAR, PARAM_SIZE = 0, 1, 2
ARG_ARRAY, ARG_SCALAR, ARG_SIZE = 0, 1, 2
MAX_RANK = 8


class TessError(RuntimeError):
    pass


class _Value(ctypes.Union):
    _fields_ = [("pointer", ctypes.c_uint64), ("size", ctypes.c_int64), ("b", ctypes.c_bool),
                ("i8", ctypes.c_int8), ("i16", ctypes.c_int16), ("i32", ctypes.c_int32),
                ("i64", ctypes.c_int64), ("u8", ctypes.c_uint8), ("u16", ctypes.c_uint16), ("u32", ctypes.c_uint32), ("u64", ctypes.c_uint64),
                ("bits16", ctypes.c_uint16), ("f32", ctypes.c_float), ("f64", ctypes.c_double)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("dtype", ctypes.c_int), ("value", _Value)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int), ("dtype", ctypes.c_int),
                ("access", ctypes.c_int), ("rank", ctypes.c_int),
                ("dims", ctypes.c_int64 * MAX_RANK), ("dim_names", ctypes.c_char_p * MAX_RANK)]


assert ctypes.sizeof(Arg) == 16, ctypes.sizeof(Arg)


def _f16_bits(v):
    return struct.unpack("<H", struct.pack("<e", float(v)))[0]


def _bf16_bits(v):
    u = struct.unpack("<I", struct.pack("<f", float(v)))[0]
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF   # round to nearest even


class TessRT:
    def __init__(self, path):
        self.lib = lib = ctypes.CDLL(os.path.abspath(path))
        vp, cp, ip = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
        sig = {
            "tessrt_last_error": (cp, []),
            "tessrt_error_string": (cp, [ip]),
            "tessrt_manifest_load": (ip, [cp, ctypes.POINTER(vp)]),
            "tessrt_manifest_free": (None, [vp]),
            "tessrt_manifest_num_kernels": (ip, [vp]),
            "tessrt_manifest_kernel_at": (ip, [vp, ip, ctypes.POINTER(vp)]),
            "tessrt_kernel_get": (ip, [vp, cp, ctypes.POINTER(vp)]),
            "tessrt_kernel_name": (cp, [vp]),
            "tessrt_kernel_threads": (ip, [vp]),
            "tessrt_kernel_num_params": (ip, [vp]),
            "tessrt_kernel_param": (ip, [vp, ip, ctypes.POINTER(ParamInfo)]),
            "tessrt_kernel_check": (ip, [vp, ctypes.POINTER(Arg), ip, ctypes.POINTER(ctypes.c_uint32)]),
            "tessrt_kernel_prepare": (ip, [vp, ip, cp, ctypes.c_size_t]),
            "tessrt_launch": (ip, [vp, ip, ctypes.POINTER(Arg), ip, vp]),
            "tessrt_device_synchronize": (ip, [ip]),
        }
        for name, (res, args) in sig.items():
            f = getattr(lib, name)
            f.restype = res
            f.argtypes = args

    def check(self, status, what):
        if status != OK:
            msg = self.lib.tessrt_last_error() or b""
            kind = self.lib.tessrt_error_string(status) or b"?"
            raise TessError("%s: %s: %s" % (what, kind.decode(), msg.decode(errors="replace")))

    def load(self, path):
        h = ctypes.c_void_p()
        self.check(self.lib.tessrt_manifest_load(os.fsencode(path), ctypes.byref(h)), "load %s" % path)
        return Manifest(self, h, path)

    def synchronize(self, device=0):
        self.check(self.lib.tessrt_device_synchronize(device), "synchronize")


class Manifest:
    def __init__(self, rt, handle, path):
        self.rt, self.handle, self.path = rt, handle, path

    def kernel(self, name=None):
        h = ctypes.c_void_p()
        if name is None:
            n = self.rt.lib.tessrt_manifest_num_kernels(self.handle)
            if n != 1:
                raise TessError("%s has %d kernels: name one" % (self.path, n))
            self.rt.check(self.rt.lib.tessrt_manifest_kernel_at(self.handle, 0, ctypes.byref(h)), "kernel 0")
        else:
            self.rt.check(self.rt.lib.tessrt_kernel_get(self.handle, name.encode(), ctypes.byref(h)),
                          "kernel %s" % name)
        return Kernel(self.rt, h, self)

    def free(self):
        if self.handle:
            self.rt.lib.tessrt_manifest_free(self.handle)
            self.handle = None


class Kernel:
    def __init__(self, rt, handle, manifest):
        self.rt, self.handle, self.manifest = rt, handle, manifest
        lib = rt.lib
        self.name = lib.tessrt_kernel_name(handle).decode()
        self.threads = lib.tessrt_kernel_threads(handle)
        self.params = []
        for i in range(lib.tessrt_kernel_num_params(handle)):
            info = ParamInfo()
            rt.check(lib.tessrt_kernel_param(handle, i, ctypes.byref(info)), "param %d" % i)
            self.params.append((info.name.decode(), info.kind, info.dtype))

    def prepare(self, device=0):
        buf = ctypes.create_string_buffer(512)
        self.rt.check(self.rt.lib.tessrt_kernel_prepare(self.handle, device, buf, len(buf)),
                      "prepare %s" % self.name)
        return buf.value.decode()

    def pack(self, *values):
        if len(values) != len(self.params):
            raise TessError("%s takes %d arguments (%s), got %d" % (
                self.name, len(self.params), ", ".join(p[0] for p in self.params), len(values)))
        args = (Arg * len(values))()
        for a, (name, kind, dtype), v in zip(args, self.params, values):
            if kind == PARAM_ARRAY:
                a.kind, a.dtype, a.value.pointer = ARG_ARRAY, DTYPES.index("u8"), int(v)
            elif kind == PARAM_SIZE:
                a.kind, a.dtype, a.value.size = ARG_SIZE, DTYPES.index("i32"), int(v)
            else:
                a.kind, a.dtype = ARG_SCALAR, dtype
                d = DTYPES[dtype]
                if d == "f16":
                    a.value.bits16 = _f16_bits(v)
                elif d == "bf16":
                    a.value.bits16 = _bf16_bits(v)
                elif d in ("f32", "f64", "bool"):
                    setattr(a.value, "b" if d == "bool" else d, v)
                else:
                    setattr(a.value, d, int(v))
        return args

    def grid(self, *values):
        args = self.pack(*values)
        g = (ctypes.c_uint32 * 3)()
        self.rt.check(self.rt.lib.tessrt_kernel_check(self.handle, args, len(args), g), "check %s" % self.name)
        return tuple(g)

    def bind(self, *values, device=0):
        """A callable launch(stream=None) with the arguments packed and checked once."""
        args = self.pack(*values)
        g = (ctypes.c_uint32 * 3)()
        self.rt.check(self.rt.lib.tessrt_kernel_check(self.handle, args, len(args), g), "check %s" % self.name)
        launch, handle, n, check = self.rt.lib.tessrt_launch, self.handle, len(args), self.rt.check
        name = self.name

        def call(stream=None):
            s = launch(handle, device, args, n, stream)
            if s:
                check(s, "launch %s" % name)
        call.grid = tuple(g)
        call.args = args            # keep the array alive
        return call
