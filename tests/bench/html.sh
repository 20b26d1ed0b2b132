#!/bin/sh
# html.sh -- `make bench-html`: time and peak memory of translating a
# generated HTML page (tests/bench/html_gen.py: nested divs, paragraphs
# with inline elements, lists, tables, title and alt attributes,
# entities, comments, a script and a style block) with identity MT,
# against `xmllint --html --noout` parsing the same page (libxml2's HTML
# parser building its tree: the floor of reading a page at all; xmllint
# --html --stream would only tokenize it).
#
# Env: XLIFFMT (required), BENCH_HTML_MB (default 20), BENCH_MT (default
#      identity), BENCH_DIR (default a fresh temporary directory, removed
#      on exit).
# Fails when xliffmt takes more than 2 times xmllint's time, or when its
# peak RSS reaches the page's size (a page whose units, codes and
# targets are all held until the end takes many times its size).
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
mb=${BENCH_HTML_MB:-20}
mt=${BENCH_MT:-identity}

. "$(dirname "$0")/lib.sh"
if [ ! -x /usr/bin/time ]; then
  echo "html.sh: /usr/bin/time not found; install GNU time: apt-get install time" >&2
  exit 1
fi
bench_need html.sh 'command -v xmllint' libxml2-utils
bench_need html.sh 'command -v python3' python3
bench_scratch bench-html

page=$dir/page.html
python3 "$(dirname "$0")/html_gen.py" "$mb" >"$page"
bytes=$(wc -c <"$page")

# run NAME COMMAND...: runs COMMAND under /usr/bin/time three times and
# keeps the fastest; prints "SECONDS KB".
run() {
  name=$1
  shift
  best=
  for _ in 1 2 3; do
    if ! /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>"$dir/err"; then
      cat "$dir/err" >&2
      echo "html.sh: $name failed" >&2
      exit 1
    fi
    if [ -z "$best" ] || [ "$(fcmp "$(cut -d' ' -f1 "$dir/time")" '<' "${best% *}")" = 1 ]; then
      best=$(cat "$dir/time")
    fi
  done
  echo "$best"
}

set -- $(run xliffmt "$XLIFFMT" translate "$page" -o "$dir/out.html" -s en \
  -t fr --mt "$mt" --quiet)
x_s=$1 x_kb=$2
set -- $(run xmllint xmllint --html --noout "$page")
l_s=$1 l_kb=$2

printf '%-28s %8s %12s\n' "$(awk -v b="$bytes" 'BEGIN { printf "page %.1f MB", b / 1048576 }')" seconds 'peak RSS MB'
awk -v s="$x_s" -v k="$x_kb" -v mt="$mt" 'BEGIN {
  printf "%-28s %8.2f %12.1f\n", "xliffmt translate (" mt ")", s, k / 1024 }'
awk -v s="$l_s" -v k="$l_kb" 'BEGIN {
  printf "%-28s %8.2f %12.1f\n", "xmllint --html --noout", s, k / 1024 }'
ratio=$(awk -v a="$x_s" -v b="$l_s" 'BEGIN { printf "%.2f", b > 0 ? a / b : 0 }')
held=$(awk -v k="$x_kb" -v b="$bytes" 'BEGIN { printf "%.2f", k * 1024 / b }')
echo "time ratio ${ratio}x; xliffmt peak RSS ${held} of the page's size"
fail=0
verdict "$(fcmp "$ratio" '<=' 2)" "xliffmt takes ${ratio} times xmllint's time (<= 2)"
verdict "$(fcmp "$held" '<' 1)" "xliffmt peak RSS is ${held} of the page (< 1)"
exit "$fail"
