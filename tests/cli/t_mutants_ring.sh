#!/bin/sh
# Tests written for generated mutants of the ring code (core/ring/, ref/ring/, fast/ring/,
# cli/ring/) that survived the other tests (scripts/mutgen.py, `make mutants-sample`).
# Each case names the mutant id it kills; expectations come from the man page and
# doc/ring.md (worked by hand in the comments), not from a run.
. "$(dirname "$0")/tap.sh"
R="$DATA/../../data/ring"

# core/ring/ring_order.c@993cb85161:aor:+:-:1 -- a repeated 'order' value names the first two
# entries (counted from 1) holding the smallest repeated value (man page, RING SCENARIO).
ring_bad '{"order": [3, 1, 3]}' "\\\$\\.order: .*duplicates \\(entries 1 and 3\\)" \
    "order [3,1,3]: duplicates named as entries 1 and 3"
ring_bad '{"order": [7, 2, 5, 7, 2, 2]}' "\\\$\\.order: .*duplicates \\(entries 2 and 5\\)" \
    "order [7,2,5,7,2,2]: the smallest repeated value, entries 2 and 5"

# cli/ring/ring_cli.c@4bec736ee0:stmt:rc = run_all(cmd, a->scenario, &sc2, &r2:;:1 -- `ring diff`'s
# strict figures come from a strict run of the scenario, not zeros. Counterexample C1
# (tests/data/ring/c1.json: 3 slots; add .1 w3, .2 w5, .3 w1, then .9 w1) by hand, with
# doc/ring.md section 8's strict ranges:
#   add .1: 3 slots to .1                        moved 3, fewest 3, quota deviation 0
#   add .2: q = 9/8, 15/8; .1 in [1,2], .2 in [1,2]; floors 1+1, the spare slot to the
#           larger remainder (.2): 1/2           moved 2, fewest 2, deviation 1/8
#   add .3: q = 1, 5/3, 1/3; .1 [1,1], .2 [1,2], .3 [0,1]; spare to .2 (2/3 > 1/3): 1/2/0
#                                                moved 0, fewest 0, deviation 1/3
#   add .9: q = .9, 1.5, .3, .3; .1 [0,1], .2 [1,2], .3 [0,0], .9 [0,1]; floors 0+1+0+0,
#           two spares to .1 (.9) and .2 (.5): 1/2/0/0
#                                                moved 0, fewest 0, deviation 1/2
# (5.2.3's last change moves 2 slots, one between untouched addresses: doc/ring.md.)
run ring diff "$R/c1.json" --json
jqok '[.changes[].strict | [.moved, .minimalMoved, .untouchedMoves]] == [[3,3,0],[2,2,0],[0,0,0],[0,0,0]]' \
    "C1 diff: strict moved / fewest / untouched per change: 3/3/0, 2/2/0, 0/0/0, 0/0/0"
jqok '[.changes[].strict.maxQuotaDeviation] as $d | [0, 0.125, 1/3, 0.5] as $e
      | [range(4) | ($d[.] - $e[.]) | fabs < 1e-9] | all' \
    "C1 diff: strict largest quota deviations 0, 1/8, 1/3, 1/2"
jqok '[.changes[].strict | (.movedShare * 3 - .moved | fabs < 1e-12)] | all' \
    "C1 diff: strict movedShare is moved / 3"
run ring diff "$R/c1.json"
has "$TMP/out" '^  strict: 2 slots changed owner' "C1 diff (text): the strict line of the second add"

# cli/ring/ring_cli.c@673908cebf:aor:+:-:2 -- a dns op touches the addresses of the host it names
# (man page, ring diff) even when they stay: a.test's SRV target 10.0.0.1 goes from weight 1
# to 4 beside the IP host 10.0.0.2 (weight 1) on 10 slots. 5.2.3's floors (doc/ring.md
# section 5): 5/5 before, floor(10*4/5 + 0.0001) = 8 and 2 after; strict: the same. So 3
# slots move from 10.0.0.2 to 10.0.0.1, a touched address: fewest 3, none between untouched.
cat >"$TMP/srvw.json" <<'EOF'
{"wheelSize": 10,
 "hosts": ["a.test", {"name": "10.0.0.2", "weight": 1}],
 "dns": {"a.test": {"SRV": [{"target": "10.0.0.1", "port": 80, "weight": 1, "priority": 1}]}},
 "ops": [{"op": "dns", "name": "a.test", "SRV": [{"target": "10.0.0.1", "port": 80, "weight": 4, "priority": 1}]}]}
EOF
run ring diff "$TMP/srvw.json" --json
jqok '.changes[0] | [.moved, .minimalMoved, .untouchedMoves, .strict.moved, .strict.minimalMoved, .strict.untouchedMoves] == [3,3,0,3,3,0]' \
    "diff: an SRV weight change by a dns op touches the named host's addresses"
jqok '[.changes[0].slots[] | [.from, .to, .untouched]] | length == 3 and all(. == ["10.0.0.2:80","10.0.0.1:80",false])' \
    "diff: its 3 slots go 10.0.0.2 -> 10.0.0.1, not between untouched addresses"

