#!/bin/sh
# Ring (doc/ring.md, issue 27 classes 1-3): a host's DNS record across answers (failure,
# TTL 0, normal answer, expiry, in several orders), the start-up order of hosts given with
# and without a port, and the scenario's DNS table when a name has several record types.
# Every expected value is worked out by hand in the comments from doc/ring.md sections
# 2, 5 and 7 and decision 11, never taken from a run.
#
# The wheels use wheelSize 4 and order [1,2,3,4]: the free stack holds 1,2,3,4 with 4 on
# top, so the first four slots handed out are 4, 3, 2, 1 (section 2). Section 5's counts:
# c = floor(L * w / W + 0.0001), in iteration order; drops take an address's most recent
# slots first (pushed in that order, so the last one dropped is on top); pass 2 pops.
. "$(dirname "$0")/tap.sh"
S="$TMP/s.json"
scen() { printf '%s\n' "$1" >"$S"; run ring run "$S" --json; }
# the frame every lifecycle case shares: the IP-literal host 10.0.0.9:80 (weight 10, never
# resolved through the table) and x.example:80 (weight 10); "10.0.0.9:80" sorts before
# "x.example:80", so 10.0.0.9 is added first and takes 4,3,2,1 (section 2)
frame() { # frame DNS-OF-X OPS
    scen '{"wheelSize": 4, "order": [1, 2, 3, 4],
 "hosts": [{"name": "x.example", "port": 80, "weight": 10}, {"name": "10.0.0.9", "port": 80, "weight": 10}],
 "dns": {"x.example": '"$1"'},
 "ops": ['"$2"']}'
}
addrs() { # addrs N: the addresses of result N as [address, weight, slots]
    echo "[.results[$1].addresses[] | [.address, .weight, .slots]]"
}

# ---- 1. DNS record lifecycle ----

# failure first: x has no address (an empty A record, section 7), 10.0.0.9 keeps 4,3,2,1.
# Then a TTL 0 answer after the failure: x stands as one unresolved entry x.example:80,
# weight 10 (the failure counts as "previous answer failed"). W = 20: 10.0.0.9 gets
# floor(4 * 10/20 + 0.0001) = 2, drops 1 then 2 (2 on top); the stand-in pops 2, 1.
# A pick on slot 1 or 2 asks toip(x.example): the table's first A, 10.0.0.1, host port.
# After ttl0 (60 s) + 0.5 the re-query answers TTL 0 again, the previous one did too:
# still the stand-in, same slots.
frame '{"fail": "servfail"}' '{"op": "snapshot"},
 {"op": "dns", "name": "x.example", "A": [{"address": "10.0.0.1", "ttl": 0}]}, {"op": "snapshot"},
 {"op": "peers", "hashes": [0, 1, 2, 3]}, {"op": "advance", "seconds": 61}, {"op": "snapshot"}'
is_rc 0 "fail -> ttl 0: runs"
jqok "$(addrs 0) == [[\"10.0.0.9:80\", 10, [4,3,2,1]]]" "failed host: no address, its slots with the others"
jqok "$(addrs 2) == [[\"10.0.0.9:80\", 10, [4,3]], [\"x.example:80\", 10, [2,1]]]" \
    "fail -> ttl 0: the host stands as one unresolved entry (name, host port, node weight)"
jqok '.results[3].peers == ["10.0.0.1:80","10.0.0.1:80","10.0.0.9:80","10.0.0.9:80"]' \
    "fail -> ttl 0: picks on the stand-in go through toip"
jqok "$(addrs 5) == [[\"10.0.0.9:80\", 10, [4,3]], [\"x.example:80\", 10, [2,1]]]" \
    "ttl 0 -> expiry -> ttl 0 again: still the stand-in"

