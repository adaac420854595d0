#!/bin/sh
# bin/wsel under hostile conditions (issue 14): failed writes, resource failures,
# odd files. Each case names the item of issue 14 it checks.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

# Item 1: a result that cannot be written is a failure, for every command and at close.
for args in "check $SYN" "check $SYN --json" "explain $SYN corpwww" \
            "sample $SYN cdnwww -n 100 --seed 1" "--help" "--version"; do
    # shellcheck disable=SC2086
    "$WSEL" $args >/dev/full 2>"$TMP/err"; RC=$?
    [ "$RC" -eq 3 ] && grep -q "cannot write the output: No space left on device" "$TMP/err"
    ok $? "item 1: wsel $args > /dev/full exits 3 with the reason (exit $RC)"
done
"$WSEL" check "$SYN" >&- 2>"$TMP/err"; RC=$?
[ "$RC" -eq 3 ] && grep -q "cannot write the output: Bad file descriptor" "$TMP/err"
ok $? "item 1: wsel check with stdout closed exits 3 with the reason (exit $RC)"

# Item 5: out of memory is exit 3, not "invalid config" (1).
awk 'BEGIN { printf "r => { a => ["; for (i = 0; i < 1500000; i++) printf "1,"; print "] }" }' \
    >"$TMP/big.conf"
(ulimit -v 120000; "$WSEL" check --stanza "$TMP/big.conf" >"$TMP/out" 2>"$TMP/err"); RC=$?
[ "$RC" -eq 3 ] && grep -q "out of memory" "$TMP/err"
ok $? "item 5: out of memory while loading exits 3 (exit $RC: $(head -c 200 "$TMP/err"))"

done_testing
