#!/usr/bin/env python3
"""make conformance: wsel against real gdnsd 3.8.1 (Debian's package), on loopback only.

(a) verdicts: `wsel check --whole` and `gdnsd checkconf` on the same config directory,
    for every config test file and the config fuzz corpus; each disagreement must match
    an entry of allow.txt (with its reason) or the run fails.
(b) answers: each scenario of scenarios/ is served by a gdnsd child process (private
    config directory, 127.0.0.1 at a free high port, stopped by its PID); every DYNA/DYNC
    record is queried N times per type and the answer-set counts are tested against
    the exact odds of `wsel explain --json` with the verification kit's chi-squared
    (tests/conformance/chisq.c; family-wise false-alarm rate ALPHA, Bonferroni). An
    answer gdnsd gives that wsel calls impossible fails the run, and so does an answer
    wsel gives with odds >= 1 / N that gdnsd never gave.
    A scenario's NAME.services (top-level service_types) goes into gdnsd's config, and
    wsel then reads the same whole config.
(c) TTLs: gdnsd's answer TTL against the TTL wsel reports clamped to the record's
    MAX/MIN TTLs, wsel's being the smallest over every item of both families of the
    resource.
(d) states: `gdnsdctl states` of each scenario's gdnsd against `wsel states`: every
    pair's state and real (monitored) state.

Every loop is bounded in count and time; the whole run stops at BUDGET seconds.
Writes report/conformance/{verdicts,answers,states,ttls}.md and summary.txt.
Usage: conformance.py [--quick] (fewer corpus files and queries, for a smoke run)."""
import concurrent.futures
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dns  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "tests", "conformance")
BUILD = os.environ.get("BUILD", "build")
WSEL = os.path.join(ROOT, os.environ.get("WSEL", "bin/wsel"))
CHISQ = os.path.join(ROOT, BUILD, "tests", "conformance", "chisq")
REPORT = os.path.join(ROOT, "report", "conformance")
QUICK = "--quick" in sys.argv
BUDGET = 220.0
START = time.monotonic()
DEADLINE = START + BUDGET
N_QUERIES = 2000 if QUICK else 20000
ALPHA = 0.001
# DYNA/DYNC records carry MAX/MIN TTLs (gdnsd.zonefile(5)); gdnsd answers the state TTL
# clamped to [MIN, MAX]. MIN defaults to MAX / 2, so it is given explicitly here.
RECORD_TTL = 86400
RECORD_MIN_TTL = 10
ZONE = "example.test"
# the zone of a verdict file's NAME.zone (its DYNA/DYNC records)
VERDICT_ZONE = "example.com"


def left():
    return DEADLINE - time.monotonic()


def run(cmd, timeout=20, cwd=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=min(timeout, max(1.0, left())), cwd=cwd)
        return p.returncode, p.stdout.decode("utf-8", "replace"), \
            p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "", "timed out"


def gdnsd_version():
    rc, out, err = run(["gdnsd", "-c", "/nonexistent", "checkconf"])
    m = re.search(r"gdnsd version (\S+)", out + err)
    return m.group(1) if m else "unknown"


# ---- (a) verdicts ---------------------------------------------------------------------

