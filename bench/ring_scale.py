#!/usr/bin/env python3
"""Ring scenarios of many hosts, for the cost curve of doc/ring.md section 17.

    python3 bench/ring_scale.py names H > names-H.json     # H hosts by DNS name (one A record each)
    python3 bench/ring_scale.py literal H > literal-H.json # H IP-literal hosts
    python3 bench/ring_scale.py ops H > ops-H.json         # H hosts by name, added by ops

Every host has the default port and weight (80, 10); the wheel has the default 1000
slots unless a third argument gives another size. Then, for instance:

    /usr/bin/time -f '%U s user' bin/wsel ring run names-131072.json > /dev/null
"""
import json
import sys


def ip(i):
    return "10.%d.%d.%d" % (i >> 16, (i >> 8) & 255, i & 255)


def scenario(kind, n, wheel):
    sc = {"wheelSize": wheel}
    names = ["h%d.test" % i for i in range(n)]
    if kind == "names":
        sc["hosts"] = [{"name": h} for h in names]
        sc["dns"] = {h: {"A": [{"address": ip(i)}]} for i, h in enumerate(names)}
    elif kind == "ops":
        sc["dns"] = {h: {"A": [{"address": ip(i)}]} for i, h in enumerate(names)}
        sc["ops"] = [{"op": "add", "name": h} for h in names]
    elif kind == "literal":
        sc["hosts"] = [{"name": ip(i)} for i in range(n)]
    else:
        raise SystemExit("kind: names, literal or ops")
    return sc


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    json.dump(scenario(sys.argv[1], int(sys.argv[2]),
                       int(sys.argv[3]) if len(sys.argv) > 3 else 1000), sys.stdout)
