# shellcheck shell=sh
# Per-target libFuzzer options, sourced by fuzz/run.sh and fuzz/speed.sh: the target's
# dictionary (fuzz/dict/TARGET.dict) and its input size limit (max_len of
# fuzz/options/TARGET.options, the file OSS-Fuzz reads as well).
max_len_of() { sed -n 's/^max_len *= *//p' "fuzz/options/$1.options" 2>/dev/null | tail -n 1; }
opts_for() {
    o=""
    [ -f "fuzz/dict/$1.dict" ] && o="-dict=fuzz/dict/$1.dict"
    m=$(max_len_of "$1")
    [ -n "$m" ] && o="$o -max_len=$m"
    echo "$o"
}
