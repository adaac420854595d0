#!/bin/sh
# The README's library example (section "Using the library") compiles against the
# headers and the static library of this build, and runs on examples/synopsis.conf as
# gdnsd/config; the answers it gets are held to the engines' rules by the unit tests.
. "$(dirname "$0")/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# The library of the build whose binary is tested: BUILD/bin/wsel sits beside
# BUILD/libwsel.a; `make`'s own bin/wsel goes with build/.
B=$(dirname "$(dirname "$WSEL")")
[ -f "$B/libwsel.a" ] || B="$ROOT/${BUILD:-build}"
# The first ```c block after the heading, without its #include (added below).
awk '/^## Using the library/ { on = 1 } on && /^```c$/ { body = 1; next }
     body && /^```$/ { exit } body && !/^#include/ { print }' "$ROOT/README.md" >"$TMP/body.c"
[ -s "$TMP/body.c" ]; ok $? "README.md has a library example"
{
    printf '#include <stdio.h>\n#include <wsel.h>\nint main(void)\n{\n'
    cat "$TMP/body.c"
    printf '    return ans.n_sets == 1 && ans.set[0].count == 1 ? 0 : 1;\n}\n'
} >"$TMP/readme.c"
# A library of a COVERAGE=1 build calls the gcov run-time (gcc's or clang's): link it too.
cov=
nm "$B/libwsel.a" 2>/dev/null | grep -Eq ' U (__gcov_init|llvm_gcda_start_file)$' && cov=--coverage
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Werror -I"$ROOT/include" -o "$TMP/readme" "$TMP/readme.c" \
    "$B/libwsel.a" -lgsl -lgslcblas -ljansson -lm -lpthread $cov >"$TMP/cc" 2>&1; r=$?
[ $r -eq 0 ] || echo "# $(head -5 "$TMP/cc")"
ok $r "the example compiles (-Wall -Werror) and links with libwsel.a"
mkdir -p "$TMP/run/gdnsd" && cp "$EXAMPLES/synopsis.conf" "$TMP/run/gdnsd/config"
out=$(cd "$TMP/run" && "$TMP/readme" 2>&1); r=$?
[ $r -eq 0 ] || echo "# exit $r: $out"
ok $r "it runs on examples/synopsis.conf: one set, one address for pubwww"
done_testing
