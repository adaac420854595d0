# Fuzzing and coverage (fuzz/, corpus/).
#
#   make fuzz       [FUZZ_SECONDS=180] [FUZZ_TARGETS="config ..."]  libFuzzer, merge into corpus/
#   make fuzz-afl   [FUZZ_SECONDS=180]                              AFL++, merge into corpus/
#   make fuzz-ci    [FUZZ_CI_SECONDS=10]                            each target briefly, fails on any finding
#   make fuzz-speed [FUZZ_SPEED_RUNS=3000]                          each target alone: execs/s, execs/CPU-s, faults/exec
#   make oss-fuzz-check                                             fuzz/oss-fuzz/build.sh as OSS-Fuzz runs it
#   make coverage                                                   gcov/lcov report in report/coverage/,
#                                                                   per folder and per system
#
# `make check` replays every file of corpus/<target>/ (and its regress/ reproducers)
# through $(BUILD)/fuzz/replay_<target>, a plain build of the same target code.

# One property per target: the weighted_* targets share one data producer
# (fuzz/weighted.c) and read their inputs the same way.
FUZZ_WEIGHTED := weighted_model weighted_oracle weighted_invariants weighted_odds weighted_generator
FUZZ_TARGETS ?= config statefile $(FUZZ_WEIGHTED) systems_identity gslb_config gslb_engine ring_ops \
                ring_scenario
