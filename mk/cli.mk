# bin/wsel: end-to-end tests and the demo.
# Each tests/cli/t_*.sh prints TAP and finds the binary at $${WSEL:-bin/wsel}.
CLI_TESTS := $(sort $(wildcard tests/cli/t_*.sh))
CHECK_PROGS += $(CLI_TESTS)

.PHONY: check-cli
check-cli: deps-check lib $(WSEL_BIN) ## run the bin/wsel end-to-end tests only
	@sh scripts/run-tests.sh $(CLI_TESTS)

demo: all ## build and run every system on its bundled example: weighted check, explain, sample; ring show, diff; gslb check, explain, resolve (A, alias, wildcard, AAAA)
	$(WSEL_BIN) check examples/synopsis.conf --zone examples/synopsis.zone example.com.
	$(WSEL_BIN) explain examples/synopsis.conf corpwww cdnwww
	$(WSEL_BIN) sample examples/synopsis.conf cdnwww -n 100000 --seed 1
	$(WSEL_BIN) ring show examples/ring/k4.json
	$(WSEL_BIN) ring diff examples/ring/k2.json
	$(WSEL_BIN) gslb check examples/gslb/bigip_gtm.conf || test $$? -eq 1 # G001 is an error finding (exit 1), by design of the example
	$(WSEL_BIN) gslb explain examples/gslb/bigip_gtm.conf
	$(WSEL_BIN) gslb resolve examples/gslb/bigip_gtm.conf www.example.com --inputs examples/gslb/inputs.json -n 4 --log all
	$(WSEL_BIN) gslb resolve examples/gslb/bigip_gtm.conf img.www.example.com --inputs examples/gslb/inputs.json # a wildcard alias of www.example.com
	$(WSEL_BIN) gslb resolve examples/gslb/bigip_gtm.conf web.example.com --inputs examples/gslb/inputs.json # an alias of www.example.com
	$(WSEL_BIN) gslb resolve examples/gslb/bigip_gtm.conf www.example.com --inputs examples/gslb/inputs.json --type AAAA -n 2 # the AAAA wide IP of that name
