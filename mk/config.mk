# The config loader's tests on their own (they also run in check-unit / check).
CONFIG_TESTS := $(BUILD)/tests/test_config $(BUILD)/tests/test_config_golden

.PHONY: check-config
check-config: $(CONFIG_TESTS) ## run the config loader tests: unit + golden files (honours SAN=1, VALGRIND=1)
	@sh scripts/run-tests.sh $(CONFIG_TESTS)
