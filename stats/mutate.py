#!/usr/bin/env python3
"""Apply one fault of stats/mutants.catalog to a tree, or list/check the catalog.

    mutate.py CATALOG list                 fault ids, one per line
    mutate.py CATALOG what ID              the fault's one-line description
    mutate.py CATALOG file ID              the file the fault changes
    mutate.py CATALOG check ROOT           every fault's patterns match in ROOT (exit 1 if not)
    mutate.py CATALOG apply ID ROOT        apply fault ID to ROOT (exit 1 if a pattern is missing)
"""
import sys


def parse(path):
    faults, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, val = line.partition(" ")
            if key == "fault":
                cur = {"id": val, "file": None, "what": "", "edits": [], "nth": None, "line": n}
            elif cur is None:
                sys.exit(f"{path}:{n}: '{key}' outside a fault entry")
            elif key == "file":
                cur["file"] = val
            elif key == "what":
                cur["what"] = val
            elif key == "nth":
                cur["nth"] = int(val)
            elif key == "find":
                cur["edits"].append([val.replace("\\n", "\n"), None, cur["nth"]])
                cur["nth"] = None
            elif key == "repl":
                if not cur["edits"] or cur["edits"][-1][1] is not None:
                    sys.exit(f"{path}:{n}: repl without find")
                cur["edits"][-1][1] = val.replace("\\n", "\n")
            elif key == "end":
                if not cur["file"] or not cur["edits"] or cur["edits"][-1][1] is None:
                    sys.exit(f"{path}:{cur['line']}: fault {cur['id']} incomplete")
                faults.append(cur)
                cur = None
            else:
                sys.exit(f"{path}:{n}: unknown key '{key}'")
    ids = [f["id"] for f in faults]
    if len(set(ids)) != len(ids):
        sys.exit(f"{path}: duplicate fault id")
    return faults


def mutate(fault, text):
    """Returns (new text, error or None)."""
    for find, repl, nth in fault["edits"]:
        count = text.count(find)
        if count == 0:
            return text, f"pattern not found: {find!r}"
        if nth is None:
            if count != 1:
                return text, f"pattern occurs {count} times (expected once; use nth): {find!r}"
            text = text.replace(find, repl, 1)
        else:
            if nth > count:
                return text, f"pattern occurs {count} times, nth {nth} asked: {find!r}"
            pos = -1
            for _ in range(nth):
                pos = text.index(find, pos + 1)
            text = text[:pos] + repl + text[pos + len(find):]
    return text, None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    faults = parse(sys.argv[1])
    by_id = {f["id"]: f for f in faults}
    cmd = sys.argv[2]
    if cmd == "list":
        for f in faults:
            print(f["id"])
    elif cmd in ("what", "file"):
        print(by_id[sys.argv[3]][cmd])
    elif cmd == "check":
        root, bad = sys.argv[3], 0
        for f in faults:
            with open(f"{root}/{f['file']}", encoding="utf-8") as fh:
                _, err = mutate(f, fh.read())
            if err:
                print(f"FAULT {f['id']} ({f['file']}): {err}", file=sys.stderr)
                bad += 1
        if bad:
            sys.exit(f"{bad} fault(s) no longer match the sources: update stats/mutants.catalog")
    elif cmd == "apply":
        f, root = by_id[sys.argv[3]], sys.argv[4]
        path = f"{root}/{f['file']}"
        with open(path, encoding="utf-8") as fh:
            text, err = mutate(f, fh.read())
        if err:
            sys.exit(f"FAULT {f['id']} ({f['file']}): {err}")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
