# GSLB system (wide IP -> pool -> member): the inputs reader uses jansson.
LDLIBS += -ljansson

GSLB_TESTS := $(BUILD)/tests/test_gslb

.PHONY: check-gslb
check-gslb: deps-check lib $(WSEL_BIN) $(GSLB_TESTS) ## run the GSLB unit tests and CLI tests only
	@sh scripts/run-tests.sh $(GSLB_TESTS) tests/cli/t_gslb.sh
