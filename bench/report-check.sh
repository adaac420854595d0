#!/bin/sh
# Opens a rendered bench report (bench/report.py) in a real headless browser (Debian's
# chromium) and fails unless every chart on the page loaded: each <img> complete with a
# natural width above 0, as many images as the page's source names, at least one, and no
# "chart not rendered" note. A missing or unreadable PNG fails it.
# Usage: report-check.sh DIR   (DIR/index.html)
set -u
dir=${1:?usage: report-check.sh DIR}
page=$dir/index.html
fail() { echo "report-check: $*" >&2; exit 1; }
[ -f "$page" ] || fail "$page does not exist (make bench-report)"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || fail "chromium is not installed (sh scripts/deps.sh browser)"
want=$(grep -o '<img ' "$page" | wc -l)
[ "$want" -gt 0 ] || fail "$page has no charts"
if grep -q 'class="warn"' "$page"; then fail "$page says a chart was not rendered"; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy of the page with a script that reports, once everything loaded, what the browser
# made of each image; --dump-dom prints the page as the browser holds it then.
cp -R "$dir" "$tmp/report"
probe='<script>window.addEventListener("load", function () {
  var im = document.images, bad = [];
  for (var i = 0; i < im.length; i++)
    if (!im[i].complete || im[i].naturalWidth === 0) bad.push(im[i].getAttribute("src"));
  var p = document.createElement("pre");
  p.textContent = "REPORT-CHECK images=" + im.length + " broken=" + bad.length + " " + bad.join(" ");
  document.body.appendChild(p);
});</script>'
# (after </html>, HTML parsing moves it into the body)
{ cat "$page"; printf '%s\n' "$probe"; } >"$tmp/report/index.html"
# --no-sandbox: CI runs as root, where chromium's sandbox refuses to start.
timeout 180 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --user-data-dir="$tmp/profile" --virtual-time-budget=10000 \
    --dump-dom "file://$(cd "$tmp/report" && pwd)/index.html" >"$tmp/dom" 2>"$tmp/err"
st=$?
res=$(sed -n 's/.*<pre>\(REPORT-CHECK [^<]*\)<\/pre>.*/\1/p' "$tmp/dom" | head -n 1)
if [ -z "$res" ]; then
    tail -n 5 "$tmp/err" >&2
    fail "chromium (exit $st) did not report on the page's images"
fi
echo "report-check: $page: $res(source names $want)"
case "$res" in
"REPORT-CHECK images=$want broken=0 "*) exit 0 ;;
*) fail "a chart did not load in the browser" ;;
esac
