# Tessera: tessc (the compiler), libtessrt (the runtime) and their tests.
#
#   make          build build/tessc
#   make run      compile every kernel in examples/ (outputs under build/examples/)
#   make test     install what is missing, build, run the test suite
#   make test-gpu the GPU suite (prints "skipped: no CUDA device" without one)
#   make gpu-artifacts  compile the GPU suite's kernels for testsuite/gpu/run.sh
#
# V=1 shows the commands. BUILD=dir builds elsewhere (helpers use their own).
# STATIC=1 links LLVM statically (only the components tessc uses) into one
# stripped tessc that runs without libLLVM, for a machine with no LLVM (the GPU
# host): `make STATIC=1 BUILD=build-static`. It needs libzstd-dev (libzstd.a),
# which `make deps STATIC=1` installs. libcjson stays dynamic (Debian ships no
# libcjson.a): $(BUILD)/libcjson.so.1 is copied beside tessc, and tessc,
# tessrun and libtessrt.so find it there through an $$ORIGIN rpath.

# SANITIZE=1 builds with ASan, UBSan and LeakSanitizer, in build-asan/ unless
# BUILD says otherwise: `make SANITIZE=1 test`. `make fuzz FUZZ_SECONDS=N`
# runs the fuzz targets (docs/reliability.md).
ifeq ($(SANITIZE),1)
BUILD ?= build-asan
endif
BUILD ?= build
CC ?= gcc
LLVM_CONFIG ?= llvm-config-22
LIT ?= lit-22
FILECHECK ?= FileCheck-22
FLEX ?= flex
BISON ?= bison

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARN := -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -Wno-unused-parameter
OWN_WARN := $(WARN) -Werror
GEN_WARN := -std=c11 -w
OPT ?= -O2 -g
CPPFLAGS := -D_POSIX_C_SOURCE=200809L
ifeq ($(SANITIZE),1)
OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN := -fsanitize=address,undefined
endif

# ---- include walls (docs/codegen.md, "Folders") ------------------------------
# compiler/ is one folder per part of the pipeline. A folder's files are
# compiled with -I for the folders it may use and no others, so including a
# header from across a wall is a build error:
#   support/  arena, diagnostics, timing, base types      (uses nothing)
#   ir/       tile IR, dtypes, numerics, the tile passes  (support)
#   front/    AST, sema, AST -> tile IR, the front end    (support, ir, the parser)
#   interp/   the interpreter                             (support, ir, runtime/expr.h)
#   gpu/      layouts, shared memory, barriers, LLVM lowering, PTX, ptxas (support, ir)
#   driver/   CLI, outputs, manifest, golden, embed       (everything)
# LLVM-C is seen only by gpu/'s LLVM files; cJSON only by driver/manifest.c;
# cuda.h only by runtime/. Every compiler source is also checked with the
# preprocessor (-M lists every header it reaches, system ones too): reaching
# a header across its wall fails the build. wall_of gives what a source may
# not reach, as an extended regex over those paths.
INC_support := -Icompiler/support
INC_ir := $(INC_support) -Icompiler/ir
INC_front := $(INC_ir) -Icompiler/front -I$(BUILD)/gen
INC_interp := $(INC_ir) -Icompiler/interp -Iruntime
INC_gpu := $(INC_ir) -Icompiler/gpu
INC_driver := $(INC_front) -Icompiler/interp -Icompiler/gpu -Icompiler/driver -Iruntime
# compiler/FOLDER/x.c -> FOLDER
folder_of = $(word 2,$(subst /, ,$(1)))
wall_of = $(if $(filter $(BACKEND_LLVM_SRCS),$(1)),cuda\.h|cjson|/driver/,$\
	$(if $(filter compiler/driver/manifest.c,$(1)),llvm|cuda\.h,$\
	$(if $(filter driver,$(call folder_of,$(1))),llvm|cuda\.h|cjson,$\
	$(if $(filter gpu,$(call folder_of,$(1))),llvm|cuda\.h|cjson|/driver/,$\
	llvm|cuda\.h|cjson|/(gpu|driver)/))))

# The layout code: the only files that see layout_internal.h, the
# representation of layouts (Layout, LayoutMap). Every other file asks the
# layout interface of codegen.h; one whose dependencies (-MMD) name that
# header fails to build, so no lowering file reads a blocked-layout field.
LAYOUT_SRCS := compiler/gpu/layout.c compiler/gpu/linear_layout.c

