#!/bin/sh
# bin/wsel sample: its command line (man/wsel.1, sample), beside t_usage.sh's cases. Each mistake exits 2 with one
# line naming it and prints nothing on standard output; --NAME=VALUE is the same as
# --NAME VALUE, and after "--" everything is an argument.
. "$(dirname "$0")/tap.sh"
C="$DATA/json/pool.conf"
usage_err 'sample: option -n needs a value' "-n at the end" sample "$C" p1 -n
usage_err 'sample: option --seed needs a value' "--seed at the end" sample "$C" p1 -n 5 --seed
usage_err 'sample: option --engine needs a value' "--engine at the end" sample "$C" p1 -n 5 --engine
usage_err "sample: unknown engine 'nosuch' (expected ref, fast" "an engine that does not exist" sample "$C" p1 -n 5 --engine nosuch
usage_err "sample: unknown option '-n10'" "a value glued to -n is no option" sample "$C" p1 -n10
usage_err "sample: unexpected argument '-n'" "after --, -n is an argument" sample "$C" -- p1 -n 5
run sample "$C" p1 --n=10 --seed=3 --json
is_rc 0 "--n=10 --seed=3: the = forms"
jqok '[.n, .seed] == [10, 3]' "the = forms set n and seed"
done_testing
