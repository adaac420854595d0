#!/usr/bin/env python3
"""Exact odds of whole answers, worked out from doc/weighted.md section 5 with Python's
fractions, against `wsel explain --json` (run by tests/cli/t_odds_exact.sh).

Generates configs (one resource per mode, two-family resources, weights that make exact
fractions overflow 64 bits), some addresses forced DOWN, and checks per resource: the set
of possible whole answers (labels over both sets), each answer's p_exact (equal to the
fraction here, or null only when that fraction does not fit in 64-bit numerator and
denominator), p, every item's p_included_exact, failed and the sets' thresholds.
Prints TAP lines without the plan; the caller counts them.
Usage: odds_exact.py WSEL TMPDIR
"""
import itertools
import json
import math
import random
import subprocess
import sys
from fractions import Fraction

WSEL, TMP = sys.argv[1], sys.argv[2]
BIG = 1048575
LIMIT = 1 << 64
n_test = 0
n_fail = 0
n_exact = 0       # whole answers whose fraction fits in 64 bits
n_den_only = 0    # ... whose numerator fits and denominator does not


def ok(cond, name, why=""):
    global n_test, n_fail
    n_test += 1
    if cond:
        print("ok %d - %s" % (n_test, name))
    else:
        n_fail += 1
        print("not ok %d - %s" % (n_test, name))
        if why:
            print("# " + why.replace("\n", "\n# "))


def weights(rng, n, style):
    if style == "small":
        return [rng.randint(1, 6) for _ in range(n)]
    if style == "big":
        return [rng.randint(BIG - 50, BIG) for _ in range(n)]
    # one heavy item and light ones: fractions like (1/1048575)^k overflow 64 bits
    return [BIG] + [rng.randint(1, 3) for _ in range(n - 1)]


