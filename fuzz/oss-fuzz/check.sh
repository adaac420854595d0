#!/bin/sh
# make oss-fuzz-check: runs fuzz/oss-fuzz/build.sh here the way OSS-Fuzz and
# ClusterFuzzLite run it, once per engine and sanitizer, each into a scratch $OUT, then
# runs every target it built on its seed corpus (the zip build.sh wrote, unzipped), with
# the dictionary and the .options it wrote.
#
#   libfuzzer-address    clang, ASan, LIB_FUZZING_ENGINE=-fsanitize=fuzzer
#   libfuzzer-undefined  clang, UBSan (the engines' list of checks)
#   afl-address          afl-clang-fast, ASan, AFL++'s libFuzzer driver (skipped, and
#                        said so, when afl-clang-fast is missing)
#
# The flags are the engines' (their base-builder image's CFLAGS for each sanitizer).
# Scratch folder: OSS_FUZZ_DIR (default build-oss-fuzz); per build $DIR/<build>/{out,work}.
# Prints one line per build and target; exits 1 when a build or a run fails.
set -u
dir=${OSS_FUZZ_DIR:-build-oss-fuzz}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)

base="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
asan="-fsanitize=address -fsanitize-address-use-after-scope"
ub_checks="array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr"
ub_fatal="array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"
ubsan="-fsanitize=$ub_checks -fno-sanitize-recover=$ub_fatal"
# Run-time options as the engines' runner sets them (unsigned wrap-around is reported
# by the engines' builds but silenced at run time: hashing and the PRNG rely on it).
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:detect_stack_use_after_return=1:strict_memcmp=1:quarantine_size_mb=10:handle_abort=1:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:print_summary=1:silence_unsigned_overflow=1:halt_on_error=1"

status=0

# build NAME CC CXX SANFLAGS ENGINE_CFLAGS LIB_FUZZING_ENGINE
build() {
    name=$1
    out=$dir/$name/out
    work=$dir/$name/work
    rm -rf "$out" && mkdir -p "$out" "$work"
    log=$dir/$name/build.log
    if ! env CC="$2" CXX="$3" CFLAGS="$base $4 $5" CXXFLAGS="$base $4 $5" \
        LIB_FUZZING_ENGINE="$6" OUT="$out" WORK="$work" SRC="$(dirname "$root")" \
        AFL_QUIET=1 bash "$root/fuzz/oss-fuzz/build.sh" >"$log" 2>&1; then
        echo "oss-fuzz-check $name: build.sh FAILED; log $log"
        tail -n 20 "$log"
        status=1
        return 1
    fi
    echo "oss-fuzz-check $name: build.sh built $(grep -c '^build.sh: ' "$log") targets into $out"
}

# run NAME KIND: every target of NAME's $OUT on its unzipped seed corpus.
run() {
    name=$1
    kind=$2
    out=$dir/$name/out
    for bin in "$out"/fuzz_*; do
        case "$bin" in *.zip|*.dict|*.options) continue ;; esac
        [ -x "$bin" ] || continue
        t=$(basename "$bin")
        seeds=$dir/$name/seeds/$t
        rm -rf "$seeds" && mkdir -p "$seeds"
        if ! unzip -q "$out/${t}_seed_corpus.zip" -d "$seeds"; then
            echo "oss-fuzz-check $name $t: seed corpus zip unreadable"
            status=1
            continue
        fi
        n=$(find "$seeds" -type f | wc -l)
        log=$dir/$name/$t.log
        if [ "$kind" = libfuzzer ]; then
            # The .options file's [libfuzzer] lines become flags, as the runner does.
            opts=$(sed -n 's/^\([a-z_]*\) *= *\(.*\)$/-\1=\2/p' "$out/$t.options" 2>/dev/null)
            dict=""
            [ -f "$out/$t.dict" ] && dict="-dict=$out/$t.dict"
            # shellcheck disable=SC2086
            "$bin" -runs=0 -timeout=25 -rss_limit_mb=2560 $opts $dict "$seeds" >"$log" 2>&1
            rc=$?
        else
            # AFL++'s driver runs the files named on its command line, each once.
            find "$seeds" -type f | sort | xargs "$bin" >"$log" 2>&1
            rc=$?
        fi
        if [ "$rc" -ne 0 ]; then
            echo "oss-fuzz-check $name $t: FAILED on its seeds (exit $rc); log $log"
            grep -E 'ERROR|FUZZ ASSERTION|SUMMARY|runtime error' "$log" | head -n 10
            status=1
        else
            echo "oss-fuzz-check $name $t: ok, $n seeds"
        fi
    done
}

build libfuzzer-address clang clang++ "$asan" -fsanitize=fuzzer-no-link -fsanitize=fuzzer &&
    run libfuzzer-address libfuzzer
build libfuzzer-undefined clang clang++ "$ubsan" -fsanitize=fuzzer-no-link -fsanitize=fuzzer &&
    run libfuzzer-undefined libfuzzer
if command -v afl-clang-fast >/dev/null 2>&1; then
    build afl-address afl-clang-fast afl-clang-fast++ "$asan" "" -fsanitize=fuzzer &&
        run afl-address afl
else
    echo "oss-fuzz-check afl-address: skipped (afl-clang-fast not found)"
fi
exit $status
