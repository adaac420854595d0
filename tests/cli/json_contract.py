#!/usr/bin/env python3
"""The --json contract of every command (man/wsel.1, JSON OUTPUT and each command's
section), run by tests/cli/t_json.sh.

Each output is validated against its schema in tests/schema/ (written from the man
page) with Debian's python3-jsonschema, and every documented key's value is asserted in
at least one case: the values are worked out by hand from the configs in
tests/cli/data/json/ (weighted) or from relations the man page states (ring, gslb).
A key that on most inputs follows a neighbouring key (explicit_families and two sets,
correction and the sub-tests listed, ...) is also asserted on an input where the two
differ (facts.conf, facts.admin, two_up.admin, marks.conf, and the ring scenarios of the
last section). Two keys have no such input: sample's impossible is true only when an
engine draws an answer the odds exclude (a broken engine: tests/test_sample_stats.c
holds the fit to p 0 then), and unlisted_draws is above 0 only past 2^20 distinct
answers drawn (over a million draws and some 100 MB of JSON).
Prints TAP. Usage: json_contract.py WSEL TMPDIR
"""
import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import jsonschema

WSEL, TMP = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data", "json")
SCHEMA = os.path.join(ROOT, "tests", "schema")
EX = os.path.join(ROOT, "examples")
MAXTTL = 268435455
n_test = 0
n_fail = 0


def ok(cond, name, why=""):
    global n_test, n_fail
    n_test += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n_test, name))
    if not cond:
        n_fail += 1
        if why:
            print("# " + str(why).replace("\n", "\n# ")[:1500])


def eq(got, want, name):
    ok(got == want, name, "got %r, want %r" % (got, want))


def run(schema, *args, rc=0):
    """Runs wsel ARGS, checks its exit status and validates stdout against schema."""
    p = subprocess.run([WSEL] + list(args), capture_output=True, text=True, cwd=ROOT)
    what = "%s %s" % (args[0], os.path.basename(args[1]) if len(args) > 1 else "")
    if args[0] in ("ring", "gslb"):
        what = "%s %s %s" % (args[0], args[1], os.path.basename(args[2]))
    ok(p.returncode == rc, "%s: exit %d" % (what, rc), "exit %d: %s" % (p.returncode, p.stderr[:300]))
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        ok(False, "%s: one JSON document" % what, e)
        return None
    with open(os.path.join(SCHEMA, schema + ".json")) as f:
        s = json.load(f)
    errors = sorted(jsonschema.Draft7Validator(s).iter_errors(doc), key=lambda e: list(e.path))
    ok(not errors, "%s: valid against tests/schema/%s.json" % (what, schema),
       "\n".join("at %s: %s" % ("/".join(map(str, e.path)), e.message[:200]) for e in errors[:5]))
    return doc


def data(name):
    return os.path.join(DATA, name)


def by(lst, key, value):
    for x in lst:
        if x.get(key) == value:
            return x
    return None


def frac(s):
    return Fraction(s) if s is not None else None


# ---- check -------------------------------------------------------------------------
d = run("check", "check", data("two.conf"), "--zone", data("two.zone"), "example.com.", "--json")
if d:
    eq([d["valid"], d["whole"], d["records"]], [True, False, 3],
       "check: valid, stanza-only (whole false), 3 zone records")
    ok(d["file"].endswith("two.conf"), "check: file names the config")
    ok("weighted" in d["checked"] and "stanza" in d["checked"],
       "check: checked says the weighted stanza is what the verdict covers", d["checked"])
    both, cn = d["resources"]
    eq([both["name"], both["cname"], both["explicit_families"]], ["both", False, True],
       "check: both is an address resource with explicit families")
    eq([cn["name"], cn["cname"], cn["explicit_families"]], ["cn", True, False],
       "check: cn is a CNAME resource")
    # by hand: T = 3 + 1 = 4, threshold ceil(4 * 0.6) = ceil(2.4) = 3; v6: T = 5,
    # 5 * 0.6 is 3.0 in doubles, threshold 3; cn: T = 4, threshold 3
    want = [
        dict(stanza="addrs_v4", family="ipv4", mode="ungrouped-single", multi=False,
             multi_from="default", up_thresh=0.6, up_thresh_from="top", service_types=["mon"],
             service_types_from="resource", total=4, threshold=3, items=2, groups=0),
        dict(stanza="addrs_v6", family="ipv6", mode="grouped-multi", multi=True,
             multi_from="stanza", up_thresh=0.6, up_thresh_from="top", service_types=["mon"],
             service_types_from="resource", total=5, threshold=3, items=3, groups=2),
        dict(stanza=None, family="cname", mode="cname", multi=False, multi_from="default",
             up_thresh=0.6, up_thresh_from="top", service_types=[],
             service_types_from="resource", total=4, threshold=3, items=2, groups=0),
    ]
    got = both["sets"] + cn["sets"]
    for w, g in zip(want, got):
        for k, v in w.items():
            eq(g.get(k), v, "check: set %s %s" % (w["stanza"] or "cn", k))
    eq(d["errors"], [], "check: no errors")
    eq([(os.path.basename(w["file"]), w["line"], w["col"]) for w in d["warnings"]],
       [("two.zone", 4, 23)], "check: the one warning, DYNC naming an address resource (line 4, col 23: the RDATA)")
    ok("DYNC" in d["warnings"][0]["message"], "check: warning message")

