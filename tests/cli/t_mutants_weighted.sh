#!/bin/sh
# Tests written for generated mutants of the weighted code and CLI that survived the other
# tests (scripts/mutgen.py, `make mutants-sample`; README, *Mutation testing*). Each case
# names the mutant id it kills; expectations come from the man page, not from a run.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

# cli/weighted/weighted_sample.c@bd14058d0b:const:1:2:1 -- wsel(1), sample: "-n N may also be written -n=N,
# --n N or --n=N"; each spelling draws N answers, wherever it stands among the options.
for spelling in "-n=7" "--n=7" "-n 7" "--n 7"; do
    # shellcheck disable=SC2086
    run sample "$SYN" corpwww --engine ref --json $spelling
    is_rc 0 "sample $spelling last: exit 0"
    jqok '.n == 7 and ([.answers[] | .count] | add) == 7' "sample $spelling last: 7 draws"
    # shellcheck disable=SC2086
    run sample "$SYN" corpwww $spelling --seed 3 --engine ref --json
    jqok '.n == 7 and .seed == 3 and ([.answers[] | .count] | add) == 7' \
        "sample $spelling before --seed 3: 7 draws, seed 3"
done

# cli/weighted/weighted_sample.c@3f7f1d2cb9:not:!::1 -- wsel(1), sample: with more than 4096 answers (both
# sets combined) each set gets sub-tests; a set whose own answers can be enumerated (here
# addrs_v4, 2 answers) gets answer-sets (df 1), the ungrouped-multi set (14 items, 2^13
# answers) items (df 13, the always-included item excluded).
cat >"$TMP/mix.conf" <<'CONF'
mix => {
  addrs_v4 => { a => [ 192.0.2.1, 1 ] b => [ 192.0.2.2, 3 ] }
  addrs_v6 => { multi => true
    h1 = [ 2001:db8::1, 1 ] h2 = [ 2001:db8::2, 2 ] h3 = [ 2001:db8::3, 3 ] h4 = [ 2001:db8::4, 4 ]
    h5 = [ 2001:db8::5, 5 ] h6 = [ 2001:db8::6, 6 ] h7 = [ 2001:db8::7, 7 ] h8 = [ 2001:db8::8, 8 ]
    h9 = [ 2001:db8::9, 9 ] h10 = [ 2001:db8::a, 10 ] h11 = [ 2001:db8::b, 11 ] h12 = [ 2001:db8::c, 12 ]
    h13 = [ 2001:db8::d, 13 ] h14 = [ 2001:db8::e, 14 ] }
}
CONF
run sample "$TMP/mix.conf" mix -n 4000 --json
is_rc 0 "enumerable v4 set beside a non-enumerable v6 set: exit 0"
jqok '.test == "subtests" and (.subtests | map([.kind, .set, .draws, .df])) == [["answer-sets", 0, 4000, 1], ["items", 1, 4000, 13]]' \
    "enumerable v4 set beside a non-enumerable v6 set: answer-sets for set 0, items for set 1"

# cli/weighted/weighted_sample.c@245ee07837:const:100:101:2 -- wsel(1), sample: with N >= 10^6 and standard
# error a terminal, the progress bar is redrawn at each whole percent of the draws, 0 % to
# 99 %, then erased. script(1) gives the command a terminal.
if script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    script -qec "'$WSEL' sample '$SYN' corpwww -n 1000000 --json >'$TMP/out'" /dev/null \
        </dev/null >"$TMP/tty"
    jqok '.n == 1000000' "progress run: 10^6 draws"
    tr '\r' '\n' <"$TMP/tty" | sed -n 's/^\[[# ]\{50\}\] *\([0-9]*\)%$/\1/p' >"$TMP/pct"
    seq 0 99 | cmp -s - "$TMP/pct"; r=$?
    [ $r -eq 0 ] || echo "# progress percentages: $(tr '\n' ' ' <"$TMP/pct" | head -c 400)"
    ok $r "progress bar: one frame per whole percent, 0 to 99"
    [ "$(tail -c 4 "$TMP/tty" | od -An -c | tr -d ' ')" = '\r033[K' ]
    ok $? "progress bar: erased at the end"
