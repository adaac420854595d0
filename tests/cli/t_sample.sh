#!/bin/sh
# bin/wsel sample: counts against hand-derived expectations, the chi-squared test, and
# identical output from every available engine for one seed.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"
J='def near(a; b): ((a - b) | if . < 0 then -. else . end) < 1e-6;'
jqn() { jqok "$J $1" "$2"; }

run sample "$SYN" corpwww -n 100000 --seed 7 --engine ref --json
is_rc 0 "corpwww ref: exit 0"
jqn '.resource == "corpwww" and .n == 100000 and .seed == 7 and .engine == "ref" and .test == "answer-sets"' "json header fields"
jqn '([.answers[] | .count] | add) == 100000' "counts add up to n"
jqn '.answers | map(.labels) == [["lb01"],["lb02"],["lb03"]]' "answers by label"
jqn '.answers | near(.[0].expected; 100000*99/115) and near(.[1].expected; 100000*15/115) and near(.[2].expected; 100000/115)' "expected counts n*99/115, n*15/115, n/115"
jqn '.df == 2 and .p > 0.001 and .impossible == false' "chi-squared: df 2, p > 0.001"

run sample "$SYN" corpwww -n 1000 --json --engine ref
A=$(jq -c . "$TMP/out")
run sample "$SYN" corpwww -n 1000 --seed 1 --json --engine ref
[ "$A" = "$(jq -c . "$TMP/out")" ]; ok $? "default seed is 1"
run sample "$SYN" corpwww -n 1000 --seed 2 --json --engine ref
[ "$A" != "$(jq -c . "$TMP/out")" ]; ok $? "another seed gives other counts"

# Engines agree word for word (random-word contract): identical JSON but for .engine.
for spec in "corpwww" "frontwww6" "pubwww --down 192.0.2.1" "cdnwww --down 127.0.0.4" "mixed" "cn"; do
    # shellcheck disable=SC2086
    run sample "$SYN" $spec -n 20000 --seed 42 --engine ref --json
    jq -c 'del(.engine)' "$TMP/out" >"$TMP/ref.json"
    for e in fast fast-scalar fast-sse2 fast-avx2; do
        # shellcheck disable=SC2086
        run sample "$SYN" $spec -n 20000 --seed 42 --engine $e --json
        if [ "$RC" -eq 2 ] && grep -q 'not available' "$TMP/err"; then
            T_N=$((T_N + 1)); echo "ok $T_N - # SKIP $e not available on this CPU"; continue
        fi
        jq -c 'del(.engine)' "$TMP/out" >"$TMP/e.json" 2>/dev/null
        cmp -s "$TMP/ref.json" "$TMP/e.json"; ok $? "$spec: $e output identical to ref"
    done
done

# The state is honoured and the test still fits.
run sample "$SYN" pubwww -n 50000 --down 192.0.2.1 --json
jqn '.items[0].count == 0 and .items[0].expected == 0' "a DOWN item is never drawn"
jqn '.items[1:] | map(near(.expected; 50000/3)) | all' "the other three expect n/3"
jqn '.p > 0.001 and .df == 2' "pubwww with one DOWN: chi-squared fits"
run sample "$SYN" pubwww -n 50000 --down 192.0.2.1 --down 192.0.2.2 --down 192.0.2.3 --down 192.0.2.4 --json
jqn '.items | map(.expected) | near(.[0]; 50000*4/7)' "all DOWN: failover, drawn as all UP"
jqn '.p > 0.001' "all DOWN: chi-squared fits the all-UP odds"

# Merging small bins: lb03 expects 100/115 < 5 in 100 draws and is pooled.
run sample "$SYN" corpwww -n 100 --json --engine ref
jqn '.df == 1' "bins expecting < 5 are merged (3 answers -> 2 bins -> df 1)"

# A deterministic answer: nothing to test.
run sample "$SYN" mixed -n 10 --json --engine ref
jqn '(.answers | length) == 8 and ([.answers[] | .count] | add) == 10' "mixed: 8 combined answers listed"

# More than 4096 possible answers: per-item test.
run sample "$DATA/big_multi.conf" big -n 20000 --json
is_rc 0 "big_multi: exit 0"
jqn '.test == "subtests" and (.items | length) == 14' "not enumerable: sub-tests"
jqn '.subtests == [{kind: "items", set: 0, group: null, draws: 20000, chi2: .chi2, df: 13, p: .p}] and .correction == "none" and .subtests_counted == 1' "ungrouped multi: one items sub-test (inclusions are independent)"
jqn '.items | map(.expected) | (near(.[13]; 20000) and near(.[0]; 20000/14))' "inclusion expected n*w/14"
jqn '.df == 13 and .p > 0.001' "per-item chi-squared: df 13 (the always-included item excluded)"
# Observed answers are listed with expected counts n * prod(in ? i/14 : 1 - i/14).
jqok '.n as $n | (.answers | length) > 100 and ([.answers[] | (.labels | map(ltrimstr("h") | tonumber)) as $in
      | ([range(1; 15) | . as $i | if ($in | index($i)) != null then $i / 14 else 1 - $i / 14 end]
         | reduce .[] as $x (1; . * $x)) as $p
      | (((.expected - $n * $p) / ($n * $p)) | if . < 0 then -. else . end) < 1e-9] | all)' "observed answers carry exact expected counts (hand formula)"
jqok '([.answers[] | .count] | add) == 20000 and .distinct_answers == (.answers | length) and .unlisted_draws == 0' "observed answers account for every draw"
jqok '[.answers[] | .labels | index("h14") != null] | all' "the heaviest item is in every answer"
run sample "$DATA/big_multi.conf" big -n 2000
has "$TMP/out" '^  items          0  -  *2000 ' "text lists the sub-tests"
has "$TMP/out" '^1 sub-test, combined with no correction: chi2 [0-9.e+-]+, df 13, p [0-9.e+-]+$' "text says which test was used"
has "$TMP/out" 'distinct answers drawn, most frequent first \(top 20\):$' "text lists the most frequent answers"

