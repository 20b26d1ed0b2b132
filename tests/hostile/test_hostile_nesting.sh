#!/bin/sh
# test_hostile_nesting.sh: codes nested 100,000 deep (g, or bpt/ept
# pairs by id or rid), or 100,000 side by side in one unit, cost time in
# proportion to their number, not its square, in every step: reading and checking, pairing and unique keys,
# segmentation (sentences cut through the pairs), projection, writing,
# and the HTML page read and written. check, and translate with identity
# and pseudo, each within its time and memory; identity gives back the
# input plus targets equal to the sources (an HTML page byte for byte),
# pseudo keeps every code once and check finds nothing missing or added.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-nesting
x=$XLIFFMT
N=100000

# xliff KIND N: one trans-unit of N codes: nest (g in g, a word in each),
# sentences (the same with a sentence in each, which the segmenter cuts
# out of the pairs), g (g side by side), x (placeholders side by side),
# bx (N/2 bx, then their ex in reverse order: nested isolated pairs),
# bpt (N bpt, a word after each, then their ept in reverse order: nested
# pairs by id), bptrid (the same paired by rid, each code an id of its own).
xliff() {
  awk -v kind="$1" -v n="$2" 'BEGIN {
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    printf "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
    printf "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n"
    printf "<trans-unit id=\"1\"><source>"
    if (kind == "nest" || kind == "sentences") {
      fmt = kind == "nest" ? "<g id=\"%d\">w%d " : "<g id=\"%d\">Word %d. "
      for (i = 1; i <= n; i++) printf fmt, i, i
      printf "end"
      for (i = 1; i <= n; i++) printf "</g>"
    } else if (kind == "g") {
      for (i = 1; i <= n; i++) printf "<g id=\"%d\">w%d</g> ", i, i
    } else if (kind == "x") {
      for (i = 1; i <= n; i++) printf "w%d<x id=\"%d\"/> ", i, i
    } else if (kind == "bx") {
      for (i = 1; i <= n / 2; i++) printf "<bx id=\"%d\"/>w%d ", i, i
      for (i = n / 2; i >= 1; i--) printf "<ex id=\"%d\"/>", i
    } else if (kind == "bpt") {
      for (i = 1; i <= n; i++) printf "<bpt id=\"%d\">&lt;b&gt;</bpt>w%d ", i, i
      printf "end"
      for (i = n; i >= 1; i--) printf "<ept id=\"%d\">&lt;/b&gt;</ept>", i
    } else if (kind == "bptrid") {
      for (i = 1; i <= n; i++)
        printf "<bpt id=\"b%d\" rid=\"%d\">&lt;b&gt;</bpt>w%d ", i, i, i
      printf "end"
      for (i = n; i >= 1; i--)
        printf "<ept id=\"e%d\" rid=\"%d\">&lt;/b&gt;</ept>", i, i
    }
    printf "</source></trans-unit>\n</body></file></xliff>\n"
  }'
}

# The content of the first <target> of FILE.
target_of() {
  sed -n 's|.*<target[^>]*>\(.*\)</target>.*|\1|p' "$1"
}

# codes_kept DESC FILE PATTERN WANT: the target of FILE holds WANT
# matches of PATTERN (grep -o), all different.
codes_kept() {
  all=$(target_of "$2" | grep -o "$3" | wc -l)
  once=$(target_of "$2" | grep -o "$3" | sort -u | wc -l)
  if [ "$all" -eq "$4" ] && [ "$once" -eq "$4" ]; then
    pass "$1: $4 codes, each once"
  else
    fail "$1: $all codes, $once different, expected $4"
  fi
}

# check_clean DESC FILE CODES: check FILE finds no problem and counts
# the codes CODES ("g=100000 x=0 ...").
check_clean() {
  within "$1: check" 0 10 400 "$x" check "$2"
  if grep -q "inline codes *$3\$" "$tmp/out" &&
    grep -q "problems *0 errors, 0 warnings" "$tmp/out"; then
    pass "$1: check counts $3, no problem"
  else
    fail "$1: check said: $(tr '\n' '|' <"$tmp/out")"
  fi
}

# identity_same DESC IN OUT: OUT is IN with a target equal to the source.
identity_same() {
  sed 's|<source>\(.*\)</source>|&<target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">\1</target>|' \
    "$2" >"$tmp/want"
  if cmp -s "$3" "$tmp/want"; then
    pass "$1: identity gives back the input plus the source as target"
  else
    fail "$1: identity output differs from the input plus target"
  fi
}

codes() { # KIND: the counts check reports for the documents of KIND
  case $1 in
  nest | sentences | g) echo "g=$N x=0 bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0" ;;
  x) echo "g=0 x=$N bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0" ;;
  bx) echo "g=0 x=0 bx=$((N / 2)) ex=$((N / 2)) bpt=0 ept=0 ph=0 it=0 mrk=0 other=0" ;;
  bpt*) echo "g=0 x=0 bx=0 ex=0 bpt=$N ept=$N ph=0 it=0 mrk=0 other=0" ;;
  esac
}

pattern() { # KIND: the start of each code in a target
  case $1 in
  x) echo '<x id="[0-9]*"/>' ;;
  bx) echo '<[be]x id="[0-9]*"/>' ;;
  bpt*) echo '<bpt id="[^"]*"' ;;
  *) echo '<g id="[0-9]*">' ;;
  esac
}