else
    for k in 1 2 3; do
        T_N=$((T_N + 1)); echo "ok $T_N - # SKIP script(1) cannot give a terminal ($k)"
    done
fi

# core/weighted/weighted_model.c@8f61b42f84:lcr:||:&&:1 -- wsel(1), check: a resource label that
# looks like a misspelt parameter is a warning at FILE:LINE:COL of the label.
printf 'r => { a => [ 192.0.2.1, 1 ] }\n  up_tresh => { a => [ 192.0.2.2, 1 ] }\n' >"$TMP/res.conf"
run check "$TMP/res.conf" --stanza
is_rc 0 "misspelt resource label: valid"
has "$TMP/err" "^$TMP/res\\.conf:2:3: warning: resource 'up_tresh': resource label 'up_tresh' looks like a misspelling of the parameter 'up_thresh'\$" \
    "misspelt resource label: warned at the label, line 2 column 3"
run check "$TMP/res.conf" --stanza --json
jqok ".warnings | length == 1 and .[0].file == \"$TMP/res.conf\" and .[0].line == 2 and .[0].col == 3" \
    "misspelt resource label: --json warning at line 2 column 3"

# core/weighted/weighted_model_check.c@4be10f53a6:aor:-:+:2 -- wsel(1), check: edit distance
# counts an adjacent transposition as one edit, so mlutx (swap u/l, then i -> x) is 2
# edits from multi (3 without the swap) and is warned about.
printf 'r => { mlutx => [ 192.0.2.1, 1 ] }\n' >"$TMP/swap.conf"
run check "$TMP/swap.conf" --stanza
is_rc 0 "label mlutx: valid"
has "$TMP/err" "item label 'mlutx' looks like a misspelling of the parameter 'multi'" \
    "label mlutx (a swap and a substitution): warned as multi"
vg 0 "check, label mlutx: valgrind clean" check "$TMP/swap.conf" --stanza

# fast/weighted/weighted_avx2.c@c05bbbbf81:const:1:0:1 -- the AVX2 kernel's fused path for a
# one-set ungrouped-multi resource of 8 or more items reads only that set's snapshot.
if "$WSEL" sample "$DATA/big_multi.conf" big -n 1 --engine fast-avx2 >/dev/null 2>&1; then
    vg 0 "sample big_multi, --engine fast-avx2: valgrind clean" sample "$DATA/big_multi.conf" big -n 200 \
        --engine fast-avx2 --json
else
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP fast-avx2 not available on this CPU"
fi

# The 2^13-answer sample's draws all counted (short) and its answers in order (order).
all_drawn_in_order() {
    jq -e '[.answers[] | .count] | add == 300' "$TMP/out" >/dev/null 2>&1 || echo short
    jq -e '[.answers[] | [.labels[] | ltrimstr("addrs_v6/h") | tonumber]] as $a | $a == ($a | sort)' \
        "$TMP/out" >/dev/null 2>&1 || echo order
}

# corpwww's fit ran: df 1 and p a number (untested).
fit_ran() {
    jq -e '.df == 1 and (.p | type) == "number"' "$TMP/out" >/dev/null 2>&1 || echo untested
}

# cli/weighted/weighted_sample.c@d27a646142:stmt:rc = oom();:;:1 and
# cli/weighted/weighted_amap.c@843221245a:const:1:0:1 -- wsel(1), sample: N answers are drawn,
# and for a resource too big to enumerate "every distinct answer drawn, in order" is
# listed: answers compared item by item in configuration order, one that is a prefix of
# another first (here every answer holds h1, the heaviest, so prefixes abound); out of
# memory is exit 3 with a message (EXIT STATUS). A 14-item multi set (2^13 answers) is
# sampled with each allocation refused in turn, alone (tests/cli/failmalloc.c,
# WSEL_FAILMALLOC_ONCE: the later ones succeed, so nothing masks a failure that went
# unreported): each run exits 3, or exits 0 with all 300 draws counted and the answers in
# that order -- also when the refused allocation is qsort's own scratch buffer, which makes
# glibc fall back to its unstable quicksort.
if oom_setup; then
    printf 'mix => { addrs_v6 => { multi => true\n' >"$TMP/m14.conf"
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
        printf '  h%d = [ 2001:db8::%x, %d ]\n' "$i" "$i" "$((15 - i))" >>"$TMP/m14.conf"
    done
    printf '} }\n' >>"$TMP/m14.conf"
    each_refused all_drawn_in_order sample "$TMP/m14.conf" mix -n 300 --json
    [ -z "$bad" ]
    ok $? "sample of 2^13 answers, each of $n allocations refused alone: exit 3, or all 300 draws counted and listed in order${bad:+ (failed at:$(echo "$bad" | cut -c1-150))}"
