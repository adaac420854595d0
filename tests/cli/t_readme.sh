#!/bin/sh
# The README's library example ("Using the library") compiles and runs as it is written:
# its C block is cut out of README.md, its statements wrapped in main(), built against
# the static library and run from a folder holding the gdnsd/config it names (the
# synopsis example, whose pubwww resource watches 192.0.2.1 with web_check).
. "$(dirname "$0")/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LIB="$ROOT/${BUILD:-build}/libwsel.a"
# the first ```c block after the "## Using the library" heading
awk '/^## Using the library/ { want = 1 } want && /^```c$/ { on = 1; next }
     on && /^```$/ { exit } on { print }' "$ROOT/README.md" >"$TMP/block.c"
[ -s "$TMP/block.c" ]; ok $? "README.md has a C block under 'Using the library'"
{
    grep '^#include' "$TMP/block.c"
    echo '#include <stdio.h>'
    echo 'int main(void)'
    echo '{'
    grep -v '^#include' "$TMP/block.c"
    cat <<'C'
    printf("resolve %d sets %u count %u failed %d\n",
           wsel_resolve(r, wsel_config_find(cfg, "pubwww"), &rng, &ans), ans.n_sets,
           (unsigned)ans.set[0].count, (int)ans.failed);
    printf("state %d\n", wsel_state_get(st, "web_check", "192.0.2.1").up);
    wsel_resolver_free(r);
    wsel_state_free(st);
    wsel_config_free(cfg);
    return 0;
}
C
} >"$TMP/example.c"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$ROOT/include" -o "$TMP/example" "$TMP/example.c" \
    "$LIB" -lgsl -lgslcblas -ljansson -lm -lpthread >"$TMP/cc" 2>&1; r=$?
[ $r -eq 0 ] || echo "# $(head -c 600 "$TMP/cc")"
ok $r "the README's library example compiles (-Wall -Wextra -Werror)"
mkdir -p "$TMP/run/gdnsd" && cp "$EXAMPLES/synopsis.conf" "$TMP/run/gdnsd/config"
(cd "$TMP/run" && "$TMP/example") >"$TMP/out" 2>"$TMP/err"; r=$?
[ $r -eq 0 ] || echo "# exit $r: $(head -c 300 "$TMP/err")"
ok $r "it runs (exit 0)"
# after the sync, 192.0.2.1 is DOWN for web_check; one pubwww set answers one address
grep -qx 'resolve 0 sets 1 count 1 failed 0' "$TMP/out"; r=$?
[ $r -eq 0 ] || echo "# got: $(cat "$TMP/out")"
ok $r "its resolver answers pubwww with one address of one set"
grep -qx 'state 0' "$TMP/out"; ok $? "its state change took effect (192.0.2.1 DOWN for web_check)"
done_testing
