#!/bin/sh
# The --json contract of every command: each output validated against its schema in
# tests/schema/ (written from man/wsel.1) with python3-jsonschema, and the value of every
# documented key asserted in at least one case (tests/cli/json_contract.py).
. "$(dirname "$0")/tap.sh"
python3 "$(dirname "$0")/json_contract.py" "$WSEL" "$TMP"
