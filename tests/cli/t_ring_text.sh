#!/bin/sh
# bin/wsel ring run and show in text on tests/data/ring/text_ops.json: the line of each
# status-like op (a remove naming no host, status and hoststatus down and up), a pick on
# an unhealthy ring, a snapshot marking the unavailable address. Expected by hand from
# doc/ring.md: weight 10 by default, two equal hosts on 4 slots own 2 each; both down is
# unhealthy (0 % > 0 fails), one up again is healthy with 10 unavailable.
. "$(dirname "$0")/tap.sh"
S="$DATA/../../data/ring/text_ops.json"
run ring run "$S"
is_rc 0 "ring run (text): exit 0"
holds '$.ops[0] remove 10.0.0.9:80 (not present)' "remove of a host not there says so"
holds '$.ops[1] status 10.0.0.1:80 down' "status down"
holds '$.ops[2] hoststatus 10.0.0.2:80 down' "hoststatus down"
holds '  hash 1 -> UNHEALTHY' "a pick with every address down: unhealthy"
holds '$.ops[4] status 10.0.0.1:80 up' "status up"
holds '  4 slots, weight 20, unavailable 10, healthy' "snapshot: one of two up is healthy"
holds '  10.0.0.2:80                  host 10.0.0.2:80  weight 10  slots 2  (unavailable)' "snapshot marks the unavailable address"
run ring diff "$S"
holds '$.ops[0] remove 10.0.0.9:80' "diff: a remove of an absent host is a change of nothing"
holds '  0 slots changed owner (0.0000% of keys); smallest possible 0 (0.0000%); 0 between untouched addresses' "diff: nothing moves"
done_testing
