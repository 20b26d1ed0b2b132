#!/bin/sh
# test_hostile_round7.sh: exit 0 means the output is right.
#   - an XLIFF 1.2 unit approved="yes" whose target --overwrite replaces
#     (translate and merge): approved="no" with the machine's target
#     (it stayed approved="yes", so Translate Toolkit and Pootle took the
#     new machine translation as the reviewed one), "yes" with
#     --approved; without --overwrite the unit as it was.
#   - -o /proc/self/fd/1 or /dev/fd/1 with standard output redirected to
#     a file (> or >>): the document written there, exit 0 (the name was
#     replaced, not written: "cannot create output", exit 2; as root,
#     -o /dev/stdout put a regular file in the place of the /dev/stdout
#     link and the redirection's file stayed empty, with exit 0).
#   - standard output redirected to a file the command reads
#     ("xliffmt translate a.xlf >>a.xlf", as cat refuses it) or writes
#     (--report r.json >>r.json): refused before any work, exit 1, the
#     file as it was (the document was appended to its own input, or
#     written to the report's old inode, which the report replaced).
#   - an XLIFF 1.2 unit with two <source>s, two <target>s or a
#     <trans-unit> inside it: readers differ on which they take (the
#     first, the last, or each unit they meet); translate and extract
#     refuse it, naming line and column, exit 1, no output (the second
#     source was left untranslated, the second target kept the old
#     translation beside the new one, the inner unit was passed over
#     uncounted, each with exit 0). XLIFF 2 the same: a <unit> inside a
#     <unit>, a <segment> in a <segment>, a <unit> straight in <xliff>
#     (passed over, exit 0).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round7
x=$XLIFFMT

# unit_is DESC FILE ID WANT: the line of FILE holding unit ID is WANT.
unit_is() {
  got=$(grep "<trans-unit id=\"$3\"" "$2")
  if [ "$got" = "$4" ]; then
    pass "$1"
  else
    fail "$1: got '$got', expected '$4'"
  fi
}

# --- An approved unit whose target is replaced.
cat >"$tmp/ok.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="a1" approved="yes"><source>Alpha one.</source><target state="final">Uno.</target></trans-unit>
<trans-unit id="a2"><source>Beta two.</source></trans-unit>
</body></file></xliff>
EOD
mt='<target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">'
within "approved, --overwrite" 0 20 300 "$x" translate "$tmp/ok.xlf" \
  -o "$tmp/ok.out.xlf" -t es --mt identity -q --overwrite
unit_is "approved, --overwrite: approved no more" "$tmp/ok.out.xlf" a1 \
  "<trans-unit id=\"a1\" approved=\"no\"><source>Alpha one.</source>${mt}Alpha one.</target></trans-unit>"
within "approved, --overwrite --approved" 0 20 300 "$x" translate \
  "$tmp/ok.xlf" -o "$tmp/ok.yes.xlf" -t es --mt identity -q --overwrite --approved
unit_is "approved, --overwrite --approved: approved" "$tmp/ok.yes.xlf" a1 \
  "<trans-unit id=\"a1\" approved=\"yes\"><source>Alpha one.</source>${mt}Alpha one.</target></trans-unit>"
within "approved, no --overwrite" 0 20 300 "$x" translate "$tmp/ok.xlf" \
  -o "$tmp/ok.kept.xlf" -t es --mt identity -q
unit_is "approved, no --overwrite: as it was" "$tmp/ok.kept.xlf" a1 \
  '<trans-unit id="a1" approved="yes"><source>Alpha one.</source><target state="final">Uno.</target></trans-unit>'
printf 'a1#0\tUno alfa.\na2#0\tDos beta.\n' >"$tmp/ok.tsv"
within "approved, merge --overwrite" 0 20 300 "$x" merge "$tmp/ok.xlf" \
  --translations "$tmp/ok.tsv" -o "$tmp/ok.merged.xlf" -q --overwrite
unit_is "approved, merge --overwrite: approved no more" "$tmp/ok.merged.xlf" a1 \
  "<trans-unit id=\"a1\" approved=\"no\"><source>Alpha one.</source>${mt}Uno alfa.</target></trans-unit>"

# --- -o naming standard output through /proc or /dev/fd. Not
# /dev/stdout itself: were the defect back, a run as root would replace
# the machine's link.
doc "$tmp/a.xlf" "Alpha one." "Beta two."
cp "$tmp/a.xlf" "$tmp/a.orig"
"$x" translate "$tmp/a.xlf" -o "$tmp/want.xlf" -t es --mt pseudo -q || exit 99
for o in /proc/self/fd/1 /dev/fd/1; do
  rm -f "$tmp/fd.xlf"
  within "-o $o, > file" 0 20 300 sh -c 'exec "$@" >"$0"' "$tmp/fd.xlf" \
    "$x" translate "$tmp/a.xlf" -o "$o" -t es --mt pseudo -q
  check "-o $o, > file: the document in it" cmp -s "$tmp/fd.xlf" "$tmp/want.xlf"
  printf 'before\n' >"$tmp/fd.xlf"
  within "-o $o, >> file" 0 20 300 sh -c 'exec "$@" >>"$0"' "$tmp/fd.xlf" \
    "$x" translate "$tmp/a.xlf" -o "$o" -t es --mt pseudo -q
  check "-o $o, >> file: appended" sh -c \
    '{ echo before; cat "$1"; } | cmp -s - "$0"' "$tmp/fd.xlf" "$tmp/want.xlf"
done

