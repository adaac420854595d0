#!/usr/bin/env python3
"""Render committed benchmark results into one HTML page with PNG charts.

  report.py --out DIR RESULT.json... [INSTR.txt...]

Every Google Benchmark JSON file (bench/results/*.json, from `make bench`) is one run on
one CPU; every instruction file (bench/results/instr-*.txt, from `make bench-instr`) is
one callgrind count. The page (DIR/index.html) has, per run: the CPU model, its flags,
the compiler and compiler flags (where the run recorded them), and charts with the
numbers beside them:

  - ns per query of every select case (state up) per engine variant (floor, fast-*, ref)
  - each variant's ratio to the floor (the random words alone) and to ref
  - threads/ cases: ns per query of each thread, 1 thread against 2 on one resolver
  - ring/ cases: ns per pick per engine
  - across CPUs: fast ns per query of every run that has select cases
  - instructions per query of every instruction file

Figures are those of bench/compare.py (medians of the repetitions; CPU time). The page is
a pure function of its inputs (no date of its own), so a re-render of unchanged inputs
gives the same index.html. Charts need gnuplot (pngcairo when present).
"""
import argparse
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (bench/compare.py: loading, ordering, formatting)

VARIANTS = ["floor", "fast-scalar", "fast-sse2", "fast-avx2", "fast", "ref"]
FAST = ["fast-scalar", "fast-sse2", "fast-avx2", "fast"]
# CPU features that decide which wsel kernels a machine can run, shown on the page; the
# full list stays in the JSON.
ISA = ["sse2", "ssse3", "sse4_1", "sse4_2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma",
       "avx512f", "avx512bw", "avx512vl", "avx512vpopcntdq", "asimd", "sve", "sve2"]
# One colour per engine variant on every chart.
COLORS = {"floor": "#8c8c8c", "fast-scalar": "#2a9d8f", "fast-sse2": "#8ecae6",
          "fast-avx2": "#f4a261", "fast": "#e76f51", "ref": "#264653",
          "1 thread": "#8ecae6", "2 threads": "#e76f51"}
SEL = re.compile(r"^select/([^/]+)/(.+)$")
RING = re.compile(r"^ring/([^/]+)/(.+)$")


def esc(s):
    return html.escape(str(s), quote=True)


def chart_name(s, kind):
    """The PNG of chart `kind` of input slug `s` ("amd-epyc-ns.png", "instr-amd-epyc.png")."""
    return "%s.png" % s if s.startswith(kind + "-") else "%s-%s.png" % (s, kind)


def slug(path):
    return re.sub(r"[^a-z0-9]+", "-", os.path.splitext(os.path.basename(path))[0].lower()).strip("-")


# ---- charts --------------------------------------------------------------------------

class Charts:
    def __init__(self, outdir):
        self.outdir = outdir
        self.ok = shutil.which("gnuplot") is not None
        if not self.ok:
            print("report.py: gnuplot not found: no charts", file=sys.stderr)
        self.cairo = self.ok and compare.gnuplot_has_cairo()

    def bars(self, name, title, ylabel, series, labels, rows, log=True, hlines=()):
        """Grouped bars: rows[i][j] is series j of label i (None: missing). Returns the
        PNG's file name, or None."""
        if not self.ok or not labels:
            return None
        png = os.path.join(self.outdir, name)
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "data.txt")
            with open(data, "w") as f:
                f.write("case " + " ".join('"%s"' % s for s in series) + "\n")
                for lab, vals in zip(labels, rows):
                    f.write('"%s" ' % lab + " ".join(
                        "%g" % v if v is not None and (v > 0 or not log) else "NaN"
                        for v in vals) + "\n")
            width = min(4000, max(900, 14 * len(labels) * max(2, len(series)) + 260))
            term = ('set terminal pngcairo size %d,620 noenhanced font ",9"' % width
                    if self.cairo else 'set terminal png size %d,620 noenhanced' % width)
            lines = [
                term,
                'set output "%s"' % png,
                'set title "%s"' % title.replace('"', "'"),
                "set style data histogram",
                "set style histogram clustered gap 1",
                "set style fill solid 0.85 border -1",
                "set ylabel '%s'" % ylabel,
                "set xtics rotate by -55 scale 0",
                "set key outside top right",
                "set grid ytics",
                "set bmargin 13",
                "set yrange [*:*]" if log else "set yrange [0:*]",
            ]
            if log:
                lines.append("set logscale y")
            plots = ["'%s' using %d:xtic(1) title columnheader(%d)%s" % (
                data, i + 2, i + 2,
                " lc rgb '%s'" % COLORS[sr] if sr in COLORS else "")
                for i, sr in enumerate(series)]
            for y, label in hlines:
                plots.append("%g with lines lw 2 dt 2 lc rgb '#c00000' title '%s'" % (y, label))
            lines.append("plot " + ", ".join(plots))
            r = subprocess.run(["gnuplot"], input="\n".join(lines) + "\n", text=True,
                               capture_output=True)
            if r.returncode != 0:
                print("report.py: gnuplot failed for %s: %s" % (name, r.stderr.strip()),
                      file=sys.stderr)
                return None
        return name


