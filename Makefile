# Tessera: tessc (the compiler), libtessrt (the runtime) and their tests.
#
#   make          build build/tessc
#   make run      compile every kernel in examples/ (outputs under build/examples/)
#   make test     install what is missing, build, run the test suite
#   make test-gpu the GPU suite (prints "skipped: no CUDA device" without one)
#
# V=1 shows the commands. BUILD=dir builds elsewhere (helpers use their own).

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
CPPFLAGS := -D_POSIX_C_SOURCE=200809L -Icompiler -I$(BUILD)/gen
ifeq ($(SANITIZE),1)
OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN := -fsanitize=address,undefined
endif

# The compiler's own sources, one phase a file (see compiler/main.c).
COMPILER_SRCS := \
	compiler/main.c \
	compiler/arena.c \
	compiler/diag.c \
	compiler/dtype.c \
	compiler/ast_print.c \
	compiler/sema.c \
	compiler/lower.c \
	compiler/ir.c \
	compiler/ir_print.c \
	compiler/ir_parse.c \
	compiler/ir_verify.c \
	compiler/passes.c \
	compiler/passes/fold.c \
	compiler/passes/cse.c \
	compiler/passes/dce.c

GEN_SRCS := $(BUILD)/gen/parser.c $(BUILD)/gen/lexer.c

COMPILER_OBJS := $(COMPILER_SRCS:%.c=$(BUILD)/obj/%.o)
GEN_OBJS := $(GEN_SRCS:$(BUILD)/gen/%.c=$(BUILD)/obj/gen/%.o)

.PHONY: all run test test-gpu deps clean
all: $(BUILD)/tessc

$(BUILD)/tessc: $(COMPILER_OBJS) $(GEN_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(OPT) $(LDSAN) -o $@ $^ -lm

$(BUILD)/obj/%.o: %.c compiler/base.h compiler/ast.h compiler/ir.h $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(OWN_WARN) $(OPT) -c -o $@ $<

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/gen/parser.h compiler/base.h compiler/ast.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) -Igrammar $(GEN_WARN) $(OPT) -c -o $@ $<

$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h: grammar/parser.y
	@mkdir -p $(BUILD)/gen
	@echo "  BISON   $<"
	$(Q)$(BISON) -Wall -Werror --defines=$(BUILD)/gen/parser.h -o $(BUILD)/gen/parser.c $<

$(BUILD)/gen/lexer.c $(BUILD)/gen/lexer.h: grammar/lexer.l
	@mkdir -p $(BUILD)/gen
	@echo "  FLEX    $<"
	$(Q)$(FLEX) --header-file=$(BUILD)/gen/lexer.h -o $(BUILD)/gen/lexer.c $<

$(BUILD)/obj/gen/parser.o: $(BUILD)/gen/lexer.h

# ---- examples --------------------------------------------------------------
EXAMPLES := $(wildcard examples/*.tess)
run: $(BUILD)/tessc
	@mkdir -p $(BUILD)/examples
	@set -e; for f in $(EXAMPLES); do \
		./$(BUILD)/tessc $$f --emit ir,ir-opt -o $(BUILD)/examples; \
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
	/usr/bin/python3 -c 'import numpy' 2>/dev/null || missing="$$missing python3-numpy";

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
	$(Q)BUILD=$(BUILD) LIT=$(LIT) sh testsuite/run-tests.sh

test-gpu: all
	$(Q)BUILD=$(BUILD) sh testsuite/run-gpu-tests.sh

clean:
	rm -rf $(BUILD)