def load_allow():
    rules = []
    with open(os.path.join(HERE, "allow.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            kind, pattern, reason = line.split("\t", 2)
            rules.append((kind, re.compile(pattern), reason))
    return rules


def is_whole(data):
    return re.search(rb"(^|[\s{,])plugins\s*(=>|=)", data) is not None


def make_dir(src, data, tmp):
    """A gdnsd config directory holding `src`: a whole config as `config`; a stanza
    file as stanza.conf under plugins => { weighted => $include{stanza.conf} }.
    Siblings of src are linked in when it includes files."""
    d = tempfile.mkdtemp(dir=tmp)
    os.mkdir(os.path.join(d, "zones"))
    if b"$include" in data:
        sdir = os.path.dirname(os.path.abspath(src))
        for name in os.listdir(sdir):
            if name not in ("config", "zones", "stanza.conf"):
                os.symlink(os.path.join(sdir, name), os.path.join(d, name))
    if is_whole(data):
        with open(os.path.join(d, "config"), "wb") as f:
            f.write(data)
    else:
        with open(os.path.join(d, "stanza.conf"), "wb") as f:
            f.write(data)
        with open(os.path.join(d, "config"), "w") as f:
            f.write("plugins => { weighted => $include{stanza.conf} }\n")
    return d


def w_ok_of(rc):
    return rc == 0


def gdnsd_reason(err):
    for line in err.splitlines():
        if line.startswith(("fatal:", "error:")):
            return line
    return err.strip().splitlines()[-1] if err.strip() else ""


def verdicts(tmp):
    files = sorted(glob.glob(os.path.join(ROOT, "tests/data/config/*.conf")))
    files += sorted(glob.glob(os.path.join(ROOT, "tests/cli/data/*.conf")))
    files += sorted(glob.glob(os.path.join(ROOT, "examples/*.conf")))
    files += sorted(glob.glob(os.path.join(HERE, "verdicts/*.conf")))
    corpus = sorted(p for p in glob.glob(os.path.join(ROOT, "corpus/config/**"),
                                         recursive=True) if os.path.isfile(p))
    if QUICK:
        corpus = corpus[::10]
    files += corpus
    allow = load_allow()

    def one(path):
        if left() < 120:
            return (path, None, None, "", "", "not run: out of time")
        with open(path, "rb") as f:
            data = f.read()
        d = make_dir(path, data, tmp)
        zone_args = []
        zsrc = path[:-5] + ".zone" if path.endswith(".conf") else ""
        if zsrc and os.path.exists(zsrc):
            # DYNA/DYNC records of zone VERDICT_ZONE, checked by both (doc/weighted.md §3.8)
            zfile = os.path.join(d, "zones", VERDICT_ZONE)
            with open(zsrc) as src, open(zfile, "w") as f:
                f.write("@ SOA ns1 hostmaster 1 7200 1800 259200 900\n@ NS ns1\n"
                        "ns1 A 192.0.2.1\n" + src.read())
            zone_args = ["--zone", zfile, VERDICT_ZONE]
        grc, gout, gerr = run(["gdnsd", "-c", d, "checkconf"])
        wrc, wout, werr = run([WSEL, "check", "--whole", os.path.join(d, "config")] + zone_args)
        shutil.rmtree(d, ignore_errors=True)
        if grc is None or wrc is None:
            return (path, None, None, "", "", "not run: timed out")
        if wrc < 0 or wrc > 2:
            return (path, None, None, "", werr[-300:], "WSEL CRASHED (status %d)" % wrc)
        if grc < 0:
            # gdnsd itself crashes on some input (an include cycle, doc/weighted.md §2.6)
            return (path, None, w_ok_of(wrc), "gdnsd died of signal %d" % -grc,
                    "", "gdnsd crashed")
        g_ok, w_ok = grc == 0, wrc == 0
        greason = gdnsd_reason(gerr) if not g_ok else ""
        wreason = (werr.strip().splitlines() or [""])[0] if not w_ok else ""
        note = ""
        if g_ok != w_ok:
            rel = os.path.relpath(path, ROOT)
            for kind, pat, reason in allow:
                text = rel if kind == "file" else greason if kind == "gdnsd" else wreason
                if pat.search(text):
                    note = "allowed: " + reason
                    break
            else:
                note = "DISAGREE"
        return (path, g_ok, w_ok, greason, wreason, note)

    # two at a time: the machine has two cores
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(one, files))


# ---- (b), (c) answers and TTLs --------------------------------------------------------

def free_port():
    for _ in range(50):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
            t.bind(("127.0.0.1", port))
            if port > 20000:
                return port
        except OSError:
            pass
        finally:
            s.close()
            t.close()
    raise RuntimeError("no free port")


def services_of(stanza):
    """The scenario's top-level service_types text (NAME.services), or None."""
    path = stanza[:-5] + ".services"
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.read()


def plugins_line(services):
    # gdnsd loads the static monitoring plugin only with its own stanza
    extra = "static => { }, " if services and "static" in services else ""
    return "plugins => { %sweighted => $include{stanza.conf} }\n" % extra


class Gdnsd:
    """gdnsd serving one scenario: started as a child, stopped by its PID."""

    def __init__(self, tmp, name, stanza, admin, resources, services=None):
        self.dir = tempfile.mkdtemp(dir=tmp, prefix=name + ".")
        self.port = free_port()
        for sub in ("zones", "run", "state"):
            os.mkdir(os.path.join(self.dir, sub))
        shutil.copy(stanza, os.path.join(self.dir, "stanza.conf"))
        if admin:
            shutil.copy(admin, os.path.join(self.dir, "state", "admin_state"))
        with open(os.path.join(self.dir, "config"), "w") as f:
            f.write("options => {\n  listen => [ 127.0.0.1 ]\n  dns_port => %d\n"
                    "  run_dir => %s\n  state_dir => %s\n}\n"
                    % (self.port, os.path.join(self.dir, "run"),
                       os.path.join(self.dir, "state")))
            f.write(services or "")
            f.write(plugins_line(services))
        with open(os.path.join(self.dir, "zones", ZONE), "w") as f:
            f.write("@ 86400 SOA ns1 hostmaster 1 7200 1800 259200 900\n"
                    "@ 86400 NS ns1\nns1 86400 A 127.0.0.1\n")
            for res, cname in resources:
                f.write("%s %d/%d %s weighted!%s\n"
                        % (res, RECORD_TTL, RECORD_MIN_TTL, "DYNC" if cname else "DYNA", res))
        self.log = open(os.path.join(self.dir, "gdnsd.log"), "w")
        self.proc = subprocess.Popen(["gdnsd", "-c", self.dir, "start"], stdout=self.log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.wait_ready()

    def wait_ready(self):
        limit = time.monotonic() + 15
        while time.monotonic() < limit:
            if self.proc.poll() is not None:
                raise RuntimeError("gdnsd exited with %s: %s" % (self.proc.returncode,
                                                               self.log_text()))
            try:
                r = dns.sample(self.port, ZONE, "SOA", 1, deadline=time.monotonic() + 1,
                               timeout=0.3)
                if r and r[0][0] == 0:
                    return
            except (TimeoutError, OSError):
                pass
            time.sleep(0.1)
        raise RuntimeError("gdnsd did not answer within 15 s: " + self.log_text())

    def log_text(self):
        self.log.flush()
        with open(os.path.join(self.dir, "gdnsd.log")) as f:
            return f.read()[-2000:]

    def states(self):
        """gdnsdctl states: {"THING/SERVICE": (state, real_state)}, "!" (forced) removed."""
        rc, out, err = run(["gdnsdctl", "-c", self.dir, "-o", "json", "states"], timeout=10)
        if rc != 0:
            rc, out, err = run(["gdnsdctl", "-c", self.dir, "states"], timeout=10)
        if rc != 0:
            raise RuntimeError("gdnsdctl states failed: " + err)
        d = json.loads(out)
        return {k: (v["state"].rstrip("!"), v["real_state"]) for k, v in d.items()}

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


def wsel_input(stanza, tmp):
    """What wsel reads for a scenario: the stanza itself, or with NAME.services a whole
    config built as gdnsd's is (its service types, the stanza by $include)."""
    services = services_of(stanza)
    if services is None:
        return ["--stanza", stanza]
    d = tempfile.mkdtemp(dir=tmp)
    shutil.copy(stanza, os.path.join(d, "stanza.conf"))
    with open(os.path.join(d, "config"), "w") as f:
        f.write(services + plugins_line(services))
    return ["--whole", os.path.join(d, "config")]


def explain(stanza, admin, tmp):
    cmd = [WSEL, "explain"] + wsel_input(stanza, tmp) + ["--json"]
    if admin:
        cmd += ["--admin-state", admin]
    rc, out, err = run(cmd)
    if rc != 0:
        raise RuntimeError("wsel explain failed: " + err)
    return json.loads(out)


def wsel_states(stanza, admin, tmp):
    """wsel states: {"THING/SERVICE": (state, monitored state)}."""
    cmd = [WSEL, "states"] + wsel_input(stanza, tmp) + ["--json"]
    if admin:
        cmd += ["--admin-state", admin]
    rc, out, err = run(cmd)
    if rc != 0:
        raise RuntimeError("wsel states failed: " + err)
    return {"%s/%s" % (p["thing"], p["service"]): (p["state"], p["monitored"]["state"])
            for p in json.loads(out)["pairs"]}


def expected_sets(res):
    """Per family ("v4"/"v6"/"cname"): {sorted address tuple: odds}, and the set TTL."""
    out = {}
    for s in res["sets"]:
        fam = "cname" if s["mode"] == "cname" else {"ipv4": "v4", "ipv6": "v6"}.get(s["family"], s["family"])
        dist = {}
        for a in s["answers"]:
            key = tuple(sorted(a["addresses"]))
            dist[key] = dist.get(key, 0.0) + a["p"]
        out[fam] = dist
    return out


def chisq(obs, exp, m):
    """The kit's goodness of fit (chisq.c): returns (stat, df, p, impossible, level)."""
    text = "".join("%r %r\n" % (o, e) for o, e in zip(obs, exp))
    try:
        p = subprocess.run([CHISQ, "%r" % ALPHA, str(m)], input=text.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
    except FileNotFoundError:
        return None
    f = p.stdout.decode().split()
    return float(f[0]), int(f[1]), float(f[2]), int(f[3]), float(f[4])


def answers(tmp):
    rows, ttl_rows, problems, state_rows = [], [], [], []
    scen = sorted(glob.glob(os.path.join(HERE, "scenarios", "*.conf")))
    plan = []
    for stanza in scen:
        admin = stanza[:-5] + ".admin"
        admin = admin if os.path.exists(admin) else None
        ex = explain(stanza, admin, tmp)
        plan.append((stanza, admin, ex))
    m = sum(len(r["sets"]) for _, _, ex in plan for r in ex["resources"])
    for stanza, admin, ex in plan:
        name = os.path.basename(stanza)[:-5]
        resources = [(r["resource"], r["sets"][0]["mode"] == "cname") for r in ex["resources"]]
        if left() < 20:
            problems.append("%s: not run, out of time" % name)
            continue
        g = Gdnsd(tmp, name, stanza, admin, resources, services_of(stanza))
        try:
            # every pair's state and real (monitored) state, gdnsdctl against wsel states
            gst, wst = g.states(), wsel_states(stanza, admin, tmp)
            for key in sorted(set(gst) | set(wst)):
                verdict = "ok"
                if key not in gst or key not in wst:
                    verdict = "FAIL"
                    problems.append("%s: pair %s listed by %s only" % (
                        name, key, "gdnsdctl" if key in gst else "wsel"))
                elif gst[key] != wst[key]:
                    verdict = "FAIL"
                    problems.append("%s: pair %s: gdnsdctl %s/real %s, wsel %s/monitored %s"
                                    % ((name, key) + gst[key] + wst[key]))
                state_rows.append((name, key, gst.get(key), wst.get(key), verdict))
            for r in ex["resources"]:
                exp = expected_sets(r)
                for fam, dist in exp.items():
                    qtype = {"v4": "A", "v6": "AAAA", "cname": "A"}[fam]
                    qname = "%s.%s." % (r["resource"], ZONE)
                    got = dns.sample(g.port, qname, qtype, N_QUERIES,
                                     deadline=min(DEADLINE, time.monotonic() + 60))
                    counts, ttls, bad_rcode = {}, set(), 0
                    want_type = {"v4": 1, "v6": 28, "cname": 5}[fam]
                    for rcode, rrs in got:
                        if rcode != 0:
                            bad_rcode += 1
                            continue
                        vals = tuple(sorted(v for t, _, v in rrs if t == want_type))
                        counts[vals] = counts.get(vals, 0) + 1
                        ttls.update(ttl for t, ttl, _ in rrs if t == want_type)
                    keys = sorted(set(dist) | set(counts))
                    obs = [counts.get(k, 0) for k in keys]
                    expc = [dist.get(k, 0.0) * len(got) for k in keys]
                    st = chisq(obs, expc, m)
                    label = "%s %s %s" % (name, r["resource"], qtype)
                    impossible = [k for k in keys if dist.get(k, 0.0) == 0.0 and counts.get(k)]
                    missing = [k for k in keys if dist.get(k, 0.0) * len(got) >= 1
                               and not counts.get(k)]
                    for k in impossible:
                        problems.append("%s: gdnsd answered %s, which wsel calls impossible"
                                        % (label, list(k)))
                    for k in missing:
                        problems.append("%s: wsel gives %s odds %.3g, gdnsd never answered it"
                                        % (label, list(k), dist[k]))
                    if bad_rcode:
                        problems.append("%s: %d responses with a non-zero rcode"
                                        % (label, bad_rcode))
                    if st is None:
                        pstr, verdict = "TODO (kit not built)", "not tested"
                    else:
                        pstr = "%.4g" % st[2]
                        verdict = "ok" if st[2] >= st[4] else "FAIL"
                        if verdict == "FAIL":
                            problems.append("%s: chi-squared p = %.3g below %.3g"
                                            % (label, st[2], st[4]))
                    rows.append((label, len(got), len(dist), len(counts),
                                 "%s" % (st[1] if st else "-"), pstr, verdict))
                    wttl = r["ttl"]
                    want_ttl = max(RECORD_MIN_TTL, min(RECORD_TTL, wttl))
                    ttl_ok = ttls == {want_ttl}
                    if not ttl_ok:
                        problems.append("%s: gdnsd TTLs %s, expected %d (record %d, wsel %d)"
                                        % (label, sorted(ttls), want_ttl, RECORD_TTL, wttl))
                    ttl_rows.append((label, wttl, want_ttl, sorted(ttls),
                                     "ok" if ttl_ok else "FAIL"))
        finally:
            g.stop()
    return rows, ttl_rows, problems, m, state_rows


# ---- report ---------------------------------------------------------------------------

def write_report(vrows, arows, trows, problems, m, version, srows):
    os.makedirs(REPORT, exist_ok=True)
    compared = [r for r in vrows if r[1] is not None]
    agree = [r for r in compared if r[1] == r[2]]
    allowed = [r for r in compared if r[5].startswith("allowed")]
    disagree = [r for r in compared if r[5] == "DISAGREE"]
    with open(os.path.join(REPORT, "verdicts.md"), "w") as f:
        f.write("# Verdict parity: `wsel check --whole` vs `gdnsd checkconf` (gdnsd %s)\n\n"
                % version)
        f.write("%d configs compared, %d agree (%d both accept, %d both refuse), "
                "%d allow-listed, %d disagree.\n\n"
                % (len(compared), len(agree), sum(1 for r in agree if r[1]),
                   sum(1 for r in agree if not r[1]), len(allowed), len(disagree)))
        f.write("## Disagreements\n\n| config | gdnsd | wsel | status | gdnsd says | "
                "wsel says |\n|---|---|---|---|---|---|\n")
        for r in compared:
            if r[1] != r[2]:
                f.write("| %s | %s | %s | %s | %s | %s |\n"
                        % (os.path.relpath(r[0], ROOT), "accepts" if r[1] else "refuses",
                           "accepts" if r[2] else "refuses", r[5],
                           r[3].replace("|", "/")[:160], r[4].replace("|", "/")[:160]))
        crashed = [r for r in vrows if r[5] == "gdnsd crashed"]
        f.write("\n## Not compared: gdnsd crashed (%d)\n\n" % len(crashed))
        for r in crashed:
            f.write("- %s: %s; wsel %s\n" % (os.path.relpath(r[0], ROOT), r[3],
                                            "accepts" if r[2] else "refuses"))
    with open(os.path.join(REPORT, "answers.md"), "w") as f:
        f.write("# Answers: gdnsd %s over DNS vs the exact odds of `wsel explain`\n\n"
                % version)
        f.write("Chi-squared goodness of fit (the verification kit's, pooling bins that "
                "expect fewer than 5), %d tests, family-wise false-alarm rate %g "
                "(Bonferroni: each test at %.3g).\n\n" % (m, ALPHA, ALPHA / max(m, 1)))
        f.write("| scenario record type | queries | answer sets (wsel) | seen (gdnsd) | df "
                "| p | verdict |\n|---|--:|--:|--:|--:|--:|---|\n")
        for r in arows:
            f.write("| %s | %d | %d | %d | %s | %s | %s |\n" % r)
    with open(os.path.join(REPORT, "ttls.md"), "w") as f:
        f.write("# TTLs: gdnsd's answer TTL vs wsel's TTL clamped to the record's %d/%d\n\n"
                "wsel's TTL is the smallest over every item of both families of the "
                "resource (`wsel explain --json` .ttl); the records are written "
                "`NAME %d/%d DYNA weighted!NAME`, and gdnsd answers the state TTL clamped "
                "to [MIN, MAX].\n\n| scenario record type | wsel | expected | gdnsd | "
                "verdict |\n|---|--:|--:|---|---|\n"
                % (RECORD_TTL, RECORD_MIN_TTL, RECORD_TTL, RECORD_MIN_TTL))
        for r in trows:
            f.write("| %s | %d | %d | %s | %s |\n" % (r[0], r[1], r[2], r[3], r[4]))
    with open(os.path.join(REPORT, "states.md"), "w") as f:
        f.write("# States: `gdnsdctl states` vs `wsel states` (gdnsd %s)\n\n"
                "Per scenario, every THING/SERVICE_TYPE pair: gdnsd's state and real state "
                "against wsel's state and monitored state.\n\n| scenario | pair | gdnsd "
                "(state, real) | wsel (state, monitored) | verdict |\n|---|---|---|---|---|\n"
                % version)
        for r in srows:
            f.write("| %s | %s | %s | %s | %s |\n"
                    % (r[0], r[1], "/".join(r[2]) if r[2] else "-",
                       "/".join(r[3]) if r[3] else "-", r[4]))
    with open(os.path.join(REPORT, "summary.txt"), "w") as f:
        f.write("gdnsd %s; verdicts: %d compared, %d agree, %d allow-listed, %d disagree; "
                "answers: %d tests; states: %d pairs, %d agree; problems: %d; %.0f s%s\n"
                % (version, len(compared), len(agree), len(allowed), len(disagree), len(arows),
                   len(srows), sum(1 for r in srows if r[4] == "ok"),
                   len(problems), time.monotonic() - START, " (quick)" if QUICK else ""))
        for p in problems:
            f.write("  " + p + "\n")
    return disagree


def main():
    if not shutil.which("gdnsd"):
        print("conformance: gdnsd is not installed (scripts/deps.sh conformance)")
        return 2
    version = gdnsd_version()
    tmp = tempfile.mkdtemp(prefix="wsel-conformance.")
    try:
        vrows = verdicts(tmp)
        arows, trows, problems, m, srows = answers(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    disagree = write_report(vrows, arows, trows, problems, m, version, srows)
    for r in disagree:
        problems.append("verdict: %s: gdnsd %s, wsel %s (%s / %s)"
                        % (os.path.relpath(r[0], ROOT), "accepts" if r[1] else "refuses",
                           "accepts" if r[2] else "refuses", r[3], r[4]))
    for r in vrows:
        if r[1] is None and r[5] != "gdnsd crashed":
            problems.append("verdict: %s: %s" % (os.path.relpath(r[0], ROOT), r[5]))
    with open(os.path.join(REPORT, "summary.txt")) as f:
        print(f.read(), end="")
    for p in problems:
        print("conformance: " + p)
    print("conformance: %s" % ("FAILED" if problems else "passed"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