# ---- inputs --------------------------------------------------------------------------

def load_json(path):
    ctx, d = compare.load(path, False)
    sel, thr, ring, other = {}, {}, {}, {}
    for n, v in d.items():
        m = SEL.match(n)
        if m:
            sel.setdefault(m.group(2), {})[m.group(1)] = v
            continue
        m = compare.THR.match(n)
        if m:
            thr.setdefault(m.group(1), {})[int(m.group(2))] = v
            continue
        m = RING.match(n)
        if m:
            ring.setdefault(m.group(2), {})[m.group(1)] = v
            continue
        other[n] = v
    return {"path": path, "slug": slug(path), "ctx": ctx, "sel": sel, "thr": thr,
            "ring": ring, "other": other}


def load_instr(path):
    """Header facts and {case: {engine: instructions}} of an instr.sh file."""
    head, rows, engines = {}, {}, []
    with open(path) as f:
        lines = f.read().splitlines()
    for ln in lines:
        if ln.startswith("#"):
            t = ln[1:].strip()
            m = re.match(r"(.*); fast kernel under valgrind: (.*)$", t)
            if m:
                head["cpu_model"], head["wsel_fast_kernel"] = m.group(1), m.group(2)
            elif t.startswith("compiler, "):
                k, _, v = t.partition(": ")
                head[k] = v
            elif t.startswith("instructions per query"):
                head["method"] = t
            continue
        parts = ln.split()
        if not parts:
            continue
        if parts[0] == "case":
            engines = parts[1:]
            continue
        rows[parts[0]] = {e: (float(x) if x != "-" else None) for e, x in zip(engines, parts[1:])}
    return {"path": path, "slug": slug(path), "head": head, "engines": engines, "rows": rows}


# ---- page ----------------------------------------------------------------------------

