#!/bin/sh
# `make check`'s short ThreadSanitizer pass: the reader/writer thread tests
# (tests/test_fast_threads.c, test_ring_fast_threads.c) built with clang -fsanitize=thread
# in $TSAN_BUILD (mk/fast.mk builds them before the tests run when clang is installed).
# A data race aborts the program (halt_on_error, abort_on_error), which counts as a
# failure. Without clang, one skipped result says why. About 10 s on two cores; the
# build (about 20 s of CPU once) is make's. TSan of clang 14 needs the address space
# without randomisation, hence setarch -R.
set -u
dir=${TSAN_BUILD:-build-tsan}/tests
if ! command -v clang >/dev/null 2>&1; then
    echo "1..1"
    echo "ok 1 # SKIP clang is not installed: no ThreadSanitizer pass"
    exit 0
fi
rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in test_fast_threads test_ring_fast_threads; do
    if [ ! -x "$dir/$t" ]; then
        echo "not ok - tsan: $dir/$t was not built"
        rc=1
        continue
    fi
    TSAN_OPTIONS="halt_on_error=1 abort_on_error=1" setarch "$(uname -m)" -R "$dir/$t" >"$out" 2>&1
    st=$?
    # results renamed, plans dropped: this script's results are all of them
    sed -e 's/^\(\(not \)\{0,1\}ok [0-9]* - \)/\1tsan: /' -e 's/^1\.\./# tsan: plan 1../' "$out"
    if [ "$st" -ne 0 ]; then
        echo "not ok - tsan: $t exited $st (a race report aborts it)"
        rc=1
    fi
done
exit $rc