d = run("check", "check", data("bad.conf"), "--json", rc=1)
if d:
    e = d["errors"][0] if d["errors"] else {}
    eq([d["valid"], len(d["errors"]), d["warnings"]], [False, 1, []],
       "check, config not loading: valid false, one error, no warnings")
    eq([e.get("line"), e.get("col"), e.get("resource"), e.get("stanza"), e.get("item")],
       [1, 42, "r", "addrs_v6", "a"], "check, config not loading: the error's position, resource, stanza, item")
    ok(e.get("file", "").endswith("bad.conf") and isinstance(e.get("code"), str) and e["code"]
       and "weight" in e.get("message", ""), "check, config not loading: file, code, message", e)
    ok(set(d) == {"file", "valid", "errors", "warnings"},
       "check, config not loading: only file, valid, errors and warnings", sorted(d))

# Keys on an input where they differ from what a neighbouring key predicts (facts.conf):
# explicit families with one set (not two), that set being addrs_v6 though it is the
# first; up_thresh written with the default's value (from the resource, not default);
# service_types and multi written nowhere (default).
d = run("check", "check", data("facts.conf"), "--json")
if d:
    v6, mx = d["resources"]
    eq([v6["name"], v6["cname"], v6["explicit_families"], len(v6["sets"])], ["v6only", False, True, 1],
       "check, one explicit family: explicit_families true with a single set")
    s = v6["sets"][0]
    # by hand: T = 1 + 3 = 4, threshold ceil(4 * 0.5) = 2
    eq([s[k] for k in ("stanza", "family", "mode", "multi", "multi_from", "up_thresh", "up_thresh_from",
                       "service_types", "service_types_from", "total", "threshold", "items", "groups")],
       ["addrs_v6", "ipv6", "ungrouped-single", False, "default", 0.5, "resource", ["up"], "default", 4, 2, 2, 0],
       "check, one explicit family: the set is addrs_v6; up_thresh 0.5 written in the resource; service_types up by default")
    eq([[x[k] for k in ("stanza", "multi", "multi_from", "up_thresh_from", "service_types_from", "total", "threshold", "items")]
        for x in mx["sets"]],
       [["addrs_v4", True, "stanza", "default", "default", 7500, 3750, 14],
        ["addrs_v6", False, "default", "default", "default", 7, 4, 1]],
       "check, two explicit families: up_thresh 0.5 by default; multi from the v4 stanza only")

