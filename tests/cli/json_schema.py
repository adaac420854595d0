#!/usr/bin/env python3
"""Validates a JSON document against a JSON Schema (Debian's python3-jsonschema).
Usage: json_schema.py SCHEMA DOCUMENT. Exit 0 when valid; otherwise the first errors
on standard output as '# ' lines and exit 1 (2 when a file cannot be read)."""
import json
import sys

import jsonschema

try:
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    with open(sys.argv[2]) as f:
        doc = json.load(f)
except (OSError, ValueError) as e:
    print("# %s" % e)
    sys.exit(2)
jsonschema.Draft7Validator.check_schema(schema)
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:5]:
    print("# at %s: %s" % ("/".join(str(p) for p in e.path), e.message[:300]))
sys.exit(1 if errors else 0)
