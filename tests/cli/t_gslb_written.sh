#!/bin/sh
# bin/wsel gslb explain and check on a config that writes every pool and wide-IP value
# the explanation shows (tests/data/gslb/written.conf): each written value without
# "(default)", each unwritten one with it (doc/gslb.md section 8), disabled members, pools
# and virtual servers, unresolved names (G013 at the name's position). Expected lines
# are written by hand from the config and the defaults of doc/gslb.md (QoS 50, 30, 5,
# 3, 1, then 0; pool ttl 30, one answer, verify enabled).
. "$(dirname "$0")/tap.sh"
W="$DATA/../../data/gslb/written.conf"
line_of() { grep -nF -- "$1" "$W" | head -n 1 | cut -d: -f1; }

run gslb check "$W"
is_rc 1 "written.conf: the unresolved member and pool are errors (exit 1)"
has "$TMP/out" "written\\.conf:$(line_of 's1:v9'):52: error: G013 gtm pool a /Common/p_all: unresolved reference: member 's1:v9'" "G013 at the unresolved member's name"
has "$TMP/out" "written\\.conf:$(line_of '/Common/p_missing'):53: error: G013 gtm wideip a /Common/w\\.example\\.com: unresolved reference: pool '/Common/p_missing'" "G013 at the unresolved pool's name"

run gslb explain "$W"
is_rc 0 "explain written.conf: exit 0"
holds 'pool-lb-mode ratio  persistence enabled ttl 120 cidr /32 (default), /128 (default)' "wide IP: pool-lb-mode and persistence written, cidrs default"
holds 'last-resort a /Common/p_off  failure-rcode-response enabled rcode refused ttl 90 => fall-through: rcode refused' "wide IP: failure rcode written: the fall-through is that rcode"
holds '1 /Common/p_all order 0 (default) ratio 3' "pool ratio written in the wide IP's list"
holds 'verify-member-availability disabled  ttl 45  max-answers 2  members 3 !G008 !G013 !G025' "pool: verify, ttl, max answers written, its findings"
holds 'preferred quality-of-service [path, dynamic-ratio] -> alternate drop-packet [drop the query]' "pool: QoS with dynamic ratio, alternate terminal"
holds '-> fallback ratio [static]' "pool: fallback ratio"
holds 'fallback ignores monitors, limits and dependencies (verify disabled)' "pool: a fallback without verify ignores availability"
holds 'fallback-ip 192.0.2.53  dynamic-ratio enabled  min-members-up at-least 1  manual-resume enabled' "pool: fallback-ip, dynamic ratio, min members up and manual resume written"
holds 'qos rtt 7 lcs 30 (default) hit-ratio 5 (default) kilobytes-second 3 (default) packet-rate 1 (default) hops 2 topology 0 (default) vs-capacity 0 (default) vs-score 0 (default)' "pool: QoS coefficients, two written"
holds 'member 1 s1:v1 -> 10.0.0.1  member-order 0 (default) ratio 4' "member ratio written"
holds 'member 2 s1:v2 -> 10.0.0.2  member-order 0 (default) ratio 1 (default)  DISABLED' "member disabled"
holds 'member 3 s1:v9 -> ?' "an unresolved member has no address"
holds 'verify-member-availability enabled (default)  ttl 30 (default)  max-answers 1 (default)  members 1  DISABLED' "a disabled pool with every value defaulted"
holds 'fallback-ip unset (default)  dynamic-ratio disabled (default)  min-members-up off (default)  manual-resume disabled (default)' "defaults of the second line"
holds '3 /Common/p_missing order 0 (default) ratio 1 (default)' "the unresolved pool keeps its place"
holds 'unresolved: no gtm pool a /Common/p_missing' "the unresolved pool is named"
holds 'last-resort /Common/p_off (already listed above: runs once only)' "a listed last-resort pool runs once"
holds 'global: topology-longest-match no  static-persist-cidr /32 (default), /128 (default)' "global settings: longest match written"

run gslb explain "$W" --json
is_rc 0 "explain --json: exit 0"
jqok '.wideips[0] | [.pool_lb_mode, .failure_rcode, .failure_rcode_ttl, .ttl_persistence, .persist_cidr_ipv4, .fall_through] ==
  [{"value":"ratio","default":false},{"value":"refused","default":false},{"value":90,"default":false},
   {"value":120,"default":false},{"value":32,"default":true},"rcode"]' "json: wide IP values with their default flags"
jqok '.wideips[0].pools[0] | [.ttl, .max_answers_returned, .fallback_ip, .verify_member_availability, .dynamic_ratio, .pool_ratio] ==
  [{"value":45,"default":false},{"value":2,"default":false},{"value":"192.0.2.53","default":false},
   {"value":0,"default":false},{"value":1,"default":false},{"value":3,"default":false}]' "json: pool values written"
jqok '.wideips[0].pools[0].members | [.[] | [.key, .address, .ratio.value, .ratio.default, .enabled]] ==
  [["s1:v1","10.0.0.1",4,false,true],["s1:v2","10.0.0.2",1,true,false],["s1:v9",null,1,true,true]]' "json: members; the unresolved one without an address"
jqok '.wideips[0].pools[1] | [.enabled, .ttl.default, .chain[2].kind]  == [false, true, "terminal"]' "json: the disabled pool"
jqok '.wideips[0].pools[2] | [.name, .resolved] == ["/Common/p_missing", false]' "json: the unresolved pool"

done_testing