# The backend files that see LLVM-C headers (nothing else may).
BACKEND_LLVM_SRCS := \
	compiler/gpu/llvm_kernel.c \
	compiler/gpu/llvm_memory.c \
	compiler/gpu/llvm_math.c \
	compiler/gpu/llvm_convert.c \
	compiler/gpu/llvm_reduce.c \
	compiler/gpu/llvm_debug.c \
	compiler/gpu/llvm_dot.c \
	compiler/gpu/llvm_tma.c \
	compiler/gpu/emit.c
LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs)
# The components the backend calls (llvm-config adds what they depend on).
LLVM_STATIC_COMPONENTS := nvptx passes linker bitreader ipo instcombine scalaropts
ifeq ($(STATIC),1)
# libstdc++, zstd and zlib go in statically too; z3 and libxml2 (also in
# --system-libs) are referenced by nothing tessc pulls in, so they are left out.
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags) $(shell $(LLVM_CONFIG) --link-static --libs $(LLVM_STATIC_COMPONENTS)) \
	-static-libgcc -Wl,-Bstatic -lstdc++ -lzstd -lz -Wl,-Bdynamic -lrt -ldl -lpthread
STATIC_LDFLAGS := -s -Wl,--gc-sections -Wl,-rpath,'$$ORIGIN'
STATIC_EXTRA := $(BUILD)/libcjson.so.1
# Over this a stripped static tessc is a build error (the GPU host's copy limit).
STATIC_MAX_BYTES := 62914560
endif

# The compiler's own sources, one phase a file (see compiler/driver/main.c).
COMPILER_SRCS := \
	compiler/driver/main.c \
	compiler/support/arena.c \
	compiler/support/diag.c \
	compiler/support/timing.c \
	compiler/ir/dtype.c \
	compiler/ir/numeric.c \
	compiler/front/ast_print.c \
	compiler/front/sema.c \
	compiler/front/lower.c \
	compiler/front/front.c \
	compiler/ir/ir.c \
	compiler/ir/ir_print.c \
	compiler/ir/ir_parse.c \
	compiler/ir/ir_verify.c \
	compiler/ir/passes.c \
	compiler/ir/passes/fold.c \
	compiler/ir/passes/cse.c \
	compiler/ir/passes/dce.c \
	compiler/ir/passes/prefetch.c \
	compiler/ir/passes/pipeline.c \
	compiler/ir/passes/overlap.c \
	compiler/ir/passes/persist.c \
	compiler/ir/passes/handoff.c \
	compiler/ir/passes/loop_edit.c \
	compiler/interp/interp.c \
	compiler/driver/run.c \
	compiler/gpu/layout.c \
	compiler/gpu/linear_layout.c \
	compiler/gpu/convert.c \
	compiler/gpu/shared_alloc.c \
	compiler/gpu/barrier.c \
	compiler/gpu/tma.c \
	compiler/gpu/plan_print.c \
	compiler/gpu/target.c \
	compiler/gpu/ptxas.c \
	compiler/driver/embed.c \
	compiler/driver/golden.c \
	compiler/driver/pipeline.c \
	$(BACKEND_LLVM_SRCS)

GEN_SRCS := $(BUILD)/gen/parser.c $(BUILD)/gen/lexer.c

COMPILER_OBJS := $(COMPILER_SRCS:%.c=$(BUILD)/obj/%.o)
GEN_OBJS := $(GEN_SRCS:$(BUILD)/gen/%.c=$(BUILD)/obj/gen/%.o)

.PHONY: all run test test-gpu gpu-artifacts deps clean runtime install
all: $(BUILD)/tessc runtime

# `tessc run` reads and writes .npy files through the runtime's npy.c, and
# the interpreter evaluates grids with the runtime's expr_eval.c.
$(BUILD)/tessc: $(COMPILER_OBJS) $(GEN_OBJS) $(BUILD)/obj/runtime/npy.o $(BUILD)/obj/runtime/expr_eval.o \
		$(BUILD)/obj/compiler/driver/manifest.o $(BUILD)/obj/compiler/driver/sha256.o
	@echo "  LINK    $@"
	$(Q)$(CC) $(OPT) $(LDSAN) $(STATIC_LDFLAGS) -o $@ $^ $(LLVM_LIBS) -lcjson -lm
