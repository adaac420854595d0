# The ring balancer (doc/ring.md): its tests.

RING_TESTS := $(BUILD)/tests/test_ring $(BUILD)/tests/test_ring_gen $(BUILD)/tests/test_ring_nomem
RING_TESTS += $(BUILD)/tests/test_ring_fast $(BUILD)/tests/test_ring_fast_gen $(BUILD)/tests/test_ring_strict $(BUILD)/tests/test_ring_strict_model
RING_TESTS += $(BUILD)/tests/test_ring_mutants $(BUILD)/tests/test_ring_api $(BUILD)/tests/test_ring_retire
RING_TESTS += $(BUILD)/tests/test_ring_scale $(BUILD)/tests/test_ring_fast_reader $(BUILD)/tests/test_ring_fast_walk

.PHONY: check-ring
check-ring: deps-check lib $(RING_TESTS) $(WSEL_BIN) ## run the ring balancer's unit tests and its CLI tests only
	@sh scripts/run-tests.sh $(RING_TESTS) tests/cli/t_ring.sh tests/cli/t_mutants_ring.sh tests/cli/t_ring_lifecycle.sh \
	  tests/cli/t_ring_text.sh tests/cli/t_ring_scenario_errors.sh

# Instructions of an add + remove pair under callgrind (doc/ring.md section 13); not run by check.
$(BUILD)/fast/ring-change-perf: fast/ring/perf/ring_change_perf.c $(KIT_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(KIT_LIB) $(STATIC_LIB) $(GSL_LIBS) $(LDLIBS)

.PHONY: ring-change-perf
ring-change-perf: $(BUILD)/fast/ring-change-perf ## instructions of one ring add + remove pair (ref, fast, and the floor of any exact implementation) under callgrind
	@for e in ref fast floor; do \
	  a=$$(valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/fast/cg.$$e.1 $(BUILD)/fast/ring-change-perf $$e 100 2>/dev/null && \
	       sed -n 's/^summary: *//p' $(BUILD)/fast/cg.$$e.1); \
	  b=$$(valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/fast/cg.$$e.2 $(BUILD)/fast/ring-change-perf $$e 1100 2>/dev/null && \
	       sed -n 's/^summary: *//p' $(BUILD)/fast/cg.$$e.2); \
	  echo "$$e: $$(( (b - a) / 1000 )) instructions per add + remove pair"; \
	done
