#!/bin/sh
# The state options of explain, states and sample (man/wsel.1, STATE OPTIONS), beside
# t_usage.sh's cases: each malformed one exits 2 with one line naming the option and
# what it expects, and nothing on standard output.
. "$(dirname "$0")/tap.sh"
C="$DATA/json/two.conf"
usage_err 'explain: option --state needs a value' "--state at the end" explain "$C" --state
usage_err "explain: --state expects SERVICE=FILE, got 'mon'" "--state without =FILE" explain "$C" --state mon
usage_err "explain: --state expects SERVICE=FILE, got '=x'" "--state without SERVICE" explain "$C" --state =x
usage_err "explain: --state expects SERVICE=FILE, got 'mon='" "--state with an empty FILE" explain "$C" --state mon=
usage_err 'states: --down expects an address or name' "--down ''" states "$C" --down ''
usage_err 'explain: --up expects an address or name' "--up ''" explain "$C" --up ''
usage_err 'explain: option --up needs a value' "--up at the end" explain "$C" --up
usage_err 'states: option --admin-state needs a value' "--admin-state at the end" states "$C" --admin-state
usage_err 'sample: --admin-state expects a file' "--admin-state ''" sample "$C" both -n 5 --admin-state ''
usage_err "explain: --up nosuch.example.: no address or CNAME of this config matches" "--up matching nothing" explain "$C" --up nosuch.example.
done_testing
