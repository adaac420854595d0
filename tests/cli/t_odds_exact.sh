#!/bin/sh
# The odds calculator's exact fractions of whole answers (both sets of a two-family
# resource together), and of each item, against an independent computation from
# doc/weighted.md section 5 in Python's exact fractions (tests/cli/odds_exact.py).
. "$(dirname "$0")/tap.sh"
python3 "$(dirname "$0")/odds_exact.py" "$WSEL" "$TMP" 40
