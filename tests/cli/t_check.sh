#!/bin/sh
# bin/wsel check: listing, effective parameters and their levels, warnings, zone records,
# $include{}, JSON. Expected values are derived by hand from the configs.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

# The synopsis as a whole gdnsd config, with its zone records.
run check "$SYN" --zone "$EXAMPLES/synopsis.zone" example.com.
is_rc 0 "synopsis: valid"
has "$TMP/out" 'whole gdnsd config, 6 resources, 7 sets' "synopsis: 6 resources, 7 sets (mixed has two)"
has "$TMP/out" '^  set: cname, cname, 3 items$' "corpwww: cname mode"
has "$TMP/out" 'threshold ceil\(115 \* 0\.5\) = 58 of T = 115' "corpwww: threshold ceil(115*0.5)=58"
has "$TMP/out" '^  set: ungrouped-multi, ipv6, 3 items$' "frontwww6: ungrouped-multi"
has "$TMP/out" 'multi true \(resource\), up_thresh 0\.5 \(top\), service_types up \(resource\)' "frontwww6: levels"
has "$TMP/out" 'up_thresh 0\.01 \(resource\), service_types \[web_check, foo\] \(resource\)' "pubwww: up_thresh and service_types from the resource"
has "$TMP/out" 'threshold ceil\(77 \* 0\.01\) = 1 of T = 77' "pubwww: threshold 1"
has "$TMP/out" '^  set: grouped-single, ipv4, 5 items in 2 groups$' "cdnwww: grouped-single"
has "$TMP/out" '^  addrs_v4: ungrouped-single, ipv4, 2 items$' "mixed v4: ungrouped-single"
has "$TMP/out" '^  addrs_v6: grouped-multi, ipv6, 4 items in 2 groups$' "mixed v6: grouped-multi"
has "$TMP/out" 'multi true \(stanza\)' "mixed v6: multi from the stanza"
has "$TMP/out" 'multi false \(resource\), up_thresh 0\.5 \(top\), service_types up \(top\)' "mixed v4: multi from the resource"
has "$TMP/out" '^zone records: 6 weighted records checked$' "zone: 6 records"
has "$TMP/err" 'synopsis\.zone:4:[0-9]+: warning: DYNC weighted!pubwww names an address resource' "zone: DYNC on address resource is a warning"
has "$TMP/err" "synopsis\.conf:[0-9]+:[0-9]+: warning: resource 'pubwww': up_thresh 0\.01 gives threshold 1 <= smallest weight 11" "pubwww: threshold only reached with all DOWN"
has "$TMP/out" '^valid: 0 errors, 2 warnings$' "synopsis: exactly those 2 warnings"

run check "$SYN" --json
is_rc 0 "synopsis --json: exit 0"
jqok '.valid == true and .whole == true and (.resources | length) == 6' "json: valid whole config, 6 resources"
jqok '[.resources[] | .name] == ["corpwww","frontwww6","pubwww","cdnwww","mixed","cn"]' "json: resources in config order"
jqok '[.resources[] | .sets[] | .mode] == ["cname","ungrouped-multi","ungrouped-single","grouped-single","ungrouped-single","grouped-multi","cname"]' "json: modes"
jqok '[.resources[] | .sets[] | .threshold] == [58, 4, 1, 5, 2, 5, 57]' "json: thresholds ceil(T*up_thresh) by hand"
jqok '[.resources[] | .sets[] | .total] == [115, 7, 77, 9, 4, 10, 114]' "json: totals T"
jqok '.resources[4].sets | map(.stanza) == ["addrs_v4","addrs_v6"]' "json: mixed stanzas v4 first"
jqok '.resources[2].sets[0].service_types == ["web_check","foo"] and .resources[2].sets[0].service_types_from == "resource"' "json: pubwww service types"
jqok '.resources[4].sets[1].multi_from == "stanza" and .resources[4].sets[0].multi_from == "resource"' "json: mixed multi levels"
jqok '(.warnings | length) == 1 and (.errors | length) == 0' "json: one warning without zone"

