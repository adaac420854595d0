# Shared by tests/cli/t_*.sh (sourced, not run): TAP output and helpers.
# The binary is ${WSEL:-bin/wsel}, relative to the directory make runs in.
set -u
WSEL=${WSEL:-bin/wsel}
case "$WSEL" in /*) ;; *) WSEL="$(pwd)/$WSEL" ;; esac
DATA="$(cd "$(dirname "$0")" && pwd)/data"
EXAMPLES="$(cd "$(dirname "$0")/../../examples" && pwd)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
T_N=0
T_FAIL=0

ok() { # ok CONDITION_STATUS NAME
    T_N=$((T_N + 1))
    if [ "$1" -eq 0 ]; then echo "ok $T_N - $2"; else echo "not ok $T_N - $2"; T_FAIL=$((T_FAIL + 1)); fi
}

# run ARGS...: runs the binary; stdout in $TMP/out, stderr in $TMP/err, status in $RC.
# With WSEL_LSAN set (scripts/mutgen.py sets it to liblsan's name), LeakSanitizer is
# preloaded into the binary alone: a leak exits 23 with its report on stderr.
run() {
    if [ -n "${WSEL_LSAN:-}" ]; then
        LD_PRELOAD="$WSEL_LSAN" LSAN_OPTIONS=exitcode=23 "$WSEL" "$@" >"$TMP/out" 2>"$TMP/err"
    else
        "$WSEL" "$@" >"$TMP/out" 2>"$TMP/err"
    fi
    RC=$?
}

is_rc() { # is_rc EXPECTED NAME
    [ "$RC" -eq "$1" ]; r=$?
    [ $r -eq 0 ] || echo "# exit status $RC, expected $1; stderr: $(head -c 300 "$TMP/err")"
    ok $r "$2"
}

# one_line_error NAME: exit 2 with exactly one line on stderr and nothing on stdout.
one_line_error() {
    lines=$(wc -l <"$TMP/err")
    [ "$RC" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$TMP/out" ]; r=$?
    [ $r -eq 0 ] || echo "# exit $RC, $lines stderr line(s): $(head -c 300 "$TMP/err")"
    ok $r "$1"
}

has() { # has FILE REGEX NAME  (extended regex, one line matches)
    grep -Eq -- "$2" "$1"; r=$?
    [ $r -eq 0 ] || echo "# no line matching /$2/ in $(basename "$1")"
    ok $r "$3"
}

# jqok FILTER NAME: the JSON on stdout satisfies FILTER (jq -e, must yield true).
# An empty stdout fails: jq 1.6 -e yields exit 0 on no input at all.
jqok() {
    if [ -s "$TMP/out" ]; then
        jq -e "$1" "$TMP/out" >/dev/null 2>"$TMP/jqerr"; r=$?
    else
        r=1; echo "(stdout was empty)" >"$TMP/jqerr"
    fi
    [ $r -eq 0 ] || echo "# jq filter failed: $1 $(head -c 200 "$TMP/jqerr")"
    ok $r "$2"
}

# ring_bad JSON REGEX NAME: `wsel ring run` rejects the scenario: exit 1, one line on
# stderr matching REGEX, nothing on stdout.
ring_bad() {
    printf '%s\n' "$1" >"$TMP/bad.json"
    run ring run "$TMP/bad.json" --json
    [ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] && grep -Eq -- "$2" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(head -c 300 "$TMP/err")"
    ok $r "$3"
}

# vg RC NAME ARGS...: `wsel ARGS` under valgrind exits RC with no memory error (reads of
# uninitialised memory included) and no definite or indirect leak ("never a crash, a
# leak"); a skip when valgrind is missing.
vg() {
    want=$1 name=$2; shift 2
    if ! command -v valgrind >/dev/null 2>&1; then
        T_N=$((T_N + 1)); echo "ok $T_N # SKIP valgrind not installed ($name)"; return
    fi
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=97 \
        "$WSEL" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?
    [ "$RC" -eq "$want" ]; r=$?
    [ $r -eq 0 ] || echo "# exit $RC: $(grep -m 3 -v '^$' "$TMP/err" | tr '\n' ' ' | head -c 400)"
    ok $r "$name"
}

# oom_setup: builds tests/cli/failmalloc.c into $FM and checks that preloading it works
# (a glibc build without sanitizers); false when it does not.
oom_setup() {
    FM="$TMP/failmalloc.so"
    ${CC:-cc} -shared -fPIC -O2 -o "$FM" "$(dirname "$0")/failmalloc.c" 2>/dev/null &&
        LD_PRELOAD="$FM" WSEL_FAILMALLOC_COUNT="$TMP/count" "$WSEL" --version >/dev/null 2>&1 &&
        [ -s "$TMP/count" ]
}

# oom_sweep NAME ARGS...: `wsel ARGS` with the first N allocations granted and every later
# one refused ($FM preloaded, oom_setup), for up to 40 values of N spread over all of its
# allocations (WSEL_OOM_ALL=1: every one): each run exits as it does without the fault,
# with the same output, or exits 3 saying "out of memory"; never another status (a
# verdict on the input) and never a crash.
oom_sweep() {
    name=$1; shift
    "$WSEL" "$@" >"$TMP/ref" 2>/dev/null; ref=$?
    LD_PRELOAD="$FM" WSEL_FAILMALLOC_COUNT="$TMP/count" "$WSEL" "$@" >/dev/null 2>&1
    n=$(cat "$TMP/count"); step=$(( (n + 39) / 40 ))
    [ "${WSEL_OOM_ALL:-0}" = 1 ] && step=1
    bad=""; i=0
    while [ "$i" -le "$n" ]; do
        LD_PRELOAD="$FM" WSEL_FAILMALLOC=$i "$WSEL" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?
        if [ "$RC" -eq "$ref" ]; then
            cmp -s "$TMP/out" "$TMP/ref" || bad="$bad $i:output"
        elif [ "$RC" -ne 3 ]; then
            bad="$bad $i:exit$RC"
        elif ! grep -q "out of memory\|Cannot allocate memory" "$TMP/err"; then
            bad="$bad $i:message"
        fi
        i=$((i + step))
    done
    [ -z "$bad" ]
    ok $? "$name out of memory after each of $n allocations: exit 3 or the whole output${bad:+ (failed at:$(echo "$bad" | cut -c1-150))}"
}

# each_refused CHECK ARGS...: `wsel ARGS` (--json) once to count its allocations, then once
# with each allocation refused alone (tests/cli/failmalloc.c, WSEL_FAILMALLOC_ONCE: the
# later ones succeed, so nothing masks a failure that went unreported). A run must exit 3
# saying "out of memory", or exit 0 with output the shell function CHECK accepts (CHECK
# reads $TMP/out and prints why it does not). Sets $n and $bad ("ALLOCATION:why" ...).
each_refused() {
    check=$1; shift
    LD_PRELOAD="$FM" WSEL_FAILMALLOC_COUNT="$TMP/count" "$WSEL" "$@" >/dev/null 2>&1
    n=$(cat "$TMP/count"); i=0; bad=""
    while [ "$i" -le "$n" ]; do
        LD_PRELOAD="$FM" WSEL_FAILMALLOC=$i WSEL_FAILMALLOC_ONCE=1 "$WSEL" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?
        if [ "$RC" -eq 0 ]; then
            for why in $($check); do bad="$bad $i:$why"; done
        elif [ "$RC" -ne 3 ] || ! grep -q "out of memory" "$TMP/err"; then
            bad="$bad $i:exit$RC"
        fi
        i=$((i + 1))
    done
}

holds() { # holds FIXED-TEXT NAME: a line of stdout ($TMP/out) holds FIXED-TEXT
    grep -qF -- "$1" "$TMP/out"; r=$?
    [ $r -eq 0 ] || echo "# no line of stdout holds: $1"
    ok $r "$2"
}

# fails_with RC FIXED-TEXT NAME: the last run exited RC with one line on stderr holding
# FIXED-TEXT and nothing on stdout.
fails_with() {
    [ "$RC" -eq "$1" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
        grep -qF -- "$2" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC, want $1 and '$2', got: $(head -c 300 "$TMP/err")"
    ok $r "$3"
}

# usage_err FIXED-TEXT NAME ARGS...: wsel ARGS is a usage error (fails_with 2).
usage_err() {
    want=$1 name=$2; shift 2
    run "$@"
    fails_with 2 "$want" "$name"
}

done_testing() {
    echo "1..$T_N"
    [ "$T_FAIL" -eq 0 ]
}
