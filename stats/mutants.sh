#!/bin/sh
# Fault injection: apply each fault of stats/mutants.catalog, one at a time, to a scratch
# copy of the tree; rebuild; run the statistical suite and the unit tests; report which
# tests caught each fault and the kill rate. The real tree is never modified (results go
# to report/mutants/, which is build output).
#
#   sh stats/mutants.sh                     every fault
#   MUTANTS="ref-modulo fast-modulo" sh stats/mutants.sh      a subset
#   MUTANTS_KEEP=1 ...                      keep the scratch copy
#   MUTANTS_TIMEOUT=600                     seconds per program run
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
catalog="$root/stats/mutants.catalog"
mutate="python3 $root/stats/mutate.py $catalog"
out="$root/report/mutants"
tmo=${MUTANTS_TIMEOUT:-600}
scratch=$(mktemp -d /tmp/wsel-mutants.XXXXXX) || exit 2
B=build-mut
cleanup() { [ "${MUTANTS_KEEP:-0}" = 1 ] || rm -rf "$scratch"; }
trap cleanup EXIT

die() { echo "mutants: $*" >&2; exit 1; }

mkdir -p "$out" || die "cannot create $out"
rm -f "$out"/*.log "$out"/summary.txt

# A copy of the sources only: no git metadata, no build folders, no reports.
(cd "$root" && tar cf - --exclude=./.git --exclude='./build' --exclude='./build-*' \
    --exclude=./bin --exclude=./report .) | (cd "$scratch" && tar xf -) || die "copy failed"
mkdir -p "$scratch/.pristine"

# Every pattern must still match the sources; a fault that silently stopped applying
# would count as "survived" or worse, as nothing at all.
$mutate check "$scratch" || die "catalog out of date"

ids=${MUTANTS:-$($mutate list)}
build() {
    make -C "$scratch" -s -j2 BUILD=$B lib $B/stats/wsel-stats check-build >"$1" 2>&1
}
# Runs the suite and the unit tests; writes the TAP of each to $1.stats / $1.unit.
run_all() {
    (cd "$scratch" && timeout "$tmo" $B/stats/wsel-stats) >"$1.stats" 2>&1
    echo "# exit $?" >>"$1.stats"
    (cd "$scratch" && timeout "$tmo" sh scripts/run-tests.sh $B/tests/test_*) >"$1.unit" 2>&1
    echo "# exit $?" >>"$1.unit"
}
# "N failing (first names)" from a TAP log; a crash or timeout counts as a failure.
failures() {
    n=$(grep -c '^not ok' "$1")
    crash=$(grep -cE 'result\(s\) missing or crashed|^# exit (124|13[0-9]|1[4-9][0-9])$' "$1")
    if [ "$n" -eq 0 ] && [ "$crash" -eq 0 ]; then echo 0; return; fi
    first=$(grep '^not ok' "$1" | head -n 3 | sed -e 's/^not ok [0-9]* - //' | tr '\n' ';')
    [ "$crash" -gt 0 ] && first="crash/timeout; $first"
    echo "$((n + crash)) [$first]"
}

echo "mutants: scratch copy $scratch; building the unchanged tree"
build "$out/baseline-build.log" || die "the unchanged tree does not build (see $out/baseline-build.log)"
run_all "$out/baseline"
[ "$(failures "$out/baseline.stats")" = 0 ] || die "suite fails on the unchanged tree: $out/baseline.stats"
[ "$(failures "$out/baseline.unit")" = 0 ] || echo "mutants: WARNING unit tests fail on the unchanged tree ($out/baseline.unit); unit kills are not meaningful"

total=0; killed=0; killed_stats=0
{
    echo "fault-injection run $(date -u '+%Y-%m-%d %H:%M UTC'); $(echo $ids | wc -w) faults"
    echo "format: FAULT  STATUS  stats-suite: failing tests [first]  |  unit tests: failing [first]"
} >"$out/summary.txt"
for id in $ids; do
    total=$((total + 1))
    file=$($mutate file "$id") || die "unknown fault $id"
    cp -p "$scratch/$file" "$scratch/.pristine/$(echo "$file" | tr / _)"
    $mutate apply "$id" "$scratch" || die "fault $id does not apply"
    log="$out/$id"
    if ! build "$log.build.log"; then
        status="NOT-BUILT"
        s="-"; u="-"
    else
        run_all "$log"
        s=$(failures "$log.stats"); u=$(failures "$log.unit")
        if [ "$s" != 0 ]; then killed_stats=$((killed_stats + 1)); fi
        if [ "$s" != 0 ] || [ "$u" != 0 ]; then status=KILLED; killed=$((killed + 1)); else status=SURVIVED; fi
    fi
    cp -p "$scratch/.pristine/$(echo "$file" | tr / _)" "$scratch/$file"
    touch "$scratch/$file"
    line="$id  $status  stats: $s  |  unit: $u"
    echo "$line"
    echo "$line" >>"$out/summary.txt"
    echo "    ($($mutate what "$id"))" >>"$out/summary.txt"
done
rate="kill rate: $killed/$total overall; $killed_stats/$total by the statistical suite alone"
echo "$rate"
echo "$rate" >>"$out/summary.txt"
echo "mutants: logs and summary in $out"
[ "$killed" -eq "$total" ]