ifeq ($(STATIC),1)
	$(Q)if ldd $@ | grep -q libLLVM; then echo "$@ still needs libLLVM" >&2; rm -f $@; exit 1; fi
	$(Q)size=$$(stat -c %s $@); if [ $$size -gt $(STATIC_MAX_BYTES) ]; then \
		echo "$@ is $$size bytes, over $(STATIC_MAX_BYTES)" >&2; rm -f $@; exit 1; fi; \
		echo "  STATIC  $@: $$size bytes, no libLLVM"
$(BUILD)/tessc: | $(STATIC_EXTRA) static-deps

# libcjson.so.1 beside the binaries (their rpath is $$ORIGIN).
$(BUILD)/libcjson.so.1:
	@mkdir -p $(dir $@)
	$(Q)src=$$($(CC) -print-file-name=libcjson.so.1); \
		if [ "$$src" = libcjson.so.1 ]; then echo "libcjson.so.1 not found (libcjson1)" >&2; exit 1; fi; \
		cp -L "$$src" $@

# Fails early, with the package to install, when libzstd.a is missing.
static-deps:
	$(Q)test -f "$$($(CC) -print-file-name=libzstd.a)" || \
		{ echo "STATIC=1 needs libzstd.a: run 'make deps STATIC=1' (or apt-get install libzstd-dev)" >&2; exit 1; }
.PHONY: static-deps
endif
$(BACKEND_LLVM_SRCS:%.c=$(BUILD)/obj/%.o): CPPFLAGS += $(LLVM_CFLAGS)

# Header dependencies come from the compiler (-MMD): $(BUILD)/obj/**/*.d.
# Each file is first preprocessed alone against its wall (wall_of).
$(BUILD)/obj/compiler/%.o: compiler/%.c | $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)bad=$$($(CC) $(CPPFLAGS) $(INC_$(call folder_of,$<)) -M $< | tr ' \\' '\n\n' | tail -n +3 | grep -E '$(call wall_of,$<)'); \
		if [ -n "$$bad" ]; then echo "$<: across its wall (Makefile, wall_of):" $$bad >&2; exit 1; fi; \
	$(CC) $(CPPFLAGS) $(INC_$(call folder_of,$<)) -MMD -MP $(OWN_WARN) $(OPT) -c -o $@ $<
	$(Q)$(if $(filter $<,$(LAYOUT_SRCS)),,if grep -q 'layout_internal\.h' $(@:.o=.d); then \
		echo "$<: only the layout code ($(LAYOUT_SRCS)) may include layout_internal.h" >&2; rm -f $@; exit 1; fi)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(INC_front) -Igrammar -MMD -MP $(GEN_WARN) $(OPT) -c -o $@ $<

# ... and of the fuzz build's objects ($(BUILD)/fuzz/obj, below): without
# them a header change (a struct's layout) left its old objects linked in.
-include $(shell find $(BUILD)/obj $(BUILD)/obj-pic $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)

$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h: grammar/parser.y
	@mkdir -p $(BUILD)/gen
	@echo "  BISON   $<"
	$(Q)$(BISON) -Wall -Werror --defines=$(BUILD)/gen/parser.h -o $(BUILD)/gen/parser.c $<

$(BUILD)/gen/lexer.c $(BUILD)/gen/lexer.h: grammar/lexer.l
	@mkdir -p $(BUILD)/gen
	@echo "  FLEX    $<"
	$(Q)$(FLEX) --header-file=$(BUILD)/gen/lexer.h -o $(BUILD)/gen/lexer.c $<

$(BUILD)/obj/gen/parser.o: $(BUILD)/gen/lexer.h

# ---- runtime: libtessrt, tessrun, the manifest writer -----------------------
# The runtime uses no compiler code. CUDA comes in through cuda.h only: the
# driver (libcuda.so.1) is dlopen'ed at run time, so nothing links -lcuda.
CUDA_HOME ?= /usr/local/cuda
RUNTIME_SRCS := \
	runtime/tessrt.c \
	runtime/manifest_load.c \
	runtime/expr.c \
	runtime/expr_eval.c \
	runtime/driver.c \
	runtime/device.c
