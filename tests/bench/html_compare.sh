#!/bin/sh
# html_compare.sh -- the pages one xliffmt writes against another's: every
# .html and .htm under tests/ is translated by OLD and by NEW with
# identity and pseudo MT (-s en), and with identity and the page's own
# language (no -s); the pages given as arguments (large ones: pseudo MT
# trains the aligner on a 20 MB page for many minutes) without pseudo.
# Their exit statuses, messages and output bytes must be the same. Used
# to show that a change to the HTML reader or writer changes no byte.
#
# Env: OLD, NEW (required: the two xliffmt binaries), XMT_TEST_DATA (the
#      tests/ folder; default the one beside this script).
# Prints one line per difference and the count compared; exit 1 on any
# difference.
set -u

: "${OLD:?set OLD to the xliffmt binary to compare against}"
: "${NEW:?set NEW to the xliffmt binary to compare}"
tests=${XMT_TEST_DATA:-$(cd "$(dirname "$0")/.." && pwd)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/xliffmt-html-compare.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# one BINARY TAG PAGE ARGS...: translates PAGE to $dir/out.html, keeps the
# output, the messages and the status under TAG.
one() {
  bin=$1 tag=$2 page=$3
  shift 3
  rm -f "$dir/out.html"
  "$bin" translate "$page" -o "$dir/out.html" -t fr "$@" --quiet \
    >"$dir/$tag.stdout" 2>"$dir/$tag.stderr"
  echo $? >"$dir/$tag.status"
  if [ -f "$dir/out.html" ]; then
    mv "$dir/out.html" "$dir/$tag.html"
  else
    rm -f "$dir/$tag.html"
  fi
}

n=0 bad=0
find "$tests" \( -name '*.html' -o -name '*.htm' \) -type f | sort |
  sed 's/^/all /' >"$dir/pages"
for p in "$@"; do echo "big $p"; done >>"$dir/pages"
while read -r kind page; do
  for mode in identity pseudo own; do
    [ "$kind/$mode" != big/pseudo ] || continue
    case $mode in
    own) set -- --mt identity ;;
    *) set -- -s en --mt "$mode" ;;
    esac
    one "$OLD" old "$page" "$@"
    one "$NEW" new "$page" "$@"
    n=$((n + 1))
    for part in status stdout stderr; do
      if ! cmp -s "$dir/old.$part" "$dir/new.$part"; then
        echo "DIFF $mode $page: $part" && bad=$((bad + 1))
        continue 2
      fi
    done
    if [ -f "$dir/old.html" ] || [ -f "$dir/new.html" ]; then
      if ! cmp -s "$dir/old.html" "$dir/new.html"; then
        echo "DIFF $mode $page: output" && bad=$((bad + 1))
      fi
    fi
  done
done <"$dir/pages"
echo "$n translations compared: $bad differ"
[ "$bad" -eq 0 ]
