#!/bin/sh
# Ensures the Debian packages a job needs are installed: installs them when run as root,
# otherwise prints the exact apt-get line and fails.  Usage: deps.sh JOB...
# Jobs: build, check, bench, fuzz, coverage, stats, ci, conformance, report, browser.
set -u
pkgs=""
for job in "$@"; do
    case "$job" in
    build)    pkgs="$pkgs gcc make libc6-dev pkg-config libgsl-dev libcmocka-dev libjansson-dev libyajl-dev zlib1g-dev" ;;
    check)    pkgs="$pkgs gcc make libc6-dev pkg-config libgsl-dev libcmocka-dev libjansson-dev libyajl-dev zlib1g-dev jq python3-jsonschema" ;;
    bench)    pkgs="$pkgs g++ libbenchmark-dev python3 gnuplot-nox valgrind" ;;
    fuzz)     pkgs="$pkgs clang llvm libclang-rt-14-dev afl++ zip unzip" ;;
    coverage) pkgs="$pkgs lcov" ;;
    stats)    pkgs="$pkgs gnuplot-nox python3" ;;
    conformance) pkgs="$pkgs gdnsd python3" ;;
    report)   pkgs="$pkgs python3 gnuplot-nox" ;;     # make bench-report
    browser)  pkgs="$pkgs chromium" ;;                # make bench-report-check
    ci)       pkgs="$pkgs clang llvm libclang-rt-14-dev valgrind afl++ zip unzip lcov g++ libbenchmark-dev python3 gnuplot-nox liblsan0" ;;
    *) echo "deps.sh: unknown job '$job'" >&2; exit 2 ;;
    esac
done
missing=""
for p in $pkgs; do
    case " $missing " in *" $p "*) continue ;; esac
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$st" in *"ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps.sh: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
        echo "deps.sh: apt-get install failed for:$missing" >&2; exit 1; }
else
    echo "deps.sh: missing packages; run as root:" >&2
    echo "  apt-get install -y$missing" >&2
    exit 1
fi
