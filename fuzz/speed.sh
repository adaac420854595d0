#!/bin/sh
# Measures the fuzz targets' speed (called by `make fuzz-speed`): each target alone, one
# after the other, RUNS libFuzzer executions (-runs, -seed=1) from its seed corpus
# (corpus/TARGET, read first, counts in RUNS) with fuzz/options and fuzz/dict as
# `make fuzz-ci` uses them, into an empty scratch folder.
#
#   speed.sh BUILD RUNS TARGET...
#
# Prints per target: executions, executions per wall-clock second and per CPU second
# (executions over the process's user + system time, which the load of a shared machine
# changes less), page faults per execution (minor faults over executions: under ASan,
# whose quarantine hands out fresh memory, the cost that follows the bytes an input
# allocates; the load barely moves it), the seed corpus's files, and the load average
# when the run started.
set -u
build=$1; runs=$2; shift 2
# shellcheck source=fuzz/opts.sh
. fuzz/opts.sh
printf '%-20s %7s %8s %10s %11s %6s %s\n' target execs exec/s exec/cpu-s faults/exec seeds load
for t in "$@"; do
    work=$build/speed-$t
    rm -rf "$work" && mkdir -p "$work"
    load=$(cut -d' ' -f1 /proc/loadavg)
    seeds=$(find "corpus/$t" -type f | wc -l)
    start=$(date +%s.%N)
    # shellcheck disable=SC2046
    /usr/bin/time -f '%U %S %R' -o "$work.time" "$build/fuzz_$t" -runs="$runs" -seed=1 \
        -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 $(opts_for "$t") "$work" \
        "corpus/$t" >"$work.log" 2>&1 || { echo "$t: FAILED; log $work.log"; exit 1; }
    end=$(date +%s.%N)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log" | tail -n 1)
    awk -v t="$t" -v e="$execs" -v s="$start" -v f="$end" -v n="$seeds" -v l="$load" \
        '{ printf "%-20s %7d %8.0f %10.0f %11.1f %6d %s\n", t, e, e / (f - s), e / ($1 + $2),
           $3 / e, n, l }' \
        "$work.time"
    rm -rf "$work" "$work.time"
done