# Hand-written expected listing.
(cd "$DATA" && "$WSEL" check single3.conf >"$TMP/out" 2>"$TMP/err"); RC=$?
is_rc 0 "single3: valid with duplicates"
cmp -s "$TMP/out" "$DATA/single3.check.expected"; ok $? "single3: listing equals the hand-written expected output"
has "$TMP/err" "address '192\.0\.2\.1' appears 3 times in one set" "single3: duplicate addresses warned"

# Each kind of warning, config still valid.
run check "$DATA/warn.conf"
is_rc 0 "warn.conf: valid despite warnings"
has "$TMP/err" "warn\.conf:4:[0-9]+: warning: .*label 'up_tresh' looks like a misspelling of the parameter 'up_thresh'" "misspelled parameter label"
has "$TMP/err" "item 'light' is answered with probability 4\.77e-07" "odds below 1e-6 (1/2097151)"
has "$TMP/err" "'onlyall': up_thresh 0\.01 gives threshold 1 <= smallest weight 10" "threshold only all-DOWN"
has "$TMP/err" "'anysingle': up_thresh 1 gives threshold 10 > T - smallest weight = 10 - 5" "any single DOWN fails over"
has "$TMP/err" "'dup': address '2001:db8::1' appears 2 times" "duplicates compared in canonical form"
has "$TMP/out" '^valid: 0 errors, 5 warnings$' "warn.conf: exactly 5 warnings"
run check "$DATA/warn.conf" --json
jqok '(.warnings | length) == 5 and .valid' "warn.conf --json: 5 warnings"
jqok '[.warnings[] | .line] == [4, 10, 12, 17, 24]' "warn.conf --json: warning lines"

# A clean config and zone.
run check "$DATA/clean.conf" --zone "$DATA/good.zone" example.com.
is_rc 0 "clean.conf with good.zone: valid"
has "$TMP/out" '^zone records: 2 weighted records checked$' "good.zone: other plugins, TXT and SOA ignored"
[ ! -s "$TMP/err" ]; ok $? "clean.conf: no warnings at all"

# Zone errors: exit 1, FILE:LINE:COL: lines.
run check "$DATA/clean.conf" --zone "$DATA/bad.zone" example.com.
is_rc 1 "bad.zone: invalid"
has "$TMP/err" 'bad\.zone:2:[0-9]+: DYNA weighted!cn: ' "DYNA on a CNAME resource is an error"
has "$TMP/err" 'bad\.zone:3:[0-9]+: DYNA weighted!nosuch: ' "unknown resource is an error"
has "$TMP/err" 'bad\.zone:4:[0-9]+: warning: DYNC weighted!www' "DYNC on an address resource is a warning"
has "$TMP/err" 'bad\.zone:6:[0-9]+: DYNA record: expected weighted!RESOURCE' "empty resource name is an error"
has "$TMP/out" '^INVALID: 3 errors, 1 warning$' "bad.zone: 3 errors, 1 warning"
run check "$DATA/clean.conf" --zone "$DATA/inzone.zone" example.net.
is_rc 1 "DYNC with a CNAME into its own zone: invalid"
has "$TMP/err" 'inzone\.zone:2:[0-9]+: ' "own-zone CNAME error has a location"
run check "$DATA/clean.conf" --zone "$DATA/inzone.zone" example.org.
is_rc 0 "same record in another zone: valid"
run check "$DATA/clean.conf" --zone "$DATA/bad.zone" example.com. --json
is_rc 1 "bad.zone --json: exit 1"
jqok '.valid == false and (.errors | length) == 3 and (.warnings | length) == 1 and .records == 4' "bad.zone --json: counts"

