#!/usr/bin/env python3
"""Helpers of tests/cli/t_gslb_oneline.sh (doc/gslb.md §1, A-38).

one-line IN OUT: writes IN in tmsh's one-line form (`tmsh list gtm ... one-line`): each
top-level object on a line of its own, its tokens separated by one blank; a leading
`#TMSH-VERSION` comment keeps its own line, other comments are dropped (a comment cannot
sit inside a line). Tokens are cut as the reader cuts them: braces, quoted strings (kept
as written, escapes included) and bare words.

normalize FILE: prints FILE (a JSON document, or text) without what depends on where a
token stands: the keys "line" and "col" are dropped, FILE:LINE:COL becomes FILE:L:C and
"(line N)" (a topology record's name) becomes "(line L)".
"""
import json
import re
import sys


def tokens(src):
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c in " \t\r\n\f\v":
            i += 1
        elif c == "#":
            j = src.find("\n", i)
            j = n if j < 0 else j
            yield ("comment", src[i:j])
            i = j
        elif c in "{}":
            yield ("brace", c)
            i += 1
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" and j + 1 < n and src[j + 1] in '"\\' else 1
            yield ("word", src[i:j + 1])
            i = j + 1
        else:
            j = i
            while j < n and src[j] not in ' \t\r\n\f\v{}"':
                j += 1
            yield ("word", src[i:j])
            i = j


def one_line(src):
    lines, cur, depth, first = [], [], 0, True
    for kind, text in tokens(src):
        if kind == "comment":
            if first and text.startswith("#TMSH-VERSION:"):
                lines.append(text)
            continue
        first = False
        cur.append(text)
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
            if depth == 0:
                lines.append(" ".join(cur))
                cur = []
    if cur:
        lines.append(" ".join(cur))
    return "\n".join(lines) + "\n"


def scrub(v):
    if isinstance(v, dict):
        return {k: scrub(x) for k, x in v.items() if k not in ("line", "col")}
    if isinstance(v, list):
        return [scrub(x) for x in v]
    if isinstance(v, str):
        v = re.sub(r":\d+:\d+", ":L:C", v)
        return re.sub(r"\(line \d+\)", "(line L)", v)
    return v


def main():
    if sys.argv[1] == "one-line":
        with open(sys.argv[2], encoding="utf-8", errors="surrogateescape") as f:
            src = f.read()
        with open(sys.argv[3], "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(one_line(src))
    elif sys.argv[1] == "normalize":
        with open(sys.argv[2], encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        try:
            doc = json.loads(text)
        except ValueError:
            sys.stdout.write(scrub(text))
            return
        print(json.dumps(scrub(doc), indent=1, sort_keys=True))
    else:
        sys.exit("usage: gslb_oneline.py one-line IN OUT | normalize FILE")


if __name__ == "__main__":
    main()