else
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP out-of-memory injection needs a glibc build without sanitizers"
fi

# wsel(1), sample: out of memory is exit 3 with a message, never a result. The
# goodness-of-fit test's own bins (odds/stat.c) and their combination are allocations
# too: a refusal there once printed chi2 0, df 0, p null and exited 0, a test that did not
# run reported as "nothing to test". Each allocation of a sample of corpwww (three
# answers, a real test: df 1) is refused alone: each run exits 3 saying so, or exits 0
# with df 1 and p a number.
if oom_setup; then
    each_refused fit_ran sample examples/synopsis.conf corpwww -n 50 --json
    [ -z "$bad" ]
    ok $? "sample's fit with each of $n allocations refused alone: exit 3, or a test that ran${bad:+ (failed at:$(echo "$bad" | cut -c1-150))}"
else
    T_N=$((T_N + 1)); echo "ok $T_N - # SKIP out-of-memory injection needs a glibc build without sanitizers"
fi

# sample counting answers the odds do not list (8192 answer sets, over the 4096 the odds
# enumerate: a multi resource of weights 1..14) in its own table, past the table's first
# size: each set listed once, the counts adding up to the draws (the table's regrowth
# rehashes every answer it holds)
{
    echo 'r => { multi => true'
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do echo "  a$i => [ 192.0.2.$i, $i ]"; done
    echo '}'
} >"$TMP/m14.conf"
run sample "$TMP/m14.conf" r -n 20000 --json; is_rc 0 "sample of 8192 answer sets exits 0"
jqok '(.answers | length) > 1024 and ([.answers[].labels | join(" ")] | length == (unique | length)) and ([.answers[].count] | add) == 20000' "sample: answers the odds do not list, each once, counts adding up to n"

# cli/weighted/weighted_sample.c@39833b126d:const:2:1:1 -- wsel(1), sample: with N >= 10^6
# and standard error a terminal, a progress bar on standard error, "redrawn at each whole
# percent of the draws (0 % to 99 %) and erased when they are done". script(1) (util-linux,
# essential in Debian) gives the command a terminal. Each frame is "\r[" + 50 cells + "] "
# + the percentage in 3 columns + "%"; a cell is '#' for each 2 % done (the bar is 50 cells for
# 100 %), so p % fills p/2 cells; the last frame is erased with "\r" and ESC [ K.
if command -v script >/dev/null 2>&1; then
    script -qec "'$WSEL' sample '$SYN' corpwww -n 1000000 --seed 1 --engine ref >/dev/null" /dev/null \
        >"$TMP/pty" 2>&1
    python3 - "$TMP/pty" >"$TMP/pty.check" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read().decode("latin-1").replace("\r\n", "\n")
