# Reference engine, monitoring state and exact-odds calculator: their tests and the
# golden answer stream.
REF_TESTS := $(addprefix $(BUILD)/tests/,test_state test_admin_state test_ref test_odds test_golden_stream)

.PHONY: check-ref golden-regen
check-ref: deps-check lib $(REF_TESTS) ## run the state, ref engine, odds and golden-stream tests only
	@sh scripts/run-tests.sh $(REF_TESTS)

golden-regen: lib $(BUILD)/tests/test_golden_stream ## rewrite tests/data/golden/stream.txt from the ref engine (review the diff before committing)
	$(BUILD)/tests/test_golden_stream --regen
	@git diff --stat -- tests/data/golden/stream.txt 2>/dev/null || true