for kind in nest sentences g x bx bpt bptrid; do
  in=$tmp/$kind.xlf
  xliff $kind $N >"$in"
  check_clean "$kind" "$in" "$(codes $kind)"
  within "$kind: translate with identity" 0 10 800 \
    "$x" translate "$in" -o "$tmp/$kind.id.xlf" -s en -t es --mt identity -q
  identity_same "$kind" "$in" "$tmp/$kind.id.xlf"
  within "$kind: translate with pseudo" 0 10 800 \
    "$x" translate "$in" -o "$tmp/$kind.ps.xlf" -s en -t es --mt pseudo -q
  codes_kept "$kind: pseudo" "$tmp/$kind.ps.xlf" "$(pattern $kind)" $N
  if [ "$(pattern $kind)" = '<g id="[0-9]*">' ]; then
    n=$(target_of "$tmp/$kind.ps.xlf" | grep -o '</g>' | wc -l)
    check "$kind: pseudo closes every g ($n)" test "$n" -eq $N
  fi
  check_clean "$kind: pseudo" "$tmp/$kind.ps.xlf" "$(codes $kind)"
  # The other tag modes: placeholders in the text, or the markup itself.
  for tags in mask raw; do
    within "$kind: --tags $tags with identity" 0 10 800 \
      "$x" translate "$in" -o "$tmp/$kind.$tags.xlf" -s en -t es \
      --mt identity -q --tags $tags
    identity_same "$kind: --tags $tags" "$in" "$tmp/$kind.$tags.xlf"
  done
  rm -f "$tmp/$kind".*
done

# --- Codes inside words, which the engine gets as spaces (word breaks)
# and the target loses again; and a mask answer that moves codes about.
awk -v n=$N 'BEGIN {
  printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  printf "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
  printf "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n"
  printf "<trans-unit id=\"1\"><source>"
  for (i = 1; i <= n; i++) printf "w%d<x id=\"%d\"/>v ", i, i
  printf "</source></trans-unit>\n"
  printf "<trans-unit id=\"2\"><source><g id=\"1\">w1 <g id=\"2\">w2 end</g></g></source></trans-unit>\n"
  printf "</body></file></xliff>\n"
}' >"$tmp/breaks.xlf"
within "codes inside words: translate with pseudo" 0 10 800 \
  "$x" translate "$tmp/breaks.xlf" -o "$tmp/breaks.ps.xlf" -s en -t es \
  --mt pseudo -q
codes_kept "codes inside words: pseudo" "$tmp/breaks.ps.xlf" \
  '<x id="[0-9]*"/>' $N
within "codes inside words: --tags mask with pseudo" 0 30 800 \
  "$x" translate "$tmp/breaks.xlf" -o "$tmp/breaks.mask.xlf" -s en -t es \
  --mt pseudo -q --tags mask
check_clean "codes inside words: --tags mask" "$tmp/breaks.mask.xlf" \
  "g=2 x=$N bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0"
rm -f "$tmp"/breaks.*

# --- An HTML page of spans nested 100,000 deep, and one of 100,000 side
# by side (without <html lang>, which would become the target language).
awk -v n=$N 'BEGIN {
  printf "<!DOCTYPE html>\n<html><head><title>t</title></head><body><p>"
  for (i = 1; i <= n; i++) printf "<span>w%d ", i
  printf "end"
  for (i = 1; i <= n; i++) printf "</span>"
  printf "</p></body></html>\n"
}' >"$tmp/nest.html"
awk -v n=$N 'BEGIN {
  printf "<!DOCTYPE html>\n<html><head><title>t</title></head><body><p>"
  for (i = 1; i <= n; i++) printf "<b>w%d</b> ", i
  printf "</p></body></html>\n"
}' >"$tmp/side.html"
for page in nest side; do
  in=$tmp/$page.html
  within "HTML $page: translate with identity" 0 10 800 \
    "$x" translate "$in" -o "$tmp/$page.id.html" -s en -t es --mt identity -q
  check "HTML $page: identity gives back the page byte for byte" \
    cmp -s "$in" "$tmp/$page.id.html"
  within "HTML $page: translate with pseudo" 0 10 800 \
    "$x" translate "$in" -o "$tmp/$page.ps.html" -s en -t es --mt pseudo -q
  for tag in '<span>' '</span>' '<b>' '</b>'; do
    want=$(grep -o "$tag" "$in" | wc -l)
    got=$(grep -o "$tag" "$tmp/$page.ps.html" | wc -l)
    check "HTML $page: pseudo keeps $want $tag ($got)" test "$got" -eq "$want"
  done
  within "HTML $page: extract" 0 10 400 \
    "$x" extract "$in" -o "$tmp/$page.xlf" -s en -t es
  rm -f "$tmp/$page".*
done

# --- A unit of 40,000 segments, with a segmented target: every segment
# finds its target mrk.
awk -v n=40000 'BEGIN {
  printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  printf "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
  printf "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n"
  printf "<trans-unit id=\"1\"><source>"
  for (i = 1; i <= n; i++) printf "S%d <x id=\"%d\"/>. ", i, i
  printf "</source><seg-source>"
  for (i = 1; i <= n; i++)
    printf "<mrk mtype=\"seg\" mid=\"%d\">S%d <x id=\"%d\"/>.</mrk> ", i, i, i
  printf "</seg-source><target>"
  for (i = n; i >= 1; i--)
    printf "<mrk mtype=\"seg\" mid=\"%d\">T%d <x id=\"%d\"/>.</mrk> ", i, i, i
  printf "</target></trans-unit>\n</body></file></xliff>\n"
}' >"$tmp/segments.xlf"
within "40,000 segments: check" 0 5 400 "$x" check "$tmp/segments.xlf"
check "40,000 segments: counted" grep -q "segments *40000\$" "$tmp/out"
within "40,000 segments: translate keeps the translated ones" 0 5 800 \
  "$x" translate "$tmp/segments.xlf" -o "$tmp/segments.ps.xlf" -s en -t es \
  --mt pseudo -q
check "40,000 segments: output equals input" \
  cmp -s "$tmp/segments.xlf" "$tmp/segments.ps.xlf"

finish
