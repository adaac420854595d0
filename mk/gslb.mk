# GSLB system (wide IP -> pool -> member): its tests and benchmark.

GSLB_TESTS := $(BUILD)/tests/test_gslb $(BUILD)/tests/test_gslb_lint $(BUILD)/tests/test_gslb_names \
              $(BUILD)/fuzz/replay_gslb_config $(BUILD)/fuzz/replay_gslb_engine

.PHONY: check-gslb
check-gslb: deps-check lib $(WSEL_BIN) $(GSLB_TESTS) ## run the GSLB unit, lint, CLI tests and corpus replays only
	@sh scripts/run-tests.sh $(GSLB_TESTS) tests/cli/t_gslb.sh tests/cli/t_gslb_names.sh tests/cli/t_gslb_oneline.sh tests/cli/t_gslb_faults.sh

# Timing and allocation count of the GSLB resolve (bench/gslb/bench_gslb.c); not part of
# `make bench` (its own allocator wrapper needs its own program).
GSLB_BENCH_N ?= 200000
$(BUILD)/bench/bench_gslb: bench/gslb/bench_gslb.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

.PHONY: bench-gslb
bench-gslb: $(BUILD)/bench/bench_gslb ## GSLB resolve: ns per query and allocations, 4 pools x 8 members (static, dynamic, topology cases), a 64-pool wide IP and an AAAA case
	$(BUILD)/bench/bench_gslb $(GSLB_BENCH_N)