# $include{} in a whole config; forcing the input kind.
run check "$DATA/whole_include.conf"
is_rc 0 "whole config with \$include{dir}: valid"
has "$TMP/out" 'whole gdnsd config, 2 resources, 2 sets' "included resources listed"
has "$TMP/out" '^resource inca: ' "inca from inc/10-a.inc"
has "$TMP/out" '^resource incb: CNAMEs' "incb from inc/20-b.inc"
run check "$DATA/whole_include.conf" --stanza
is_rc 1 "--stanza on a whole config: invalid"
run check "$DATA/clean.conf" --whole
is_rc 1 "--whole on a stanza: invalid (no plugins => weighted)"
run check "$DATA/clean.conf" --stanza
is_rc 0 "--stanza on a stanza: valid"
run check "$DATA/empty.conf"
is_rc 0 "no resources: still valid"
has "$TMP/err" 'empty\.conf: warning: the weighted stanza defines no resources' "no resources: warned"

# gdnsd's verdict (issue 13): accepted with a warning, refused with --strict
printf 'up_thresh = 7\nr => { up_thresh = 0.5, a = [ 127.1, 1 ] }\n' >"$TMP/aton.conf"
run check "$TMP/aton.conf"
is_rc 0 "gdnsd-accepted oddities: valid"
has "$TMP/err" "aton\.conf:2:31: warning: .*'127\.1' is read as 127\.0\.0\.1" "inet_aton spelling: warned, with the address"
has "$TMP/err" "aton\.conf:1:13: warning: .*up_thresh is never read" "unread invalid up_thresh: warned"
has "$TMP/out" '^checked: the weighted plugin stanza$' "says what was checked"
has "$TMP/out" '^valid: 0 errors, 2 warnings$' "two warnings"
run check "$TMP/aton.conf" --strict
is_rc 1 "--strict: warnings are errors"
has "$TMP/out" '^INVALID: 2 errors, 0 warnings$' "--strict: counted as errors"
run check "$TMP/aton.conf" --json
jqok '.valid == true and (.warnings | length) == 2 and (.checked | test("weighted plugin stanza"))' "json: warnings and checked"
printf 'r => { a = [ 192.0.2.1, 1 ] }\n# no newline' >"$TMP/eof.conf"
run check "$TMP/eof.conf"
is_rc 1 "a final comment without newline: invalid, as in gdnsd"

# The zone file is read by the library's one file reader (core/io.h): its limits and
# reasons, and the zone reader's own line rules on the text it returns.
SYN="$EXAMPLES/synopsis.conf"
truncate -s 1073741825 "$TMP/huge.zone"
run check "$SYN" --zone "$TMP/huge.zone" example.com.
one_line_error "a zone file over 1 GiB is refused at once"
has "$TMP/err" "zone file '.*huge\.zone' is larger than the limit of 1073741824 bytes" "... naming the limit"
{ echo 'www 300 DYNA weighted!pubwww'; head -c 1048576 /dev/zero | tr '\0' a; echo; } >"$TMP/long.zone"
run check "$SYN" --zone "$TMP/long.zone" example.com.
one_line_error "a zone line of 1 MiB is refused"
has "$TMP/err" "long\.zone:2: line too long" "... at its line"
printf 'www 300 DYNA weighted!pubwww\nx\000y\n' >"$TMP/nul.zone"
run check "$SYN" --zone "$TMP/nul.zone" example.com.
one_line_error "a NUL byte in a zone file is refused"
has "$TMP/err" "nul\.zone:2: NUL byte in zone file" "... at its line"
printf '\n\nwww 300 DYNA (\n weighted!nosuch' >"$TMP/open.zone"
run check "$SYN" --zone "$TMP/open.zone" example.com.
is_rc 1 "a last line without newline counts, a '(' never closed is an error"
has "$TMP/err" "open\.zone:4:11: DYNA weighted!nosuch: " "... the record is checked, at its resource"
has "$TMP/err" "open\.zone:4:1: '\(' of the record at line 3 is never closed" "... and the open '(' reported at the last line"
done_testing