# cli/ring/ring_scenario.c@69db7ad72d+8:const:1:0:1 (the scenario reader before it moved to
# core/ring/ring_scenario.c; moved here from t_mutants.sh) -- an A/AAAA record whose keys
# are wrong must stop the read (the record's address is never set), for the first record
# and after a good one. A name that is no identifier is written in brackets in the path.
ring_bad '{"dns": {"a.test": {"A": [{"address": "192.0.2.1", "port": 80}]}}, "ops": [{"op": "add", "name": "a.test"}]}' \
    'dns\["a\.test"\]\.A\[0\]\.port: unknown key' "A record with an unknown key"
ring_bad '{"dns": {"a.test": {"A": [{"address": "192.0.2.1"}, {"address": "192.0.2.2", "weight": 1}]}}, "ops": [{"op": "add", "name": "a.test"}]}' \
    'dns\["a\.test"\]\.A\[1\]\.weight: unknown key' "second A record with an unknown key"
ring_bad '{"dns": {"a.test": {"AAAA": [{"address": "::1"}, {"ttl": 5}]}}, "ops": [{"op": "add", "name": "a.test"}]}' \
    "dns\\[\"a\\.test\"\\]\\.AAAA\\[1\\]: missing 'address'" "AAAA record without an address"

# cli/ring/ring_scenario.c@92e5b83e34:const:1:0:1 (moved here from t_mutants.sh) -- a
# scenario's string pool allocated too small still "works" with glibc; only a memory
# checker sees it. Each ring command on the bundled examples must run clean under valgrind.
vg 0 "ring run k2 --json: clean under valgrind" ring run "$EXAMPLES/ring/k2.json" --json
vg 0 "ring show k4: clean under valgrind" ring show "$EXAMPLES/ring/k4.json"
vg 0 "ring diff k2: clean under valgrind" ring diff "$EXAMPLES/ring/k2.json"

# core/ring/ring_model.c@924b997138:aor:+:-:1 -- the ring's journal of moved slots (kept while a fast
# engine is attached) marks slots 1..N: a mark array two bytes short still "works" with
# glibc; valgrind sees it. C1 moves slot 3 of 3 with the fast engine attached.
vg 0 "ring run c1 --engine fast: clean under valgrind" ring run "$R/c1.json" --engine fast --json

# cli/ring/ring_diff.c@f426d951b3:aor:/:*:1 -- `ring diff` in text gives the smallest possible
# move as a share of the wheel too. examples/ring/k2.json, op 0 adds mashape.com:80 (two
# A records) to an empty 10-slot wheel: both addresses are touched and gain all 10 slots,
# none loses any, so the smallest possible move is max(10, 0) = 10 slots (doc/ring.md
# decision 12), 10 / 10 = 100 % of the keys; every slot changes owner (10, 100 %).
run ring diff "$EXAMPLES/ring/k2.json"
is_rc 0 "ring diff k2 (text): exit 0"
holds '  10 slots changed owner (100.0000% of keys); smallest possible 10 (100.0000%); 0 between untouched addresses' \
    "ring diff k2, first add: smallest possible 10 slots, 100 % of the 10-slot wheel"

# cli/ring/ring_cli.c@9ca8c93a7e:lcr:&&:||:1 -- a ring command out of memory exits 3 saying
# so (EXIT STATUS), also when what failed is the snapshot's own slot buffer while the
# output buffer still had room: with each allocation of `ring run k2 --json` refused
# alone, a run exits 3 or prints exactly the output of a run without the fault.
same_as_plain() { cmp -s "$TMP/out" "$TMP/plain" || echo output; }
if oom_setup; then
    "$WSEL" ring run "$EXAMPLES/ring/k2.json" --json >"$TMP/plain"
    each_refused same_as_plain ring run "$EXAMPLES/ring/k2.json" --json
    [ -z "$bad" ]
    ok $? "ring run k2 --json, each of $n allocations refused alone: exit 3, or the whole output${bad:+ (failed at:$(echo "$bad" | cut -c1-150))}"
else
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP out-of-memory injection needs a glibc build without sanitizers"
fi

# core/ring/ring_scenario.c@63369cbfa6:const:0:1:1 -- 'order' holds 1..16777216 numbers
# (man page, RING SCENARIO): an empty list is the error, a one-slot wheel's list of one
# number is read.
ring_bad '{"order": []}' '^[^ ]*:1:11: \$\.order: expected 1\.\.16777216 numbers$' "order []: expected 1..16777216 numbers"
printf '%s\n' '{"wheelSize": 1, "hosts": ["10.0.0.1"], "order": [7]}' >"$TMP/o1.json"
run ring run "$TMP/o1.json" --json
is_rc 0 "order [7] on a one-slot wheel: read"
jqok '.initial.wheel == ["10.0.0.1:80"]' "order [7]: the one slot goes to 10.0.0.1"

done_testing
