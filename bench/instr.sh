#!/bin/sh
# Instructions per query of the main select cases, counted by callgrind: each case runs
# twice, with N1 and N2 queries, and (Ir(N2) - Ir(N1)) / (N2 - N1) leaves out everything
# but the queries (start-up, config load, resolver build). Counts are exact and repeat
# from run to run, unlike times on a shared machine.
# Usage: instr.sh WSEL_BENCH_BINARY [OUTPUT_FILE]   (cases: INSTR_CASES, counts: INSTR_N1/N2)
set -eu
bin=$1
out=${2:-}
n1=${INSTR_N1:-1000}
n2=${INSTR_N2:-6000}
cases=${INSTR_CASES:-"empty/0/up
ungrouped-single/4/up ungrouped-single/64/up ungrouped-multi/4/up ungrouped-multi/64/up
grouped-single/8x8/up grouped-single/64x64/up grouped-multi/8x8/up grouped-multi/64x64/up
cname/4/up cname/64/up ungrouped-multi/64/down25 ungrouped-multi/64/reset grouped-multi/8x8/down25"}
engines=${INSTR_ENGINES:-"floor fast ref"}

command -v valgrind >/dev/null || { echo "instr.sh: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Total instructions (Ir) of one run.
count() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" --instr "$1" "$2" \
        >"$tmp/stdout" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; return 1; }
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out"
}

# The compiler and flags one source file of the binary was built with (DWARF's
# DW_AT_producer; "unknown" without debug information or readelf).
producer() {
    p=$(readelf --debug-dump=info "$bin" 2>/dev/null | awk -v f="$1" '
        /DW_AT_producer/ { sub(/^.*DW_AT_producer *: *(\([^)]*\): *)?/, ""); p = $0 }
        /DW_AT_name/ { n = $0; sub(/^.*: /, "", n); if (n == f) { print p; exit } }')
    echo "${p:-unknown}"
}

report() {
    printf '# instructions per query (callgrind, (Ir(%s) - Ir(%s)) / %s queries)\n' "$n2" "$n1" $((n2 - n1))
    printf '# %s; fast kernel under valgrind: %s\n' \
        "$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1)" "$fast"
    printf '# compiler, library: %s\n' "$(producer core/weighted/weighted_resolver.c)"
    printf '# compiler, avx2 kernel: %s\n' "$(producer fast/weighted/weighted_avx2.c)"
    printf '%-36s' "case"
    for e in $engines; do printf '%12s' "$e"; done
    printf '\n'
    for c in $cases; do
        printf '%-36s' "$c"
        for e in $engines; do
            name="select/$e/$c"
            if a=$(count "$name" "$n1") && b=$(count "$name" "$n2") && [ -n "$a" ] && [ -n "$b" ]; then
                awk -v a="$a" -v b="$b" -v n=$((n2 - n1)) 'BEGIN { printf "%12.1f", (b - a) / n }'
            else
                printf '%12s' "-"
            fi
        done
        printf '\n'
    done
}

fast=$(valgrind --tool=none "$bin" --instr select/floor/ungrouped-single/4/up 1 2>/dev/null |
       sed -n 's/.*fast=//p')
if [ -n "$out" ]; then
    report | tee "$out"
else
    report
fi
