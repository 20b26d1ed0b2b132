#!/bin/sh
# test_hostile_round4.sh: what a line engine writes besides its answers
# never reaches a target, and costs no wait.
#   - an engine whose answer holds a carriage return inside a line (a
#     Windows line ending cut in two, a progress display's return): the
#     CR removed with the warning the other controls get, not written as
#     &#13; into the target;
#   - an engine that writes a prompt or a banner with no line end before
#     its first answer ("> ", "Loading... "): set aside at once with its
#     banner, every unit its own answer (the probe waited the timeout for
#     an answer already given, twice, and failed every segment);
#   - an engine that writes a prompt after every answer, at once or a
#     moment later: set aside from each answer (it was refused, or,
#     written late, reached every target with exit 0); a label written
#     with each answer ("ES: ...") is the engine's and kept;
#   - a file size limit (ulimit -f) reached while an output is written:
#     "cannot write: File too large", exit 2 (1 for batch), no partial
#     file, no temporary file (SIGXFSZ killed it, exit 153, no message).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round4
x=$XLIFFMT

doc "$tmp/abc.xlf" "Alpha one." "Beta two." "Gamma three."
# target_of FILE ID: the text of unit ID's target.
target_of() {
  sed -n "s|.*<trans-unit id=\"$2\">.*<target[^>]*>\\(.*\\)</target>.*|\\1|p" "$1"
}
# all_upper DESC FILE: each unit's target is its source in upper case.
all_upper() {
  got="$(target_of "$2" u1)|$(target_of "$2" u2)|$(target_of "$2" u3)"
  want="ALPHA ONE.|BETA TWO.|GAMMA THREE."
  if [ "$got" = "$want" ]; then
    pass "$1: each unit its own answer, nothing else in it"
  else
    fail "$1: targets '$got', expected '$want'"
  fi
}
# engine NAME SCRIPT: a shell engine.
engine() {
  printf '%s\n' "$2" >"$tmp/$1.sh"
  chmod +x "$tmp/$1.sh"
}

# --- A carriage return inside an answer's line.
engine cr_inside 'while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z | sed "s/ /\r /"; done'
within "cr_inside" 0 20 300 "$x" translate "$tmp/abc.xlf" -o "$tmp/cr.xlf" \
  --mt "cmd:$tmp/cr_inside.sh" --timeout 5
all_upper "cr_inside" "$tmp/cr.xlf"
check "cr_inside: no &#13; in the output" sh -c "! grep -q '&#13;' '$tmp/cr.xlf'"
check "cr_inside: the warning" grep -q -F \
  "$tmp/abc.xlf:5: warning: segment u2#0: the engine's answer had 1 control character; removed" \
  "$tmp/err"

# --- A prompt with no line end before the first answer only.
engine prompt_once 'printf "> "; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; done'
engine banner_late 'sleep 0.3; printf "Loading... "; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; done'
for e in prompt_once banner_late; do
  # Well under one timeout (30 s): it waited two.
  within "$e" 0 20 300 "$x" translate "$tmp/abc.xlf" -o "$tmp/$e.xlf" -q \
    --mt "cmd:$tmp/$e.sh" --timeout 30
  all_upper "$e" "$tmp/$e.xlf"
done

# --- An interactive prompt written after every answer, before the
# engine reads again: each later answer's line starts with it. It is set
# aside from every answer (it was refused; written late, 0.2 s after the
# answer, it reached every target, exit 0).
engine prompt_each 'printf "> "; while IFS= read -r l; do printf "%s\n> " "$l" | tr a-z A-Z; done'
engine prompt_late 'printf "> "; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; sleep 0.2; printf "> "; done'
engine prompt_after 'while IFS= read -r l; do printf "%s\n> " "$l" | tr a-z A-Z; done'
for e in prompt_each prompt_late prompt_after; do
  within "$e" 0 20 300 "$x" translate "$tmp/abc.xlf" -o "$tmp/$e.xlf" -q \
    --mt "cmd:$tmp/$e.sh" --timeout 30
  all_upper "$e" "$tmp/$e.xlf"
done

# --- A file size limit (ulimit -f) reached while the output is written:
# the write fails with EFBIG, told, no output and no temporary file left
# (SIGXFSZ killed the process without a word, exit 153).
{
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n'
  i=0
  while [ $i -lt 3000 ]; do
    printf '<trans-unit id="u%s"><source>Sentence number %s is here.</source></trans-unit>\n' $i $i
    i=$((i + 1))
  done
  printf '</body></file></xliff>\n'
} >"$tmp/big.xlf"
mkdir "$tmp/lim" "$tmp/bin"
cp "$tmp/abc.xlf" "$tmp/big.xlf" "$tmp/bin/"
within "ulimit -f: translate" 2 20 300 sh -c 'ulimit -f 100; exec "$@"' sh \
  "$x" translate "$tmp/big.xlf" -o "$tmp/lim/big.xlf" -q --mt pseudo
expect_text "ulimit -f: translate: told" "$tmp/err" \
  "xliffmt: $tmp/lim/big.xlf: cannot write: File too large"
check "ulimit -f: translate: nothing left" test -z "$(ls -A "$tmp/lim")"
within "ulimit -f: standard output" 2 20 300 sh -c 'ulimit -f 100; exec "$@"' \
  sh "$x" translate "$tmp/big.xlf" -o - -q --mt pseudo
expect_text "ulimit -f: standard output: told" "$tmp/err" \
  "xliffmt: standard output: cannot write: File too large"
within "ulimit -f: batch" 1 20 300 sh -c 'ulimit -f 100; exec "$@"' sh \
  "$x" batch "$tmp/bin" -o "$tmp/bout" --mt pseudo
check "ulimit -f: batch: told" grep -q -F \
  "xliffmt: $tmp/bout/big.xlf: cannot write: File too large" "$tmp/err"
check "ulimit -f: batch: no output" test ! -e "$tmp/bout/big.xlf"

# --- A page of many titled links: each attribute's unit starts before its
# element's text unit; the page was counted again from the top at each
# (quadratic: 33 s for 20,000 links, 8 times 2,500's).
awk 'BEGIN {
  print "<!DOCTYPE html><html lang=\"en\"><body>"
  for (i = 1; i <= 20000; i++)
    printf "<p>Paragraph %d is here <a href=\"x\" title=\"Title %d\">a link</a>.</p>\n", i, i
  print "</body></html>"
}' >"$tmp/links.html"
within "many titled links" 0 15 600 "$x" translate "$tmp/links.html" -t es \
  -o "$tmp/links.es.html" -q --mt pseudo
check "many titled links: the last title translated" grep -q -F \
  '<p>[20000 Párágráph héré ís <a href="x" title="[20000 Títlé ~~~~]">' \
  "$tmp/links.es.html"

finish
