# Benchmarks (bench/): Google Benchmark matrix, comparison tables, instruction counts.
#
#   make BUILD=build-x bench [BENCH_FILTER=<regex>] [BENCH_OUT=<path>]
#   make bench-compare [BENCH_FILES="a.json b.json"]
#   make BUILD=build-x bench-instr
#   make BUILD=build-x bench-instr-variants      (each fast variant against its own floor)
#   make bench-report [BENCH_REPORT_DIR=<dir>]    (bench-report-check: CI's browser test)
#
# BENCH_MIN_TIME (seconds per run) and BENCH_REPS (repetitions; the median is reported)
# trade run time for steadiness; BENCH_ARGS passes extra --benchmark_* flags.

CPU_SLUG := $(shell sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1 | \
	tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9][^a-z0-9]*/-/g' -e 's/^-//' -e 's/-$$//')
ifeq ($(CPU_SLUG),)
CPU_SLUG := unknown-cpu
endif

BENCH_BIN      := $(BUILD)/bench/wsel-bench
BENCH_OUT      ?= bench/results/$(CPU_SLUG).json
BENCH_FILTER   ?=
BENCH_MIN_TIME ?= 0.05
BENCH_REPS     ?= 5
# Repetitions of all cases run in random order, so a burst of load on the shared machine
# hits one repetition of several cases rather than every repetition of one case.
BENCH_INTERLEAVE ?= true
BENCH_ARGS     ?=
BENCH_FILES    ?= $(sort $(wildcard bench/results/*.json))
BENCH_PNG      ?= $(BUILD)/bench/compare.png
BENCH_OWN_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard bench/*.c)))
BENCH_C_OBJ    := $(BENCH_OWN_OBJ)
BENCH_CXXFLAGS := -std=c++17 -Wall -Wextra -Wpedantic $(OPT) -g
ifeq ($(WERROR),1)
BENCH_CXXFLAGS += -Werror
endif

.PHONY: bench bench-compare bench-instr bench-build bench-deps

bench-deps:
	@sh scripts/deps.sh bench

bench-build: $(BENCH_BIN)

$(BENCH_OWN_OBJ): | bench-deps
# The verification kit (tests/kit/): the string builder and the engine-variant list.
$(BENCH_OWN_OBJ): CPPFLAGS += -Itests

# The flags the library and the cases are built with, for the JSON's context (main.c).
$(BUILD)/obj/bench/main.o: CPPFLAGS += -DWSEL_BENCH_CFLAGS='"$(strip $(CFLAGS))"' \
	-DWSEL_BENCH_KERNEL_FLAGS='"$(strip $(if $(SSE2_FLAGS),sse2 kernels $(SSE2_FLAGS)) $(if $(AVX2_FLAGS),avx2 kernels $(AVX2_FLAGS)))"'

$(BUILD)/obj/bench/shim.o: bench/shim.cc bench/shim.h | bench-deps
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(BENCH_CXXFLAGS) -MMD -MP -c $< -o $@

$(BENCH_BIN): $(BENCH_C_OBJ) $(BUILD)/obj/bench/shim.o $(KIT_LIB) $(STATIC_LIB) | bench-deps
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $(BENCH_C_OBJ) $(BUILD)/obj/bench/shim.o $(KIT_LIB) $(STATIC_LIB) -lbenchmark $(GSL_LIBS) -ljansson -lyajl -lpthread -lm

bench: $(BENCH_BIN) ## run the benchmark matrix, write Google Benchmark JSON to BENCH_OUT (default bench/results/<cpu>.json); BENCH_FILTER=<regex>
	@mkdir -p $(dir $(BENCH_OUT))
	$(BENCH_BIN) --benchmark_min_time=$(BENCH_MIN_TIME) --benchmark_repetitions=$(BENCH_REPS) \
	  --benchmark_enable_random_interleaving=$(BENCH_INTERLEAVE) \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out='$(BENCH_OUT)' --benchmark_out_format=json \
	  $(if $(BENCH_FILTER),--benchmark_filter='$(BENCH_FILTER)') $(BENCH_ARGS)
	@echo
	@python3 bench/compare.py --ratios '$(BENCH_OUT)'

bench-compare: bench-deps ## compare benchmark JSON files (BENCH_FILES, default bench/results/*.json): ns/query table, ratios, chart BENCH_PNG
	@mkdir -p $(dir $(BENCH_PNG))
	python3 bench/compare.py $(BENCH_FILES) $(if $(BENCH_FILTER),--filter '$(BENCH_FILTER)') --png '$(BENCH_PNG)'

bench-instr: $(BENCH_BIN) ## instructions per query of the main select cases under callgrind (valgrind)
	sh bench/instr.sh $(BENCH_BIN) bench/results/instr-$(CPU_SLUG).txt

# Each fast variant against its own floor (the floor of scalar and sse2 is the portable
# fill), issue 26's cases plus their down25 and reset states, no ref: one file per variant.
INSTR_VARIANT_CASES := empty/0/up \
  ungrouped-single/4/up ungrouped-single/64/up ungrouped-multi/4/up ungrouped-multi/64/up \
  grouped-single/8x8/up grouped-single/64x64/up grouped-multi/8x8/up grouped-multi/64x64/up \
  cname/4/up cname/64/up ungrouped-single/64/down25 ungrouped-single/64/reset \
  ungrouped-multi/4/down25 ungrouped-multi/4/reset ungrouped-multi/64/down25 ungrouped-multi/64/reset \
  grouped-single/64x64/down25 grouped-single/64x64/reset grouped-multi/8x8/down25 grouped-multi/8x8/reset \
  grouped-multi/64x64/down25 grouped-multi/64x64/reset cname/64/reset
INSTR_VARIANTS ?= scalar sse2 avx2

.PHONY: bench-instr-variants
bench-instr-variants: $(BENCH_BIN) ## instructions per query of each fast variant (INSTR_VARIANTS) against its own floor: bench/results/instr-fast-<variant>-<cpu>.txt
	for k in $(INSTR_VARIANTS); do \
	  WSEL_FAST_KERNEL=$$k INSTR_ENGINES="floor fast" INSTR_CASES="$(INSTR_VARIANT_CASES)" \
	    sh bench/instr.sh $(BENCH_BIN) bench/results/instr-fast-$$k-$(CPU_SLUG).txt || exit 1; \
	done

bench-smoke: $(BENCH_BIN) ## CI: build the benchmarks, run a few cases for a moment, compare with a committed result
	@mkdir -p $(BUILD)/bench
	$(BENCH_BIN) --benchmark_min_time=0.01 --benchmark_filter='select/(fast|ref|floor)/(ungrouped-single|grouped-multi)/(4|8x8)/up' \
	  --benchmark_out='$(BUILD)/bench/smoke.json' --benchmark_out_format=json
	python3 bench/compare.py $(firstword $(BENCH_FILES)) '$(BUILD)/bench/smoke.json' \
	  --filter '(ungrouped-single/4|grouped-multi/8x8)/up'

# The report: every committed result (BENCH_FILES, bench/results/instr-*.txt) in one HTML
# page with PNG charts (bench/report.py). bench/report/ holds the committed copy README
# links; bench-report-check (CI) fails when it is stale or a chart does not load in a
# real headless browser (bench/report-check.sh, Debian's chromium).
BENCH_REPORT_DIR ?= $(BUILD)/bench/report
BENCH_REPORT_IN   = $(BENCH_FILES) $(sort $(wildcard bench/results/instr-*.txt))
BENCH_REPORT_NEW := $(BUILD)/bench/report-check

.PHONY: bench-report bench-report-check
bench-report: ## render bench/results/*.json and instr-*.txt into one HTML page with PNG charts in BENCH_REPORT_DIR ($(BUILD)/bench/report; bench/report is the committed copy)
	@sh scripts/deps.sh report
	python3 bench/report.py --out '$(BENCH_REPORT_DIR)' $(BENCH_REPORT_IN)

bench-report-check: ## CI: bench/report/ is what bench-report renders now, and every chart of it loads in headless chromium
	@sh scripts/deps.sh report browser
	python3 bench/report.py --out '$(BENCH_REPORT_NEW)' $(BENCH_REPORT_IN)
	@cmp -s '$(BENCH_REPORT_NEW)/index.html' bench/report/index.html && \
	  [ "$$(cd '$(BENCH_REPORT_NEW)' && ls *.png)" = "$$(cd bench/report && ls *.png)" ] || { \
	  echo "bench-report-check: bench/report/ is stale; refresh it: make bench-report BENCH_REPORT_DIR=bench/report" >&2; exit 1; }
	sh bench/report-check.sh bench/report
