#!/bin/sh
# Runs each program given (each prints TAP), echoes its output, and ends with one line:
#   N passed, N failed
# A program that exits non-zero without reporting a failure, or reports fewer results
# than its plan ("1..N"), counts the missing ones as failures.
# VALGRIND=1 runs ELF programs under valgrind (errors and definite leaks fail).
pass=0; fail=0
out=$(mktemp); trap 'rm -f "$out"' EXIT
for prog in "$@"; do
    wrap=""
    if [ "${VALGRIND:-0}" = 1 ] && head -c 4 "$prog" | grep -q ELF; then
        wrap="valgrind -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"
    fi
    echo "# ---- $prog"
    $wrap "$prog" >"$out" 2>&1
    rc=$?
    cat "$out"
    p=$(grep -cE '^ok ' "$out"); f=$(grep -cE '^not ok ' "$out")
    plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$out" | head -n 1)
    missing=0
    if [ -n "$plan" ] && [ $((p + f)) -lt "$plan" ]; then missing=$((plan - p - f)); fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && [ "$missing" -eq 0 ]; then missing=1; fi
    if [ "$missing" -gt 0 ]; then echo "# $prog: exit $rc, $missing result(s) missing or crashed"; fi
    pass=$((pass + p)); fail=$((fail + f + missing))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
