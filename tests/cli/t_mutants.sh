#!/bin/sh
# Tests written for generated mutants that survived the other tests (scripts/mutgen.py,
# `make mutants-sample`; README, *Mutation testing*). Each case names the mutant id it
# kills; expectations come from the man page and doc/ring.md, not from a run.
. "$(dirname "$0")/tap.sh"

# ring_bad JSON REGEX NAME: `wsel ring run` rejects the scenario: exit 1, one line on
# stderr matching REGEX, nothing on stdout.
ring_bad() {
    printf '%s\n' "$1" >"$TMP/bad.json"
    run ring run "$TMP/bad.json" --json
    [ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] && grep -Eq -- "$2" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "$3"
}

# cli/ring_scenario.c@69db7ad72d+8:const:1:0:1 -- an A/AAAA record whose keys are wrong
# must stop the read (the record's address is never set), for the first record and after
# a good one.
ring_bad '{"dns": {"a.test": {"A": [{"address": "192.0.2.1", "port": 80}]}}, "ops": [{"op": "add", "name": "a.test"}]}' \
    'dns\.a\.test\.A\[0\]\.port: unknown key' "A record with an unknown key"
ring_bad '{"dns": {"a.test": {"A": [{"address": "192.0.2.1"}, {"address": "192.0.2.2", "weight": 1}]}}, "ops": [{"op": "add", "name": "a.test"}]}' \
    'dns\.a\.test\.A\[1\]\.weight: unknown key' "second A record with an unknown key"
ring_bad '{"dns": {"a.test": {"AAAA": [{"address": "::1"}, {"ttl": 5}]}}, "ops": [{"op": "add", "name": "a.test"}]}' \
    "dns\\.a\\.test\\.AAAA\\[1\\]: missing 'address'" "AAAA record without an address"

done_testing
