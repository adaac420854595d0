#!/bin/sh
# bin/wsel under hostile conditions (issue 14): failed writes, resource failures,
# odd files. Each case names the item of issue 14 it checks.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

# Item 1: a result that cannot be written is a failure, for every command and at close.
for args in "check $SYN" "check $SYN --json" "explain $SYN corpwww" \
            "sample $SYN cdnwww -n 100 --seed 1" "--help" "--version"; do
    # shellcheck disable=SC2086
    "$WSEL" $args >/dev/full 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 3 ] && grep -q "cannot write the output: No space left on device" "$TMP/err"
    ok $? "item 1: wsel $args > /dev/full exits 3 with the reason (exit $RC)"
done
"$WSEL" check "$SYN" >&- 2>"$TMP/err"; RC=$?
[ "$RC" -eq 3 ] && grep -q "cannot write the output: Bad file descriptor" "$TMP/err"
ok $? "item 1: wsel check with stdout closed exits 3 with the reason (exit $RC)"
# the GSLB commands alike; resolve's 2000 queries (over 600 kB of text, or of JSON) fail
# while the queries are still being written, not only at the final flush
GC="$EXAMPLES/gslb/bigip_gtm.conf"
GI="$EXAMPLES/gslb/inputs.json"
for args in "gslb check $GC" "gslb check $GC --json" "gslb explain $GC" "gslb explain $GC --json" \
            "gslb inputs $GC" "gslb resolve $GC www.example.com --inputs $GI -n 2000" \
            "gslb resolve $GC www.example.com --inputs $GI -n 2000 --json"; do
    # shellcheck disable=SC2086
    "$WSEL" $args >/dev/full 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 3 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -q "^wsel: cannot write the output: No space left on device$" "$TMP/err"
    ok $? "item 1: wsel ${args%% /*} > /dev/full exits 3 with the reason, once (exit $RC)"
done

# Item 5: out of memory is exit 3, not "invalid config" (1).
awk 'BEGIN { printf "r => { a => ["; for (i = 0; i < 4000000; i++) printf "1,"; print "] }" }' \
    >"$TMP/big.conf"
(ulimit -v 120000; "$WSEL" check --stanza "$TMP/big.conf" >"$TMP/out" 2>"$TMP/err"); RC=$?
[ "$RC" -eq 3 ] && grep -q "out of memory" "$TMP/err"
ok $? "item 5: out of memory while loading exits 3 (exit $RC: $(head -c 200 "$TMP/err"))"

# Item 5: ... at every allocation of check, explain, states and ring run/show/diff: with
# the first N allocations granted and every later one refused (tests/cli/failmalloc.c,
# preloaded), a command either succeeds with its whole output or exits 3 saying "out of
# memory", never 1 or 2 (a verdict on the input) and never a crash. Up to 40 values of N
# per command spread over all of its allocations (WSEL_OOM_ALL=1: every one).
cat >"$TMP/oom.conf" <<'EOF_CONF'
r => { service_types = s
  addrs_v4 => { a => [192.0.2.1, 1], b => [192.0.2.2, 2] }
  addrs_v6 => { c => [2001:db8::1, 1] } }
g => { multi = true, g1 => { x => [192.0.2.3, 1] }, g2 => { y => [192.0.2.4, 1] } }
EOF_CONF
printf 'www 300 DYNA weighted!r\nv 300 DYNA (\n weighted!g )\n' >"$TMP/oom.zone"
printf '192.0.2.1 => DOWN\n' >"$TMP/oom.state"
printf '"192.0.2.3/up" => DOWN\n' >"$TMP/oom.admin"
if oom_setup; then
    K="$EXAMPLES/ring/k2.json"
    for args in "check --stanza $TMP/oom.conf --zone $TMP/oom.zone example.com." \
                "check --stanza $TMP/oom.conf --json" \
                "explain --stanza $TMP/oom.conf --state s=$TMP/oom.state" \
                "explain --stanza $TMP/oom.conf --json" \
                "states --stanza $TMP/oom.conf --admin-state $TMP/oom.admin --down 192.0.2.2" \
                "ring run $K" "ring run $K --json --engine fast" "ring show $K" \
                "ring show $K --json" "ring diff $K" "ring diff $K --json"; do
        # shellcheck disable=SC2086
        oom_sweep "item 5: wsel ${args%% /*}" $args
    done
