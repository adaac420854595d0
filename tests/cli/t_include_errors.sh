#!/bin/sh
# $include{} failures (doc/weighted.md, $include): each is an error at the $include's
# line and column naming the path and why: a dangling symbolic link (named as such), a
# directory holding one, a pattern under a directory that does not exist, and a pattern
# matching nothing. The trees are built here.
. "$(dirname "$0")/tap.sh"
mkdir -p "$TMP/inc/d"
printf 'a = [ 192.0.2.1, 1 ]\n' >"$TMP/inc/d/10.inc"
ln -s nowhere "$TMP/inc/d/20-broken.inc"
ln -s nowhere "$TMP/inc/dangle.inc"
inc_bad() { # inc_bad INCLUDE-ARG MESSAGE-FIXED-TEXT NAME
    printf 'r => { $include{%s} }\n' "$1" >"$TMP/inc/w.conf"
    run check "$TMP/inc/w.conf"
    want="w.conf:1:8: \$include{$1}: $2"
    [ "$RC" -eq 1 ] && grep -qF -- "$want" "$TMP/err"; r=$?
    [ $r -eq 0 ] || echo "# exit $RC, want '$want', got: $(head -c 300 "$TMP/err")"
    ok $r "$3"
}
inc_bad dangle.inc "cannot use '$TMP/inc/dangle.inc': dangling symbolic link (its target does not exist)" "a dangling symbolic link is named as such"
inc_bad d "cannot read '$TMP/inc/d/20-broken.inc'" "a directory holding a dangling link: the link is named"
inc_bad 'nomatch/*.inc' "cannot expand the pattern: '$TMP/inc/nomatch': No such file or directory" "a pattern under a missing directory"
inc_bad 'd/*x' "no file matches '$TMP/inc/d/*x'; expected an existing file, directory or matching glob pattern" "a pattern matching nothing"
printf 'r => { $include{d/1*} }\n' >"$TMP/inc/w.conf"
run check "$TMP/inc/w.conf"
is_rc 0 "a pattern matching the good file only: valid"
done_testing
