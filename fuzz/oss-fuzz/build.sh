#!/bin/bash -eu
# Builds wsel's fuzz targets the way OSS-Fuzz and ClusterFuzzLite build a project: from
# the variables their build images set, and nothing else.
#
#   CC CFLAGS        compile (the sanitizer and coverage flags are in CFLAGS)
#   CXX CXXFLAGS     link (the engine's runtime is C++)
#   LIB_FUZZING_ENGINE  the engine to link: -fsanitize=fuzzer (libFuzzer), an archive
#                    (AFL++'s driver), ...
#   OUT              where the engine looks for targets and their files
#   SRC              the checkout lives in $SRC/wsel (used when run from elsewhere)
#   WORK             scratch space (the library's objects)
#
# Writes to $OUT, per target T of mk/fuzz.mk's list: the program fuzz_T, its seed corpus
# fuzz_T_seed_corpus.zip (corpus/T/ and its regress/ reproducers, flat), its dictionary
# fuzz_T.dict (fuzz/dict/T.dict) and fuzz_T.options (fuzz/options/T.options: max_len).
# fuzz/README.md, "OSS-Fuzz and ClusterFuzzLite", says how each engine calls it;
# `make oss-fuzz-check` runs it here.
cd "$(dirname "$0")/../.."
[ -f fuzz/fuzz.h ] || cd "$SRC/wsel"
for v in CC CFLAGS CXX CXXFLAGS LIB_FUZZING_ENGINE OUT WORK; do
    [ -n "${!v:-}" ] || [ "$v" = CXXFLAGS ] || { echo "build.sh: $v is not set" >&2; exit 2; }
done
CXXFLAGS=${CXXFLAGS:-}
mkdir -p "$OUT" "$WORK"

# The library and the verification kit, compiled with the engine's flags (its coverage
# and sanitizers reach the code under test). OPT is emptied: CFLAGS carries the level.
lib=$WORK/wsel-build
make --no-print-directory -j"$(nproc)" BUILD="$lib" CC="$CC" OPT= CFLAGS="$CFLAGS" \
    "$lib/libwsel.a" "$lib/libwsel-kit.a"

# GSL, jansson and yajl statically: the engines' runner images do not carry them (Debian
# and Ubuntu ship yajl's static archive as libyajl_s.a).
libs="-Wl,-Bstatic -lgsl -lgslcblas -ljansson -lyajl_s -Wl,-Bdynamic -lm -lpthread"
cppflags="-Iinclude -D_DEFAULT_SOURCE -Itests"
targets=$(make --no-print-directory -s fuzz-list)
mkdir -p "$WORK/fuzz-obj"
for src in fuzz/fuzz_util.c fuzz/weighted.c; do
    # shellcheck disable=SC2086
    $CC $CFLAGS -std=c11 $cppflags -c "$src" -o "$WORK/fuzz-obj/$(basename "$src" .c).o"
done
# One target: compile, link, and its files. Targets are built $(nproc) at a time.
one() {
    t=$1
    # shellcheck disable=SC2086
    $CC $CFLAGS -std=c11 $cppflags -c "fuzz/fuzz_$t.c" -o "$WORK/fuzz-obj/fuzz_$t.o"
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS -o "$OUT/fuzz_$t" "$WORK/fuzz-obj/fuzz_$t.o" "$WORK/fuzz-obj/fuzz_util.o" \
        "$WORK/fuzz-obj/weighted.o" $LIB_FUZZING_ENGINE "$lib/libwsel-kit.a" "$lib/libwsel.a" $libs

    # Seeds: every file under corpus/T (regress/ included), one flat folder, zipped.
    seeds=$WORK/seeds/$t
    rm -rf "$seeds" && mkdir -p "$seeds"
    find "corpus/$t" -type f | while read -r f; do
        cp "$f" "$seeds/$(echo "${f#corpus/$t/}" | tr '/' '_')"
    done
    rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
    (cd "$seeds" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
    if [ -f "fuzz/dict/$t.dict" ]; then cp "fuzz/dict/$t.dict" "$OUT/fuzz_$t.dict"; fi
    if [ -f "fuzz/options/$t.options" ]; then cp "fuzz/options/$t.options" "$OUT/fuzz_$t.options"; fi
    echo "build.sh: $OUT/fuzz_$t"
}
export -f one
export CC CFLAGS CXX CXXFLAGS LIB_FUZZING_ENGINE OUT WORK lib libs cppflags
# shellcheck disable=SC2086
printf '%s\n' $targets | xargs -P "$(nproc)" -I{} bash -eu -c 'one {}'