else
    ok 0 "# SKIP item 5: out-of-memory injection needs a glibc build without sanitizers"
fi

# Item 2: glob characters in the including file's directory match literally, and a file
# whose exact name holds them is found.
mkdir -p "$TMP/site[1]" "$TMP/site1"
printf 'r => { $include{inc.conf} }\n' >"$TMP/site[1]/main.conf"
printf 'a => [ 192.0.2.1, 1 ]\n' >"$TMP/site[1]/inc.conf"
printf 'wrong => [ 192.0.2.99, 1 ]\n' >"$TMP/site1/inc.conf"
run explain --stanza --json "$TMP/site[1]/main.conf" r
is_rc 0 "item 2: include beside a config in site[1]/"
jqok '[.. | objects | select(has("label")) | .label] | index("a") != null and index("wrong") == null' \
    "item 2: site[1]/inc.conf is included, not site1/inc.conf"
printf 'r => { $include{"lit[x].inc"} }\n' >"$TMP/lit.conf"
printf 'a => [ 192.0.2.1, 1 ]\n' >"$TMP/lit[x].inc"
run check --stanza "$TMP/lit.conf"
is_rc 0 "item 2: \$include{lit[x].inc} finds the file of that exact name"

# Item 3: a directory that cannot be read is an error naming it and why (as a non-root
# user; root reads every directory, so the cases run as nobody when we are root).
as_user() {
    if [ "$(id -u)" -eq 0 ]; then
        command -v setpriv >/dev/null || return 77
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    else
        "$@"
    fi
}
for mode in 311 000; do
    d="$TMP/u$mode"
    mkdir -p "$d/conf.d"
    printf 'a => [ 192.0.2.1, 1 ]\n' >"$d/conf.d/a.conf"
    printf 'r => { $include{conf.d} }\n' >"$d/main.conf"
    chmod 755 "$TMP"; chmod 755 "$d"; chmod 644 "$d/main.conf" "$d/conf.d/a.conf"
    chmod "$mode" "$d/conf.d"
    as_user "$WSEL" check --stanza "$d/main.conf" >"$TMP/out" 2>"$TMP/err"; RC=$?
    chmod 755 "$d/conf.d"
    [ "$RC" -eq 1 ] && grep -q "cannot read the directory '.*conf.d': Permission denied" "$TMP/err"
    ok $? "item 3: \$include{} of a mode $mode directory fails naming it and why (exit $RC: $(head -c 200 "$TMP/err"))"
done
d="$TMP/uglob"; mkdir -p "$d/conf.d"; printf 'a => [ 192.0.2.1, 1 ]\n' >"$d/conf.d/a.conf"
printf 'r => { $include{conf.d/*.conf} }\n' >"$d/main.conf"
chmod 755 "$d"; chmod 644 "$d/main.conf"; chmod 311 "$d/conf.d"
as_user "$WSEL" check --stanza "$d/main.conf" >"$TMP/out" 2>"$TMP/err"; RC=$?
chmod 755 "$d/conf.d"
[ "$RC" -eq 1 ] && grep -q "Permission denied" "$TMP/err"
ok $? "item 3: a glob in an unreadable directory fails with the reason (exit $RC: $(head -c 200 "$TMP/err"))"

# Item 4: a FIFO (config or include) is refused at once, not waited on.
mkfifo "$TMP/fifo.conf" "$TMP/inc.fifo"
timeout 5 "$WSEL" check "$TMP/fifo.conf" >"$TMP/out" 2>"$TMP/err"; RC=$?
[ "$RC" -eq 2 ] && grep -q "FIFO" "$TMP/err"
ok $? "item 4: a FIFO as the config is refused (exit $RC: $(head -c 200 "$TMP/err"))"
printf 'r => { $include{inc.fifo} }\n' >"$TMP/fifoinc.conf"
timeout 5 "$WSEL" check --stanza "$TMP/fifoinc.conf" >"$TMP/out" 2>"$TMP/err"; RC=$?
[ "$RC" -eq 1 ] && grep -q "FIFO" "$TMP/err"
ok $? "item 4: a FIFO as an include is refused (exit $RC: $(head -c 200 "$TMP/err"))"

