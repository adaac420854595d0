# The fast engine (fast/, core/prng_*.c): thread-safety and variant checks.
#
#   make tsan          the reader/writer test under ThreadSanitizer (clang, build-tsan/);
#                      make check runs the same, briefly, through tests/t_tsan.sh
#   make fast-noisa    the identity test in a build without SSE2/AVX2 kernels (build-noisa/)
#   make fast-env      the identity test with WSEL_FAST_KERNEL=scalar, sse2, avx2 (BUILD=...)
#   make fast-perf     quick ns/query figures of every available variant (BUILD=...)
#
# TSan of clang 14 cannot map its shadow under the kernel's default ASLR entropy, hence
# `setarch -R` (no address randomisation) for the run.

TSAN_BUILD  ?= build-tsan
NOISA_BUILD ?= build-noisa

.PHONY: tsan fast-noisa fast-env fast-perf

tsan: ## run tests/test_fast_threads.c and test_ring_fast_threads.c (readers + a syncing writer) under ThreadSanitizer with clang
	$(MAKE) BUILD=$(TSAN_BUILD) CC=clang TSAN=1 OPT=-O1 $(TSAN_BUILD)/tests/test_fast_threads
	TSAN_OPTIONS="halt_on_error=1 abort_on_error=1" setarch $$(uname -m) -R \
	  $(TSAN_BUILD)/tests/test_fast_threads
	$(MAKE) BUILD=$(TSAN_BUILD) CC=clang TSAN=1 OPT=-O1 $(TSAN_BUILD)/tests/test_ring_fast_threads
	TSAN_OPTIONS="halt_on_error=1 abort_on_error=1" setarch $$(uname -m) -R \
	  $(TSAN_BUILD)/tests/test_ring_fast_threads

fast-noisa: ## identity test of a build compiled with -DWSEL_NO_SSE2 -DWSEL_NO_AVX2 (scalar only)
	$(MAKE) BUILD=$(NOISA_BUILD) CFLAGS="$(OPT) -g -DWSEL_NO_SSE2 -DWSEL_NO_AVX2" \
	  $(NOISA_BUILD)/tests/test_fast_identity
	sh scripts/run-tests.sh $(NOISA_BUILD)/tests/test_fast_identity

fast-env: $(BUILD)/tests/test_fast_identity ## identity test with the dispatched variant forced by WSEL_FAST_KERNEL=scalar|sse2|avx2
	for k in scalar sse2 avx2; do WSEL_FAST_KERNEL=$$k $(BUILD)/tests/test_fast_identity || exit 1; done

$(BUILD)/fast/perf: fast/weighted/perf/perf.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

fast-perf: $(BUILD)/fast/perf ## ns/query of each fast variant vs the generator floor (quick, not the bench/ harness)
	$(BUILD)/fast/perf

# `make check` runs a short TSan pass of the two thread tests (tests/t_tsan.sh, about
# 10 s) when clang is installed; without clang it reports one skipped result. The TSan
# objects live in $(TSAN_BUILD) and are built once, beside the ordinary build.
export TSAN_BUILD
ifneq ($(TSAN),1)
CHECK_PROGS += tests/t_tsan.sh
ifneq ($(shell command -v clang 2>/dev/null),)
check-build: tsan-build
endif
endif

.PHONY: tsan-build
tsan-build:
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) CC=clang TSAN=1 SAN=0 COVERAGE=0 OPT=-O1 \
	  $(TSAN_BUILD)/tests/test_fast_threads $(TSAN_BUILD)/tests/test_ring_fast_threads

# tests/test_fast_noshare.c compares the program's writable data before and after the
# threads query: bind every symbol at start-up, so lazy binding's writes into .got.plt
# do not count as the query path's.
$(BUILD)/tests/test_fast_noshare: LDFLAGS += -Wl,-z,now
