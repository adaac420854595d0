# The verification kit (tests/kit/): boundary words, random sources, per-system case
# generators and invariants, answer text and the statistics module, as a library of
# its own that links no test framework. Unit tests, the stats suite, the fuzz replay
# programs and the benchmarks link it; bin/wsel does not (what `wsel sample` shares with
# the kit is the library's: odds/stat.c, odds/weighted/weighted_fit.c).
KIT_SRC := $(sort $(wildcard tests/kit/*.c))
KIT_OBJ := $(KIT_SRC:%.c=$(BUILD)/obj/%.o)

$(KIT_LIB): $(KIT_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(TEST_BIN): $(KIT_LIB)
$(TEST_SUPPORT_OBJ): CPPFLAGS += -Itests