# ---- explain -----------------------------------------------------------------------
d = run("explain", "explain", data("two.conf"), "--state", "mon=" + data("two.state"), "--json")
if d:
    ok(d["config"].endswith("two.conf"), "explain: config")
    both, cn = d["resources"]
    eq(both["resource"], "both", "explain: resource")
    # v4: 192.0.2.1 DOWN leaves 1 < 3: failed over; v6 stays (5 >= 3). The resource is
    # failed because one set is.
    eq([both["failed"], both["sets"][0]["failed"], both["sets"][1]["failed"]], [True, True, False],
       "explain: a two-family resource is failed when its v4 set alone failed")
    eq([both["ttl"], both["sets"][0]["ttl"], both["sets"][1]["ttl"]], [20, 30, 20],
       "explain: ttl per set (30, 20) and the smaller for the resource")
    eq(both["enumerable"], True, "explain: enumerable")
    v4, v6 = both["sets"]
    eq([v4[k] for k in ("stanza", "family", "mode", "up_thresh", "total", "dyn_sum", "threshold")],
       ["addrs_v4", "ipv4", "ungrouped-single", 0.6, 4, 1, 3], "explain: v4 set keys")
    eq([v6[k] for k in ("stanza", "family", "mode", "up_thresh", "total", "dyn_sum", "threshold")],
       ["addrs_v6", "ipv6", "grouped-multi", 0.6, 5, 5, 3], "explain: v6 set keys")
    # v6 grouped-multi: G = 2, 3; M = 3: g1 taken 2/3, g2 always; in g2 y 2/3, z 1/3
    eq([(g["label"], g["total"], frac(g["p_exact"])) for g in v6["groups"]],
       [("addrs_v6/g1", 2, Fraction(2, 3)), ("addrs_v6/g2", 3, Fraction(1))], "explain: v6 groups")
    ok(all(abs(g["p"] - float(frac(g["p_exact"]))) < 1e-15 for g in v6["groups"]), "explain: group p")
    eq(v4["groups"], [], "explain: no groups in an ungrouped set")
    eq([round(x, 15) for x in v6["sizes"]], [0, round(1 / 3, 15), round(2 / 3, 15)],
       "explain: v6 sizes: 1 item with 1/3, 2 with 2/3")
    eq(v4["sizes"], [0, 1], "explain: v4 sizes")
    eq([(a["labels"], frac(a["p_exact"])) for a in v6["answers"]],
       [(["addrs_v6/g1/x", "addrs_v6/g2/y"], Fraction(4, 9)),
        (["addrs_v6/g1/x", "addrs_v6/g2/z"], Fraction(2, 9)),
        (["addrs_v6/g2/y"], Fraction(2, 9)), (["addrs_v6/g2/z"], Fraction(1, 9))],
       "explain: v6 answers in order with exact p")
    eq([(a["labels"], frac(a["p_exact"])) for a in v4["answers"]],
       [(["addrs_v4/a"], Fraction(3, 4)), (["addrs_v4/b"], Fraction(1, 4))],
       "explain: v4 answers after the reset (weights 3 and 1)")
    # whole answers: every v4 answer with every v6 answer, v4 labels first
    want = [(a4 + a6, p4 * p6) for a4, p4 in [(["addrs_v4/a"], Fraction(3, 4)), (["addrs_v4/b"], Fraction(1, 4))]
            for a6, p6 in [(["addrs_v6/g1/x", "addrs_v6/g2/y"], Fraction(4, 9)),
                           (["addrs_v6/g1/x", "addrs_v6/g2/z"], Fraction(2, 9)),
                           (["addrs_v6/g2/y"], Fraction(2, 9)), (["addrs_v6/g2/z"], Fraction(1, 9))]]
    eq([(a["labels"], frac(a["p_exact"])) for a in both["answers"]], want,
       "explain: the resource's whole answers, v4 first, p = product")
    eq(both["answers"][0]["addresses"], ["192.0.2.1", "2001:db8::1", "2001:db8::2"],
       "explain: answer addresses in label order")
    ok(all(abs(a["p"] - float(frac(a["p_exact"]))) < 1e-15 for a in both["answers"]),
       "explain: answer p equals p_exact")
    items = {i["label"]: i for i in both["items"]}
    a = items.get("addrs_v4/a", {})
    eq([a.get(k) for k in ("address", "weight", "up", "dyn_weight", "p_included_exact")],
       ["192.0.2.1", 3, False, 3, "3/4"], "explain: item a: DOWN, weight restored by the failover")
    x = items.get("addrs_v6/g1/x", {})
    eq([x.get(k) for k in ("address", "weight", "up", "dyn_weight", "p_included_exact")],
       ["2001:db8::1", 2, True, 2, "2/3"], "explain: item g1/x")
    ok(abs(x.get("p_included", 0) - 2 / 3) < 1e-15, "explain: p_included")
    eq([(c["label"], c["p_included_exact"]) for c in cn["items"]],
       [("c1", "1/4"), ("c2", "3/4")], "explain: cname items")
    eq([cn["failed"], cn["ttl"], cn["sets"][0]["stanza"]], [False, MAXTTL, None],
       "explain: cname resource never DOWN (no service types), TTL 2^28 - 1")

d = run("explain", "explain", data("two.conf"), "both", "--down", "2001:db8::2",
        "--down", "2001:db8::3", "--json")
if d:
    r = d["resources"][0]
    eq([r["failed"], r["sets"][0]["failed"], r["sets"][1]["failed"], r["sets"][1]["dyn_sum"]],
       [True, False, True, 2], "explain: a two-family resource is failed when its v6 set alone failed")

d = run("explain", "explain", data("pool.conf"), "wide", "--json")
if d:
    r = d["resources"][0]
    # 13 items included with 1/2 each and h always: 8192 answers > 4096
    eq([r["enumerable"], r["answers"], r["sets"][0]["enumerable"], r["sets"][0]["answers"]],
       [False, None, False, None], "explain: more than 4096 answers: enumerable false, answers null")

# Each set enumerable but not the resource: addrs_v4 has 64 answers (64 items, single),
# addrs_v6 128 (ungrouped-multi: h of weight 2 always, each of 7 items of weight 1 with
# odds 1/2), together 64 * 128 = 8192 > 4096.
wide2 = os.path.join(TMP, "wide2.conf")
with open(wide2, "w") as f:
    f.write("w2 => {\n  addrs_v4 => {\n")
    f.write("".join("    a%d => [ 10.1.0.%d, 1 ]\n" % (i, i + 1) for i in range(64)))
    f.write("  }\n  addrs_v6 => {\n    multi => true\n    h => [ 2001:db8::ff, 2 ]\n")
    f.write("".join("    b%d => [ 2001:db8::%x, 1 ]\n" % (i, i + 1) for i in range(7)))
    f.write("  }\n}\n")
d = run("explain", "explain", wide2, "--json")
if d:
    r = d["resources"][0]
    eq([r["enumerable"], r["answers"]], [False, None],
       "explain: 64 * 128 answers: the resource is not enumerable though each set is")
    eq([(x["enumerable"], len(x["answers"] or [])) for x in r["sets"]], [(True, 64), (True, 128)],
       "explain: each set enumerable, with 64 and 128 answers")

