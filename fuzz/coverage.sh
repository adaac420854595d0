#!/bin/sh
# Collects gcov data of a COVERAGE=1 build and writes the lcov HTML report.
#   coverage.sh BUILD OUTDIR
# Prints line and branch coverage of the library as a whole and per folder
# (core, ref, odds, fast), and the bar the project set (>= 95% lines, >= 90% branches).
set -u
build=$1; out=$2
rc="--rc lcov_branch_coverage=1"
info=$build/coverage.info
lib=$build/coverage-lib.info
mkdir -p "$out"
# shellcheck disable=SC2086
lcov $rc --quiet --capture --directory "$build/obj" --base-directory "$(pwd)" \
    --output-file "$info" || exit 1
# shellcheck disable=SC2086
lcov $rc --quiet --extract "$info" "$(pwd)/core/*" "$(pwd)/ref/*" "$(pwd)/odds/*" \
    "$(pwd)/fast/*" --output-file "$lib" || exit 1
# shellcheck disable=SC2086
genhtml $rc --quiet --branch-coverage --legend --title "wsel library" \
    --output-directory "$out" "$lib" || exit 1

pct() { # FILE KIND -> percentage (or n/a)
    # shellcheck disable=SC2086
    lcov $rc --summary "$1" 2>&1 | sed -n "s/^ *$2\.*: *\([0-9.]*%\).*/\1/p"
}
printf '%-8s %10s %10s\n' folder lines branches
for d in core ref odds fast; do
    part=$build/coverage-$d.info
    # shellcheck disable=SC2086
    if lcov $rc --quiet --extract "$lib" "$(pwd)/$d/*" --output-file "$part" 2>/dev/null; then
        printf '%-8s %10s %10s\n' "$d" "$(pct "$part" lines)" "$(pct "$part" branches)"
    fi
done
printf '%-8s %10s %10s\n' all "$(pct "$lib" lines)" "$(pct "$lib" branches)"
echo "bar: >= 95% lines, >= 90% branches; report: $out/index.html"
