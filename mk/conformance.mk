# make conformance: wsel against real gdnsd 3.8.1 (Debian's package) on loopback:
# verdict parity, answer counts, TTLs (tests/conformance/README.md). Not part of check.
CONFORMANCE_CHISQ := $(BUILD)/tests/conformance/chisq
# The answer-count test needs the verification kit's statistics (tests/kit/).
CONFORMANCE_KIT   := $(if $(wildcard tests/kit/kit_stat.h),$(CONFORMANCE_CHISQ))

.PHONY: conformance conformance-deps
conformance-deps:
	@sh scripts/deps.sh build conformance

$(CONFORMANCE_CHISQ): tests/conformance/chisq.c $(KIT_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(KIT_LIB) $(STATIC_LIB) $(GSL_LIBS) $(LDLIBS)

conformance: conformance-deps lib $(WSEL_BIN) $(CONFORMANCE_KIT) ## run gdnsd 3.8.1 on 127.0.0.1 and compare verdicts, answer counts and TTLs with wsel; report in report/conformance/
	PYTHONDONTWRITEBYTECODE=1 BUILD=$(BUILD) WSEL=$(WSEL_BIN) timeout 240 python3 tests/conformance/conformance.py $(CONFORMANCE_ARGS)
