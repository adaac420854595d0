#!/bin/sh
# One config, two exports (doc/gslb.md §1, A-38): every example and golden GSLB config is
# read as written (tmsh's multi-line form) and in tmsh's one-line form (each top-level
# object on one line, tests/cli/gslb_oneline.py); `wsel gslb check --json`, `explain
# --json` and `resolve --json` (every wide IP of each type, 3 queries) must give the same exit status,
# stdout and stderr once token positions (line, column) are left out.
. "$(dirname "$0")/tap.sh"
HELP="$(cd "$(dirname "$0")" && pwd)/gslb_oneline.py"
G="$DATA/../../data/gslb"
mkdir -p "$TMP/multi" "$TMP/one"
echo '{}' >"$TMP/empty.json"
# export.conf's members all up (the inputs template, `gslb inputs`)
"$WSEL" gslb inputs "$G/export.conf" >"$TMP/export.inputs.json"

# inputs for a config's resolve runs: its own when it has some, else none ({}: all down)
inputs_of() {
    case "$1" in
    */examples/gslb/bigip_gtm.conf) echo "$EXAMPLES/gslb/inputs.json" ;;
    */rr.conf) echo "$G/rr.inputs.json" ;;
    */aaaa.conf) echo "$G/aaaa.inputs.json" ;;
    */export.conf) echo "$TMP/export.inputs.json" ;;
    *) echo "$TMP/empty.json" ;;
    esac
}

# same NAME ARGS...: runs `wsel ARGS` in $TMP/multi and in $TMP/one (the config is named
# by its base name, so file names agree) and compares the normalized outputs.
same() {
    name=$1
    shift
    for form in multi one; do
        (cd "$TMP/$form" && "$WSEL" "$@" >"$TMP/$form.out" 2>"$TMP/$form.err"
         echo "status $?" >"$TMP/$form.rc")
        python3 "$HELP" normalize "$TMP/$form.out" >"$TMP/$form.nout"
        python3 "$HELP" normalize "$TMP/$form.err" >"$TMP/$form.nerr"
    done
    cmp -s "$TMP/multi.nout" "$TMP/one.nout" && cmp -s "$TMP/multi.nerr" "$TMP/one.nerr" &&
        cmp -s "$TMP/multi.rc" "$TMP/one.rc"
    r=$?
    if [ $r -ne 0 ]; then
        diff "$TMP/multi.nout" "$TMP/one.nout" | head -8 | sed 's/^/# /'
        diff "$TMP/multi.nerr" "$TMP/one.nerr" | head -4 | sed 's/^/# /'
        diff "$TMP/multi.rc" "$TMP/one.rc" | sed 's/^/# /'
    fi
    ok $r "$name"
}

for conf in "$EXAMPLES"/gslb/*.conf "$G"/*.conf; do
    base=$(basename "$conf")
    cp "$conf" "$TMP/multi/$base"
    python3 "$HELP" one-line "$conf" "$TMP/one/$base"
    # the one-line form holds one line per top-level object (and the version line)
    objs=$(grep -c . "$TMP/one/$base")
    heads=$(grep -c '^[a-z]' "$TMP/one/$base")
    [ "$objs" -eq "$heads" ] || [ "$objs" -eq $((heads + 1)) ]
    ok $? "$base: one-line form has one line per object"
    same "$base: check --json" gslb check "$base" --json
    same "$base: explain --json" gslb explain "$base" --json
    in=$(inputs_of "$conf")
    (cd "$TMP/multi" && "$WSEL" gslb explain "$base" --json 2>/dev/null) |
        python3 -c 'import json,sys; [print(w["name"], w["type"]) for w in json.load(sys.stdin)["wideips"]]' \
            >"$TMP/wideips" 2>/dev/null
    while read -r w t; do
        same "$base: resolve $w --type $t --json" gslb resolve "$base" "$w" --inputs "$in" --type "$t" -n 3 --json
    done <"$TMP/wideips"
done

# the golden config of standard attributes reads as doc/gslb.md §1 and A-38 say, in
# both forms: every virtual server, no G013, G030 for the four unknown attributes only
for form in multi one; do
    (cd "$TMP/$form" && "$WSEL" gslb check attrs.conf --json >"$TMP/out" 2>"$TMP/err")
    jq -e '[.findings[].code] == ["G016","G030","G030","G030","G030"]' "$TMP/out" >/dev/null
    ok $? "attrs.conf ($form): findings G016 and four G030, no G013"
    jq -e '[.findings[] | select(.code == "G030") | .message] == ["ignored by this tool: x-flag",
        "ignored by this tool: x-word", "ignored by this tool: x-block",
        "ignored by this tool: x-pair"]' "$TMP/out" >/dev/null
    ok $? "attrs.conf ($form): G030 names exactly the unknown attributes"
    (cd "$TMP/$form" && "$WSEL" gslb check attrs.conf >"$TMP/out" 2>"$TMP/err")
    grep -q '2 servers (3 virtual servers), 2 pools, 1 wide IPs' "$TMP/out"
    ok $? "attrs.conf ($form): 3 virtual servers read"
done

# the realistic paste (export.conf: ltm, sys, datacenters, monitors, an iRule, a second
# partition, aliases and a wildcard, A and AAAA of one name) reads as its header says, in
# both forms, and answers every name a client queries by its type: round-robin over
# member-order 0 then 1; the ratio pool 3:1 picks its first member twice (smooth WRR,
# doc/gslb.md §4); the wildcard alias is the A wide IP's only; api.example.com has no AAAA
for form in multi one; do
    d="$TMP/$form"
    (cd "$d" && "$WSEL" gslb check export.conf --json >"$TMP/out" 2>"$TMP/err")
    jq -e '[.findings[].code] == ["G007","G027","G030","G030","G030","G030","G030","G030","G030"]' "$TMP/out" >/dev/null
    ok $? "export.conf ($form): G007, G027 and one G030 per kind of skipped statement"
    (cd "$d" && "$WSEL" gslb check export.conf >"$TMP/out" 2>"$TMP/err")
    grep -q '^export.conf: 2 servers (4 virtual servers), 3 pools, 3 wide IPs' "$TMP/out" &&
        grep -q '^skipped: 8 out-of-scope statements' "$TMP/out"
    ok $? "export.conf ($form): 4 virtual servers, 3 pools, 3 wide IPs, 8 statements skipped"
    answers() { # answers NAME TYPE EXPECTED...: the first two answers of NAME
        n=$1 t=$2
        shift 2
        got=$(cd "$d" && "$WSEL" gslb resolve export.conf "$n" --type "$t" --inputs "$TMP/export.inputs.json" -n 2 --json |
            jq -r '.queries[] | .addresses[0]' | tr '\n' ' ')
        [ "$got" = "$* " ]
        ok $? "export.conf ($form): $n $t answers $*"
    }
    answers web.example.com A 198.51.100.10 203.0.113.20
    answers web.example.com AAAA 2001:db8:a::10 2001:db8:b::20
    answers img.www.example.com A 198.51.100.10 203.0.113.20
    answers api.example.com A 198.51.100.10 198.51.100.10
    (cd "$d" && "$WSEL" gslb resolve export.conf img.www.example.com --type AAAA --inputs "$TMP/export.inputs.json" >"$TMP/out" 2>"$TMP/err")
    [ $? -eq 2 ]
    ok $? "export.conf ($form): the wildcard alias is the A wide IP's only (AAAA: exit 2)"
done

done_testing
