#!/bin/sh
# make install into a scratch PREFIX, then build and run a program through pkg-config
# (issue 14 item 13: wsel.pc must name the PREFIX installed into, not the build's).
. "$(dirname "$0")/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
P="$TMP/prefix"
make -s -C "$ROOT" install PREFIX="$P" BUILD="${BUILD:-build}" >"$TMP/mk" 2>&1; r=$?
[ $r -eq 0 ] || echo "# $(tail -5 "$TMP/mk")"
ok $r "make install PREFIX=scratch"
has "$P/lib/pkgconfig/wsel.pc" "^prefix=$P\$" "installed wsel.pc names the scratch prefix"
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
cat >"$TMP/p.c" <<'C'
#include <stdio.h>
#include <wsel.h>
int main(void)
{
    static const char conf[] = "r => { a => [ 192.0.2.1, 1 ] }\n";
    wsel_config *cfg;
    wsel_error err;
    if (wsel_config_load_buffer("p", conf, sizeof conf - 1, NULL, &cfg, &err))
        return 1;
    printf("%zu\n", wsel_config_resource_count(cfg));
    wsel_config_free(cfg);
    return 0;
}
C
# shellcheck disable=SC2046
${CC:-cc} -o "$TMP/p" "$TMP/p.c" $(pkg-config --cflags --libs wsel) >"$TMP/cc" 2>&1; r=$?
[ $r -eq 0 ] || echo "# $(head -5 "$TMP/cc")"
ok $r "a program compiles and links with pkg-config --cflags --libs wsel"
out=$(LD_LIBRARY_PATH="$P/lib" "$TMP/p" 2>&1); r=$?
[ $r -eq 0 ] || echo "# exit $r: $out"
[ $r -eq 0 ] && [ "$out" = 1 ]; ok $? "it runs against the installed library (got '$out')"
done_testing
