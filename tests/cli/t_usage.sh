#!/bin/sh
# bin/wsel: help, version, and every bad-input case: exit 2 with one line on stderr.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

run --help;            is_rc 0 "--help exits 0"
has "$TMP/out" '^usage: wsel COMMAND' "--help prints the usage"
run --version;         is_rc 0 "--version exits 0"
has "$TMP/out" '^wsel [0-9]+\.[0-9]+\.[0-9]+$' "--version prints wsel X.Y.Z"
for c in check explain sample; do
    run $c --help;     is_rc 0 "$c --help exits 0"
    has "$TMP/out" "^usage: wsel $c" "$c --help prints its usage"
done
# `wsel SYSTEM --help` (the SYNOPSIS's `wsel COMMAND --help` for a system): its commands
for s in weighted ring gslb; do
    for h in --help -h help; do
        run $s $h;     is_rc 0 "$s $h exits 0"
        has "$TMP/out" "^usage: wsel $s COMMAND" "$s $h prints the system's usage"
    done
done
has "$TMP/out" '^  gslb resolve CONFIG WIDEIP' "gslb --help lists gslb resolve"
run ring --help
has "$TMP/out" '^  ring run SCENARIO' "ring --help lists ring run"
run ring run a.json b.json;                       one_line_error "ring run: two scenarios"
has "$TMP/err" 'see wsel ring run --help' "... pointing at wsel ring run --help"
run gslb frob;                                    one_line_error "gslb: unknown command"
has "$TMP/err" 'see wsel gslb --help' "... pointing at wsel gslb --help"
usage_err "wsel: gslb: missing COMMAND (see wsel gslb --help)" "gslb without a command" gslb
# `--` ends the options of a gslb command: what follows is an operand, even --json
GC="$EXAMPLES/gslb/bigip_gtm.conf"
"$WSEL" gslb check "$GC" >"$TMP/plain" 2>/dev/null
run gslb check -- "$GC"
[ "$RC" -eq 1 ] && cmp -s "$TMP/out" "$TMP/plain"; ok $? "gslb check -- CONFIG: as without -- (exit 1: the example has lint errors)"
usage_err "cannot open config '--json'" "gslb check -- --json: --json is the config's name" gslb check -- --json
# --version: the library's table of systems, each with its engine variants (ref first)
run --version
has "$TMP/out" '^weighted +doc/weighted\.md +ref fast-scalar' "--version lists weighted and its variants"
has "$TMP/out" '^ring +doc/ring\.md +ref fast$' "--version lists the ring's engines"
has "$TMP/out" '^gslb +doc/gslb\.md +ref$' "--version lists the GSLB engine"

run;                                              one_line_error "no command"
run frobnicate;                                   one_line_error "unknown command"
run check;                                        one_line_error "check without CONFIG"
run check "$SYN" --bogus;                         one_line_error "check: unknown option"
run check "$SYN" extra;                           one_line_error "check: extra argument"
run check "$DATA/no-such-file.conf";              one_line_error "check: unreadable config"
run check "$SYN" --zone "$DATA/no-such.zone" example.com.; one_line_error "check: unreadable zone file"
run check "$SYN" --zone "$DATA/bad.zone";         one_line_error "check: --zone without ORIGIN"
run explain;                                      one_line_error "explain without CONFIG"
run explain "$SYN" nosuch;                        one_line_error "explain: unknown resource"
run explain "$DATA/no-such-file.conf";            one_line_error "explain: unreadable config"
run explain "$SYN" --state web_check="$DATA/bad.state";   one_line_error "explain: bad state line"
run explain "$SYN" --state web_check="$DATA/nofile.state"; one_line_error "explain: unreadable state file"
run explain "$SYN" --state "$DATA/bad.state";     one_line_error "explain: --state without SERVICE="
run explain "$SYN" --state nosuch_svc="$DATA/pub1_down.state"; one_line_error "explain: --state for an undefined service type"
run explain "$SYN" --down 203.0.113.99;           one_line_error "explain: --down matching nothing"
run explain "$SYN" --down;                        one_line_error "explain: --down without a value"
run explain "$SYN" --frob;                        one_line_error "explain: unknown option"
run sample "$SYN" corpwww;                        one_line_error "sample without -n"
run sample "$SYN" -n 10;                          one_line_error "sample without RESOURCE"
run sample "$SYN" nosuch -n 10;                   one_line_error "sample: unknown resource"
run sample "$SYN" corpwww -n 0;                   one_line_error "sample: -n 0"
run sample "$SYN" corpwww -n 10000000001;         one_line_error "sample: -n above 10^10"
run sample "$SYN" corpwww -n 12x;                 one_line_error "sample: -n not a number"
run sample "$SYN" corpwww -n -5;                  one_line_error "sample: negative -n"
run sample "$SYN" corpwww -n 99999999999999999999999; one_line_error "sample: -n overflowing 64 bits"
run sample "$SYN" corpwww -n 10 --seed abc;       one_line_error "sample: bad seed"
# --seed takes the whole range of 64 bits (man/wsel.1): 2^64-1 is a seed, 2^64 and an
# empty value are not
usage_err "--seed expects an integer from 0 to 2^64-1, got ''" "sample: empty seed" sample "$SYN" corpwww -n 10 --seed=
usage_err "got '18446744073709551616'" "sample: seed 2^64" sample "$SYN" corpwww -n 10 --seed 18446744073709551616
run sample "$SYN" corpwww -n 10 --seed 18446744073709551615; is_rc 0 "sample: seed 2^64-1 is accepted"
run sample "$SYN" corpwww -n 10 --engine warp;    one_line_error "sample: unknown engine"
run sample "$SYN" corpwww -n 10 --down nosuch.example.; one_line_error "sample: --down matching nothing"
run sample "$SYN" corpwww extra -n 10;            one_line_error "sample: extra argument"

# Config errors are exit 1 with one FILE:LINE:COL: line, in every command.
run check "$DATA/typo_error.conf"
[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; ok $? "check: invalid config exits 1 with one line"
has "$TMP/err" '^[^:]*typo_error\.conf:3:[0-9]+: ' "check: error line is FILE:LINE:COL: message"
has "$TMP/err" "did you mean 'up_thresh'" "check: misspelled parameter gets a hint"
run explain "$DATA/typo_error.conf"
[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; ok $? "explain: invalid config exits 1 with one line"
run sample "$DATA/typo_error.conf" res -n 10
[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; ok $? "sample: invalid config exits 1 with one line"
run check "$DATA/typo_error.conf" --json
[ "$RC" -eq 1 ] && jq -e '.valid == false and (.errors | length) == 1 and .errors[0].line == 3' "$TMP/out" >/dev/null; ok $? "check --json: invalid config reported in JSON"
done_testing