# normal -> failure -> (weight change while failed) -> normal.
# Start: x answers 10.0.0.1 (ttl 300); W = 20: 10.0.0.9 keeps 4,3 and drops 1, 2; 10.0.0.1
# pops 2, 1. Failure: 10.0.0.1 goes (weight 0): 10.0.0.9's count is 4, it holds 4,3;
# 10.0.0.1 drops 1 then 2; 10.0.0.9 pops 2, 1: [4,3,2,1]; weight 10.
# add x.example:80 weight 30 while failed: remembered only (no address to take it).
# A normal answer 10.0.0.2 (ttl 300): a new address with the remembered weight 30; W = 40:
# 10.0.0.9 gets floor(4 * 10/40 + 0.0001) = 1, drops 1, 2, 3 (3 on top); 10.0.0.2 pops 3,2,1.
frame '{"A": [{"address": "10.0.0.1", "ttl": 300}]}' '{"op": "snapshot"},
 {"op": "dns", "name": "x.example", "fail": "timeout"}, {"op": "snapshot"},
 {"op": "add", "name": "x.example", "port": 80, "weight": 30}, {"op": "snapshot"},
 {"op": "dns", "name": "x.example", "A": [{"address": "10.0.0.2", "ttl": 300}]}, {"op": "snapshot"}'
is_rc 0 "normal -> fail -> normal: runs"
jqok "$(addrs 0) == [[\"10.0.0.9:80\", 10, [4,3]], [\"10.0.0.1:80\", 10, [2,1]]]" "normal answer: 10.0.0.1 on 2,1"
jqok "$(addrs 2) == [[\"10.0.0.9:80\", 10, [4,3,2,1]]] and .results[2].weight == 10" \
    "normal -> fail: the address goes, its slots to the others"
jqok "$(addrs 4) == [[\"10.0.0.9:80\", 10, [4,3,2,1]]] and .results[4].weight == 10" \
    "weight change while failed: no address takes it yet"
jqok "$(addrs 6) == [[\"10.0.0.9:80\", 10, [4]], [\"10.0.0.2:80\", 30, [3,2,1]]]" \
    "fail -> normal: the new address carries the weight remembered while failed"

# normal -> stray TTL 0 -> TTL 0 -> normal.
# A single TTL 0 answer after a normal one is a normal record: same type (A), 10.0.0.1
# leaves (drops 1 then 2), 10.0.0.2 is new and pops 2, 1. A second TTL 0 answer (the
# previous one was TTL 0): the stand-in replaces 10.0.0.2 (type change: every address
# replaced), one for one: 2, 1; its picks ask toip, which now gives 10.0.0.3. A normal
# answer after the stand-in: 10.0.0.4 replaces it, again on 2, 1.
frame '{"A": [{"address": "10.0.0.1", "ttl": 300}]}' '
 {"op": "dns", "name": "x.example", "A": [{"address": "10.0.0.2", "ttl": 0}]}, {"op": "snapshot"},
 {"op": "dns", "name": "x.example", "A": [{"address": "10.0.0.3", "ttl": 0}]}, {"op": "snapshot"},
 {"op": "peers", "hashes": [0, 1]},
 {"op": "dns", "name": "x.example", "A": [{"address": "10.0.0.4", "ttl": 300}]}, {"op": "snapshot"}'
is_rc 0 "normal -> ttl 0 -> ttl 0 -> normal: runs"
jqok "$(addrs 1) == [[\"10.0.0.9:80\", 10, [4,3]], [\"10.0.0.2:80\", 10, [2,1]]]" \
    "normal -> ttl 0: a single stray TTL 0 answer is a normal record"
jqok "$(addrs 3) == [[\"10.0.0.9:80\", 10, [4,3]], [\"x.example:80\", 10, [2,1]]]" \
    "ttl 0 -> ttl 0: the stand-in takes the replaced address's slots"
jqok '.results[4].peers == ["10.0.0.3:80","10.0.0.3:80"]' "stand-in picks ask toip"
jqok "$(addrs 6) == [[\"10.0.0.9:80\", 10, [4,3]], [\"10.0.0.4:80\", 10, [2,1]]]" \
    "ttl 0 stand-in -> normal answer: a normal address again"

# TTL 0 first (no previous answer: the stand-in at once) -> failure -> TTL 0 (the previous
# answer failed: the stand-in again, not the address 10.0.0.5).
frame '{"A": [{"address": "10.0.0.1", "ttl": 0}]}' '{"op": "snapshot"},
 {"op": "dns", "name": "x.example", "fail": "nxdomain"}, {"op": "snapshot"},
 {"op": "dns", "name": "x.example", "A": [{"address": "10.0.0.5", "ttl": 0}]}, {"op": "snapshot"},
 {"op": "peers", "hashes": [1]}'
