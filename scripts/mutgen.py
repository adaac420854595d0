#!/usr/bin/env python3
"""Mutation generator: standard operators over the library and CLI sources.

    mutgen.py list [--folders core,ref,...] [--systems ...]  every candidate mutant: id, then the edit
    mutgen.py count                                candidates per folder and per system, by operator
    mutgen.py show ID                              the diff of one mutant
    mutgen.py sample [-n N] [--seed S]             the ids `run` would draw, in order
    mutgen.py run [-n N] [--seed S] [--budget SEC] [--min-rate PCT] [--folders ...] [--systems ...]
                  [--keep] [--ids FILE] [--out DIR] [--no-lsan] [--full]  FILE: run these ids instead of a sample
    mutgen.py retally [-n N --seed S] SUMMARY...   per-folder and per-system tables of earlier runs
                                                   (a later summary's result for an id wins) against
                                                   the current stats/mutants-equivalent.txt

Candidates: every .c file, and every .h file (the bodies of its inline functions), at the
top of the folders and in each system's folder (doc/architecture.md section 1). A file
belongs to the system whose folder holds it (core/ring/ -> ring; the systems are those of
core/systems.def), a file at the top of a folder to "shared".

Sampling is stratified: N mutants per system (weighted, ring, gslb, shared), the first N of
each system's candidates in a keyed hash order of their ids (stable when unrelated code
changes; a smaller N is a prefix of a larger one, per system), run interleaved (the first of
each system, then the second of each...), so a run cut short by --budget still draws from
every system. `run` copies the tree to a scratch folder (the real tree is never modified), builds it once
(-O1), then for each mutant drawn: applies it, rebuilds incrementally
(make rebuilds what depends on the one file), runs the quick test set (unit tests and CLI
tests, two at a time, fastest first, stopping at the first failure), restores the file.
Test selection by coverage (the default; --full turns it off): after the baseline, the tree
is built once more with gcov (build-mgcov/, -O0) and each quick-set program is run alone
with its own GCOV_PREFIX (two at a time); gcov's per-line counts then say which programs
execute each line of the mutable files, the inline functions of headers included. A
mutant runs only the programs that execute a line its edit spans (in the same order: its
system's own first, fastest first, stopping at the first failure), and its rebuild makes
only those programs, the library (where the mutant compiles, or fails to) and bin/wsel
(when a CLI test is selected or the mutant is in cli/), not all ~48 programs. A program
that does not execute the mutated line runs the same code as on the unchanged tree
(the tests are deterministic), so it cannot kill the mutant: the result is the one the
whole quick set would give. Two cases follow: a mutant on lines no program executes
survives without running ("SURVIVED (not-covered)" in the log); one on lines gcov does
not mark executable (declarations, a local initialiser table) runs the whole quick set.
A program that fails under gcov runs for every mutant. The map is cached in
build-mg-covmap/ (in the real tree), keyed by a hash of the copied tree's content and
the compiler, so a rerun on the same tree skips the gcov build (a few minutes).
--full keeps the earlier behaviour (every program rebuilt and, for a survivor, the whole
quick set run): CI's `make mutants-ci` uses it, since its 12 mutants would not repay the
gcov build.
Unit tests run with LeakSanitizer preloaded (liblsan0), so a leak fails them, except those
that replace malloc themselves (tests/support/nomem.h); so does bin/wsel when a CLI test
runs it through tap.sh's run() (WSEL_LSAN).
Results: report/mutants-sample/summary.txt, one diff per survivor under
report/mutants-sample/survivors/. Survivors listed in stats/mutants-equivalent.txt count
as equivalent and leave the denominator of the kill rate.

Operators (the `op` field of an id):
  ror     relational / equality operator replaced (<  <=  >  >=  ==  !=)
  aor     arithmetic operator replaced (+ - * / %, += -=, << >>)
  const   integer literal +1 or -1
  not     logical negation removed (!x -> x)
  lcr     && <-> ||
  negc    if/while condition negated (if (c) -> if (!(c)))
  stmt    expression statement removed (assignment, call, ++/--)
  guard   guard removed (if (...) return/goto/break/continue ...;)
  swap    the two arguments of a two-argument call swapped

A mutant id is stable across unrelated edits: FILE@HASH:OP:FROM:TO:K where HASH is a hash
of the mutated line's text (whitespace-normalised, with a counter when the same text recurs
in the file) and K numbers the same edit within that line.

Sites are skipped in comments, string and character literals, preprocessor lines, and the
arguments of assert / static_assert.
"""
import argparse
import concurrent.futures
import ctypes.util
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["core", "ref", "fast", "odds", "cli"]


def read_systems():
    """The systems of core/systems.def, in its order."""
    with open(os.path.join(ROOT, "core", "systems.def"), encoding="utf-8") as fh:
        return re.findall(r"^\s*WSEL_SYSTEM\((\w+)\)", fh.read(), re.M)


SYSTEMS = read_systems() + ["shared"]
EQUIV = os.path.join("stats", "mutants-equivalent.txt")
BUILD = "build-mg"

# ------------------------------------------------------------------ lexer