# --- Standard output redirected to a file the command reads or writes.
# appended DESC FILE MESSAGE CMD...: CMD >>FILE is refused, exit 1, with
# MESSAGE, FILE as it was.
appended() {
  desc=$1 file=$2 msg=$3
  shift 3
  cp "$file" "$tmp/before"
  within "$desc" 1 20 300 sh -c 'exec "$@" >>"$0"' "$file" "$@"
  said "$desc" "$msg"
  unchanged "$desc" "$file" "$tmp/before"
  cp "$tmp/before" "$file" # the next case reads it whole
}
printf 'u1#0\tUno.\n' >"$tmp/a.tsv"
cat >"$tmp/p.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello <b>world</b>.</p></body></html>
EOD
"$x" extract "$tmp/p.html" -o "$tmp/p.xlf" -q || exit 99
appended "translate >>IN" "$tmp/a.xlf" \
  "xliffmt: $tmp/a.xlf: standard output is the input: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" -t es --mt pseudo -q
appended "translate -o - >>IN" "$tmp/a.xlf" \
  "xliffmt: $tmp/a.xlf: standard output is the input: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" -o - -t es --mt pseudo -q
printf '{}\n' >"$tmp/r.json"
appended "translate --report R >>R" "$tmp/r.json" \
  "xliffmt: $tmp/r.json: --report names standard output: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" -t es --mt pseudo -q --report "$tmp/r.json"
appended "extract >>IN" "$tmp/a.xlf" \
  "xliffmt: $tmp/a.xlf: standard output is the input: it would be overwritten" \
  "$x" extract "$tmp/a.xlf" -q
appended "merge --translations T >>T" "$tmp/a.tsv" \
  "xliffmt: $tmp/a.tsv: standard output is the translations: it would be overwritten" \
  "$x" merge "$tmp/a.xlf" --translations "$tmp/a.tsv" -q
appended "merge PAGE XLIFF >>XLIFF" "$tmp/p.xlf" \
  "xliffmt: $tmp/p.xlf: standard output is the XLIFF: it would be overwritten" \
  "$x" merge "$tmp/p.html" "$tmp/p.xlf" -q
appended "report >>IN" "$tmp/a.xlf" \
  "xliffmt: $tmp/a.xlf: standard output is the input: it would be overwritten" \
  "$x" report "$tmp/a.xlf"
appended "segment >>IN" "$tmp/a.xlf" \
  "xliffmt: $tmp/a.xlf: standard output is the input: it would be overwritten" \
  "$x" segment "$tmp/a.xlf"
# Standard output into another file, or a pipe, is written as before.
within "translate >OTHER" 0 20 300 sh -c 'exec "$@" >"$0"' "$tmp/other.xlf" \
  "$x" translate "$tmp/a.xlf" -t es --mt pseudo -q
check "translate >OTHER: the document" cmp -s "$tmp/other.xlf" "$tmp/want.xlf"

# --- A unit with a second source, a second target, a unit inside it.
# twice NAME BODY COLUMN WHAT: a document of one unit holding BODY
# (line 4) is refused at COLUMN, naming WHAT.
twice() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n'
    printf '<trans-unit id="w1">%s</trans-unit>\n</body></file></xliff>\n' "$2"
  } >"$tmp/$1.xlf"
  within "$1: translate" 1 20 300 "$x" translate "$tmp/$1.xlf" \
    -o "$tmp/$1.out.xlf" -t es --mt identity -q
  said "$1: translate" \
    "xliffmt: $tmp/$1.xlf:4:$3: $4 in the unit: readers differ on which they take (unit w1)"
  check "$1: translate: no output" test ! -e "$tmp/$1.out.xlf"
  within "$1: extract" 1 20 300 "$x" extract "$tmp/$1.xlf" \
    -o "$tmp/$1.tsv" -q
  said "$1: extract" \
    "xliffmt: $tmp/$1.xlf:4:$3: $4 in the unit: readers differ on which they take (unit w1)"
}
twice sources '<source>Alpha one.</source><source>Beta two.</source>' 48 \
  'a second <source>'
twice targets '<source>Alpha one.</source><target></target><target>Uno viejo.</target>' \
  65 'a second <target>'
twice segsources '<source>A. B.</source><seg-source><mrk mtype="seg" mid="1">A.</mrk></seg-source><seg-source><mrk mtype="seg" mid="2">B.</mrk></seg-source>' \
  101 'a second <seg-source>'
twice nested '<source>Alpha one.</source><trans-unit id="w2"><source>Inner.</source></trans-unit>' \
  48 'a <trans-unit>'

# x2_misplaced NAME BODY COLUMN WHAT: an XLIFF 2 document whose line 3
# is BODY is refused at COLUMN, naming WHAT.
x2_misplaced() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">\n'
    printf '%s\n</xliff>\n' "$2"
  } >"$tmp/$1.xlf"
  within "$1: translate" 1 20 300 "$x" translate "$tmp/$1.xlf" \
    -o "$tmp/$1.out.xlf" -t es --mt identity -q
  said "$1: translate" \
    "xliffmt: $tmp/$1.xlf:3:$3: $4: readers differ on whether it is translated$5"
  check "$1: translate: no output" test ! -e "$tmp/$1.out.xlf"
}
x2_misplaced x2unit '<file id="f1"><unit id="u1"><segment><source>Four.</source></segment><unit id="u2"><segment><source>Inner.</source></segment></unit></unit></file>' \
  70 'a <unit> inside <unit>' ' (unit u1)'
x2_misplaced x2segment '<file id="f1"><unit id="u1"><segment><source>Four.</source><segment><source>Inner.</source></segment></segment></unit></file>' \
  60 'a <segment> inside <segment>' ' (unit u1)'
x2_misplaced x2root '<unit id="u0"><segment><source>Outside.</source></segment></unit><file id="f1"><unit id="u1"><segment><source>Four.</source></segment></unit></file>' \
  1 'a <unit> inside <xliff>' ''

finish
