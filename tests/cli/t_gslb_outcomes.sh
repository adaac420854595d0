#!/bin/sh
# bin/wsel gslb resolve in text, one case per outcome line of man/wsel.1 (gslb resolve):
# an answer by an unverified fallback, return-to-dns by a pool's fallback and for want of
# pools, an rcode, a disabled wide IP; the log's tie and unverified marks. The configs
# are tests/cli/data/json/marks.conf (why each answer is what it is: json_contract.py)
# and tests/data/gslb/rr.conf.
. "$(dirname "$0")/tap.sh"
M="$DATA/json/marks.conf"
MI="$DATA/json/marks.inputs.json"
RR="$DATA/../../data/gslb/rr.conf"
RRIN="$DATA/../../data/gslb/rr.inputs.json"

run gslb resolve "$M" unv.example.com --inputs "$MI" -n 2 --log pool-member-selection
is_rc 0 "unverified fallback: exit 0"
holds 'query 1: answer 10.0.0.3 pool /Common/p_unv step fallback method round-robin ttl 30' "query line: the down member answered by the fallback"
holds 'query 2: answer 10.0.0.4 pool /Common/p_unv step fallback method round-robin ttl 30' "query line: the next member"
holds 'member=s1:v3 addr=10.0.0.3 n_answers=1 reason=rr-next fallback-unverified' "log: the unverified mark"
holds 'counts: answer 2' "counts per outcome"

run gslb resolve "$M" tie.example.com --inputs "$MI" --log pool-member-selection
holds 'member=s1:v1 addr=10.0.0.1 n_answers=1 reason=best rtt_us=100 tie->rr' "log: a tie broken by round robin"
run gslb resolve "$M" best.example.com --inputs "$MI" --log pool-member-selection
[ "$RC" -eq 0 ] && grep -q 'reason=best' "$TMP/out" && ! grep -q 'tie->rr' "$TMP/out"
ok $? "log: no tie mark for a unique best"

run gslb resolve "$M" rtd.example.com --inputs "$MI" --log none
holds 'query 1: return-to-dns pool /Common/p_rtd step fallback method return-to-dns reason return-to-dns' "query line: return-to-dns by the pool's fallback"
holds 'result outcome=return-to-dns wideip=/Common/rtd.example.com pool=/Common/p_rtd step=fallback detail=return-to-dns' "result line: its pool, step and reason"
run gslb resolve "$M" nmp.example.com --inputs "$MI" --log none
holds 'query 1: return-to-dns reason no-more-pools' "query line: no pool answered, none named"
holds 'result outcome=return-to-dns wideip=/Common/nmp.example.com detail=no-more-pools' "result line: no pool, no step"

run gslb resolve "$RR" rcode.example.com --inputs "$RRIN" --log none
holds 'query 1: rcode rcode nxdomain soa_ttl 60' "query line: the failure rcode and its SOA TTL"
holds 'result outcome=rcode wideip=/Common/rcode.example.com detail=nxdomain soa_ttl=60' "result line: rcode detail"
run gslb resolve "$RR" off.example.com --inputs "$RRIN" --log none
holds 'query 1: return-to-dns reason wideip-disabled' "query line: a disabled wide IP"

# --log FLAGS (man/wsel.1): a comma list; "none" and empty items add nothing, the result
# line is always there; --ldns replaces the inputs' LDNS (shown by pool-selection).
run gslb resolve "$M" tie.example.com --inputs "$MI" --log pool-traversal,,none
[ "$RC" -eq 0 ] && [ "$(grep -c '^  pool-traversal ' "$TMP/out")" -eq 2 ] && [ "$(grep -cE '^  (pool-|result )' "$TMP/out")" -eq 3 ]
ok $? "--log pool-traversal,,none: two pool-traversal lines and the result"
run gslb resolve "$M" tie.example.com --inputs "$MI" --log ""
[ "$RC" -eq 0 ] && [ "$(grep -cE '^  (pool-|result )' "$TMP/out")" -eq 1 ]; ok $? "--log '': the result line only"
run gslb resolve "$M" tie.example.com --inputs "$MI" --ldns 192.0.2.9 --log pool-selection
holds 'pool-selection wideip=/Common/tie.example.com ldns=192.0.2.9 method=round-robin' "--ldns shown in pool-selection"
usage_err "-n needs an integer in 1..10000000, not '0'" "-n 0" gslb resolve "$M" tie.example.com --inputs "$MI" -n 0
usage_err "-n needs an integer in 1..10000000, not '10000001'" "-n past ten million" gslb resolve "$M" tie.example.com --inputs "$MI" -n 10000001
usage_err "unexpected argument 'extra'" "a third operand" gslb resolve "$M" tie.example.com extra --inputs "$MI"
usage_err "missing CONFIG or WIDEIP" "no wide IP" gslb resolve "$M" --inputs "$MI"
usage_err "--ldns: 'banana' is not an IPv4/IPv6 address" "--ldns that is no address" gslb resolve "$M" tie.example.com --inputs "$MI" --ldns banana
usage_err "missing --inputs FILE" "no inputs" gslb resolve "$M" tie.example.com

done_testing