# Beside the library: .npy files (tessrun, tests, later the interpreter) and tessrun.
RUNTIME_TOOL_SRCS := runtime/npy.c runtime/tessrun.c
RUNTIME_HEADERS := runtime/include/tessrt.h runtime/internal.h runtime/expr.h runtime/npy.h runtime/interp_device.h
RUNTIME_CFLAGS := -D_POSIX_C_SOURCE=200809L -I$(CUDA_HOME)/include -Iruntime/include -Iruntime -fPIC
RUNTIME_LIBS := -lcjson -ldl -lpthread
ifeq ($(STATIC),1)
# STATIC=1: the runtime's binaries find libcjson.so.1 beside themselves.
STATIC_RPATH := -Wl,-rpath,'$$ORIGIN' -Wl,-rpath,'$$ORIGIN/..'
endif
RUNTIME_OBJS := $(RUNTIME_SRCS:%.c=$(BUILD)/obj/%.o)
RUNTIME_TOOL_OBJS := $(RUNTIME_TOOL_SRCS:%.c=$(BUILD)/obj/%.o)

# The manifest writer: tessc links $(MANIFEST_OBJS) and -lcjson once emission
# lands; until then `all` compiles them so they stay checked.
MANIFEST_SRCS := compiler/driver/manifest.c compiler/driver/sha256.c
MANIFEST_OBJS := $(MANIFEST_SRCS:%.c=$(BUILD)/obj/%.o)

# Programs for testsuite/runtime (no GPU), testsuite/gpu and bench/ (GPU),
# and the layout unit tests (testsuite/layout, testsuite/codegen).
LAYOUT_TESTS := $(BUILD)/tests/linear_layout_test $(BUILD)/tests/layout_interface_test
RUNTIME_TESTS := $(BUILD)/tests/runtime_test $(BUILD)/tests/manifest_write_test \
	$(BUILD)/tests/npy_tool $(BUILD)/tests/runtime_launch $(BUILD)/tests/runtime_errors $(BUILD)/bench/launch_overhead

runtime: $(BUILD)/libtessrt.a $(BUILD)/libtessrt.so $(BUILD)/tessrun $(MANIFEST_OBJS) $(RUNTIME_TESTS) \
	$(BUILD)/libtessinterp.a $(BUILD)/libtessinterp.so $(BUILD)/tests/runtime_interp $(LAYOUT_TESTS)