# Grouped sets too large to enumerate: the group choice, then each group's addresses
# among the draws that drew it, per set; combined with Sidak's correction.
awk 'BEGIN { w = 7
  printf "gs => { addrs_v4 => {"
  for (g = 0; g < 8; g++) { printf " g%d => {", g
    for (i = 0; i < 16; i++) { w = (w * 1103 + 17) % 9973; printf " a%d => [ 10.0.%d.%d, %d ]", i, g, i + 1, w + 1 }
    printf " }" }
  printf " }\n  addrs_v6 => { multi => true"
  for (g = 0; g < 8; g++) { printf " h%d => {", g
    for (i = 0; i < 8; i++) { w = (w * 1103 + 17) % 9973; printf " b%d => [ 2001:db8::%d:%d, %d ]", i, g, i + 1, w + 1 }
    printf " }" }
  printf " } }\n" }' >"$TMP/grouped.conf"
run sample "$TMP/grouped.conf" gs -n 40000 --json
is_rc 0 "grouped 8x16 + 8x8: exit 0"
jqn '.test == "subtests" and .correction == "sidak" and .subtests_counted == (.subtests | map(select(.df > 0)) | length)' "sub-tests, Sidak's correction over those with df > 0"
jqn '[.subtests[] | select(.set == 0)] | (.[0].kind == "groups" and .[0].group == null and .[0].draws == 40000 and .[0].df == 7 and (.[1:] | map(.kind) | unique) == ["group-items"] and (.[1:] | map(.group)) == ["g0","g1","g2","g3","g4","g5","g6","g7"] and ([.[1:][] | .draws] | add) == 40000)' "grouped-single set: groups (df 7), then one group-items test per group, whose draws add up to n"
jqn '[.subtests[] | select(.set == 1)] | (.[0].kind == "groups" and (.[1:] | map(.kind) | unique) == ["group-items"] and (.[1:] | map(.group)) == ["h0","h1","h2","h3","h4","h5","h6","h7"] and (.[1:] | map(.df) | unique) == [7])' "grouped-multi set (addrs_v6): groups, then the address chosen in each group drawn (df 7)"
jqn '(([.subtests[] | .p] | min) as $m | (.subtests_counted) as $k | near(.p; 1 - pow(1 - $m; $k))) and .p > 0.001' "combined p = 1 - (1 - min p)^m, and it fits"
jqn 'near(.chi2; ([.subtests[] | .chi2] | add)) and .df == ([.subtests[] | .df] | add)' "chi2 and df are the sub-tests' sums"
run sample "$TMP/grouped.conf" gs -n 4000
has "$TMP/out" '^  groups         0  -  *4000 ' "text: the groups sub-test"
has "$TMP/out" '^  group-items    1  h7  ' "text: a group-items sub-test names its group"
has "$TMP/out" '^18 sub-tests, combined with Sidak.s correction, p = 1 - \(1 - min p\)\^m: chi2 [0-9.e+-]+, df [0-9]+, p [0-9.e+-]+$' "text: the combined line"

# Text output.
run sample "$SYN" cdnwww -n 100000
is_rc 0 "text sample: exit 0"
has "$TMP/out" '^resource cdnwww: 100000 draws, seed 1, engine ' "text header"
has "$TMP/out" ' 44444\.444444  datacenter1/d1-lb1 datacenter1/d1-lb2  \[127\.0\.0\.1 127\.0\.0\.2\]$' "text: expected count n*4/9 beside the answer"
has "$TMP/out" '^chi-squared over answer sets \(bins expecting < 5 merged\): chi2 [0-9.e+-]+, df 2, p [0-9.e+-]+$' "text: chi-squared line"
[ ! -s "$TMP/err" ]; ok $? "no progress bar when stderr is not a terminal"
# Only the sampled resource is prepared (issue 14 item 8): 20000 resources fit in 48 MB
# of address space with one prepared (explain needs about 30 MB), where preparing every
# resource's fast-engine snapshot (about 2.5 KiB a set) needed more than 60 MB.
awk 'BEGIN { for (i = 0; i < 20000; i++)
             printf "r%d => { a => [ 192.0.2.1, 1 ] b => [ 192.0.2.2, 2 ] }\n", i }' >"$TMP/many.conf"
if (ulimit -v 48000 && "$WSEL" --version) >/dev/null 2>&1; then
    for e in fast ref; do
        (ulimit -v 48000; "$WSEL" sample "$TMP/many.conf" r19999 -n 1000 --engine $e --json) \
            >"$TMP/out" 2>"$TMP/err"
        RC=$?
        is_rc 0 "20000 resources, --engine $e: sample fits in 48 MB (prepares one resource)"
        jqn '.resource == "r19999" and ([.answers[] | .count] | add) == 1000' "20000 resources, --engine $e: the last resource sampled"
    done
else
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP this build does not run under ulimit -v (sanitizers)"
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP"
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP"
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP"
fi

# bin/wsel does not link the verification kit: sample's statistics are the library's
# (odds/stat.c, odds/weighted/weighted_fit.c; tests/kit/README.md).
if command -v nm >/dev/null 2>&1; then
    kit=$(nm "$WSEL" 2>/dev/null | grep -c ' wsel_kit_')
    [ "$kit" -eq 0 ]; ok $? "bin/wsel holds no verification-kit symbol ($kit found)"
else
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP nm is not installed"
fi
done_testing
