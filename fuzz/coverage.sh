#!/bin/sh
# Collects gcov data of a COVERAGE=1 build and writes the lcov HTML report.
#   coverage.sh BUILD OUTDIR
# Counts the library and the CLI (core, ref, odds, fast, cli) and prints line and branch
# coverage per folder, per system (weighted, ring, gslb: the files under FOLDER/SYSTEM/;
# shared: the files at the top of a folder, doc/architecture.md section 1), and in all;
# then the files with the most branches not taken, and the bar the project set (>= 95%
# lines in all, >= 90% branches in all and in each system).
set -u
build=$1; out=$2
rc="--rc lcov_branch_coverage=1"
info=$build/coverage.info
code=$build/coverage-code.info
folders="core ref odds fast cli"
systems=$(sed -n 's/^WSEL_SYSTEM(\([a-z0-9_]*\)).*/\1/p' core/systems.def)
mkdir -p "$out"
# shellcheck disable=SC2086
lcov $rc --quiet --capture --directory "$build/obj" --base-directory "$(pwd)" \
    --output-file "$info" || exit 1
set --
for d in $folders; do set -- "$@" "$(pwd)/$d/*"; done
# shellcheck disable=SC2086
lcov $rc --quiet --extract "$info" "$@" --output-file "$code" || exit 1
# shellcheck disable=SC2086
genhtml $rc --quiet --branch-coverage --legend --title "wsel library and CLI" \
    --output-directory "$out" "$code" || exit 1

# One pass over the tracefile: each record (SF: ... end_of_record) counts its lines (DA:)
# and branches (BRDA:) into its folder, its system and the total. Percentages are cut,
# not rounded, to one decimal, so 89.96 % reads 89.9 and never passes the bar by rounding.
awk -v root="$(pwd)/" -v folders="$folders" -v systems="$systems" -v top=12 '
function pct(h, n) { return n ? sprintf("%.1f %%", int(1000 * h / n) / 10) : "n/a" }
function add(k) { lf[k] += LF; lh[k] += LH; bf[k] += BF; bh[k] += BH }
function row(label, k) {
    printf "%-9s %9s %8d %10s %10d\n", label, pct(lh[k], lf[k]), lf[k] - lh[k],
        pct(bh[k], bf[k]), bf[k] - bh[k]
}
function head(what) {
    printf "%-9s %9s %8s %10s %10s\n", what, "lines", "not hit", "branches", "not taken"
}
BEGIN { ns = split(systems, sys, " "); for (i = 1; i <= ns; i++) issys[sys[i]] = 1 }
/^SF:/ { f = substr($0, 4); sub("^" root, "", f); LF = LH = BF = BH = 0 }
/^DA:/ { split(substr($0, 4), x, ","); LF++; if (x[2] + 0 > 0) LH++ }
/^BRDA:/ { split(substr($0, 6), x, ","); BF++; if (x[4] != "-" && x[4] + 0 > 0) BH++ }
/^end_of_record/ {
    n = split(f, part, "/")
    s = (n >= 3 && (part[2] in issys)) ? part[2] : "shared"
    add("folder:" part[1]); add("system:" s); add("all")
    miss[f] = BF - BH
}
END {
    head("folder")
    nf = split(folders, fo, " ")
    for (i = 1; i <= nf; i++) row(fo[i], "folder:" fo[i])
    row("all", "all")
    printf "\n"; head("system")
    for (i = 1; i <= ns; i++) row(sys[i], "system:" sys[i])
    row("shared", "system:shared")
    row("all", "all")
    printf "\nbranches not taken, most first:\n"
    for (k = 0; k < top; k++) {
        best = ""; bn = 0
        for (g in miss) if (miss[g] > bn) { bn = miss[g]; best = g }
        if (best == "") break
        printf "  %5d  %s\n", bn, best
        delete miss[best]
    }
    below = ""
    for (i = 1; i <= ns; i++) {
        k = "system:" sys[i]
        if (bf[k] && 1000 * bh[k] < 900 * bf[k]) below = below " " sys[i]
    }
    if (bf["system:shared"] && 1000 * bh["system:shared"] < 900 * bf["system:shared"])
        below = below " shared"
    if (below != "") printf "\nbelow 90 %% branches:%s\n", below
}' "$code"
echo "bar: >= 95% lines, >= 90% branches in all and in each system; report: $out/index.html"