TOKEN_RE = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+|\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<num>(?:0[xX][0-9a-fA-F']+|\d[\d']*(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[-+*/%<>=!~&|^?:;,.(){}\[\]#])
  | (?P<other>.)
""", re.X | re.S)

TYPE_WORDS = {
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
    "_Bool", "bool", "const", "volatile", "restrict", "struct", "union", "enum", "static",
    "extern", "inline", "register", "_Atomic", "size_t", "FILE",
}
KEYWORDS = TYPE_WORDS | {
    "if", "else", "while", "for", "do", "switch", "case", "default", "return", "goto",
    "break", "continue", "sizeof", "typedef", "_Alignof", "alignof", "_Generic",
}
ASSERTS = {"assert", "static_assert", "_Static_assert"}


class Tok:
    __slots__ = ("kind", "text", "pos", "end", "line")

    def __init__(self, kind, text, pos, line):
        self.kind, self.text, self.pos, self.end, self.line = kind, text, pos, pos + len(text), line


def tokens(src):
    """Code tokens (no whitespace, comments, preprocessor lines)."""
    out, line, bol, pp = [], 1, True, False
    for m in TOKEN_RE.finditer(src):
        kind, text = m.lastgroup, m.group()
        if kind == "ws":
            if text == "\n":
                if not (pp and out_prev_backslash(src, m.start())):
                    pp = False
                line += 1
                bol = True
            continue
        if kind == "comment":
            line += text.count("\n")
            continue
        if bol and text == "#":
            pp = True
        bol = False
        if not pp:
            out.append(Tok(kind, text, m.start(), line))
    return out


def out_prev_backslash(src, nl):
    j = nl - 1
    while j >= 0 and src[j] in " \t\r":
        j -= 1
    return j >= 0 and src[j] == "\\"


def is_type_like(t):
    return t.kind == "id" and (t.text in TYPE_WORDS or t.text.endswith("_t"))


def operand_end(t):
    """True when t can end an operand (so the next + - * & is binary)."""
    return t.kind in ("num", "str") or (t.kind == "id" and t.text not in KEYWORDS) or t.text in (")", "]")


def match(toks, i, open_, close):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return None


# ------------------------------------------------------------------ sites

ROR = {"<": ["<="], "<=": ["<"], ">": [">="], ">=": [">"], "==": ["!="], "!=": ["=="]}
AOR = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"], "+=": ["-="], "-=": ["+="],
       "<<": [">>"], ">>": ["<<"]}


def int_value(text):
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)", text.replace("'", ""))
    if not m:
        return None
    body, suf = m.groups()
    if body.lower().startswith("0x"):
        return int(body, 16), "x", suf, len(body) - 2
    if len(body) > 1 and body.startswith("0"):
        return None                                     # octal: leave alone
    return int(body), "d", suf, 0


def fmt_int(v, base, suf, width):
    if base == "x":
        return "0x%0*x%s" % (width, v, suf) if v >= 0 else None
    return "%d%s" % (v, suf) if v >= 0 else None


def sites_of(path, src):
    toks = tokens(src)
    n = len(toks)
    skip = [False] * n
    # assert arguments, and the bodies of file-scope initialisers stay (they are data)
    for i, t in enumerate(toks):
        if t.kind == "id" and t.text in ASSERTS and i + 1 < n and toks[i + 1].text == "(":
            j = match(toks, i + 1, "(", ")")
            for k in range(i, (j if j is not None else n - 1) + 1):
                skip[k] = True
    # brace depth per token: mutate only inside function bodies (depth >= 1 of a body)
    depth, body_depth = 0, [0] * n
    in_fn = [False] * n
    fn_stack = []
    for i, t in enumerate(toks):
        if t.text == "{":
            # a function body opens after ")" (possibly after attributes); initialisers after "="
            prev = toks[i - 1].text if i else ""
            fn_stack.append(fn_stack[-1] if fn_stack else (prev == ")" and depth == 0))
            depth += 1
        in_fn[i] = bool(fn_stack and fn_stack[-1])
        if t.text == "}":
            depth -= 1
            if fn_stack:
                fn_stack.pop()
        body_depth[i] = depth
    out = []

    def add(op, a, b, repl_text, frm, to, line):
        out.append({"file": path, "op": op, "start": a, "end": b, "repl": repl_text,
                    "from": frm, "to": to, "line": line})

    for i, t in enumerate(toks):
        if skip[i] or not in_fn[i]:
            continue
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < n else None
        if t.kind == "op":
            if t.text in ROR and prev is not None and operand_end(prev):
                for r in ROR[t.text]:
                    add("ror", t.pos, t.end, r, t.text, r, t.line)
            elif t.text in AOR and prev is not None and operand_end(prev):
                if t.text == "*" and (is_type_like(prev) or (nxt is not None and nxt.text in (")", ",", "*"))
                                      or (i >= 2 and toks[i - 2].text in ("struct", "union", "enum", "const"))
                                      or (prev.kind == "id" and (i < 2 or toks[i - 2].text in (";", "{", "}", "(", ","))
                                          and nxt is not None and nxt.kind == "id" and i + 2 < n
                                          and toks[i + 2].text in ("=", ";", ",", "[", ")"))):
                    continue                                # a declarator, not a product
                for r in AOR[t.text]:
                    add("aor", t.pos, t.end, r, t.text, r, t.line)
            elif t.text in ("&&", "||"):
                r = "||" if t.text == "&&" else "&&"
                add("lcr", t.pos, t.end, r, t.text, r, t.line)
            elif t.text == "!" and nxt is not None and nxt.text != "=":
                add("not", t.pos, t.end, "", "!", "", t.line)
        elif t.kind == "num":
            iv = int_value(t.text)
            if iv is None or (prev is not None and prev.text in ("[",) and in_fn[i] and nxt is not None
                              and nxt.text == "]" and i >= 2 and toks[i - 2].kind == "id"
                              and i >= 3 and is_type_like(toks[i - 3])):
                continue
            if prev is not None and prev.text == "case":
                continue                                    # duplicate labels do not build
            v, base, suf, width = iv
            for d, name in ((1, "+1"), (-1, "-1")):
                s = fmt_int(v + d, base, suf, width)
                if s is not None:
                    add("const", t.pos, t.end, s, t.text, s, t.line)
        elif t.kind == "id" and t.text in ("if", "while") and nxt is not None and nxt.text == "(":
            j = match(toks, i + 1, "(", ")")
            if j is None or any(skip[i:j + 1]):
                continue
            inner = src[toks[i + 1].end:toks[j].pos]
            if t.text == "if":
                add("negc", toks[i + 1].pos, toks[j].end, "(!(" + inner + "))", "(" + inner + ")",
                    "(!(" + inner + "))", t.line)
                # guard: if (...) return/goto/break/continue ...;   or  { that alone }
                if prev is not None and prev.text == "else":
                    continue
                k = j + 1
                brace = k < n and toks[k].text == "{"
                if brace:
                    k += 1
                if k < n and toks[k].text in ("return", "goto", "break", "continue"):
                    e = k
                    while e < n and toks[e].text != ";":
                        e += 1
                    if brace:
                        if e + 1 < n and toks[e + 1].text == "}":
                            e += 1
                        else:
                            continue
                    if e + 1 < n and toks[e + 1].text == "else":
                        continue
                    add("guard", t.pos, toks[e].end, ";", src[t.pos:toks[e].end], ";", t.line)
        if t.kind == "id" and t.text not in KEYWORDS and t.text not in ASSERTS and nxt is not None \
                and nxt.text == "(" and prev is not None and prev.text not in ("struct", "union", "enum") \
                and not is_type_like(prev) and prev.text != "*":
            j = match(toks, i + 1, "(", ")")
            if j is None or any(skip[i:j + 1]):
                continue
            # top-level commas
            d, commas = 0, []
            for k in range(i + 2, j):
                x = toks[k].text
                if x in "([{":
                    d += 1
                elif x in ")]}":
                    d -= 1
                elif x == "," and d == 0:
                    commas.append(k)
            if len(commas) == 1:
                a = src[toks[i + 2].pos:toks[commas[0]].pos].strip()
                b = src[toks[commas[0]].end:toks[j].pos].strip()
                if a and b and a != b:
                    add("swap", toks[i + 2].pos, toks[j].pos, b + ", " + a, a + ", " + b, b + ", " + a, t.line)
    # statement removal: an expression statement at statement start
    for i, t in enumerate(toks):
        if skip[i] or not in_fn[i] or i == 0:
            continue
        if toks[i - 1].text not in (";", "{", "}") or t.text in KEYWORDS or is_type_like(t):
            continue
        if t.kind != "id" and t.text not in ("*", "++", "--", "("):
            continue
        e, d, ok = i, 0, False
        while e < n:
            x = toks[e].text
            if x in "([":
                d += 1
            elif x in ")]":
                d -= 1
            elif x in ("{", "}"):
                break
            elif x == ";" and d == 0:
                ok = True
                break
            e += 1
        if not ok or any(skip[i:e + 1]):
            continue
        body = [x.text for x in toks[i:e]]
        # a declaration (TYPE name ...) does not qualify; a label neither
        if len(body) >= 2 and toks[i].kind == "id" and toks[i + 1].kind == "id":
            continue
        if len(body) >= 3 and toks[i].kind == "id" and body[1] == "*" and toks[i + 2].kind == "id" \
                and (i + 3 >= n or toks[i + 3].text in ("=", ";", ",", "[")):
            continue
        if ":" in body[:2] or body[:3] == ["(", "void", ")"]:
            continue                                        # a label; (void)x; does nothing
        if not ("=" in body or "++" in body or "--" in body or "(" in body
                or any(x in ("+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=") for x in body)):
            continue
        # the statement must be the body of nothing (a bare `if (x) stmt;` would lose its body)
        if toks[i - 1].text == ")" or (i >= 1 and toks[i - 1].text == "else"):
            continue
        add("stmt", t.pos, toks[e].end, ";", src[t.pos:toks[e].end], ";", t.line)
    return out


def source_files(folders):
    files = []
    for f in folders:
        d = os.path.join(ROOT, f)
        # the folder's shared files, then each system's folder (doc/architecture.md)
        for sub, _dirs, names in sorted(os.walk(d)):
            rel = os.path.relpath(sub, ROOT)
            if rel.count("/") > 1:  # programs below a system's folder (fast/weighted/perf)
                continue
            files += [rel + "/" + n for n in sorted(names) if n.endswith((".c", ".h"))]
    return files


def system_of(path):
    """The system whose folder holds path (core/ring/ring_model.c: ring), else shared."""
    parts = path.split("/")
    return parts[1] if len(parts) == 3 and parts[1] in SYSTEMS else "shared"


def norm(s):
    return " ".join(s.split())


def enumerate_all(folders, root=ROOT, systems=None):
    muts = []
    for path in source_files(folders):
        if systems is not None and system_of(path) not in systems:
            continue
        with open(os.path.join(root, path), encoding="utf-8") as fh:
            src = fh.read()
        lines = src.split("\n")
        seen_line, line_hash = {}, {}
        for no, text in enumerate(lines, 1):
            key = norm(text)
            seen_line[key] = seen_line.get(key, 0) + 1
            h = hashlib.sha1(key.encode()).hexdigest()[:10]
            line_hash[no] = h + ("" if seen_line[key] == 1 else "+%d" % seen_line[key])
        per = {}
        for s in sites_of(path, src):
            base = "%s@%s:%s:%s:%s" % (path, line_hash[s["line"]], s["op"], norm(s["from"])[:40],
                                        norm(s["to"])[:40])
            per[base] = per.get(base, 0) + 1
            s["id"] = "%s:%d" % (base, per[base])
            s["text"] = lines[s["line"] - 1].strip()
            s["folder"] = path.split("/")[0]
            s["system"] = system_of(path)
            muts.append(s)
    return muts


def apply(m, root):
    p = os.path.join(root, m["file"])
    with open(p, encoding="utf-8") as fh:
        src = fh.read()
    with open(p, "w", encoding="utf-8") as fh:
        fh.write(src[:m["start"]] + m["repl"] + src[m["end"]:])
    return src


def diff_of(m, root=ROOT):
    with open(os.path.join(root, m["file"]), encoding="utf-8") as fh:
        src = fh.read()
    new = src[:m["start"]] + m["repl"] + src[m["end"]:]
    import difflib
    return "".join(difflib.unified_diff(src.splitlines(True), new.splitlines(True),
                                        "a/" + m["file"], "b/" + m["file"], n=3))


def draw(muts, n, seed):
    """N mutants per system, each system's ordered by a keyed hash of their ids: the sample
    depends on the seed and the ids only, so an edit elsewhere in the tree leaves the rest of
    a sample alone. Interleaved by rank: the first of every system, then the second..."""
    key = lambda m: hashlib.sha1(("%d\0%s" % (seed, m["id"])).encode()).hexdigest()
    per = [sorted([m for m in muts if m["system"] == s], key=key)[:n] for s in SYSTEMS]
    return [p[r] for r in range(n) for p in per if r < len(p)]


def load_equivalents(root=ROOT):
    eq = {}
    p = os.path.join(root, EQUIV)
    if os.path.exists(p):
        with open(p, encoding="utf-8") as fh:
            for raw in fh:
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                mid, _, why = line.partition("\t")           # ids may hold spaces
                eq[mid] = why.strip()
    return eq


# ------------------------------------------------------------------ runner

def sh(cmd, cwd, log, timeout=None):
    with open(log, "w") as fh:
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=fh, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return 124


def tap_failed(out, rc):
    """A TAP program failed: non-zero exit, a 'not ok', or fewer results than its plan."""
    if rc != 0:
        return True
    oks = len(re.findall(r"^ok ", out, re.M))
    bad = len(re.findall(r"^not ok ", out, re.M))
    plan = re.search(r"^1\.\.(\d+)", out, re.M)
    return bad > 0 or (plan is not None and oks < int(plan.group(1)))


def lsan_library():
    """LeakSanitizer's run-time library (Debian's liblsan0, which gcc depends on), or None."""
    return ctypes.util.find_library("lsan")


def prog_env(p, scratch, lsan):
    """The environment of one test program. A unit test runs with LeakSanitizer preloaded
    (a leak exits 23: the valgrind leak check CI runs, at a fraction of its cost), but not
    one that replaces malloc itself (tests/support/nomem.h), which LSan would fight. A CLI
    test gets WSEL_LSAN, which tests/cli/tap.sh's run() preloads into bin/wsel alone (not
    into the shell, jq or python3 the script also runs)."""
    env = dict(os.environ, WSEL=BUILD + "/bin/wsel")
    if lsan and p.endswith(".sh"):
        env.update(WSEL_LSAN=lsan)
    elif lsan:
        src = os.path.join(scratch, "tests", os.path.basename(p) + ".c")
        with open(src, encoding="utf-8", errors="replace") as fh:
            if "support/nomem.h" not in fh.read():
                env.update(LD_PRELOAD=lsan, LSAN_OPTIONS="exitcode=23")
    return env


def run_tests(progs, scratch, limits, jobs, envs):
    """Runs progs (fastest first), `jobs` at a time; stops at the first failure.
    Returns (status, program, seconds): status pass | fail | timeout."""
    queue = list(progs)
    running = []                                            # (proc, prog, start, outfile)
    result = ("pass", None)
    while queue or running:
        while queue and len(running) < jobs and result[0] == "pass":
            p = queue.pop(0)
            cmd = ["sh", p] if p.endswith(".sh") else [p]
            outf = tempfile.TemporaryFile(mode="w+", errors="replace")
            proc = subprocess.Popen(cmd, cwd=scratch, env=envs[p], stdout=outf, stderr=subprocess.STDOUT,
                                    start_new_session=True)
            running.append((proc, p, time.time(), outf))
        if not running:
            break
        time.sleep(0.05)
        still = []
        for proc, p, t0, outf in running:
            rc = proc.poll()
            if rc is None:
                if time.time() - t0 > limits[p]:
                    kill(proc)
                    if result[0] == "pass":
                        result = ("timeout", p)
                    outf.close()
                else:
                    still.append((proc, p, t0, outf))
                continue
            outf.seek(0)
            if tap_failed(outf.read(), rc) and result[0] != "fail":
                result = ("fail", p)
            outf.close()
        running = still
        if result[0] != "pass":
            for proc, p, t0, outf in running:
                kill(proc)
                outf.close()
            running = []
            queue = []
    return result


def kill(proc):
    try:
        os.killpg(proc.pid, 9)
    except ProcessLookupError:
        pass
    proc.wait()


def own_first(progs, system):
    """The quick set with the mutant's system's own programs first (test_ring*, t_ring*,
    t_mutants_ring.sh for ring; likewise gslb), each group fastest first: a kill usually
    comes from them, so it comes sooner. The set is the same; a survivor still runs it all.
    Weighted and shared mutants keep the plain order (most programs test them)."""
    if system not in ("ring", "gslb"):
        return progs
    own = [p for p in progs if re.search(r"(^|_)%s(_|\.sh$|$)" % system, os.path.basename(p))]
    return own + [p for p in progs if p not in own]


def quick_tests(scratch):
    units = sorted(BUILD + "/tests/" + f[:-2] for f in os.listdir(os.path.join(scratch, "tests"))
                   if f.startswith("test_") and f.endswith(".c"))
    # t_install.sh installs the whole tree (100 s): it checks packaging, not behaviour.
    clis = sorted("tests/cli/" + f for f in os.listdir(os.path.join(scratch, "tests/cli"))
                  if f.startswith("t_") and f.endswith(".sh") and f != "t_install.sh")
    return units, clis


# ------------------------------------------------------------------ coverage-based selection

COV_BUILD = "build-mgcov"
COV_CACHE = "build-mg-covmap"       # under the real tree's root (ignored by git: build-*)
COV_VERSION = 1


def tree_key(scratch):
    """A hash of the scratch copy's content as copied (every file, by path and bytes, but this
    generator, which no build or test reads) and the compiler: the coverage map of one tree
    is reused by a later run on the same tree only. Taken before anything is built there."""
    h = hashlib.sha1(("mutgen-covmap %d\0" % COV_VERSION).encode())
    cc = subprocess.run(["gcc", "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    h.update(cc.stdout.encode())
    for d, dirs, names in os.walk(scratch):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.islink(p) or not os.path.isfile(p) or os.path.relpath(p, scratch) == "scripts/mutgen.py":
                continue
            h.update(os.path.relpath(p, scratch).encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(hashlib.sha1(fh.read()).digest())
    return h.hexdigest()[:20]


def gcov_lines(paths, cwd, folders):
    """{source file: {line: count}} of the source files under `folders` (headers included)
    that gcov reports for the objects whose .gcda / .gcno are `paths`; a line gcov does
    not list is not executable (declarations, initialiser tables, blank lines)."""
    out = {}
    for i in range(0, len(paths), 64):
        r = subprocess.run(["gcov", "-j", "-t"] + paths[i:i + 64], cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        dec, s, k = json.JSONDecoder(), r.stdout, 0
        while True:
            while k < len(s) and s[k].isspace():
                k += 1
            if k >= len(s):
                break
            doc, k = dec.raw_decode(s, k)
            for f in doc.get("files", []):
                name = f["file"]
                if os.path.isabs(name):
                    name = os.path.relpath(name, cwd)
                name = os.path.normpath(name)
                if name.split("/")[0] not in folders:
                    continue
                lines = out.setdefault(name, {})
                for ln in f.get("lines", []):
                    lines[ln["line_number"]] = lines.get(ln["line_number"], 0) + ln["count"]
    return out


def coverage_map(scratch, key, progs, jobs, folders, log):
    """Which quick-set programs execute each source line: the tree built once with gcov
    (COV_BUILD), each program run alone with its own GCOV_PREFIX (two at a time), gcov's
    per-line counts read per program. Cached under COV_CACHE by the tree's content.
    Returns {"exec": {file: [lines]}, "cov": {prog: {file: [lines]}}, "all": [progs]}:
    the executable lines, the lines each program executes, and the programs that failed
    under coverage (they are run for every mutant)."""
    cache = os.path.join(ROOT, COV_CACHE, key + ".json")
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as fh:
            cm = json.load(fh)
        if set(progs) <= set(cm["cov"]) | set(cm["all"]):
            log("mutgen: coverage map reused (%s)" % os.path.relpath(cache, ROOT))
            return cm
    t0 = time.time()
    units = [p for p in progs if not p.endswith(".sh")]
    cu = [COV_BUILD + p[len(BUILD):] for p in units]
    env = dict(os.environ, CFLAGS="-g -fprofile-update=atomic")
    blog = os.path.join(scratch, "covmap-build.log")
    with open(blog, "w") as fh:
        rc = subprocess.run(["make", "-s", "-j%d" % jobs, "BUILD=" + COV_BUILD, "COVERAGE=1", "WERROR=1",
                             COV_BUILD + "/libwsel.a", COV_BUILD + "/bin/wsel"] + cu,
                            cwd=scratch, env=env, stdout=fh, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        sys.exit("mutgen: the coverage build failed (%s); --full runs without it" % blog)
    gcnos = []
    for d, _dirs, names in os.walk(os.path.join(scratch, COV_BUILD)):
        gcnos += [os.path.relpath(os.path.join(d, n), scratch) for n in names if n.endswith(".gcno")]
    exe = gcov_lines(sorted(gcnos), scratch, folders)
    strip = len([c for c in os.path.realpath(scratch).split("/") if c])
    pre = os.path.join(scratch, "covmap")
    queue = list(enumerate(progs))
    running, failed = [], []
    while queue or running:
        while queue and len(running) < jobs:
            i, p = queue.pop(0)
            e = dict(os.environ, WSEL=COV_BUILD + "/bin/wsel", BUILD=COV_BUILD,
                     GCOV_PREFIX=os.path.join(pre, str(i)), GCOV_PREFIX_STRIP=str(strip))
            cmd = ["sh", p] if p.endswith(".sh") else [COV_BUILD + p[len(BUILD):]]
            outf = tempfile.TemporaryFile(mode="w+", errors="replace")
            running.append((subprocess.Popen(cmd, cwd=scratch, env=e, stdout=outf, stderr=subprocess.STDOUT,
                                             start_new_session=True), p, time.time(), outf))
        time.sleep(0.05)
        still = []
        for proc, p, ts, outf in running:
            rc = proc.poll()
            if rc is None and time.time() - ts < 900:
                still.append((proc, p, ts, outf))
                continue
            if rc is None:
                kill(proc)
                rc = 124
            outf.seek(0)
            if tap_failed(outf.read(), rc):
                failed.append(p)
            outf.close()
        running = still
    cov = {}
    for i, p in enumerate(progs):
        if p in failed:
            continue
        root = os.path.join(pre, str(i))
        gcdas = []
        for d, _dirs, names in os.walk(root):
            for n in names:
                if n.endswith(".gcda"):
                    g = os.path.join(d, n)
                    rel = os.path.relpath(g, root)[:-5] + ".gcno"
                    if os.path.exists(os.path.join(scratch, rel)):
                        os.symlink(os.path.join(scratch, rel), g[:-5] + ".gcno")
                        gcdas.append(os.path.relpath(g, scratch))
        lines = gcov_lines(sorted(gcdas), scratch, folders)
        cov[p] = {f: sorted(ln for ln, c in ls.items() if c > 0) for f, ls in lines.items()}
        cov[p] = {f: ls for f, ls in cov[p].items() if ls}
    shutil.rmtree(pre, ignore_errors=True)
    cm = {"exec": {f: sorted(ls) for f, ls in exe.items()}, "cov": cov, "all": failed}
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache + ".tmp", "w", encoding="utf-8") as fh:
        json.dump(cm, fh)
    os.replace(cache + ".tmp", cache)
    log("mutgen: coverage map built in %.0f s: %d programs, %d failed under gcov (run for every mutant)%s; "
        "cached in %s" % (time.time() - t0, len(progs), len(failed), (" " + ",".join(failed)) if failed else "",
                          os.path.relpath(cache, ROOT)))
    return cm


def select(m, progs, cm, scratch):
    """The programs to run for mutant m (in progs' order) and why: the programs that execute
    a line the mutated text spans ("covered"), every program when gcov marks none of those
    lines executable ("not-executable": initialisers, declarations), none when no program
    executes them ("not-covered")."""
    with open(os.path.join(scratch, m["file"]), encoding="utf-8") as fh:
        src = fh.read()
    lines = set(range(m["line"], m["line"] + src[m["start"]:m["end"]].count("\n") + 1))
    if not lines & set(cm["exec"].get(m["file"], ())):
        return progs, "not-executable"
    sel = [p for p in progs if p in cm["all"] or lines & set(cm["cov"].get(p, {}).get(m["file"], ()))]
    return sel, ("covered" if sel else "not-covered")


STATES = ("killed", "timeout", "survived", "equivalent", "not-built")


def tally(states):
    c = {k: 0 for k in STATES}
    for st in states:
        c[st] += 1
    return c


def table(rows, folders, what="folder"):
    """rows: (folder or system, state). Lines of the per-folder (or per-system) table."""
    out = ["%-8s %7s %7s %8s %9s %10s %9s %9s" % (what, "sampled", "killed", "timeout", "survived",
                                               "equivalent", "not-built", "kill rate")]
    for f in folders + ["all"]:
        c = tally([st for fo, st in rows if f == "all" or fo == f])
        det = c["killed"] + c["timeout"]
        den = det + c["survived"]
        rate = "%.0f %%" % (100.0 * det / den) if den else "-"
        out.append("%-8s %7d %7d %8d %9d %10d %9d %9s" % (f, sum(c.values()), c["killed"], c["timeout"],
                                                       c["survived"], c["equivalent"], c["not-built"], rate))
    return out


def tables(rows, folders):
    """rows: (mutant id, state). The per-folder table, then the per-system one."""
    out = table([(mid.split("/")[0], st) for mid, st in rows], folders)
    out.append("")
    out += table([(system_of(mid.split("@")[0]), st) for mid, st in rows], SYSTEMS, "system")
    out.append("kill rate = (killed + timeout) / (killed + timeout + survived); equivalent and not-built excluded")
    return out


RESULT_RE = re.compile(r"^(KILLED|TIMEOUT|SURVIVED|EQUIVALENT|NOT-BUILT) +\S+ +\d+s  (.*?)  \(")


def cmd_retally(a):
    """Re-counts summaries (a later one's result for an id replaces an earlier one's) against
    the current equivalent list: the table after triage."""
    eq = load_equivalents()
    res = {}
    want = None
    if a.n:
        want = [m["id"] for m in draw(enumerate_all(FOLDERS), a.n, a.seed)]
    for path in a.summaries:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                m = RESULT_RE.match(line)
                if m:
                    res[m.group(2)] = m.group(1).lower()
    if want is not None:
        # only the current sample's ids (an id whose line changed since is no longer drawn);
        # a listed equivalent without a result counts as equivalent, as `run
        # --skip-equivalent` would count it
        res = {mid: res.get(mid, "equivalent" if mid in eq else None) for mid in want}
        print("results for %d of the %d sampled ids (-n %d --seed %d)"
              % (sum(1 for v in res.values() if v), len(want), a.n, a.seed))
        res = {mid: st for mid, st in res.items() if st}
    rows = []
    for mid, st in res.items():
        if st in ("survived", "equivalent"):
            st = "equivalent" if mid in eq else "survived"
        rows.append((mid, st))
        if st == "survived":
            print("survivor: " + mid)
    for line in tables(rows, FOLDERS):
        print(line)
    return 0


def cmd_run(a):
    out = os.path.join(ROOT, "report", a.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "survivors"))
    os.makedirs(os.path.join(out, "logs"))
    folders = a.folders.split(",")
    systems = a.systems.split(",")
    scratch = tempfile.mkdtemp(prefix="wsel-mutgen.")
    try:
        subprocess.run("tar cf - --exclude=./.git --exclude='./build' --exclude='./build-*' "
                       "--exclude=./bin --exclude=./report . | (cd '%s' && tar xf -)" % scratch,
                       shell=True, cwd=ROOT, check=True)
        key = None if a.full else tree_key(scratch)
        muts = enumerate_all(folders, scratch, systems)
        if a.ids:
            with open(a.ids, encoding="utf-8") as fh:
                want = [x.rstrip("\n").split("\t")[0] for x in fh if x.strip() and not x.startswith("#")]
            by_id = {m["id"]: m for m in muts}
            missing = [x for x in want if x not in by_id]
            if missing:
                sys.exit("mutgen: no such mutant: " + missing[0])
            sample = [by_id[x] for x in want]
        else:
            sample = draw(muts, a.n, a.seed)
        eq = load_equivalents(scratch)
        units, clis = quick_tests(scratch)
        make = ["make", "-s", "-j%d" % a.jobs, "BUILD=" + BUILD, "OPT=-O1", "WERROR=1", BUILD + "/libwsel.a",
                BUILD + "/bin/wsel"] + units
        log = lambda s: (print(s, flush=True), summary.append(s))
        summary = []
        log("mutgen: %d candidate mutants in %s (systems %s); sample of %d (%s), seed %d; scratch %s"
            % (len(muts), ",".join(folders), ",".join(systems), len(sample),
               "listed" if a.ids else "%d per system" % a.n, a.seed, scratch))
        if sh(make, scratch, os.path.join(out, "logs", "baseline-build.log")) != 0:
            sys.exit("mutgen: the unchanged tree does not build (report/%s/logs/baseline-build.log)" % a.out)
        # baseline: time every program; this orders them and sets their timeouts
        limits, times = {}, {}
        lsan = None if a.no_lsan else lsan_library()
        envs = {p: prog_env(p, scratch, lsan) for p in units + clis}
        # (`jobs` programs at a time, as the mutants' runs are: a program's time is then
        # what it takes beside another one, the condition its timeout is used in)
        def baseline(p):
            t0 = time.time()
            cmd = ["sh", p] if p.endswith(".sh") else [p]
            r = subprocess.run(cmd, cwd=scratch, env=envs[p], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace")
            return p, tap_failed(r.stdout, r.returncode), time.time() - t0
        t_base = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for p, failed, secs in pool.map(baseline, units + clis):
                if failed:
                    sys.exit("mutgen: %s fails on the unchanged tree; kills would mean nothing" % p)
                times[p] = secs
                limits[p] = max(30.0, a.timeout_factor * secs)
        progs = sorted(units + clis, key=lambda p: times[p])
        log("mutgen: baseline passes; quick set %d programs, %.0f s in all, %d at a time (%.0f s wall); %s"
            % (len(progs), sum(times.values()), max(1, a.jobs), time.time() - t_base,
               "leak check: %s preloaded into %d unit tests and bin/wsel in %d CLI tests"
               % (lsan, sum("LD_PRELOAD" in e for e in envs.values()), sum("WSEL_LSAN" in e for e in envs.values()))
               if lsan else "no leak check (--no-lsan, or liblsan not found)"))
        cm = None if a.full else coverage_map(scratch, key, progs, a.jobs, folders, log)
        rows = []
        t_start = time.time()                               # the budget counts mutants only
        for idx, m in enumerate(sample, 1):
            if a.budget and time.time() - t_start > a.budget:
                log("mutgen: time budget of %d s spent; %d of %d mutants run" % (a.budget, idx - 1, len(sample)))
                break
            t0 = time.time()
            if a.skip_equivalent and m["id"] in eq:
                rows.append((m, "equivalent", None))
                log("%-10s %-22s %4.0fs  %s  (%s)" % ("EQUIVALENT", "(listed,not-run)", 0, m["id"], m["text"][:70]))
                continue
            if cm is None:
                sel, why, mk = progs, "full", make
            else:
                sel, why = select(m, progs, cm, scratch)
                # build what the selected programs need: the library (where the mutant
                # compiles, or fails to), bin/wsel for a CLI test or a cli/ mutant
                mk = make[:make.index(BUILD + "/bin/wsel")]
                if m["folder"] == "cli" or any(p.endswith(".sh") for p in sel):
                    mk.append(BUILD + "/bin/wsel")
                mk += [p for p in sel if not p.endswith(".sh")]
            orig = apply(m, scratch)
            blog = os.path.join(out, "logs", "build-%d.log" % idx)
            try:
                if sh(mk, scratch, blog, timeout=a.build_timeout) != 0:
                    status, by = "not-built", None
                elif not sel:
                    os.remove(blog)
                    status, by = "survived", "(not-covered)"
                else:
                    os.remove(blog)
                    status, by = run_tests(own_first(sel, m["system"]), scratch, limits, a.jobs, envs)
                    status = {"pass": "survived", "fail": "killed", "timeout": "timeout"}[status]
                    if status == "survived" and why != "full":
                        by = "(%s:%d)" % (why, len(sel))
            finally:
                with open(os.path.join(scratch, m["file"]), "w", encoding="utf-8") as fh:
                    fh.write(orig)
            if status == "survived" and m["id"] in eq:
                status = "equivalent"
            if status in ("survived", "equivalent"):
                name = re.sub(r"[^A-Za-z0-9_.+-]", "_", m["id"])[:150]
                with open(os.path.join(out, "survivors", name + ".diff"), "w") as fh:
                    fh.write("# %s\n# %s\n" % (m["id"], "equivalent: " + eq[m["id"]] if status == "equivalent"
                                               else "SURVIVED"))
                    fh.write(diff_of(m, scratch))
            rows.append((m, status, by))
            log("%-10s %-22s %4.0fs  %s  (%s)" % (status.upper(), os.path.basename(by) if by and by[0] != "("
                                                  else by or "-",
                                                  time.time() - t0, m["id"], m["text"][:70]))
        log("")
        for line in tables([(m["id"], st) for m, st, _ in rows], folders):
            log(line)
        total = tally([st for _, st, _ in rows])
        det = total["killed"] + total["timeout"]
        den = det + total["survived"]
        rate_fail = bool(den) and 100.0 * det / den < a.min_rate
        evaluated = total["killed"] + total["timeout"] + total["survived"]
        with open(os.path.join(out, "summary.txt"), "w") as fh:
            fh.write("\n".join(summary) + "\n")
        print("mutgen: summary in report/%s/summary.txt; survivor diffs in report/%s/survivors/" % (a.out, a.out))
        if a.min_rate:
            if evaluated < a.min_evaluated:
                print("mutgen: FAIL: only %d mutants evaluated (need %d)" % (evaluated, a.min_evaluated))
                return 1
            if rate_fail:
                print("mutgen: FAIL: kill rate below %g %%" % a.min_rate)
                return 1
        return 0
    finally:
        if a.keep:
            print("mutgen: scratch kept at " + scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("list")
    p.add_argument("--folders", default=",".join(FOLDERS))
    p.add_argument("--systems", default=",".join(SYSTEMS))
    p = sub.add_parser("count")
    p.add_argument("--folders", default=",".join(FOLDERS))
    p = sub.add_parser("show")
    p.add_argument("id")
    p = sub.add_parser("sample")
    p.add_argument("-n", type=int, default=10, help="mutants per system")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--folders", default=",".join(FOLDERS))
    p.add_argument("--systems", default=",".join(SYSTEMS), help="the systems to draw from (default: all)")
    p = sub.add_parser("run")
    p.add_argument("-n", type=int, default=10, help="mutants per system")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--folders", default=",".join(FOLDERS))
    p.add_argument("--systems", default=",".join(SYSTEMS), help="the systems to draw from (default: all)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--budget", type=int, default=0, help="start no mutant after SEC seconds of mutants (0: no limit)")
    p.add_argument("--min-rate", type=float, default=0, help="exit 1 if the overall kill rate is below PCT")
    p.add_argument("--min-evaluated", type=int, default=3)
    p.add_argument("--timeout-factor", type=float, default=5.0)
    p.add_argument("--build-timeout", type=int, default=900)
    p.add_argument("--keep", action="store_true")
    p.add_argument("--skip-equivalent", action="store_true",
                   help="count listed equivalents without building or running them (CI: spend the budget on the rest)")
    p.add_argument("--no-lsan", action="store_true",
                   help="do not preload LeakSanitizer into the unit tests and bin/wsel (leaks then go unseen)")
    p.add_argument("--ids", help="run the mutants listed in this file (one id a line) instead of a sample")
    p.add_argument("--full", action="store_true",
                   help="no coverage map: rebuild every quick-set program and run the whole quick set for each mutant")
    p.add_argument("--out", default="mutants-sample", help="report folder under report/")
    p = sub.add_parser("retally")
    p.add_argument("-n", type=int, default=0,
                   help="count only the ids of the sample of N per system (and --seed) drawn from the tree now")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("summaries", nargs="+")
    a = ap.parse_args()
    if a.cmd == "list":
        for m in enumerate_all(a.folders.split(","), systems=a.systems.split(",")):
            print("%s\t%s" % (m["id"], m["text"]))
    elif a.cmd == "count":
        muts = enumerate_all(a.folders.split(","))
        ops = sorted({m["op"] for m in muts})
        print("%-8s %s %7s" % ("folder", " ".join("%6s" % o for o in ops), "total"))
        for f in a.folders.split(","):
            ms = [m for m in muts if m["folder"] == f]
            print("%-8s %s %7d" % (f, " ".join("%6d" % sum(1 for m in ms if m["op"] == o) for o in ops), len(ms)))
        print("%-8s %s %7d" % ("all", " ".join("%6d" % sum(1 for m in muts if m["op"] == o) for o in ops), len(muts)))
        print()
        print("%-8s %s %7s" % ("system", " ".join("%6s" % o for o in ops), "total"))
        for y in SYSTEMS:
            ms = [m for m in muts if m["system"] == y]
            print("%-8s %s %7d" % (y, " ".join("%6d" % sum(1 for m in ms if m["op"] == o) for o in ops), len(ms)))
        ids = [m["id"] for m in muts]
        if len(set(ids)) != len(ids):
            sys.exit("mutgen: duplicate mutant ids")
    elif a.cmd == "sample":
        eq = load_equivalents()
        for m in draw(enumerate_all(a.folders.split(","), systems=a.systems.split(",")), a.n, a.seed):
            print("%s\t%s%s" % (m["id"], m["text"], "\t[equivalent]" if m["id"] in eq else ""))
    elif a.cmd == "show":
        for m in enumerate_all(FOLDERS):
            if m["id"] == a.id:
                sys.stdout.write(diff_of(m))
                return 0
        sys.exit("mutgen: no mutant " + a.id)
    elif a.cmd == "retally":
        return cmd_retally(a)
    else:
        return cmd_run(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
