# Statistical conformance suite (stats/): engines vs the exact-odds calculator.
STATS_SRC := $(sort $(wildcard stats/*.c))
STATS_OBJ := $(STATS_SRC:%.c=$(BUILD)/obj/%.o)
STATS_BIN := $(BUILD)/stats/wsel-stats

CHECK_PROGS += $(STATS_BIN)
check-build: $(STATS_BIN)

# The verification kit (tests/kit/, mk/kit.mk) provides the generators, random sources
# and the statistics module; no test framework is linked.
$(STATS_OBJ): CPPFLAGS += -Itests

$(STATS_BIN): $(STATS_OBJ) $(KIT_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(CFLAGS) -o $@ $(STATS_OBJ) $(KIT_LIB) $(STATIC_LIB) $(GSL_LIBS) -lz $(LDLIBS)
.PHONY: stats stats-quick mutants stats-deps
stats-deps:
	@sh scripts/deps.sh build stats

stats-quick: lib $(STATS_BIN) ## quick statistical conformance suite alone (TAP)
	@sh scripts/run-tests.sh $(STATS_BIN)

stats: stats-deps lib $(STATS_BIN) $(BUILD)/tests/test_sample_stats ## large run with report: tables on stdout, report/stats/index.html + PNG plots; wsel sample's calibration at 400 x 200000 draws
	@rm -rf report/stats && mkdir -p report/stats
	@$(STATS_BIN) --large --tables --report report/stats > report/stats/tap.txt; rc=$$?; \
	  $(BUILD)/tests/test_sample_stats --large > report/stats/sample_tap.txt || rc=1; \
	  cat report/stats/tap.txt report/stats/sample_tap.txt; \
	  (cd report/stats && while read -r p; do gnuplot "$$p.gp" || exit 1; done < plots.list) || rc=1; \
	  echo "report: report/stats/index.html (TAP in report/stats/tap.txt)"; exit $$rc

mutants: stats-deps ## fault-injection kill-rate run (scratch copy of the tree; never touches it)
	@sh stats/mutants.sh
