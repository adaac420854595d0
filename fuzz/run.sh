#!/bin/sh
# Runs the fuzz targets (called by mk/fuzz.mk).
#
#   run.sh libfuzzer BUILD SECONDS TARGET...  fuzz each target, merge new coverage into corpus/
#   run.sh ci        BUILD SECONDS TARGET...  fuzz each target, no merge; exit 1 on any finding;
#                                             FUZZ_JOBS (default 2) targets at a time
#   run.sh afl       BUILD SECONDS TARGET...  AFL++; merge its queue into corpus/ (needs the
#                                             libFuzzer build in build-fuzz-lf for merging)
#
# Every run leaves its log in BUILD/TARGET.log and findings in BUILD/artifacts/.
# Prints one line per target: executions, executions per second, result.
set -u
mode=$1; build=$2; secs=$3; shift 3
lf=build-fuzz-lf
status=0
mkdir -p "$build/artifacts"

# Per-target options: the dictionary and max_len (fuzz/opts.sh).
# shellcheck source=fuzz/opts.sh
. fuzz/opts.sh

stat_of() { sed -n "s/^stat::$2: *//p" "$1" | tail -n 1; }

# one TARGET: runs one target; prints its result lines; returns 1 on a finding or failure.
one() {
    t=$1
    status=0
    bin=$build/fuzz_$t
    log=$build/$t.log
    work=$build/work-$t
    mkdir -p "$work" "corpus/$t"
    case "$mode" in
    libfuzzer|ci)
        # The first directory receives new inputs; corpus/$t (seeds, merged inputs and
        # regress/ reproducers, read recursively) only seeds the run.
        # shellcheck disable=SC2046
        "$bin" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="$build/artifacts/$t-" $(opts_for "$t") "$work" "corpus/$t" \
            >"$log" 2>&1
        rc=$?
        execs=$(stat_of "$log" number_of_executed_units)
        rate=$(stat_of "$log" average_exec_per_sec)
        if [ "$rc" -ne 0 ]; then
            status=1
            echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} execs; log $log"
            grep -E 'ERROR|FUZZ ASSERTION|SUMMARY|Test unit written|artifact' "$log" | head -n 20
            return 1
        fi
        echo "fuzz $t: ok, ${execs:-?} execs in ${secs}s, ${rate:-?} execs/s"
        if [ "$mode" = libfuzzer ]; then
            before=$(find "corpus/$t" -type f | wc -l)
            "$bin" -merge=1 $(opts_for "$t") "corpus/$t" "$work" >>"$log" 2>&1 || {
                status=1; echo "fuzz $t: merge failed; log $log"; }
            after=$(find "corpus/$t" -type f | wc -l)
            echo "fuzz $t: corpus/$t $before -> $after files"
        fi
        ;;
    afl)
        out=$build/out-$t
        afl_opts=""
        [ -f "fuzz/dict/$t.dict" ] && afl_opts="-x fuzz/dict/$t.dict"
        m=$(max_len_of "$t")
        [ -n "$m" ] && afl_opts="$afl_opts -G $m"
        # -i needs plain files: collect seeds and reproducers in one flat folder.
        seeds=$build/seeds-$t
        rm -rf "$seeds" && mkdir -p "$seeds"
        find "corpus/$t" -type f -size -1000k | while read -r f; do
            cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"
        done
        # shellcheck disable=SC2086
        AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
        AFL_NO_AFFINITY=1 AFL_SKIP_CRASHES=1 \
            afl-fuzz -V "$secs" -t 5000 -i "$seeds" -o "$out" $afl_opts -- "$bin" >"$log" 2>&1
        rc=$?
        execs=$(sed -n 's/^execs_done *: *//p' "$out/default/fuzzer_stats" 2>/dev/null)
        rate=$(sed -n 's/^execs_per_sec *: *//p' "$out/default/fuzzer_stats" 2>/dev/null)
        crashes=$(find "$out/default/crashes" "$out/default/hangs" -type f -name 'id*' 2>/dev/null | wc -l)
        if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
            status=1
            echo "afl $t: FAILED (exit $rc, $crashes crashes/hangs in $out/default); log $log"
        else
            echo "afl $t: ok, ${execs:-?} execs in ${secs}s, ${rate:-?} execs/s"
        fi
        if [ -x "$lf/fuzz_$t" ] && [ -d "$out/default/queue" ]; then
            before=$(find "corpus/$t" -type f | wc -l)
            "$lf/fuzz_$t" -merge=1 $(opts_for "$t") "corpus/$t" "$out/default/queue" >>"$log" 2>&1 || {
                status=1; echo "afl $t: merge failed; log $log"; }
            after=$(find "corpus/$t" -type f | wc -l)
            echo "afl $t: corpus/$t $before -> $after files"
        fi
        ;;
    esac
    return $status
}

case "$mode" in
libfuzzer|afl|ci) ;;
*) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac

# ci: FUZZ_JOBS targets at a time (default 2, one per core; each libFuzzer run is one
# process). Each target's lines are printed when its group ends, in the order given.
jobs=1
[ "$mode" = ci ] && jobs=${FUZZ_JOBS:-2}
rc=0
while [ $# -gt 0 ]; do
    group=""
    while [ $# -gt 0 ] && [ "$(echo $group | wc -w)" -lt "$jobs" ]; do
        group="$group $1"; shift
    done
    if [ "$jobs" -eq 1 ]; then
        one $group || rc=1
        continue
    fi
    for t in $group; do
        ( one "$t" >"$build/$t.result" 2>&1; echo $? >"$build/$t.rc" ) &
    done
    wait
    for t in $group; do
        cat "$build/$t.result"
        [ "$(cat "$build/$t.rc" 2>/dev/null)" = 0 ] || rc=1
        rm -f "$build/$t.result" "$build/$t.rc"
    done
done
exit $rc