is_rc 0 "ttl 0 -> fail -> ttl 0: runs"
jqok "$(addrs 0) == [[\"10.0.0.9:80\", 10, [4,3]], [\"x.example:80\", 10, [2,1]]]" \
    "first answer TTL 0: the stand-in at once"
jqok "$(addrs 2) == [[\"10.0.0.9:80\", 10, [4,3,2,1]]]" "stand-in -> fail: no address"
jqok "$(addrs 4) == [[\"10.0.0.9:80\", 10, [4,3]], [\"x.example:80\", 10, [2,1]]] and .results[5].peers == [\"10.0.0.5:80\"]" \
    "fail -> ttl 0: the stand-in again"

# expiry of a normal answer: 10.0.0.1 (ttl 10) marked down, the clock moved past 10 + 0.5:
# the re-query answers the same (IP, port), which keeps its slots and its availability.
frame '{"A": [{"address": "10.0.0.1", "ttl": 10}]}' '
 {"op": "status", "ip": "10.0.0.1", "port": 80, "hostname": "x.example", "available": false},
 {"op": "advance", "seconds": 11}, {"op": "snapshot"}, {"op": "peers", "hashes": [0, 2]}'
is_rc 0 "normal -> expiry: runs"
jqok '.results[1].now == 11 and [.results[2].addresses[] | [.address, .available, .slots]] == [["10.0.0.9:80", true, [4,3]], ["10.0.0.1:80", false, [2,1]]] and .results[2].unavailableWeight == 10' \
    "expiry: the same answer keeps the address, its slots and its availability"
jqok '.results[3].peers == ["10.0.0.9:80","10.0.0.9:80"]' "expiry: the down address is still skipped"

# ---- 2. start-up order of hosts given without a port ----

# hosts a.example:80 (weight 1), a.example:79 (weight 1) and bare "a.example" (port 80,
# weight 10, the defaults). Sort keys "a.example:80", "a.example:79", "a.example:" (no
# port: the key ends at the colon): "a.example:" < "a.example:79" < "a.example:80".
# 1. a.example (port 80, weight 10) takes 4,3,2,1.
# 2. a.example:79 weight 1: W = 11: :80 gets floor(4 * 10/11 + 0.0001) = 3, drops 1; :79 pops 1.
# 3. a.example:80 again (weight 1): the same host, a weight change: W = 2: :80 gets 2,
#    drops 2; :79 gets 2, pops 2.  Wheel: 1, 2 -> :79; 3, 4 -> :80.
# (With the default port in the key the order would be :79, :80, :80 and the wheel all :80.)
scen '{"wheelSize": 4, "order": [1, 2, 3, 4],
 "hosts": [{"name": "a.example", "port": 80, "weight": 1}, {"name": "a.example", "port": 79, "weight": 1}, "a.example"],
 "dns": {"a.example": {"A": [{"address": "10.0.0.1"}]}}, "ops": []}'
is_rc 0 "ports: runs"
jqok '.initial.wheel == ["10.0.0.1:79","10.0.0.1:79","10.0.0.1:80","10.0.0.1:80"]' \
    "bare host first (key 'a.example:'), default port 80, then :79, then :80 as a weight change"
jqok '[.initial.addresses[] | [.address, .host, .weight, .slots]] == [["10.0.0.1:80","a.example:80",1,[4,3]],["10.0.0.1:79","a.example:79",1,[1,2]]]' \
    "ports: iteration order, weights and slot lists"

# bytes, not name then port: "a.example0:80" < "a.example:" ('0' is 0x30, ':' 0x3a), and
# ":79" < ":8" (port 8 after 79). a.example0 (10.0.0.2) first: 4,3,2,1; then a.example
# (10.0.0.1): W = 20, a.example0 keeps 4,3, a.example pops 2, 1.
scen '{"wheelSize": 4, "order": [1, 2, 3, 4], "hosts": ["a.example", "a.example0"],
 "dns": {"a.example": {"A": [{"address": "10.0.0.1"}]}, "a.example0": {"A": [{"address": "10.0.0.2"}]}}, "ops": []}'
