# The ring balancer (doc/ring.md): its tests.

RING_TESTS := $(BUILD)/tests/test_ring $(BUILD)/tests/test_ring_gen $(BUILD)/tests/test_ring_nomem
RING_TESTS += $(BUILD)/tests/test_ring_fast $(BUILD)/tests/test_ring_fast_gen $(BUILD)/tests/test_ring_strict $(BUILD)/tests/test_ring_strict_model
RING_TESTS += $(BUILD)/tests/test_ring_mutants $(BUILD)/tests/test_ring_api $(BUILD)/tests/test_ring_retire
RING_TESTS += $(BUILD)/tests/test_ring_scale $(BUILD)/tests/test_ring_fast_reader $(BUILD)/tests/test_ring_fast_walk

.PHONY: check-ring
check-ring: deps-check lib $(RING_TESTS) $(WSEL_BIN) ## run the ring balancer's unit tests and its CLI tests only
	@sh scripts/run-tests.sh $(RING_TESTS) tests/cli/t_ring.sh tests/cli/t_mutants_ring.sh tests/cli/t_ring_lifecycle.sh \
	  tests/cli/t_ring_text.sh tests/cli/t_ring_scenario_errors.sh
