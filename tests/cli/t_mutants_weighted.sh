#!/bin/sh
# Tests written for generated mutants of the weighted code and CLI that survived the other
# tests (scripts/mutgen.py, `make mutants-sample`; README, *Mutation testing*). Each case
# names the mutant id it kills; expectations come from the man page, not from a run.
. "$(dirname "$0")/tap.sh"
SYN="$EXAMPLES/synopsis.conf"

# cli/sample.c@bd14058d0b:const:1:2:1 -- wsel(1), sample: "-n N may also be written -n=N,
# --n N or --n=N"; each spelling draws N answers, wherever it stands among the options.
for spelling in "-n=7" "--n=7" "-n 7" "--n 7"; do
    # shellcheck disable=SC2086
    run sample "$SYN" corpwww --engine ref --json $spelling
    is_rc 0 "sample $spelling last: exit 0"
    jqok '.n == 7 and ([.answers[] | .count] | add) == 7' "sample $spelling last: 7 draws"
    # shellcheck disable=SC2086
    run sample "$SYN" corpwww $spelling --seed 3 --engine ref --json
    jqok '.n == 7 and .seed == 3 and ([.answers[] | .count] | add) == 7' \
        "sample $spelling before --seed 3: 7 draws, seed 3"
done

done_testing