jqok '.initial.wheel == ["10.0.0.1:80","10.0.0.1:80","10.0.0.2:80","10.0.0.2:80"]' \
    "'a.example0:80' sorts before 'a.example:' (bytes of name:port)"
scen '{"wheelSize": 4, "order": [1, 2, 3, 4],
 "hosts": [{"name": "a.example", "port": 8}, {"name": "a.example", "port": 79}],
 "dns": {"a.example": {"A": [{"address": "10.0.0.1"}]}}, "ops": []}'
jqok '.initial.wheel == ["10.0.0.1:8","10.0.0.1:8","10.0.0.1:79","10.0.0.1:79"]' \
    "port 79 before port 8 (':79' < ':8' bytewise)"

# ---- 3. several record types under one name (decision 11: SRV, else A, else AAAA) ----

# s1: SRV + A -> the SRV entry (10.0.0.5:81, weight 5); s2: SRV + AAAA -> SRV (10.0.0.6:82,
# weight 6); s3: A + AAAA -> A (10.0.0.3, host port 80, node weight 10); hosts sorted
# s1, s2, s3, each one address.
scen '{"wheelSize": 30, "hosts": ["s1.example", "s2.example", "s3.example"],
 "dns": {"s1.example": {"A": [{"address": "10.0.0.1"}], "SRV": [{"target": "10.0.0.5", "port": 81, "weight": 5, "priority": 1}]},
         "s2.example": {"AAAA": [{"address": "2001:db8::2"}], "SRV": [{"target": "10.0.0.6", "port": 82, "weight": 6, "priority": 1}]},
         "s3.example": {"AAAA": [{"address": "2001:db8::3"}], "A": [{"address": "10.0.0.3"}]}},
 "ops": []}'
is_rc 0 "record types: runs"
jqok '[.initial.addresses[] | [.address, .weight]] == [["10.0.0.5:81",5],["10.0.0.6:82",6],["10.0.0.3:80",10]]' \
    "SRV+A -> SRV, SRV+AAAA -> SRV, A+AAAA -> A"

# toip on a name with A and AAAA gives the A entry; with AAAA only, the AAAA one. x is an
# SRV host whose targets are names (ta: A + AAAA, tb: AAAA), weights 1 and 1 on 4 slots:
# SRV keys 000001:ta.example:90 < 000001:tb.example:91, ta takes floor(4*1/2+0.0001) = 2
# (4, 3), tb the rest (2, 1). A dns op giving x A + AAAA entries then answers A
# (10.0.0.8, a type change: every address replaced; weight 10 takes all four slots: ta
# drops 3 then 4, tb drops 1 then 2, so the stack pops 2, 1, 4, 3).
scen '{"wheelSize": 4, "order": [1, 2, 3, 4], "hosts": ["x.example"],
 "dns": {"x.example": {"SRV": [{"target": "tb.example", "port": 91, "weight": 1, "priority": 1},
                               {"target": "ta.example", "port": 90, "weight": 1, "priority": 1}]},
         "ta.example": {"AAAA": [{"address": "2001:db8::a"}], "A": [{"address": "10.0.0.10"}]},
         "tb.example": {"AAAA": [{"address": "2001:db8::b"}]}},
 "ops": [{"op": "peers", "hashes": [0, 1, 2, 3]},
         {"op": "dns", "name": "x.example", "AAAA": [{"address": "2001:db8::8"}], "A": [{"address": "10.0.0.8"}]},
         {"op": "snapshot"}]}'
is_rc 0 "toip: runs"
jqok '.results[0].peers == ["[2001:db8::b]:91","[2001:db8::b]:91","10.0.0.10:90","10.0.0.10:90"]' \
    "toip: A before AAAA; AAAA when there is no A"
jqok '[.results[2].addresses[] | [.address, .weight, .slots]] == [["10.0.0.8:80", 10, [2,1,4,3]]]' \
    "dns op with A and AAAA: the A entries"
echo "1..$T_N"
[ "$T_FAIL" -eq 0 ]