class Addr:
    """Unique addresses per config."""

    def __init__(self):
        self.n4 = 0
        self.n6 = 0

    def v4(self):
        self.n4 += 1
        return "10.%d.%d.%d" % (self.n4 // 65536, self.n4 // 256 % 256, self.n4 % 256)

    def v6(self):
        self.n6 += 1
        return "2001:db8::%x" % self.n6


def gen_set(rng, addr, mode, fam, style):
    """A set: (mode, up_thresh, items [(label, addr, weight, group or None)], text)."""
    u = rng.choice([None, "0.5", "0.9", "1", "0.01"])
    grouped = mode in ("gs", "gm")
    items = []
    body = []
    if u:
        body.append("up_thresh => %s" % u)
    if mode in ("um", "gm"):
        body.append("multi => true")
    if not grouped:
        n = rng.randint(1, 9)
        for i, w in enumerate(weights(rng, n, style)):
            a = ("h%d.x%d.example.net." % (i, rng.randint(0, 1 << 30))) if fam == "cname" else (
                addr.v4() if fam == "v4" else addr.v6())
            items.append(("i%d" % i, a, w, None))
            body.append("i%d => [ %s, %d ]" % (i, a, w))
    else:
        G = rng.randint(1, 4)
        for g in range(G):
            n = rng.randint(1, 4)
            parts = []
            for j, w in enumerate(weights(rng, n, style)):
                a = addr.v4() if fam == "v4" else addr.v6()
                items.append(("a%d" % j, a, w, "g%d" % g))
                parts.append("a%d => [ %s, %d ]" % (j, a, w))
            body.append("g%d => { %s }" % (g, ", ".join(parts)))
    return mode, float(u) if u else 0.5, items, "{ " + "\n  ".join(body) + " }"


def set_answers(mode, u, items, down):
    """{tuple of item indices: Fraction}, failed, threshold (doc/weighted.md 5.1-5.6)."""
    w = [it[2] for it in items]
    T = sum(w)
    threshold = math.ceil(float(T) * u)  # IEEE double product, then the ceiling (5.2)
    d = [0 if it[1] in down else it[2] for it in items]
    failed = sum(d) < threshold
    if failed:
        d = list(w)
    out = {}
    if mode in ("us", "cn"):
        D = sum(d)
        for i, di in enumerate(d):
            if di:
                out[(i,)] = Fraction(di, D)
        return out, failed, threshold
    if mode == "um":
        M = max(d)
        return bernoulli_product(range(len(d)), d, M, Fraction(1)), failed, threshold
    groups = []
    for i, it in enumerate(items):
        if not groups or groups[-1][0] != it[3]:
            groups.append((it[3], []))
        groups[-1][1].append(i)
    Gw = [sum(d[i] for i in members) for _, members in groups]
    if mode == "gs":
        D = sum(Gw)
        for (_, members), G in zip(groups, Gw):
            if G:
                Mg = max(d[i] for i in members)
                for k, p in bernoulli_product(members, d, Mg, Fraction(G, D)).items():
                    out[k] = out.get(k, 0) + p
        return out, failed, threshold
    # gm: each group taken with G/M, then one address with d/G
    M = max(Gw)
    options = []
    for (_, members), G in zip(groups, Gw):
        opts = []
        if G < M:
            opts.append(((), Fraction(M - G, M)))
        for i in members:
            if d[i]:
                opts.append(((i,), Fraction(G, M) * Fraction(d[i], G)))
        options.append(opts)
    for combo in itertools.product(*options):
        key = tuple(sorted(sum((c[0] for c in combo), ())))
        p = Fraction(1)
        for c in combo:
            p *= c[1]
        out[key] = out.get(key, 0) + p
    return out, failed, threshold


def bernoulli_product(members, d, M, scale):
    options = []
    for i in members:
        opts = []
        if d[i]:
            opts.append(((i,), Fraction(d[i], M)))
        if d[i] < M:
            opts.append(((), Fraction(M - d[i], M)))
        options.append(opts)
    out = {}
    for combo in itertools.product(*options):
        key = tuple(sorted(sum((c[0] for c in combo), ())))
        p = scale
        for c in combo:
            p *= c[1]
        out[key] = out.get(key, 0) + p
    return out


def label(prefix, it):
    return prefix + ((it[3] + "/") if it[3] else "") + it[0]


def check_config(seed):
    global n_exact, n_den_only
    rng = random.Random(seed)
    addr = Addr()
    resources = []  # (name, [(prefix, set)])
    lines = []
    modes = ["us", "um", "gs", "gm", "cn"]
    for r in range(rng.randint(3, 6)):
        style = rng.choice(["small", "big", "light"])
        name = "r%d" % r
        if rng.random() < 0.3:
            m4, m6 = rng.choice(modes[:4]), rng.choice(modes[:4])
            s4 = gen_set(rng, addr, m4, "v4", style)
            s6 = gen_set(rng, addr, m6, "v6", rng.choice(["small", "big", "light"]))
            lines.append("%s => { addrs_v4 => %s\n addrs_v6 => %s }" % (name, s4[3], s6[3]))
            resources.append((name, [("addrs_v4/", s4), ("addrs_v6/", s6)]))
        else:
            m = rng.choice(modes)
            s = gen_set(rng, addr, m, "cname" if m == "cn" else rng.choice(["v4", "v6"]), style)
            lines.append("%s => %s" % (name, s[3]))
            resources.append((name, [("", s)]))
    conf = "%s/odds%d.conf" % (TMP, seed)
    with open(conf, "w") as f:
        f.write("\n".join(lines) + "\n")
    every = [it[1] for _, sets in resources for _, s in sets for it in s[2]
             if not it[1].endswith(".")]
    down = set(a for a in every if rng.random() < 0.3)
    args = [WSEL, "explain", conf, "--stanza", "--json"]
    for a in sorted(down):
        args += ["--down", a]
    res = subprocess.run(args, capture_output=True, text=True)
    if res.returncode != 0:
        ok(False, "seed %d: explain runs" % seed, res.stderr[:300])
        return
    doc = json.loads(res.stdout)
    got_res = {r["resource"]: r for r in doc["resources"]}
    for name, sets in resources:
        r = got_res.get(name)
        if r is None:
            ok(False, "seed %d %s: listed" % (seed, name))
            continue
        whole = {(): Fraction(1)}
        any_failed = False
        thresholds = []
        for prefix, (mode, u, items, _) in sets:
            ans, failed, threshold = set_answers(mode, u, items, down)
            any_failed |= failed
            thresholds.append(threshold)
            labelled = {tuple(label(prefix, items[i]) for i in k): p for k, p in ans.items()}
            whole = {a + b: pa * pb for a, pa in whole.items() for b, pb in labelled.items()}
        what = "seed %d %s (%s)" % (seed, name, "+".join(s[1][0] for s in sets))
        ok(r["failed"] == any_failed, what + ": failed")
        ok([s["threshold"] for s in r["sets"]] == thresholds, what + ": thresholds",
           "got %s want %s" % ([s["threshold"] for s in r["sets"]], thresholds))
        if not r["enumerable"]:
            ok(False, what + ": enumerable")
            continue
        got = {tuple(a["labels"]): a for a in r["answers"]}
        ok(set(got) == set(whole), what + ": the possible whole answers",
           "extra %s missing %s" % (sorted(set(got) - set(whole))[:3],
                                    sorted(set(whole) - set(got))[:3]))
        bad = []
        for k, p in whole.items():
            a = got.get(k)
            if a is None:
                continue
            fits = p.numerator < LIMIT and p.denominator < LIMIT
            n_exact += fits
            n_den_only += p.numerator < LIMIT <= p.denominator
            if a["p_exact"] is None:
                if fits:
                    bad.append("%s: p_exact null, want %s" % (k, p))
            elif Fraction(a["p_exact"]) != p:
                bad.append("%s: p_exact %s, want %s%s" % (k, a["p_exact"], p,
                                                          "" if fits else " (does not fit)"))
            if abs(a["p"] - float(p)) > 1e-12 * float(p):
                bad.append("%s: p %r, want %r" % (k, a["p"], float(p)))
        ok(not bad, what + ": exact fractions of every whole answer", "\n".join(bad[:5]))
        bad = []
        for it in r["items"]:
            want = sum((p for k, p in whole.items() if it["label"] in k), Fraction(0))
            if it["p_included_exact"] is not None and Fraction(it["p_included_exact"]) != want:
                bad.append("%s: %s, want %s" % (it["label"], it["p_included_exact"], want))
            elif it["p_included_exact"] is None and want.denominator < LIMIT and want.numerator < LIMIT:
                bad.append("%s: null, want %s" % (it["label"], want))
        ok(not bad, what + ": items' exact inclusion", "\n".join(bad[:5]))
    return


for seed in range(int(sys.argv[3]) if len(sys.argv) > 3 else 40):
    check_config(seed)
ok(n_exact > 500 and n_den_only > 20,
   "the answers checked include %d exact fractions and %d whose denominator alone "
   "overflows 64 bits" % (n_exact, n_den_only))
print("1..%d" % n_test)
sys.exit(1 if n_fail else 0)
