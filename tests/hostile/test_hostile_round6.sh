#!/bin/sh
# test_hostile_round6.sh: an XLIFF 2 target the run writes says the
# language it is in.
#   - a segment whose <target> has an xml:lang other than the document's
#     trgLang (a target left from another language's run; XLIFF 2.0
#     §4.2.2.13 wants them equal), empty or replaced with --overwrite, as
#     translate and merge write it: its xml:lang becomes trgLang (or the
#     run's -t when the document has no trgLang), its order renumbered as
#     before; check finds no error (the new translation was written under
#     xml:lang="fr", exit 0). Without --overwrite a non-empty target is
#     kept byte for byte.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round6
x=$XLIFFMT

# x2 FILE ROOTATTS UNIT: an XLIFF 2.0 document of one file with UNIT.
x2() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en"%s>\n' "$2"
    printf '<file id="f1">%s</file>\n</xliff>\n' "$3"
  } >"$1"
}
# unit_is DESC FILE WANT: the <unit> line of FILE is WANT.
unit_is() {
  got=$(grep '<unit' "$2")
  if [ "$got" = "$3" ]; then
    pass "$1"
  else
    fail "$1: got '$got', expected '$3'"
  fi
}
seg='<segment state="translated" subState="xliffmt:mt"><source>Alpha one.</source>'
es='[óñé. Álphá ~~~]'

x2 "$tmp/full.xlf" ' trgLang="es"' \
  '<unit id="u1"><segment><source>Alpha one.</source><target xml:lang="fr">Alpha un.</target></segment></unit>'
within "a target in fr, --overwrite" 0 20 300 "$x" translate "$tmp/full.xlf" \
  -o "$tmp/full.out.xlf" -s en -t es --mt pseudo -q --overwrite
unit_is "a target in fr replaced: its xml:lang is trgLang" "$tmp/full.out.xlf" \
  "<file id=\"f1\"><unit id=\"u1\">$seg<target xml:lang=\"es\">$es</target></segment></unit></file>"
expect_exit 0 "a target in fr replaced: check finds no error" "$x" check -q "$tmp/full.out.xlf"
within "a target in fr, no --overwrite" 0 20 300 "$x" translate "$tmp/full.xlf" \
  -o "$tmp/kept.out.xlf" -s en -t es --mt pseudo -q
check "a target in fr without --overwrite: the document as it was" \
  cmp "$tmp/full.xlf" "$tmp/kept.out.xlf"

x2 "$tmp/empty.xlf" ' trgLang="es"' \
  '<unit id="u1"><segment><source>Alpha one.</source><target xml:lang="fr"/></segment></unit>'
within "an empty target in fr" 0 20 300 "$x" translate "$tmp/empty.xlf" \
  -o "$tmp/empty.out.xlf" -s en -t es --mt pseudo -q
unit_is "an empty target in fr filled: its xml:lang is trgLang" "$tmp/empty.out.xlf" \
  "<file id=\"f1\"><unit id=\"u1\">$seg<target xml:lang=\"es\">$es</target></segment></unit></file>"

x2 "$tmp/notrg.xlf" '' \
  '<unit id="u1"><segment><source>Alpha one.</source><target xml:lang="fr"/></segment></unit>'
within "no trgLang, an empty target in fr" 0 20 300 "$x" translate "$tmp/notrg.xlf" \
  -o "$tmp/notrg.out.xlf" -s en -t es --mt pseudo -q
unit_is "no trgLang: the target's xml:lang is the run's" "$tmp/notrg.out.xlf" \
  "<file id=\"f1\"><unit id=\"u1\">$seg<target xml:lang=\"es\">$es</target></segment></unit></file>"
check "no trgLang: trgLang added to <xliff>" grep -q ' srcLang="en" trgLang="es">$' "$tmp/notrg.out.xlf"

x2 "$tmp/order.xlf" ' trgLang="es"' \
  '<unit id="u1"><segment id="s1"><source>Alpha one. Beta two.</source><target xml:lang="fr" order="1">x</target></segment><segment id="s2"><source>Gamma three.</source><target order="2" xml:lang="FR">y</target></segment></unit>'
within "targets in fr with orders, split" 0 20 300 "$x" translate "$tmp/order.xlf" \
  -o "$tmp/order.out.xlf" -s en -t es --mt pseudo -q --overwrite --seg-source
check "targets in fr with orders, split: each in es, orders renumbered" grep -q \
  '<target xml:lang="es" order="1">.*<target xml:lang="es" order="3">.*<target order="4" xml:lang="es">' \
  "$tmp/order.out.xlf"
expect_exit 0 "targets in fr with orders, split: check finds no error" "$x" check -q "$tmp/order.out.xlf"

printf 'u1#0\tUno alfa.\n' >"$tmp/tr.tsv"
within "merge into a target in fr" 0 20 300 "$x" merge "$tmp/full.xlf" \
  --translations "$tmp/tr.tsv" -o "$tmp/merged.xlf" -q --overwrite
check "merge into a target in fr: its xml:lang is trgLang" grep -q \
  '<target xml:lang="es">Uno alfa.</target>' "$tmp/merged.xlf"

finish