# ---- sample ------------------------------------------------------------------------


def pooled_bins(answers):
    """man/wsel.1, sample: answers expecting fewer than 5 join one pooled bin, smallest
    first, which while it still expects fewer than 5 takes in the next smallest."""
    order = sorted(answers, key=lambda a: a["expected"])
    bins, pool, pool_e = [], 0, 0.0
    small = [a for a in order if a["expected"] < 5]
    rest = [a for a in order if a["expected"] >= 5]
    for a in small:
        pool += a["count"]
        pool_e += a["expected"]
    while small and pool_e < 5 and rest:
        a = rest.pop(0)
        pool += a["count"]
        pool_e += a["expected"]
    bins = [(a["count"], a["expected"]) for a in rest]
    if small:
        bins.append((pool, pool_e))
    return bins


def chi2_q(x, k):
    """P(chi-squared with k degrees of freedom > x), for k = 1 and even k."""
    if k == 1:
        return math.erfc(math.sqrt(x / 2))
    s, t = 0.0, 1.0
    for i in range(k // 2):
        if i:
            t *= (x / 2) / i
        s += t
    return math.exp(-x / 2) * s


# expected counts at n = 1000 (by hand from pool.conf) and the degrees of freedom after
# pooling: p1 995, 5 (5 is not pooled); p2 996, 4 (4 pooled with 996: one bin, df 0);
# p3 990, 5, 5; p4 985, 10, 5; p5 992.5, 5, 2.5 (2.5 takes in 5); p6 990, 5, 2.5, 2.5
# (the two 2.5 together reach 5 and take nothing more)
cases = {"p1": ([995, 5], 1), "p2": ([996, 4], 0), "p3": ([990, 5, 5], 2),
         "p4": ([985, 10, 5], 2), "p5": ([992.5, 5, 2.5], 1), "p6": ([990, 5, 2.5, 2.5], 2)}
for res, (expected, df) in cases.items():
    d = run("sample", "sample", data("pool.conf"), res, "-n", "1000", "--seed", "7",
            "--engine", "ref", "--json")
    if not d:
        continue
    eq([d["resource"], d["n"], d["seed"], d["engine"], d["test"], d["impossible"]],
       [res, 1000, 7, "ref", "answer-sets", False], "sample %s: resource, n, seed, engine, test" % res)
    eq([a["expected"] for a in d["answers"]], expected, "sample %s: expected counts N p" % res)
    eq(sum(a["count"] for a in d["answers"]), 1000, "sample %s: counts add up to n" % res)
    eq([(i["label"], i["count"]) for i in d["items"]],
       [(a["labels"][0], a["count"]) for a in d["answers"]], "sample %s: item counts" % res)
    eq(d["df"], df, "sample %s: pooling leaves df %d" % (res, df))
    bins = pooled_bins(d["answers"])
    chi2 = sum((o - e) ** 2 / e for o, e in bins)
    ok(d["chi2"] is not None and abs(d["chi2"] - chi2) <= 1e-9 * max(1, chi2),
       "sample %s: chi2 is Pearson's over the pooled bins" % res, "got %r want %r" % (d["chi2"], chi2))
    if df == 0:
        eq(d["p"], None, "sample %s: p null with df 0" % res)
    else:
        ok(d["p"] is not None and abs(d["p"] - chi2_q(chi2, df)) < 1e-9,
           "sample %s: p is the chi-squared tail" % res, "got %r want %r" % (d["p"], chi2_q(chi2, df)))

d = run("sample", "sample", data("pool.conf"), "wide", "-n", "2000", "--json")
if d:
    eq([d["test"], d["distinct_answers"], d["unlisted_draws"]],
       ["subtests", len(d["answers"]), 0], "sample, not enumerable: sub-tests, every distinct answer listed")
    eq([(t["kind"], t["set"], t["group"], t["draws"], t["df"]) for t in d["subtests"]] + [d["correction"], d["subtests_counted"]],
       [("items", 0, None, 2000, 13), "none", 1],
       "sample, not enumerable: one ungrouped-multi set gives one items sub-test, no correction")
    eq(sum(a["count"] for a in d["answers"]), 2000, "sample, not enumerable: listed counts add up")
    tally = {}
    for a in d["answers"]:
        for lab in a["labels"]:
            tally[lab] = tally.get(lab, 0) + a["count"]
    eq({i["label"]: i["count"] for i in d["items"]}, tally,
       "sample, not enumerable: item counts agree with the answers drawn")
    eq([(i["label"], i["expected"]) for i in d["items"]][:2], [("h", 2000), ("i0", 1000)],
       "sample, not enumerable: expected inclusions N p (h always, i0 half)")
    # only items with 0 < p < 1 count: the 13 halves, one degree of freedom each
    eq(d["df"], 13, "sample, not enumerable: one degree of freedom per item with 0 < p < 1")
    ok(all(abs(a["expected"] - 2000 * 2.0 ** -(len(a["labels"]) - 1) * 2.0 ** -(14 - len(a["labels"]))) < 1e-9
           for a in d["answers"]), "sample, not enumerable: each answer's exact expected count (2000 / 8192)")

# mixed (facts.conf): 2^13 * 1 answers, so sub-tests; two are listed (items over
# addrs_v4, answer-sets over addrs_v6's one answer, df 0) and only one counts, so no
# correction; the answer-sets sub-test is a set's (set 1), not the resource's (null).
# The TTL is the forced 20 of addrs_v6's one item (facts.admin): every other state is
# the built-in up's, never below 20.
d = run("sample", "sample", data("facts.conf"), "mixed", "-n", "2000", "--admin-state",
        data("facts.admin"), "--json")
if d:
    eq([d["test"], d["ttl"]], ["subtests", 20],
       "sample: the TTL is a forced one, of an item of the resource's second set")
    eq([(t["kind"], t["set"], t["group"], t["draws"], t["df"]) for t in d["subtests"]],
       [("items", 0, None, 2000, 13), ("answer-sets", 1, None, 2000, 0)],
       "sample: two sub-tests listed, the second over set 1's answers with df 0")
    eq([d["subtests_counted"], d["correction"], d["df"]], [1, "none", 13],
       "sample: two sub-tests listed but one counted: no correction")
    eq(d["p"], d["subtests"][0]["p"], "sample: with one sub-test counted, p is its p")

# ---- states ------------------------------------------------------------------------
d = run("states", "states", data("two.conf"), "--state", "mon=" + data("two.state"),
        "--admin-state", data("two.admin"), "--json")
if d:
    ok(d.get("config", "").endswith("two.conf"), "states: config")
    p = {(x["thing"], x["service"]): x for x in d["pairs"]}
    eq(sorted(p), [("192.0.2.1", "mon"), ("192.0.2.2", "mon"), ("2001:db8::1", "mon"),
                   ("2001:db8::2", "mon"), ("2001:db8::3", "mon")],
       "states: every address with its set's service type; the CNAMEs have none")
    eq([x["thing"] for x in d["pairs"]], sorted(x["thing"] for x in d["pairs"]), "states: sorted by thing")
    eq(p[("192.0.2.1", "mon")], {"thing": "192.0.2.1", "service": "mon",
                                 "monitored": {"state": "DOWN", "ttl": 30}, "forced": None,
                                 "state": "DOWN", "ttl": 30}, "states: monitored DOWN/30")
    eq(p[("192.0.2.2", "mon")]["forced"], {"state": "DOWN", "ttl": 40}, "states: forced with a TTL")
    eq([p[("192.0.2.2", "mon")][k] for k in ("state", "ttl")], ["DOWN", 40], "states: the forced TTL replaces")
    # gdnsd 3.8.1 reads a forced state without /TTL as TTL 2^28 - 1 (doc/weighted.md D21)
    eq(p[("2001:db8::3", "mon")]["forced"], {"state": "UP", "ttl": 268435455}, "states: forced without a TTL")
    eq([p[("2001:db8::2", "mon")][k] for k in ("state", "ttl")], ["UP", 20], "states: monitored UP/20")

# A forced UP/100 over a monitored DOWN/30: the forced state and TTL replace the
# monitored ones (doc/weighted.md 6.5), not the worse state nor the smaller TTL.
d = run("states", "states", data("two.conf"), "--state", "mon=" + data("two.state"),
        "--admin-state", data("two_up.admin"), "--json")
if d:
    p = {(x["thing"], x["service"]): x for x in d["pairs"]}
    eq(p[("192.0.2.1", "mon")], {"thing": "192.0.2.1", "service": "mon",
                                 "monitored": {"state": "DOWN", "ttl": 30}, "forced": {"state": "UP", "ttl": 100},
                                 "state": "UP", "ttl": 100},
       "states: forced UP/100 over monitored DOWN/30 gives UP/100")

# ---- ring --------------------------------------------------------------------------
d = run("ring_run", "ring", "run", os.path.join(EX, "ring", "k4.json"), "--json")
if d:
    ini = d["initial"]
    N = len(ini["wheel"])
    eq(N, 15, "ring run: the wheel has wheelSize slots")
    owners = {s: a["address"] for a in ini["addresses"] for s in a["slots"]}
    eq(sorted(owners), list(range(1, N + 1)), "ring run: every slot held once by the addresses' slots")
    eq([ini["wheel"][s - 1] for s in sorted(owners)], [owners[s] for s in sorted(owners)],
       "ring run: wheel[slot] is the address listing the slot")
    eq([ini["weight"], ini["healthy"], ini["unavailableWeight"]], [150, True, 0],
       "ring run: weight 100 + 50, healthy")
    eq(sorted((a["host"], a["weight"], a["available"], len(a["slots"])) for a in ini["addresses"]),
       [("getkong.org:321", 50, True, 5), ("mashape.com:123", 100, True, 10)],
       "ring run: addresses with host, weight, availability and 15 * share slots")
    ops = [r["op"] for r in d["results"]]
    eq(ops, ["rr", "peers", "hoststatus", "peers", "retry", "snapshot"], "ring run: one result per op")
    eq(len(d["results"][0]["picks"]), 30, "ring run: rr picks count")
    # peers for hashes 1..15: the wheel's slot (hash mod N) + 1, before any change
    eq(d["results"][1]["peers"], [ini["wheel"][h % N] for h in range(1, 16)],
       "ring run: peers of hashes 1..15 read the wheel")
    snap = d["results"][5]
    eq([snap["unavailableWeight"], snap["healthy"]], [50, True], "ring run: snapshot after getkong.org is unavailable")
    ok(all(p == "1.2.3.4:123" for p in d["results"][3]["peers"] + d["results"][4]["picks"]),
       "ring run: with getkong.org down every peer and retry is mashape.com's")

d = run("ring_run", "ring", "run", os.path.join(ROOT, "tests", "data", "ring", "status_miss.json"), "--json")
if d:
    eq([r.get("error", "")[:19] for r in d["results"]],
       ["ring: no peer found", "ring: no peer found", "", ""],
       "ring run: a status op that names no address has an error, and the run goes on")

d = run("ring_show", "ring", "show", os.path.join(EX, "ring", "k4.json"), "--json")
if d:
    N, W = d["wheelSize"], d["weight"]
    eq([N, d["healthy"]], [15, True], "ring show: wheelSize, healthy")
    eq(W, sum(a["weight"] for a in d["addresses"]), "ring show: weight is the sum")
    eq(sum(a["slots"] for a in d["addresses"]), N, "ring show: slots add up to the wheel")
    ok(all(abs(a["slotShare"] - a["slots"] / N) < 1e-12 and
           abs(a["weightShare"] - a["weight"] / W) < 1e-12 and
           abs(a["deviation"] - (a["slots"] - N * a["weightShare"])) < 1e-9 for a in d["addresses"]),
       "ring show: slotShare, weightShare and deviation as the man page defines them",
       d["addresses"])
    big = max(d["addresses"], key=lambda a: abs(a["deviation"]))
    ld = d["largestDeviation"]
    ok(ld is None and all(a["deviation"] == 0 for a in d["addresses"]) or
       (ld is not None and abs(ld["slots"]) == abs(big["deviation"])),
       "ring show: largestDeviation is the largest |deviation| (null when there is none)", ld)

d = run("ring_diff", "ring", "diff", os.path.join(EX, "ring", "k2.json"), "--json")
if d:
    ok(len(d["changes"]) > 0, "ring diff: changes listed")
    good = True
    why = ""
    for c in d["changes"]:
        n_slots = len(c["slots"])
        if c["moved"] != n_slots or c["untouchedMoves"] != sum(s["untouched"] for s in c["slots"]) \
                or c["minimalMoved"] > c["moved"] or any(s["from"] == s["to"] for s in c["slots"]):
            good = False
            why = c
    ok(good, "ring diff: moved counts the slots listed, untouchedMoves the untouched ones, minimal <= moved", why)
    shares = [(c["movedShare"] * 1.0, c["moved"], c["minimalShare"], c["minimalMoved"]) for c in d["changes"]]
    ok(len(set(round(ms / m, 12) for ms, m, _, _ in shares if m)) <= 1 and
       len(set(round(ns / n, 12) for _, _, ns, n in shares if n)) <= 1,
       "ring diff: movedShare and minimalShare are counts over one wheel size", shares)
    ok(all(set(c["strict"]) >= {"moved", "movedShare", "minimalMoved", "minimalShare",
                                 "untouchedMoves", "maxQuotaDeviation"} and c["strict"]["untouchedMoves"] == 0
           for c in d["changes"]), "ring diff: strict figures, no untouched moves in strict mode")
    ok(set(c["kind"] for c in d["changes"]) <= {"add", "remove", "dns", "advance"}, "ring diff: kinds")

# ---- gslb --------------------------------------------------------------------------
conf = os.path.join(EX, "gslb", "bigip_gtm.conf")
d = run("gslb_check", "gslb", "check", conf, "--json", rc=1)
if d:
    eq(sorted(f["code"] for f in d["findings"]), ["G001", "G006", "G016", "G032"],
       "gslb check: the example's findings (README: G001, G006, G016, G032)")
    f = by(d["findings"], "code", "G001")
    eq([f["severity"], f["object"], os.path.basename(f["file"])],
       ["error", "gtm pool a /Common/p_dc2", "bigip_gtm.conf"], "gslb check: G001 severity, object, file")
    ok(f["line"] > 0 and "fallback-ip" in f["message"], "gslb check: G001 line and message")
    eq(by(d["findings"], "code", "G016")["severity"], "info", "gslb check: G016 is info")

d = run("gslb_explain", "gslb", "explain", conf, "--json")
if d:
    w = d["wideips"][0]
    eq([w["name"], w["pool_lb_mode"], w["ttl_persistence"], w["last_resort_pool"]],
       ["/Common/www.example.com", {"value": "topology", "default": False},
        {"value": 3600, "default": True}, "/Common/p_dc2"],
       "gslb explain: wide IP values, written and defaulted")
    eq(w["findings"], ["G016"], "gslb explain: the wide IP's findings")
    p2 = by(w["pools"], "name", "/Common/p_dc2")
    eq(sorted(p2["findings"]), ["G001", "G006"], "gslb explain: the pool's findings")
    eq([(c["step"], c["method"]["value"], c["method"]["default"], c["kind"]) for c in p2["chain"]],
       [("preferred", "lowest-round-trip-time", False, "path"), ("alternate", "round-robin", True, "static"),
        ("fallback", "fallback-ip", False, "terminal")], "gslb explain: p_dc2's chain with kinds")
    p1 = by(w["pools"], "name", "/Common/p_dc1")
    eq(p1["chain"][1]["kind"], "routing", "gslb explain: method none is of kind routing")
    eq([(m["key"], m["address"]) for m in p1["members"]],
       [("/Common/bigip-dc1:/Common/vs_web", "192.0.2.100")], "gslb explain: members")
    # written with the default's value (order 0, member-order 0 in bigip_gtm.conf): the
    # value is the default's but the flag says written; ratio is not written (default)
    m1 = p1["members"][0]
    eq([p1["order"], m1["member_order"], m1["ratio"], p1["pool_ratio"]],
       [{"value": 0, "default": False}, {"value": 0, "default": False}, {"value": 1, "default": True},
        {"value": 1, "default": True}],
       "gslb explain: order 0 and member-order 0 written (default false), ratios not written")

d = run("gslb_resolve", "gslb", "resolve", conf, "www.example.com", "--inputs",
        os.path.join(EX, "gslb", "inputs.json"), "-n", "4", "--log", "all", "--json")
if d:
    q = d["queries"]
    eq(len(q), 4, "gslb resolve: one entry per query")
    eq(d["counts"]["outcomes"], {o: sum(1 for x in q if x["outcome"] == o) for o in set(x["outcome"] for x in q)},
       "gslb resolve: counts.outcomes tally the outcomes")
    picks = {}
    for x in q:
        if x["addresses"]:
            picks[x["addresses"][0]] = picks.get(x["addresses"][0], 0) + 1
    eq(d["counts"]["picks"], picks, "gslb resolve: counts.picks tally each answer's first address")
    eq([x["step"] for x in q], ["preferred", "persist", "persist", "persist"],
       "gslb resolve: the first query picks, the next ones persist")
    ok("method" in q[0] and "method" not in q[1], "gslb resolve: method only where a method ran")
    ok(all(x.get("log") and x["log"][-1]["event"] == "result" for x in q) or
       all(x.get("log") and any(e["event"] == "result" for e in x["log"]) for x in q),
       "gslb resolve: every query logs its result line", q[0].get("log"))
    ok(isinstance(d["state"], dict) and d["state"].get("persistence"),
       "gslb resolve: state carries the persistence table")

# Two addresses per answer (max-answers-returned 2, round robin over three members all
# up, doc/gslb.md 4.5): picks counts each answer's first address only, so the picks add
# up to the queries (3), not to the addresses answered (6).
d = run("gslb_resolve", "gslb", "resolve", data("ma2.conf"), "ma2.example.com", "--inputs",
        data("ma2.inputs.json"), "-n", "3", "--json")
if d:
    q = d["queries"]
    eq([len(x["addresses"]) for x in q], [2, 2, 2], "gslb resolve: two addresses per answer")
    eq([x["addresses"][0] for x in q], ["10.0.0.1", "10.0.0.2", "10.0.0.3"],
       "gslb resolve: round robin picks v1, v2, v3 first")
    eq(d["counts"]["picks"], {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.3": 1},
       "gslb resolve: with two addresses per answer, picks count the first address only")

# ---- keys that on the inputs above follow a neighbour ------------------------------
# gslb check: severity is the code's (doc/gslb.md section 8); on the example every run
# with an error exits 1. marks.conf's only finding is G008, a warning: exit 0, and the
# finding's line is where its pool is written.
marks = data("marks.conf")
d = run("gslb_check", "gslb", "check", marks, "--json", rc=0)
if d:
    with open(marks) as f:
        line = 1 + [l.rstrip() for l in f].index("gtm pool a /Common/p_unv {")
    eq([(x["code"], x["severity"], x["object"], x["line"]) for x in d["findings"]],
       [("G008", "warning", "gtm pool a /Common/p_unv", line)],
       "gslb check: a warning alone: severity warning, exit 0")


def resolve(wideip, n=2):
    return run("gslb_resolve", "gslb", "resolve", marks, wideip, "--inputs",
               data("marks.inputs.json"), "-n", str(n), "--log", "all", "--json")


def selections(q):
    return [e for e in q["log"] if e["event"] == "pool-member-selection" and "member" in e]


# lowest rtt (doc/gslb.md 4.2): v1 (100) beats v5 (200): best without a tie; v1 and v2
# tie at 100: the first tied after the step's cursor, which advances: v1, v2.
d = resolve("best.example.com")
if d:
    sel = [selections(q)[-1] for q in d["queries"]]
    eq([(e["member"], e["reason"], e["rtt_us"], "tie" in e) for e in sel],
       [("s1:v1", "best", "100", False)] * 2, "gslb resolve log: a unique best has no tie mark")
d = resolve("tie.example.com")
if d:
    sel = [selections(q)[-1] for q in d["queries"]]
    eq([(e["member"], e["reason"], e.get("tie")) for e in sel],
       [("s1:v1", "best", "rr"), ("s1:v2", "best", "rr")], "gslb resolve log: a tie broken by rr, marked")
# The preferred step fails (v3 down, v4 without rtt), alternate none: the fallback's round
# robin over the configured members (verify disabled, 4.4) answers the down v3 first,
# then v4; both picks are marked unverified, the up v4 too.
d = resolve("unv.example.com")
if d:
    q = d["queries"]
    eq([(x["outcome"], x["addresses"], x["step"], x["method"]) for x in q],
       [("answer", ["10.0.0.3"], "fallback", "round-robin"), ("answer", ["10.0.0.4"], "fallback", "round-robin")],
       "gslb resolve: unverified fallback answers the down member, then the next")
    eq([(selections(x)[-1]["member"], selections(x)[-1].get("fallback")) for x in q],
       [("s1:v3", "unverified"), ("s1:v4", "unverified")], "gslb resolve log: fallback unverified on both picks")
# return-to-dns from a pool's fallback: reason return-to-dns, with the pool and step;
# from running out of pools: reason no-more-pools, no pool (man/wsel.1, gslb resolve).
d = resolve("rtd.example.com", 1)
if d:
    q = d["queries"][0]
    eq([q["outcome"], q.get("reason"), q.get("pool"), q.get("step"), q.get("method")],
       ["return-to-dns", "return-to-dns", "/Common/p_rtd", "fallback", "return-to-dns"],
       "gslb resolve: return-to-dns by the pool's fallback")
d = resolve("nmp.example.com", 1)
if d:
    q = d["queries"][0]
    eq([q["outcome"], q.get("reason"), "pool" in q, "step" in q, q["log"][-1].get("detail")],
       ["return-to-dns", "no-more-pools", False, False, "no-more-pools"],
       "gslb resolve: return-to-dns when no pool answers, no pool named")

# ring diff: the kind is the op's (add twice, then remove, though every one moves slots);
# a scenario whose ops are status changes only lists no change.
d = run("ring_diff", "ring", "diff", os.path.join(EX, "ring", "k2.json"), "--json")
if d:
    eq([(c["op"], c["kind"]) for c in d["changes"]], [("$.ops[0]", "add"), ("$.ops[1]", "add"), ("$.ops[3]", "remove")],
       "ring diff: each change's op path and kind")
d = run("ring_diff", "ring", "diff", os.path.join(ROOT, "tests", "data", "ring", "health.json"), "--json")
if d:
    eq(d["changes"], [], "ring diff: status and hoststatus ops are no changes")

# ring run: a pick error while the ring is healthy is NO_PEERS, not UNHEALTHY (doc/ring.md
# 9, 10): every address that owns a slot is made unavailable, and the one that owns none
# keeps the ring healthy (threshold 0: available weight above 0 %).
np_hosts = [{"name": "10.0.0.%d" % i, "weight": w} for i, w in ((1, 100), (2, 100), (3, 1))]
np_path = os.path.join(TMP, "np.json")
with open(np_path, "w") as f:
    json.dump({"wheelSize": 2, "hosts": np_hosts, "ops": []}, f)
d = run("ring_show", "ring", "show", np_path, "--json")
if d:
    owners = [a["address"].split(":")[0] for a in d["addresses"] if a["slots"]]
    eq(len(owners), 2, "ring: two slots held by two of three addresses")
    ops = [{"op": "status", "ip": a, "port": 80, "available": False} for a in owners]
    ops += [{"op": "snapshot"}, {"op": "peers", "hashes": [0, 1]}, {"op": "rr", "count": 1}]
    with open(np_path, "w") as f:
        json.dump({"wheelSize": 2, "hosts": np_hosts, "ops": ops}, f)
    d = run("ring_run", "ring", "run", np_path, "--json")
    if d:
        r = d["results"]
        eq([r[2]["healthy"], r[3]["peers"], r[4]["picks"]],
           [True, [{"error": "NO_PEERS"}] * 2, [{"error": "NO_PEERS"}]],
           "ring run: healthy, every slot's owner unavailable: NO_PEERS")

print("1..%d" % n_test)
sys.exit(1 if n_fail else 0)