# Items 4 and 11: a state file must be a regular file, refused at once with the reason.
mkfifo "$TMP/state.fifo"
for opt in "--state web_check=$TMP/state.fifo" "--admin-state $TMP/state.fifo"; do
    # shellcheck disable=SC2086
    timeout 5 "$WSEL" explain "$SYN" pubwww $opt >"$TMP/out" 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 2 ] && grep -q "state.fifo' is a FIFO" "$TMP/err"
    ok $? "item 4: a FIFO given as ${opt%% *} is refused (exit $RC: $(head -c 200 "$TMP/err"))"
done
timeout 5 "$WSEL" ring run "$TMP/state.fifo" >"$TMP/out" 2>"$TMP/err"; RC=$?
[ "$RC" -eq 2 ] && grep -q "scenario '.*state.fifo' is a FIFO" "$TMP/err"
ok $? "item 4: a FIFO given as a ring scenario is refused (exit $RC: $(head -c 200 "$TMP/err"))"
run ring show "$TMP/none.json"
has "$TMP/err" "none.json': No such file or directory" "item 11: a missing ring scenario names it and says why"
run explain "$SYN" pubwww --state "web_check=$TMP"
one_line_error "item 11: a directory as a state file"
has "$TMP/err" "'$TMP' is a directory" "item 11: ... names it and says it is a directory"
run states "$SYN" --state "web_check=$TMP/none.state"
has "$TMP/err" "none.state': No such file or directory" "item 11: a missing state file names it and says why"

# Item 12: a dangling symlink or a symlink loop as an include says why.
ln -s "$TMP/nowhere.conf" "$TMP/dangling.conf"
ln -s "$TMP/loop2.conf" "$TMP/loop1.conf"; ln -s "$TMP/loop1.conf" "$TMP/loop2.conf"
for t in dangling:"dangling symbolic link" loop1:"Too many levels of symbolic links"; do
    printf 'r => { $include{%s.conf} }\n' "${t%%:*}" >"$TMP/sl.conf"
    run check --stanza "$TMP/sl.conf"
    [ "$RC" -eq 1 ] && grep -q "${t#*:}" "$TMP/err"
    ok $? "item 12: include of a ${t%%:*} symlink says '${t#*:}' ($(head -c 200 "$TMP/err"))"
done

# Item 6: a parenthesised record spanning lines is one record.
printf 'www 300 DYNA (\n    weighted!pubwww )\nmail 300 DYNC ( weighted!corpwww ; comment\n )\n' \
    >"$TMP/multi.zone"
run check "$SYN" --zone "$TMP/multi.zone" example.com. --json
is_rc 0 "item 6: a multi-line DYNA record is valid"
jqok '.records == 2 and (.errors | length) == 0' "item 6: both multi-line records are checked"
printf 'www 300 DYNA (\n    weighted!nosuch )\n' >"$TMP/multi-bad.zone"
run check "$SYN" --zone "$TMP/multi-bad.zone" example.com.
is_rc 1 "item 6: a multi-line record naming no resource is an error"
has "$TMP/err" 'multi-bad.zone:2:14: .*nosuch' "item 6: ... at the line and column of the resource"
printf 'www 300 DYNA ( weighted!pubwww\n' >"$TMP/open.zone"
run check "$SYN" --zone "$TMP/open.zone" example.com.
is_rc 1 "item 6: a '(' never closed is an error"

