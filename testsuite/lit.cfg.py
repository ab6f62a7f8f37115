# lit configuration for Tessera's test suite.
#
# Substitutions: %tessc (the compiler under test), FileCheck and not (LLVM 22's),
# %python (Debian's python3, the one that sees python3-numpy).
import os
import lit.formats

config.name = "tessera"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tess", ".tir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

root = os.path.dirname(config.test_source_root)
build = os.environ.get("BUILD", "build")
if not os.path.isabs(build):
    build = os.path.join(root, build)
config.test_exec_root = os.path.join(build, "testsuite")

config.substitutions.append(("%tessc", os.path.join(build, "tessc")))
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%expect-exit", "sh " + os.path.join(config.test_source_root, "expect-exit.sh")))
config.substitutions.append(("%examples", os.path.join(root, "examples")))
# The runtime's tests (testsuite/runtime): %build holds libtessrt, tessrun and
# the test programs under tests/; %cuda is the CUDA toolkit (for the stub libcuda).
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
config.substitutions.append(("%build", build))
config.substitutions.append(("%tessrun", os.path.join(build, "tessrun")))
config.substitutions.append(("%cuda", cuda_home))
if os.path.exists(os.path.join(cuda_home, "lib64", "stubs", "libcuda.so")):
    config.available_features.add("cuda-stub")
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
except OSError:
    config.available_features.add("no-cuda-driver")
# The backend's tests (testsuite/codegen): %ptxas is the ptxas tessc finds
# ($PTXAS, then PATH, then the CUDA toolkit); tests that assemble need "ptxas".
import shutil
ptxas = os.environ.get("PTXAS") or shutil.which("ptxas") or os.path.join(cuda_home, "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
config.substitutions.append(("%ptxas", ptxas))
# Running a command as another user id with its own process limit (cli/ptxas-
# process-limit.test): root with setpriv, since root's own limit is not enforced.
if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("setpriv")
# Device nodes (mknod) for the tests of outputs that are not regular files.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
# Build integration (testsuite/build): the consumer examples need these.
for tool in ("cmake", "pkg-config", "g++"):
    if shutil.which(tool):
        config.available_features.add(tool)
config.substitutions.append(("FileCheck", os.environ.get("FILECHECK", "FileCheck-22")))
config.substitutions.append(("not ", "not-22 "))
config.environment["LC_ALL"] = "C"
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# make SANITIZE=1 test (docs/reliability.md): the libraries under test carry
# ASan and UBSan. A program a test links against them adds %cflags-sanitize;
# a test that cannot (a consumer built by pkg-config or CMake, which must load
# the ASan runtime first) says UNSUPPORTED: sanitize.
if os.environ.get("SANITIZE") == "1":
    config.available_features.add("sanitize")
config.substitutions.append(("%cflags-sanitize",
                             "-fsanitize=address,undefined" if os.environ.get("SANITIZE") == "1" else ""))
