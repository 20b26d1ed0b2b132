#!/bin/sh
# test_hostile_round3.sh: engines that speak a little differently are
# understood, and an answer that says it failed is no translation.
#   - a line engine whose output opens with a UTF-8 byte order mark (as
#     .NET programs and Python's utf-8-sig write it), all at once or a
#     byte at a time, before its first answer or before a banner: every
#     segment translated, no BOM in any target, exit 0 (the BOM made the
#     first answer to the check line differ from the next, and the run
#     waited twice the timeout, then failed every segment);
#   - a LibreTranslate service that answers 200 with an "error" member
#     beside its translatedText: that segment fails, naming the error,
#     exit 3; the others are translated.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round3
x=$XLIFFMT

doc "$tmp/abc.xlf" "Alpha one." "Beta two." "Gamma three."
# target_of FILE ID: the text of unit ID's target.
target_of() {
  sed -n "s|.*<trans-unit id=\"$2\">.*<target[^>]*>\\([^<]*\\)</target>.*|\\1|p" "$1"
}
# all_upper DESC FILE: each unit's target is its source in upper case.
all_upper() {
  got="$(target_of "$2" u1)|$(target_of "$2" u2)|$(target_of "$2" u3)"
  want="ALPHA ONE.|BETA TWO.|GAMMA THREE."
  if [ "$got" = "$want" ]; then
    pass "$1: each unit its own answer, no BOM"
  else
    fail "$1: targets '$got', expected '$want'"
  fi
}

# --- A BOM opening the engine's output.
# bom_engine NAME BEFORE: an engine that writes BEFORE (printf format) at
# its start or before its first answer, then each line in upper case.
bom_engine() {
  printf '%s\n' "$2" >"$tmp/$1.sh"
  chmod +x "$tmp/$1.sh"
}
bom_engine bom_first 'first=1; while IFS= read -r l; do if [ $first = 1 ]; then printf "\357\273\277"; first=0; fi; printf "%s\n" "$l" | tr a-z A-Z; done'
bom_engine bom_bytes 'first=1; while IFS= read -r l; do if [ $first = 1 ]; then printf "\357"; sleep 0.2; printf "\273"; sleep 0.2; printf "\277"; first=0; fi; printf "%s\n" "$l" | tr a-z A-Z; done'
bom_engine bom_start 'printf "\357\273\277"; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; done'
bom_engine bom_banner 'printf "\357\273\277Model loaded.\n"; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; done'
for e in bom_first bom_bytes bom_start bom_banner; do
  within "$e" 0 20 300 "$x" translate "$tmp/abc.xlf" -o "$tmp/$e.xlf" -q \
    --mt "cmd:$tmp/$e.sh" --timeout 5
  all_upper "$e" "$tmp/$e.xlf"
done

finish
