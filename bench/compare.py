#!/usr/bin/env python3
"""Compare wsel-bench Google Benchmark JSON results.

  compare.py A.json [B.json ...] [--filter RE] [--png out.png] [--markdown]
      ns/query per case for every file, and each file's ratio to the first.
  compare.py --ratios A.json [--filter RE] [--png out.png] [--markdown]
      from one file: per select case, ns/query of floor, fast (and its variants) and
      ref, with the ratios fast/ref and fast/floor.

A case's figure is the "median" aggregate when the run had repetitions, else the mean
of its runs. Single-thread cases use CPU time per iteration (less disturbed by other
processes on a shared machine; --real for wall time). Multi-thread mt/ cases use wall
time per query over all threads: 1e9 / items_per_second. threads/ cases use CPU time per
query of each thread (Google Benchmark sums the threads' CPU time and their queries, so
this is the mean per thread; --real: each thread's own wall time per query,
thread_wall_ns); --ratios sets threads:2 beside threads:1.
The chart needs gnuplot; without it the tables are still printed.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(path, real):
    """Returns (context, {name: ns_per_query})."""
    with open(path) as f:
        doc = json.load(f)
    runs = {}
    medians = {}
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        name = b.get("run_name") or b["name"]
        if name.startswith("threads/"):
            if real:
                ns = b.get("thread_wall_ns")
                if not ns:
                    continue
            else:
                ns = b["cpu_time"] * UNIT_NS.get(b.get("time_unit", "ns"), 1.0)
        elif "/threads:" in name:
            ips = b.get("items_per_second")
            if not ips:
                continue
            ns = 1e9 / ips
        else:
            t = b["real_time"] if real else b["cpu_time"]
            ns = t * UNIT_NS.get(b.get("time_unit", "ns"), 1.0)
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = ns
        else:
            runs.setdefault(name, []).append(ns)
    out = {n: statistics.mean(v) for n, v in runs.items()}
    out.update(medians)
    return doc.get("context", {}), out


def describe(path, ctx):
    la = ctx.get("load_avg")
    return "%s: %s, fast kernel %s, %s, load average %s" % (
        path, ctx.get("cpu_model", "?"), ctx.get("wsel_fast_kernel", "?"), ctx.get("date", "?"),
        " ".join("%.1f" % x for x in la) if la else "?")


def fmt_ns(v):
    if v is None:
        return "-"
    if v >= 1e6:
        return "%.2fms" % (v / 1e6)
    if v >= 1e4:
        return "%.1fus" % (v / 1e3)
    if v >= 100:
        return "%.0f" % v
    return "%.1f" % v


def fmt_ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return "%.2f" % (a / b)


def print_table(header, rows, markdown):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    widths = [max(len(str(x[i])) for x in [header] + rows) for i in range(len(header))]
    def line(r):
        return "  ".join(str(c).ljust(widths[0]) if i == 0 else str(c).rjust(widths[i])
                         for i, c in enumerate(r))
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def chart(png, title, series, labels, values):
    """Grouped bars, log scale: values[row][series] in ns (None = missing)."""
    if not shutil.which("gnuplot"):
        print("compare.py: gnuplot not found, no chart written", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data.txt")
        with open(data, "w") as f:
            f.write("case " + " ".join('"%s"' % s for s in series) + "\n")
            for lab, vals in zip(labels, values):
                f.write('"%s" ' % lab + " ".join("%g" % v if v else "NaN" for v in vals) + "\n")
        width = max(800, 28 * len(labels) * max(1, len(series)) // 2 + 200)
        script = "\n".join([
            'set terminal pngcairo size %d,700 noenhanced font ",9"' % min(width, 12000)
            if gnuplot_has_cairo() else
            'set terminal png size %d,700 noenhanced' % min(width, 12000),
            'set output "%s"' % png,
            'set title "%s"' % title.replace('"', "'"),
            "set style data histogram",
            "set style histogram clustered gap 1",
            "set style fill solid 0.8 border -1",
            "set logscale y",
            "set ylabel 'ns per query (log scale)'",
            "set xtics rotate by -60 scale 0",
            "set key outside top right",
            "set grid ytics",
            "set bmargin 16",
            "plot " + ", ".join("'%s' using %d:xtic(1) title columnheader(%d)" % (data, i + 2, i + 2)
                                for i in range(len(series))),
        ])
        r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        if r.returncode != 0:
            print("compare.py: gnuplot failed: " + r.stderr.strip(), file=sys.stderr)
            return False
    print("chart: " + png, file=sys.stderr)
    return True


_cairo = None


def gnuplot_has_cairo():
    global _cairo
    if _cairo is None:
        r = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True)
        _cairo = "pngcairo" in (r.stdout + r.stderr)
    return _cairo


RANK = {t: i for i, t in enumerate([
    "select", "state", "load", "mt", "threads",
    "floor", "fast", "fast-avx2", "fast-sse2", "fast-scalar", "ref",
    "ungrouped-single", "ungrouped-multi", "grouped-single", "grouped-multi", "cname", "mixed",
    "up", "down25", "reset", "flip-paced", "flip-busy"])}


def ordered(names):
    """The matrix's own order (case kinds, then sizes numerically, then states), not
    alphabetical order."""
    def part(p):
        if p in RANK:
            return (0, RANK[p], "")
        m = re.fullmatch(r"(\d+)(?:x(\d+))?", p)
        if m:
            return (1, int(m.group(1)) * int(m.group(2) or 1), p)
        return (2, 0, p)
    def key(n):
        ps = n.split("/")
        if ps[0] == "select" and len(ps) > 2:  # engines of one case side by side
            ps = [ps[0]] + ps[2:] + [ps[1]]
        return [part(p) for p in ps]
    return sorted(names, key=key)


def cmd_compare(args):
    loaded = [load(p, args.real) for p in args.files]
    names = set()
    for _, d in loaded:
        names.update(d)
    rx = re.compile(args.filter) if args.filter else None
    names = [n for n in ordered(names) if not rx or rx.search(n)]
    short = [os.path.splitext(os.path.basename(p))[0] for p in args.files]
    for (ctx, _), s in zip(loaded, short):
        print(describe(s, ctx))
    header = ["case"] + ["%s ns" % s for s in short] + ["%s/%s" % (s, short[0]) for s in short[1:]]
    rows, values = [], []
    for n in names:
        v = [d.get(n) for _, d in loaded]
        rows.append([n] + [fmt_ns(x) for x in v] + [fmt_ratio(x, v[0]) for x in v[1:]])
        values.append(v)
    print_table(header, rows, args.markdown)
    if args.png:
        chart(args.png, "wsel: ns per query", short, names, values)
    return 0


SEL = re.compile(r"^select/([^/]+)/(.+)$")
THR = re.compile(r"^threads/(.+)/threads:(\d+)$")


def threads_rows(d, rx=None):
    """[engine/case, 1-thread ns, 2-thread ns per thread, ratio] of the threads/ cases."""
    by = {}
    for n, v in d.items():
        m = THR.match(n)
        if m and (not rx or rx.search(n)):
            by.setdefault(m.group(1), {})[int(m.group(2))] = v
    rows = []
    for c in ordered(by):
        one, two = by[c].get(1), by[c].get(2)
        rows.append([c, fmt_ns(one), fmt_ns(two), fmt_ratio(two, one)])
    return rows


def cmd_ratios(args):
    if len(args.files) != 1:
        print("compare.py: --ratios takes exactly one file", file=sys.stderr)
        return 2
    ctx, d = load(args.files[0], args.real)
    by_case = {}
    engines = set()
    for n, v in d.items():
        m = SEL.match(n)
        if m:
            by_case.setdefault(m.group(2), {})[m.group(1)] = v
            engines.add(m.group(1))
    rx = re.compile(args.filter) if args.filter else None
    cases = [c for c in ordered(by_case) if not rx or rx.search(c)]
    want = args.engines.split(",") if args.engines else ["floor", "fast", "fast-avx2", "fast-sse2",
                                                        "fast-scalar", "ref"]
    cols = [e for e in want if e in engines]
    print(describe(args.files[0], ctx))
    ratios = [r for r in ("ref", "floor") if r in cols]
    header = ["case/size/state"] + ["%s ns" % e for e in cols] + ["fast/" + r for r in ratios]
    rows, values = [], []
    for c in cases:
        e = by_case[c]
        rows.append([c] + [fmt_ns(e.get(x)) for x in cols]
                    + [fmt_ratio(e.get("fast"), e.get(r)) for r in ratios])
        values.append([e.get(x) for x in ("floor", "fast", "ref")])
    if rows:
        print_table(header, rows, args.markdown)
    fr = [e["fast"] / e["ref"] for e in (by_case[c] for c in cases) if e.get("fast") and e.get("ref")]
    ff = [e["fast"] / e["floor"] for e in (by_case[c] for c in cases) if e.get("fast") and e.get("floor")]
    if fr:
        print("geometric mean fast/ref %.3f over %d cases" % (math.exp(statistics.mean(map(math.log, fr))), len(fr)))
    if ff:
        print("geometric mean fast/floor %.3f over %d cases" % (math.exp(statistics.mean(map(math.log, ff))), len(ff)))
    thr = threads_rows(d, rx)
    if thr:
        print()
        print("threads: ns per query of each thread, 1 thread and 2 threads on one resolver")
        print_table(["engine/case/size/state", "1 thread ns", "2 threads ns/thread", "2/1"],
                    thr, args.markdown)
    others = [n for n in ordered(d) if not SEL.match(n) and not THR.match(n)
              and (not rx or rx.search(n))]
    if others:
        print()
        print_table(["case", "ns/op"], [[n, fmt_ns(d[n])] for n in others], args.markdown)
    if args.png:
        chart(args.png, "wsel on %s: floor, fast, ref" % ctx.get("cpu_model", "?"),
              ["floor", "fast", "ref"], cases, values)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="Google Benchmark JSON files")
    ap.add_argument("--ratios", action="store_true", help="fast/ref and fast/floor per case of one file")
    ap.add_argument("--filter", help="regular expression the case names must match")
    ap.add_argument("--png", help="write a bar chart (gnuplot)")
    ap.add_argument("--markdown", action="store_true", help="tables in Markdown")
    ap.add_argument("--engines", help="--ratios columns, comma-separated (default: all)")
    ap.add_argument("--real", action="store_true", help="wall time instead of CPU time")
    args = ap.parse_args()
    return cmd_ratios(args) if args.ratios else cmd_compare(args)


if __name__ == "__main__":
    sys.exit(main())