def table(header, rows, cls=""):
    out = ['<table%s><tr>' % (' class="%s"' % cls if cls else "")]
    out += ["<th>%s</th>" % esc(h) for h in header]
    out.append("</tr>")
    for r in rows:
        out.append("<tr>" + "".join(
            ('<td class="l">%s</td>' if i == 0 else "<td>%s</td>") % esc(c)
            for i, c in enumerate(r)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def img(name, alt):
    if not name:
        return '<p class="warn">chart not rendered (gnuplot missing or failed)</p>'
    return '<p><img src="%s" alt="%s"></p>' % (esc(name), esc(alt))


def ctx_rows(run):
    c = run["ctx"]
    flags = c.get("cpu_flags")
    isa = " ".join(f for f in ISA if flags and f in flags.split()) if flags else None
    caches = ", ".join("L%d%s %s" % (x.get("level", 0), {"Data": "d", "Instruction": "i"}.get(
        x.get("type"), ""), human_bytes(x.get("size", 0))) for x in c.get("caches") or [])
    la = c.get("load_avg")
    nr = "not recorded"
    return [
        ["CPU model", c.get("cpu_model", nr)],
        ["CPUs, MHz", "%s, %s" % (c.get("num_cpus", "?"), c.get("mhz_per_cpu", "?"))],
        ["caches", caches or nr],
        ["CPU features (kernel-relevant)", isa if isa is not None else nr],
        ["fast kernel chosen", c.get("wsel_fast_kernel", nr)],
        ["compiler", c.get("compiler", nr)],
        ["C flags", c.get("cflags", nr)],
        ["kernel files add", c.get("kernel_flags", nr)],
        ["wsel version", c.get("wsel_version", nr)],
        ["date", c.get("date", nr)],
        ["load average at start", " ".join("%.1f" % x for x in la) if la else nr],
    ]


def human_bytes(n):
    for unit, k in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k:
            return "%g %s" % (n / k, unit)
    return "%d B" % n


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_r(v):
    return "-" if v is None else ("%.3f" % v if v < 0.1 else "%.2f" % v)


def section_run(run, ch):
    s, out = run["slug"], []
    out.append('<h2 id="%s">%s</h2>' % (esc(s), esc(os.path.basename(run["path"]))))
    out.append(table(["run", ""], ctx_rows(run), "ctx"))
    sel = run["sel"]
    if sel:
        cases = compare.ordered(sel)
        up = [c for c in cases if c.endswith("/up")]
        have = [v for v in VARIANTS if any(v in sel[c] for c in cases)]
        fast_have = [v for v in FAST if v in have]
        out.append("<h3>ns per query, select cases, state up</h3>")
        out.append(img(ch.bars(chart_name(s, "ns"), "%s: ns per query (log scale)" % s,
                               "ns per query (log)", have, up,
                               [[sel[c].get(v) for v in have] for c in up]),
                       "ns per query per case and variant, " + s))
        if "floor" in have and fast_have:
            out.append("<h3>ratio to floor (the random words alone; 1.5 is issue 26's bound)</h3>")
            out.append(img(ch.bars(chart_name(s, "floor"), "%s: variant / floor" % s,
                                   "ns / floor ns", fast_have, up,
                                   [[ratio(sel[c].get(v), sel[c].get("floor")) for v in fast_have]
                                    for c in up], log=False, hlines=[(1.5, "1.5x")]),
                           "ratio to floor per case and variant, " + s))
        if "ref" in have and fast_have:
            out.append("<h3>ratio to ref (the executable specification)</h3>")
            out.append(img(ch.bars(chart_name(s, "ref"), "%s: variant / ref (log scale)" % s,
                                   "ns / ref ns (log)", fast_have, up,
                                   [[ratio(sel[c].get(v), sel[c].get("ref")) for v in fast_have]
                                    for c in up]),
                           "ratio to ref per case and variant, " + s))
        hdr = ["case/size/state"] + ["%s ns" % v for v in have]
        if "floor" in have:
            hdr += ["%s/floor" % v for v in fast_have]
        if "ref" in have:
            hdr += ["%s/ref" % v for v in fast_have]
        rows = []
        for c in cases:
            e = sel[c]
            r = [c] + [compare.fmt_ns(e.get(v)) for v in have]
            if "floor" in have:
                r += [fmt_r(ratio(e.get(v), e.get("floor"))) for v in fast_have]
            if "ref" in have:
                r += [fmt_r(ratio(e.get(v), e.get("ref"))) for v in fast_have]
            rows.append(r)
        out.append("<details><summary>every select case (%d), all states</summary>" % len(cases))
        out.append(table(hdr, rows))
        out.append("</details>")
    thr = run["thr"]
    if thr:
        cases = compare.ordered(thr)
        out.append("<h3>threads: ns per query of each thread, one shared resolver</h3>")
        out.append("<p>CPU time per query of each thread, 1 thread against 2 threads "
                   "querying one resolver, each with its own generator (floor: the words "
                   "alone, sharing nothing: the machine's own effect).</p>")
        out.append(img(ch.bars(chart_name(s, "threads"), "%s: ns per query per thread" % s,
                               "ns per query per thread (log)", ["1 thread", "2 threads"],
                               cases, [[thr[c].get(1), thr[c].get(2)] for c in cases]),
                       "1-thread and 2-thread ns per query, " + s))
        out.append(table(["engine/case/size/state", "1 thread ns", "2 threads ns/thread", "2/1"],
                         compare.threads_rows({"threads/%s/threads:%d" % (c, k): v
                                               for c in thr for k, v in thr[c].items()})))
    ring = run["ring"]
    if ring:
        cases = compare.ordered(ring)
        picks = [c for c in cases if c.split("/")[0] in ("hash", "float", "rr", "retry",
                                                         "hash-view", "float-view", "rr-view",
                                                         "retry-view")]
        eng = [e for e in ("floor", "fast", "ref") if any(e in ring[c] for c in cases)]
        out.append("<h3>ring balancer: ns per pick</h3>")
        out.append(img(ch.bars(chart_name(s, "ring"), "%s: ns per pick (log scale)" % s,
                               "ns per pick (log)", eng, picks,
                               [[ring[c].get(e) for e in eng] for c in picks]),
                       "ring ns per pick, " + s))
        out.append("<details><summary>every ring case (%d)</summary>" % len(cases))
        out.append(table(["operation/size/state"] + ["%s" % e for e in eng],
                         [[c] + [compare.fmt_ns(ring[c].get(e)) for e in eng] for c in cases]))
        out.append("</details>")
    other = run["other"]
    if other:
        out.append("<details><summary>other cases (%d): state changes, loads, threads "
                   "with a writer, every system</summary>" % len(other))
        out.append(table(["case", "ns/op"], [[n, compare.fmt_ns(other[n])]
                                             for n in compare.ordered(other)]))
        out.append("</details>")
    return "\n".join(out)


def section_cpus(runs, ch):
    with_sel = [r for r in runs if r["sel"]]
    if not with_sel:
        return ""
    names = ["%s (%s)" % (r["ctx"].get("cpu_model", "?"), r["slug"]) for r in with_sel]
    cases = compare.ordered({c for r in with_sel for c in r["sel"] if c.endswith("/up")})
    out = ['<h2 id="cpus">Across CPUs: fast ns per query</h2>',
           "<p>The dispatched <code>fast</code> engine of every run with select cases, one bar "
           "per run; with one CPU in <code>bench/results/</code> there is one series.</p>"]
    out.append(img(ch.bars("cpus.png", "fast ns per query per CPU (log scale)",
                           "ns per query (log)", names, cases,
                           [[r["sel"].get(c, {}).get("fast") for r in with_sel] for c in cases]),
                   "fast ns per query across CPUs"))
    out.append(table(["case/size/state"] + names,
                     [[c] + [compare.fmt_ns(r["sel"].get(c, {}).get("fast")) for r in with_sel]
                      for c in cases]))
    return "\n".join(out)


def section_instr(ins, ch):
    s = ins["slug"]
    h = ins["head"]
    nr = "not recorded"
    out = ['<h2 id="%s">%s: instructions per query</h2>' % (esc(s),
                                                            esc(os.path.basename(ins["path"])))]
    out.append(table(["count", ""], [
        ["CPU model", h.get("cpu_model", nr)],
        ["fast kernel under valgrind", h.get("wsel_fast_kernel", nr)],
        ["compiler and flags, library", h.get("compiler, library", nr)],
        ["compiler and flags, avx2 kernel", h.get("compiler, avx2 kernel", nr)],
        ["method", h.get("method", nr)],
    ], "ctx"))
    cases = list(ins["rows"])
    eng = ins["engines"]
    out.append(img(ch.bars(chart_name(s, "instr"), "%s: instructions per query (log scale)" % s,
                           "instructions per query (log)", eng, cases,
                           [[ins["rows"][c].get(e) for e in eng] for c in cases]),
                   "instructions per query, " + s))
    hdr = ["case"] + eng + (["fast/floor"] if "fast" in eng and "floor" in eng else [])
    rows = []
    for c in cases:
        r = ins["rows"][c]
        row = [c] + ["-" if r.get(e) is None else "%.1f" % r[e] for e in eng]
        if len(hdr) > len(eng) + 1:
            row.append(fmt_r(ratio(r.get("fast"), r.get("floor"))))
        rows.append(row)
    out.append(table(hdr, rows))
    return "\n".join(out)


CSS = """body{font-family:sans-serif;max-width:1400px;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:2px 6px;
text-align:right;font-size:90%}td.l,th:first-child{text-align:left}table.ctx td{text-align:left}
img{max-width:100%;border:1px solid #ddd}.warn{color:#a00}code{background:#f4f4f4}"""


def render(outdir, jsons, instrs):
    os.makedirs(outdir, exist_ok=True)
    # The previous render's charts go (a chart of a file no longer given would linger);
    # nothing else in the folder is touched.
    old = os.path.join(outdir, "index.html")
    if os.path.exists(old):
        with open(old) as f:
            for name in re.findall(r'<img src="([^"/]+\.png)"', f.read()):
                if os.path.exists(os.path.join(outdir, name)):
                    os.remove(os.path.join(outdir, name))
    ch = Charts(outdir)
    runs = [load_json(p) for p in jsons]
    ins = [load_instr(p) for p in instrs]
    body = ["<h1>wsel benchmarks: query-path throughput across CPUs</h1>",
            "<p>Rendered by <code>make bench-report</code> (<code>bench/report.py</code>) from "
            "the committed results in <code>bench/results/</code>; how they are measured: "
            "<code>bench/README.md</code>. Times are medians of the repetitions, CPU ns per "
            "query; runs on a shared machine move with its other tenants, so compare ratios "
            "within one run. Instruction counts are exact.</p>"]
    toc = ['<li><a href="#%s">%s</a></li>' % (esc(r["slug"]), esc(os.path.basename(r["path"])))
           for r in runs]
    if any(r["sel"] for r in runs):
        toc.append('<li><a href="#cpus">across CPUs</a></li>')
    toc += ['<li><a href="#%s">%s</a></li>' % (esc(i["slug"]), esc(os.path.basename(i["path"])))
            for i in ins]
    body.append("<ul>" + "".join(toc) + "</ul>")
    body += [section_run(r, ch) for r in runs]
    body.append(section_cpus(runs, ch))
    body += [section_instr(i, ch) for i in ins]
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>wsel benchmarks</title><style>%s</style></head><body>\n%s\n</body></html>\n"
            % (CSS, "\n".join(b for b in body if b)))
    with open(os.path.join(outdir, "index.html"), "w") as f:
        f.write(page)
    n = page.count("<img ")
    print("report: %s (%d charts)" % (os.path.join(outdir, "index.html"), n), file=sys.stderr)
    return 0 if ch.ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (index.html and PNGs)")
    ap.add_argument("files", nargs="+", help="result JSON files and instruction .txt files")
    a = ap.parse_args()
    jsons = [f for f in a.files if f.endswith(".json")]
    instrs = [f for f in a.files if not f.endswith(".json")]
    return render(a.out, jsons, instrs)


if __name__ == "__main__":
    sys.exit(main())
