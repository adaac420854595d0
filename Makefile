# wsel -- build entry point. `make help` lists the targets.
#
# Variables: CC (gcc or clang), BUILD (output folder, default build), WERROR=1 (warnings
# are errors), SAN=1 (ASan+UBSan), VALGRIND=1 (run unit tests under valgrind),
# COVERAGE=1 (gcov instrumentation), PREFIX (install root, default /usr/local).
# Area fragments in mk/*.mk add their own targets and tests.

CC      ?= cc
CXX     ?= c++
BUILD   ?= build
PREFIX  ?= /usr/local
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -std=c11 -Wall -Wextra -Wpedantic
CPPFLAGS += -Iinclude -D_DEFAULT_SOURCE
# jansson: the one JSON reading layer (core/json.c) every system's JSON input goes through;
# yajl: the ring scenario reader's streaming parser (core/ring/ring_scenario.c).
LDLIBS  += -ljansson -lyajl -lm -lpthread

ifeq ($(WERROR),1)
WARN += -Werror
endif
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(TSAN),1)
CFLAGS  += -fsanitize=thread
LDFLAGS += -fsanitize=thread
endif
ifeq ($(COVERAGE),1)
CFLAGS  += --coverage -O0
LDFLAGS += --coverage
endif

# x86-64 kernels get their instruction-set flags per file; elsewhere they compile empty.
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(findstring x86_64,$(MACHINE)),)
SSE2_FLAGS := -msse2
AVX2_FLAGS := -mavx2
endif

# The systems of core/systems.def. Each code folder holds at its top what the systems
# share and, in a folder named by the system, what is one system's (doc/architecture.md).
SYSTEMS := $(shell sed -n 's/^WSEL_SYSTEM(\([a-z0-9_]*\)).*/\1/p' core/systems.def)
LIB_DIRS := core odds ref fast
LIB_SRC := $(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS)) \
             $(foreach d,$(LIB_DIRS),$(foreach s,$(SYSTEMS),$(d)/$(s)/*.c))))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_SRC := $(sort $(wildcard cli/*.c $(foreach s,$(SYSTEMS),cli/$(s)/*.c)))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SUPPORT := $(sort $(wildcard tests/support/*.c))
TEST_SUPPORT_OBJ := $(TEST_SUPPORT:%.c=$(BUILD)/obj/%.o)

STATIC_LIB := $(BUILD)/libwsel.a
SHARED_LIB := $(BUILD)/libwsel.so.0
# The verification kit (tests/kit/, built by mk/kit.mk).
KIT_LIB    := $(BUILD)/libwsel-kit.a
# `make` leaves the tool at bin/wsel; other BUILD folders keep their own copy.
WSEL_BIN   := $(if $(filter build,$(BUILD)),bin/wsel,$(BUILD)/bin/wsel)
export WSEL := $(WSEL_BIN)
GSL_LIBS   := -lgsl -lgslcblas

# Programs `make check` runs; each prints TAP. Fragments append to these.
CHECK_UNIT  := $(TEST_BIN)
CHECK_PROGS  = $(CHECK_UNIT)

.PHONY: all lib check check-unit clean help deps demo install
all: deps lib $(WSEL_BIN) ## build the library (static + shared) and bin/wsel

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | sed -e 's/:.*## /\t/' | sort | \
	  awk -F'\t' '{printf "  %-14s %s\n", $$1, $$2}'

deps: ## install missing Debian packages (as root), or print the apt-get line
	@sh scripts/deps.sh build

lib: $(STATIC_LIB) $(SHARED_LIB)

# Order-only on deps: with -j, nothing compiles before the build packages are there.
$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(XFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/fast/%_sse2.o: XFLAGS = $(SSE2_FLAGS)
$(BUILD)/obj/fast/%_avx2.o: XFLAGS = $(AVX2_FLAGS)
$(BUILD)/obj/core/%_avx2.o: XFLAGS = $(AVX2_FLAGS)

$(STATIC_LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libwsel.so.0 $(LDFLAGS) -o $@ $^ $(GSL_LIBS) $(LDLIBS)
	ln -sf libwsel.so.0 $(BUILD)/libwsel.so

$(WSEL_BIN): $(CLI_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $(CLI_OBJ) $(STATIC_LIB) $(GSL_LIBS) $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(TEST_SUPPORT_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT_OBJ) $(KIT_LIB) $(STATIC_LIB) -lcmocka $(GSL_LIBS) $(LDLIBS)

check: deps-check lib $(WSEL_BIN) check-build ## run every test (unit, conformance statistics, CLI, corpus replay); last line "N passed, N failed"
	@sh scripts/run-tests.sh $(CHECK_PROGS)

check-unit: deps-check lib $(CHECK_UNIT) ## run the unit tests only (honours VALGRIND=1)
	@sh scripts/run-tests.sh $(CHECK_UNIT)

.PHONY: deps-check check-build
deps-check:
	@sh scripts/deps.sh check

check-build: $(CHECK_UNIT)

install: all ## install library, headers, bin/wsel, man page and wsel.pc under PREFIX
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/wsel $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libwsel.so.0 $(DESTDIR)$(PREFIX)/lib/libwsel.so
	install -m 644 include/wsel.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/wsel/*.h $(DESTDIR)$(PREFIX)/include/wsel/
	install -m 755 $(WSEL_BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 man/wsel.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	# wsel.pc is written here, not at build time, so it names the PREFIX installed into.
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|0.1.0|g' wsel.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/wsel.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/wsel.pc

clean: ## remove build outputs
	rm -rf build build-* bin

-include mk/*.mk
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