# Item 4 / 11: a zone file that is a FIFO or a directory is refused with the reason.
mkfifo "$TMP/z.fifo"
timeout 5 "$WSEL" check "$SYN" --zone "$TMP/z.fifo" example.com. >"$TMP/out" 2>"$TMP/err"; RC=$?
[ "$RC" -eq 2 ] && grep -q "FIFO" "$TMP/err"
ok $? "item 4: a FIFO as the zone file is refused (exit $RC: $(head -c 200 "$TMP/err"))"
run check "$SYN" --zone "$TMP" example.com.
one_line_error "item 11: a directory as the zone file"
has "$TMP/err" "is a directory" "item 11: ... says it is a directory"
run check "$SYN" --zone "$TMP/none.zone" example.com.
has "$TMP/err" "No such file or directory" "item 11: a missing zone file says why"
run check "$TMP"
one_line_error "item 11: a directory as the config"
has "$TMP/err" "is a directory" "item 11: ... says it is a directory"

# Item 12: control bytes of labels never reach the terminal raw.
printf 'r => { "a\\027[2Jb" => [192.0.2.1, 1], "a\\027[2Jb" => [192.0.2.2, 1] }\n' >"$TMP/ctl.conf"
run check --stanza "$TMP/ctl.conf"
is_rc 1 "item 12: a duplicate label holding ESC is an error"
! grep -q "$(printf '\033')" "$TMP/err"; ok $? "item 12: no raw ESC byte on stderr"
has "$TMP/err" 'a\\027\[2Jb' "item 12: ... it is shown as \\027"

# Item 12: ... nor in any text output of check, explain, states and ring run/show/diff
# (labels, groups, resource names, service types, host names, ops' error messages).
printf '"r\\027x" => { service_types = "s\\027v"\n  "a\\027[2Jb" => [192.0.2.1, 1]\n  c => [192.0.2.2, 1] }\ng => { "G\\027" => { "i\\027" => [192.0.2.3, 1] } }\n' \
    >"$TMP/ctl2.conf"
printf '192.0.2.9 => DOWN\n' >"$TMP/ctl.state"
printf '{"wheelSize": 10, "dns": {"a\\u001b[2Jb": {"A": [{"address": "1.2.3.4"}]}},\n "ops": [{"op": "add", "name": "a\\u001b[2Jb", "port": 80, "weight": 5}, {"op": "snapshot"}]}\n' \
    >"$TMP/ctl.json"
printf '{"ops": [{"op": "status", "ip": "1.2.3.4\\u001b", "port": 1, "available": true}]}\n' \
    >"$TMP/ctlbad.json"
printf '{"ops": [{"op": "no\\u001b"}]}\n' >"$TMP/ctlop.json"
ESC=$(printf '\033')
for args in "check --stanza $TMP/ctl2.conf" "explain --stanza $TMP/ctl2.conf" \
            "states --stanza $TMP/ctl2.conf --state s${ESC}v=$TMP/ctl.state" \
            "ring run $TMP/ctl.json" "ring show $TMP/ctl.json" "ring diff $TMP/ctl.json" \
            "ring run $TMP/ctlbad.json" "ring run $TMP/ctlop.json"; do
    # shellcheck disable=SC2086
    run $args
    ! cat "$TMP/out" "$TMP/err" | grep -q "$ESC" && cat "$TMP/out" "$TMP/err" | grep -q '\\027'
    ok $? "item 12: wsel ${args%% /*} ${args##*/}: control bytes escaped, never raw (exit $RC)"
done

# Item 12: an unknown WSEL_FAST_KERNEL is reported, not silently ignored.
WSEL_FAST_KERNEL=bogus "$WSEL" check "$SYN" >"$TMP/out" 2>"$TMP/err"; RC=$?
[ "$RC" -eq 0 ] && grep -q "WSEL_FAST_KERNEL='bogus' names no fast variant" "$TMP/err"
ok $? "item 12: WSEL_FAST_KERNEL=bogus warns (exit $RC)"
WSEL_FAST_KERNEL=scalar "$WSEL" check "$SYN" >"$TMP/out" 2>"$TMP/err"
! grep -q "WSEL_FAST_KERNEL" "$TMP/err"; ok $? "item 12: WSEL_FAST_KERNEL=scalar is accepted silently"

done_testing