$(RUNTIME_OBJS) $(RUNTIME_TOOL_OBJS): $(BUILD)/obj/%.o: %.c $(RUNTIME_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(RUNTIME_CFLAGS) $(OWN_WARN) $(OPT) -c -o $@ $<

$(BUILD)/libtessrt.a: $(RUNTIME_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libtessrt.so: $(RUNTIME_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(OPT) $(LDSAN) $(STATIC_RPATH) -shared -Wl,-soname,libtessrt.so -o $@ $^ $(RUNTIME_LIBS)

$(BUILD)/tessrun: $(RUNTIME_TOOL_OBJS) $(BUILD)/libtessrt.a $(BUILD)/libtessinterp.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(OPT) $(LDSAN) $(STATIC_RPATH) -o $@ $^ $(RUNTIME_LIBS) -lm

# ---- libtessinterp: the tile-IR reader and the interpreter, as libtessrt's
# interpreter device (runtime/interp_device.c; docs/interpreter.md). No LLVM,
# no CUDA, no cJSON. tessrun links the .a; other programs get the .so through
# libtessrt's dlopen. The .so is built from -fPIC objects under obj-pic/.
INTERP_LIB_SRCS := compiler/interp/interp.c compiler/ir/ir.c compiler/ir/ir_parse.c compiler/ir/ir_verify.c \
	compiler/ir/ir_print.c compiler/support/arena.c compiler/support/diag.c compiler/ir/dtype.c compiler/ir/numeric.c \
	runtime/interp_device.c runtime/expr_eval.c
INTERP_LIB_HEADERS := compiler/support/base.h compiler/ir/ir.h compiler/ir/numeric.h compiler/interp/interp.h runtime/interp_device.h \
	runtime/expr.h runtime/include/tessrt.h runtime/include/tessrt_interp.h
INTERP_LIB_CFLAGS := -D_POSIX_C_SOURCE=200809L $(INC_interp) -Iruntime/include
INTERP_LIB_OBJS := $(INTERP_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
INTERP_PIC_OBJS := $(INTERP_LIB_SRCS:%.c=$(BUILD)/obj-pic/%.o)

$(BUILD)/obj/runtime/interp_device.o: runtime/interp_device.c $(INTERP_LIB_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(INTERP_LIB_CFLAGS) $(OWN_WARN) $(OPT) -c -o $@ $<

$(INTERP_PIC_OBJS): $(BUILD)/obj-pic/%.o: %.c $(INTERP_LIB_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (PIC)"
	$(Q)$(CC) $(INTERP_LIB_CFLAGS) -fPIC $(OWN_WARN) $(OPT) -c -o $@ $<

$(BUILD)/libtessinterp.a: $(INTERP_LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libtessinterp.so: $(INTERP_PIC_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(OPT) $(LDSAN) -shared -Wl,-soname,libtessinterp.so -Wl,--no-undefined -o $@ $^ -lm -lpthread

RUNTIME_TEST_CC = $(CC) $(RUNTIME_CFLAGS) $(OWN_WARN) $(OPT) $(LDSAN) $(STATIC_RPATH)
$(BUILD)/tests/runtime_test: testsuite/runtime/Inputs/runtime_test.c $(BUILD)/libtessrt.a $(RUNTIME_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) -o $@ $< $(BUILD)/libtessrt.a $(RUNTIME_LIBS)

$(BUILD)/tests/npy_tool: testsuite/runtime/Inputs/npy_tool.c $(BUILD)/obj/runtime/npy.o
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) -o $@ $< $(BUILD)/obj/runtime/npy.o

$(BUILD)/tests/manifest_write_test: testsuite/runtime/Inputs/manifest_write_test.c compiler/ir/dtype.c compiler/ir/ir.c compiler/support/arena.c $(MANIFEST_OBJS) $(BUILD)/libtessrt.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) $(INC_driver) -o $@ $< compiler/ir/dtype.c compiler/ir/ir.c compiler/support/arena.c $(MANIFEST_OBJS) $(BUILD)/libtessrt.a $(RUNTIME_LIBS) -lm

# The layout unit tests, no LLVM: linear_layout.c against the PTX ISA's
# fragment tables and layout.c's blocked layouts (testsuite/layout), and the
# layout interface by enumeration (testsuite/codegen/layout-interface.test).
LAYOUT_TEST_OBJS := $(addprefix $(BUILD)/obj/compiler/,gpu/linear_layout.o gpu/layout.o gpu/convert.o ir/ir.o ir/dtype.o \
	ir/numeric.o support/arena.o support/diag.o)
$(BUILD)/tests/linear_layout_test: testsuite/layout/Inputs/linear_layout_test.c $(LAYOUT_TEST_OBJS) \
		compiler/gpu/linear_layout.h compiler/gpu/layout_internal.h compiler/gpu/codegen.h
$(BUILD)/tests/layout_interface_test: testsuite/codegen/Inputs/layout_interface_test.c $(LAYOUT_TEST_OBJS) \
		compiler/gpu/layout_internal.h compiler/gpu/codegen.h
$(LAYOUT_TESTS):
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(INC_gpu) $(OWN_WARN) $(OPT) $(LDSAN) -o $@ $< $(LAYOUT_TEST_OBJS) -lm

# A user's program: libtessrt only; TESSRT_DEVICE=interp finds libtessinterp.so.
$(BUILD)/tests/runtime_interp: testsuite/runtime/Inputs/runtime_interp.c $(BUILD)/libtessrt.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) -o $@ $< $(BUILD)/libtessrt.a $(RUNTIME_LIBS)

$(BUILD)/tests/runtime_launch: testsuite/gpu/runtime_launch.c $(BUILD)/libtessrt.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) -o $@ $< $(BUILD)/libtessrt.a $(RUNTIME_LIBS)

# GPU-only errors (out of memory, corrupt artifacts, capability): testsuite/gpu/run.sh runs it.
$(BUILD)/tests/runtime_errors: testsuite/gpu/runtime_errors.c $(BUILD)/libtessrt.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) -o $@ $< $(BUILD)/libtessrt.a $(RUNTIME_LIBS)

# Links the driver directly (bare cuLaunchKernel); needs libcuda.so.1 to start.
$(BUILD)/bench/launch_overhead: bench/launch_overhead.c $(BUILD)/libtessrt.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(RUNTIME_TEST_CC) -o $@ $< $(BUILD)/libtessrt.a -L$(CUDA_HOME)/lib64/stubs -lcuda $(RUNTIME_LIBS)

# ---- examples --------------------------------------------------------------
EXAMPLES := $(wildcard examples/*.tess)
# Like `make test`, `make run` installs what is missing first (a fresh machine
# has no bison or LLVM): deps, then the build, in that order.
run: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/tessc
	@mkdir -p $(BUILD)/examples
	@set -e; for f in $(EXAMPLES); do \
		./$(BUILD)/tessc $$f --emit ir,ir-opt,ptx,cubin,manifest --arch sm_80,sm_90 -o $(BUILD)/examples; \
		echo "  tessc   $$f"; \
	done
	@echo "outputs are in $(BUILD)/examples/:"; ls $(BUILD)/examples | sed 's/^/  /'

# ---- bootstrap: the only install step ---------------------------------------
# Each needed tool or file, and the Debian 12 package that brings it.
DEPS_CHECK := \
	command -v $(LLVM_CONFIG) >/dev/null || missing="$$missing llvm-22-dev"; \
	command -v $(LIT) >/dev/null || missing="$$missing llvm-22-tools"; \
	command -v $(FILECHECK) >/dev/null || missing="$$missing llvm-22-tools"; \
	command -v $(FLEX) >/dev/null || missing="$$missing flex"; \
	command -v $(BISON) >/dev/null || missing="$$missing bison"; \
	test -f /usr/include/cjson/cJSON.h || missing="$$missing libcjson-dev"; \
	/usr/bin/python3 -c 'import numpy' 2>/dev/null || missing="$$missing python3-numpy"; \
	$(if $(filter 1,$(STATIC)),test -f "$$($(CC) -print-file-name=libzstd.a)" || missing="$$missing libzstd-dev";)

deps:
	@missing=""; $(DEPS_CHECK) \
	if [ -n "$$missing" ]; then \
		pkgs=$$(echo $$missing | tr ' ' '\n' | sort -u | tr '\n' ' '); \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$pkgs"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs >/dev/null || exit 1; \
		else \
			echo "missing packages; run:"; \
			echo "  sudo apt-get update && sudo apt-get install -y $$pkgs"; \
			exit 1; \
		fi; \
	fi

# ---- tests ---------------------------------------------------------------
test: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) LIT=$(LIT) SANITIZE=$(SANITIZE) sh testsuite/run-tests.sh

test-gpu: all
	$(Q)BUILD=$(BUILD) sh testsuite/run-gpu-tests.sh

# The GPU suite's kernels, compiled here for a GPU machine without LLVM (then:
# sh testsuite/gpu/run.sh --build $(BUILD) --artifacts $(BUILD)/gpu-artifacts,
# and on a 9.0 device --artifacts $(BUILD)/gpu-artifacts-sm90a too, and
# gpu-artifacts-sm90a-ws with a --case for each of its cases: the
# experimental warp specialization, as testsuite/run-gpu-tests.sh runs it;
# one case does not fit that way and is left out).
gpu-artifacts: $(BUILD)/tessc
	$(Q)sh testsuite/gpu/build-artifacts.sh --tessc $(BUILD)/tessc --out $(BUILD)/gpu-artifacts
	$(Q)sh testsuite/gpu/build-artifacts.sh --tessc $(BUILD)/tessc --arch sm_90a --out $(BUILD)/gpu-artifacts-sm90a
	$(Q)sh testsuite/gpu/build-artifacts.sh --tessc $(BUILD)/tessc --arch sm_90a --schedule producer-pingpong \
		--option --stationary=shared --out $(BUILD)/gpu-artifacts-sm90a-ws 2>/dev/null | tail -1

# ---- install (docs/build-integration.md) ------------------------------------
# make install PREFIX=/opt/tessera [DESTDIR=/stage]: the compiler, the
# runtime and its header, a pkg-config file, a CMake package and a man page.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_VERSION := $(shell sed -n 's/^\#define TESSC_VERSION "\(.*\)"/\1/p' compiler/support/base.h)
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
install: all
	@echo "  INSTALL $(INSTALL_ROOT)"
	$(Q)install -d $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/lib/pkgconfig $(INSTALL_ROOT)/include \
		$(INSTALL_ROOT)/lib/cmake/Tessera $(INSTALL_ROOT)/share/man/man1
	$(Q)install -m 755 $(BUILD)/tessc $(BUILD)/tessrun $(INSTALL_ROOT)/bin/
	$(Q)install -m 644 $(BUILD)/libtessrt.a $(BUILD)/libtessinterp.a $(INSTALL_ROOT)/lib/
	$(Q)install -m 755 $(BUILD)/libtessrt.so $(BUILD)/libtessinterp.so $(INSTALL_ROOT)/lib/
	$(Q)install -m 644 runtime/include/tessrt.h runtime/include/tessrt_interp.h $(INSTALL_ROOT)/include/
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(INSTALL_VERSION)|g' install/tessrt.pc.in \
		> $(INSTALL_ROOT)/lib/pkgconfig/tessrt.pc
	$(Q)for f in TesseraConfig.cmake TesseraConfigVersion.cmake; do \
		sed -e 's|@VERSION@|$(INSTALL_VERSION)|g' install/$$f > $(INSTALL_ROOT)/lib/cmake/Tessera/$$f || exit 1; \
	done
	$(Q)sed -e 's|@VERSION@|$(INSTALL_VERSION)|g' install/tessc.1 > $(INSTALL_ROOT)/share/man/man1/tessc.1

# ---- differential fuzzing (fuzz/difftest.py, docs/reliability.md) -----------
# make fuzz-diff [SECONDS=60] [DEVICE=interp|gpu] [JOBS=1] [SEED=...] [WITHOUT="a b"]
#   [GPU_RUNNER=tessc-run|tessrun] (tessrun: PTX only, no ptxas needed):
# random kernels from fuzz/diffgen.py, -O0 against -O2 on the interpreter (or
# the GPU against the interpreter), findings kept in $(BUILD)/fuzz-diff/.
SECONDS ?= 60
DEVICE ?= interp
JOBS ?= 1
SEED ?= $(shell date +%s)
WITHOUT ?=
GPU_RUNNER ?= tessc-run
.PHONY: fuzz-diff
# No prerequisite on tessc: on a GPU machine without LLVM the carried
# build-static/ is used as it is, never rebuilt.
fuzz-diff:
	$(Q)test -x $(BUILD)/tessc || { echo "no $(BUILD)/tessc: build it first (make, or make STATIC=1 BUILD=build-static)" >&2; exit 1; }
	$(Q)mkdir -p $(BUILD)/fuzz-diff
	/usr/bin/python3 fuzz/difftest.py --tessc $(BUILD)/tessc --device $(DEVICE) --seconds $(SECONDS) \
		--jobs $(JOBS) --seed $(SEED) --keep $(BUILD)/fuzz-diff --gpu-runner $(GPU_RUNNER) \
		$(foreach w,$(WITHOUT),--without $(w))

# ---- fuzzing (docs/reliability.md) ------------------------------------------
# make fuzz [FUZZ_SECONDS=60]: builds the libFuzzer targets of fuzz/ with
# clang, ASan and UBSan into $(BUILD)/fuzz and runs each for FUZZ_SECONDS.
# Seeds: fuzz/corpus/ and every example and test kernel; new inputs are kept
# in $(BUILD)/fuzz/corpus/TARGET, findings in $(BUILD)/fuzz/TARGET-crash-*,
# each run's log in $(BUILD)/fuzz/TARGET.log. fuzz-deps installs clang's
# libFuzzer (Debian's libclang-rt-N-dev) when it is missing.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
# -timeout: the largest seeds (testsuite/interp/Inputs/wgmma.tess, ten tensor-core
# kernels) take about 3 s of LLVM codegen in a plain build and past 10 s under
# ASan on a loaded machine: a slow input is reported only past 30 s.
FUZZ_RUN_FLAGS := -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_FRONTEND_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter-out compiler/driver/main.c,$(COMPILER_SRCS)) \
	runtime/npy.c runtime/expr_eval.c $(MANIFEST_SRCS)) $(FUZZ_DIR)/obj/gen/parser.o $(FUZZ_DIR)/obj/gen/lexer.o
FUZZ_RUNTIME_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(RUNTIME_SRCS) runtime/npy.c)

.PHONY: fuzz fuzz-build fuzz-deps
fuzz: fuzz-build
	$(Q)for t in frontend runtime; do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t; \
		echo "  FUZZ    $$t for $(FUZZ_SECONDS) s (log: $(FUZZ_DIR)/$$t.log)"; \
		max=$$(test $$t = frontend && echo 16384 || echo 8192); \
		$(FUZZ_DIR)/fuzz_$$t $(FUZZ_RUN_FLAGS) -max_len=$$max -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=$(FUZZ_DIR)/$$t- $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/seeds/$$t \
			> $(FUZZ_DIR)/$$t.log 2>&1 || { tail -60 $(FUZZ_DIR)/$$t.log; exit 1; }; \
		grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done ' $(FUZZ_DIR)/$$t.log; \
	done

fuzz-build: fuzz-deps $(FUZZ_DIR)/fuzz_frontend $(FUZZ_DIR)/fuzz_runtime $(FUZZ_DIR)/seeds/frontend $(FUZZ_DIR)/seeds/runtime

fuzz-deps:
	$(Q)mkdir -p $(FUZZ_DIR) && echo 'int LLVMFuzzerTestOneInput(void) { return 0; }' > $(FUZZ_DIR)/probe.c; \
	if ! $(FUZZ_CC) -fsanitize=fuzzer -o $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c 2>/dev/null; then \
		v=$$($(FUZZ_CC) -dumpversion 2>/dev/null | cut -d. -f1); \
		pkgs="clang libclang-rt-$${v:-14}-dev"; \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing: $$pkgs"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs >/dev/null || exit 1; \
		else \
			echo "make fuzz needs clang's libFuzzer; run:"; echo "  sudo apt-get install -y $$pkgs"; exit 1; \
		fi; \
	fi; rm -f $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c

$(FUZZ_DIR)/fuzz_frontend: fuzz/fuzz_frontend.c $(FUZZ_FRONTEND_OBJS)
	@echo "  LINK    $@"
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(INC_driver) $(OWN_WARN) $(FUZZ_CFLAGS) $(FUZZ_LDFLAGS) -o $@ $< $(FUZZ_FRONTEND_OBJS) \
		$(LLVM_LIBS) -lcjson -lm

$(FUZZ_DIR)/fuzz_runtime: fuzz/fuzz_runtime.c $(FUZZ_RUNTIME_OBJS) $(RUNTIME_HEADERS)
	@echo "  LINK    $@"
	$(Q)$(FUZZ_CC) $(RUNTIME_CFLAGS) $(OWN_WARN) $(FUZZ_CFLAGS) $(FUZZ_LDFLAGS) -o $@ $< $(FUZZ_RUNTIME_OBJS) \
		$(RUNTIME_LIBS)

$(FUZZ_DIR)/obj/compiler/%.o: compiler/%.c | $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(INC_$(call folder_of,$<)) -MMD -MP $(if $(filter $(BACKEND_LLVM_SRCS),$<),$(LLVM_CFLAGS)) \
		$(OWN_WARN) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/gen/parser.h $(BUILD)/gen/lexer.h
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(INC_front) -Igrammar $(GEN_WARN) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_DIR)/obj/runtime/%.o: runtime/%.c $(RUNTIME_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(RUNTIME_CFLAGS) $(OWN_WARN) $(FUZZ_CFLAGS) -c -o $@ $<

# The seed corpora, rebuilt from the sources of truth each time.
.PHONY: $(FUZZ_DIR)/seeds/frontend $(FUZZ_DIR)/seeds/runtime
$(FUZZ_DIR)/seeds/frontend:
	$(Q)rm -rf $@ && mkdir -p $@ && cp fuzz/corpus/frontend/* $@/ && \
	for f in examples/*.tess $$(find testsuite -name '*.tess' -o -name '*.tir' | sort); do \
		cp "$$f" "$@/$$(echo $$f | tr / _)"; \
	done
$(FUZZ_DIR)/seeds/runtime:
	$(Q)rm -rf $@ && mkdir -p $@ && cp fuzz/corpus/runtime/* $@/ && \
	for f in $$(find testsuite/runtime -name '*.json' | sort); do cp "$$f" "$@/$$(echo $$f | tr / _)"; done

clean:
	rm -rf $(BUILD)