frames = text.split("\r")
bad = [f for f in frames[1:-1] if not re.fullmatch(r"\[[# ]{50}\] [ \d]{2}\d%", f)]
pcts = [int(f[53:56]) for f in frames[1:-1] if f not in bad]
wrong = [f for f, p in zip(frames[1:-1], pcts) if f[1:51] != "#" * (p // 2) + " " * (50 - p // 2)]
if frames[0] or bad or wrong or pcts != list(range(100)) or frames[-1] != "\x1b[K":
    print("first %r; %d malformed (%r); %d wrong fills (%r); percentages %r; last %r"
          % (frames[0][:40], len(bad), bad[:1], len(wrong), wrong[:1], pcts[:5], frames[-1][:20]))
PY
    [ ! -s "$TMP/pty.check" ]; r=$?
    [ $r -eq 0 ] || echo "# $(head -c 400 "$TMP/pty.check")"
    ok $r "sample on a terminal, -n 10^6: 100 frames, 0 % to 99 %, p % fills p/2 of 50 cells, then erased"
else
    echo "ok $((T_N + 1)) # SKIP script(1) missing: no terminal to draw on"; T_N=$((T_N + 1))
fi

# cli/weighted/weighted_sample.c@a6e4b8752c:lcr:&&:||:1 -- wsel(1), sample (text, a set
# with more answers than the odds list): the distinct answers drawn, most frequent first,
# the top 20 only; fewer than 20 drawn are all listed. big_multi's 14 independent
# inclusions give many distinct answers in 2000 draws and at most 5 in 5.
answer_lines() { # the lines between the "answer" and the "item" column headers
    awk '/^ +count +expected +answer$/ { on = 1; next } /^ +count +expected +item$/ { on = 0 } on' "$TMP/out" | wc -l
}
run sample "$DATA/big_multi.conf" big -n 2000 --seed 1 --engine ref
n=$(answer_lines)
[ "$RC" -eq 0 ] && [ "$n" -eq 20 ] && grep -q ' distinct answers drawn, most frequent first (top 20):$' "$TMP/out"; r=$?
[ $r -eq 0 ] || echo "# exit $RC, $n answer lines"
ok $r "sample, 2000 draws of big_multi: the top 20 answers listed, no more"
run sample "$DATA/big_multi.conf" big -n 5 --seed 2 --engine ref
n=$(answer_lines)
d=$(sed -n 's/^  \([0-9]*\) distinct answers drawn, most frequent first:$/\1/p' "$TMP/out")
[ "$RC" -eq 0 ] && [ -n "$d" ] && [ "$d" -le 5 ] && [ "$n" -eq "$d" ]; r=$?
[ $r -eq 0 ] || echo "# exit $RC, $n answer lines, '$d' distinct"
ok $r "sample, 5 draws of big_multi: each distinct answer listed once ($d)"
# cli/weighted/weighted_sample.c@37bc5cf9ab:aor:*:/:1 -- and the list's own table of the
# distinct answers (sorted by count) is as large as their number: under valgrind, no
# memory error ("never a crash")
vg 0 "sample text of big_multi, 2000 draws: no memory error under valgrind" \
    sample "$DATA/big_multi.conf" big -n 2000 --seed 1 --engine ref

# cli/weighted/weighted_answers.c@c8e1c45ffd:aor:/:*:1 -- explain --json: an answer's
# p_exact is the product of its sets' exact fractions, "num/den when the probability is
# exactly that fraction (in lowest terms, both parts below 2^64), else null" (wsel(1),
# explain). Worked with Python's fractions: single sets
# 999983:1 and 999979:1 give (999983/999984)(999979/999980) = 999962000357/999964000320
# and the other three; multi sets whose heaviest item is always in (a 999983, b 2, c 3;
# d 999979, e 5, f 7) give each set's answers denominators 999983^2 and 999979^2, whose
# product (about 1e24) needs more than 64 bits: every p_exact null.
printf 'r => { addrs_v4 => { a => [ 192.0.2.1, 999983 ], b => [ 192.0.2.2, 1 ] }\n       addrs_v6 => { d => [ 2001:db8::1, 999979 ], e => [ 2001:db8::2, 1 ] } }\n' >"$TMP/ex1.conf"
run explain --stanza "$TMP/ex1.conf" --json
jqok '[.resources[0].answers[] | .p_exact] == ["999962000357/999964000320", "999983/999964000320", "999979/999964000320", "1/999964000320"]' \
    "explain: exact products of two sets' fractions, reduced"
printf 'r => { addrs_v4 => { multi => true, a => [ 192.0.2.1, 999983 ], b => [ 192.0.2.2, 2 ], c => [ 192.0.2.3, 3 ] }\n       addrs_v6 => { multi => true, d => [ 2001:db8::1, 999979 ], e => [ 2001:db8::2, 5 ], f => [ 2001:db8::3, 7 ] } }\n' >"$TMP/ex2.conf"
run explain --stanza "$TMP/ex2.conf" --json
jqok '(.resources[0].answers | length) == 16 and ([.resources[0].answers[] | .p_exact] | unique) == [null]' \
    "explain: products past 64 bits are not exact (null), all 16 answers"

done_testing