FUZZ_SECONDS ?= 180
# Per-target time of `make fuzz-ci`: every target FUZZ_CI_SECONDS, FUZZ_JOBS (2) at a
# time, so the twelve targets take about 6 x FUZZ_CI_SECONDS on two cores.
FUZZ_CI_SECONDS ?= 10
FUZZ_CC      ?= clang
FUZZ_LF      := build-fuzz-lf
FUZZ_AFL     := build-fuzz-afl
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_COMMON  := fuzz/fuzz_util.c fuzz/weighted.c
FUZZ_HDRS    := fuzz/fuzz.h fuzz/weighted.h $(wildcard include/*.h include/wsel/*.h tests/kit/*.h)
FUZZ_CPPFLAGS = $(CPPFLAGS) -Itests
# The scenario target reads the library's internal scenario header (what the reader built).
$(BUILD)/fuzz/replay_ring_scenario $(FUZZ_LF)/fuzz_ring_scenario $(FUZZ_AFL)/fuzz_ring_scenario: \
  core/ring/ring_scenario.h

FUZZ_REPLAY_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
CHECK_PROGS += $(FUZZ_REPLAY_BIN)
check-build: $(FUZZ_REPLAY_BIN)

.PHONY: fuzz fuzz-afl fuzz-ci fuzz-build fuzz-afl-build fuzz-deps fuzz-replay coverage \
        fuzz-list oss-fuzz-check fuzz-speed

# The target names, for fuzz/oss-fuzz/build.sh.
fuzz-list:
	@echo $(FUZZ_TARGETS)

# ---- replay programs (ordinary build, part of `make check`) ----

$(BUILD)/fuzz/replay_%: fuzz/fuzz_%.c fuzz/replay_main.c $(FUZZ_COMMON) $(FUZZ_HDRS) $(KIT_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) \
	  -DFUZZ_DEFAULT_DIRS='"$(CURDIR)/corpus/$*"' \
	  -o $@ fuzz/fuzz_$*.c fuzz/replay_main.c $(FUZZ_COMMON) $(FUZZ_EXTRA_$*) $(KIT_LIB) $(STATIC_LIB) $(GSL_LIBS) $(LDLIBS)

fuzz-replay: $(FUZZ_REPLAY_BIN) ## replay every corpus file and reproducer through the fuzz targets (TAP)
	@sh scripts/run-tests.sh $(FUZZ_REPLAY_BIN)

# ---- libFuzzer (clang, ASan + UBSan) ----

fuzz-deps:
	@sh scripts/deps.sh fuzz

# The library is rebuilt in its own folder with coverage hooks for libFuzzer; the
# sub-make decides what is out of date. (Inside that sub-make BUILD is this folder and
# the Makefile's own rule builds the archive.) A forced rule, not a phony one: make looks
# at the archive's time after the sub-make, so the targets are relinked only when it
# changed.
.PHONY: fuzz-force
fuzz-force:
ifneq ($(BUILD),$(FUZZ_LF))
$(FUZZ_LF)/libwsel.a: fuzz-force | fuzz-deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_LF) CC=$(FUZZ_CC) OPT= \
	  CFLAGS='$(FUZZ_LIB_CFLAGS)' $(FUZZ_LF)/libwsel.a $(FUZZ_LF)/libwsel-kit.a
# (the kit's archive as well)
$(FUZZ_LF)/libwsel-kit.a: $(FUZZ_LF)/libwsel.a ;
endif

$(FUZZ_LF)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_COMMON) $(FUZZ_HDRS) $(FUZZ_LF)/libwsel.a $(FUZZ_LF)/libwsel-kit.a
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(WARN) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) \
	  -o $@ fuzz/fuzz_$*.c $(FUZZ_COMMON) $(FUZZ_EXTRA_$*) $(FUZZ_LF)/libwsel-kit.a $(FUZZ_LF)/libwsel.a $(GSL_LIBS) $(LDLIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_LF)/fuzz_%)

fuzz: fuzz-build ## run each fuzz target with libFuzzer for FUZZ_SECONDS (default 180) and merge new coverage into corpus/
	@sh fuzz/run.sh libfuzzer $(FUZZ_LF) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-ci: fuzz-build ## CI gate: each fuzz target FUZZ_CI_SECONDS (10) under libFuzzer (-timeout=5); fails on any crash, leak, hang or sanitizer report
	@sh fuzz/run.sh ci $(FUZZ_LF) $(FUZZ_CI_SECONDS) $(FUZZ_TARGETS)

FUZZ_SPEED_RUNS ?= 3000
fuzz-speed: fuzz-build ## each fuzz target alone, FUZZ_SPEED_RUNS (3000) libFuzzer executions from its seed corpus: execs per second and per CPU second, page faults per exec (fuzz/README.md)
	@sh fuzz/speed.sh $(FUZZ_LF) $(FUZZ_SPEED_RUNS) $(FUZZ_TARGETS)

# ---- AFL++ (afl-clang-fast with its libFuzzer-compatible driver) ----

ifneq ($(BUILD),$(FUZZ_AFL))
$(FUZZ_AFL)/libwsel.a: fuzz-force | fuzz-deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_AFL) CC=afl-clang-fast OPT= \
	  CFLAGS='-O1 -g' $(FUZZ_AFL)/libwsel.a $(FUZZ_AFL)/libwsel-kit.a
$(FUZZ_AFL)/libwsel-kit.a: $(FUZZ_AFL)/libwsel.a ;
endif

$(FUZZ_AFL)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_COMMON) $(FUZZ_HDRS) $(FUZZ_AFL)/libwsel.a $(FUZZ_AFL)/libwsel-kit.a
	AFL_QUIET=1 afl-clang-fast $(FUZZ_CPPFLAGS) -std=c11 -O1 -g -fsanitize=fuzzer \
	  -o $@ fuzz/fuzz_$*.c $(FUZZ_COMMON) $(FUZZ_EXTRA_$*) $(FUZZ_AFL)/libwsel-kit.a $(FUZZ_AFL)/libwsel.a $(GSL_LIBS) $(LDLIBS)

fuzz-afl-build: $(FUZZ_TARGETS:%=$(FUZZ_AFL)/fuzz_%)

fuzz-afl: fuzz-afl-build fuzz-build ## run each fuzz target with AFL++ for FUZZ_SECONDS (afl-fuzz -V) and merge its queue into corpus/
	@sh fuzz/run.sh afl $(FUZZ_AFL) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# ---- OSS-Fuzz / ClusterFuzzLite (fuzz/oss-fuzz/, .clusterfuzzlite/) ----

oss-fuzz-check: fuzz-deps ## run fuzz/oss-fuzz/build.sh as OSS-Fuzz/ClusterFuzzLite do (libFuzzer+ASan, +UBSan, AFL++) into build-oss-fuzz/, each target on its seed corpus
	@sh fuzz/oss-fuzz/check.sh

# ---- coverage (gcc + gcov + lcov) ----

COV_BUILD := build-cov

coverage: ## gcov build in build-cov running make check (unit, CLI, stats, corpus replay); lcov HTML in report/coverage/, lines and branches per folder (cli/ too) and per system
	@sh scripts/deps.sh coverage
	@mkdir -p $(COV_BUILD)
	@find $(COV_BUILD) -name '*.gcda' -delete
	@# CFLAGS from the environment: the Makefile appends --coverage -O0 to it. Atomic
	@# counters, since some tests run threads. The environment's CFLAGS reach the TSan
	@# sub-build too (tsan-build, mk/fast.mk): its objects are instrumented, so they live
	@# in a folder of the coverage build, never mixed into the ordinary build-tsan.
	-@CFLAGS='-g -fprofile-update=atomic' $(MAKE) --no-print-directory BUILD=$(COV_BUILD) \
	  TSAN_BUILD=$(COV_BUILD)/tsan COVERAGE=1 check > $(COV_BUILD)/check.log 2>&1; \
	  echo "coverage: make check: $$(grep -E '^[0-9]+ passed, [0-9]+ failed' $(COV_BUILD)/check.log | tail -n 1) (log $(COV_BUILD)/check.log)"
	@sh fuzz/coverage.sh $(COV_BUILD) report/coverage
