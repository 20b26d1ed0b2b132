#!/bin/sh
# test_cli_segment.sh: "xliffmt segment" on plain text (exact sentences,
# paragraphs, Okapi's rules), on XLIFF (exact output; every valid input
# stays valid against the XLIFF 1.2 schema once segmented; encodings kept)
# and with bad SRX files (message naming file, line, rule and position;
# exit 1; no output file).
# Env: XLIFFMT, XMT_TEST_DATA, XMT_FIXTURES, XMT_SAMPLES, XMLLINT.
# Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"

cli_setup segment

# same DESC FILE EXPECTED-FILE: the files are equal.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1: output differs (got, then expected):"
    sed 's/^/    got:  /' "$2"
    sed 's/^/    want: /' "$3"
  fi
}
# err_is DESC LINE: stderr is exactly LINE.
err_is() {
  if [ "$(cat "$tmp/err")" = "$2" ]; then
    pass "$1"
  else
    fail "$1: stderr is '$(cat "$tmp/err")', want '$2'"
  fi
}

x=$XLIFFMT
w=$tmp/w
mkdir "$w"

# --- Plain text: one paragraph per line; sentences one per line, a blank
# line between paragraphs (an empty paragraph stays one); CRLF accepted.
printf 'Mr. Smith arrived. See Art. 5, e.g. Paris.  It is 3.5 km away!\n\nOne more line\r\nDer 3. Oktober, z. B. Berlin. Ende.' >"$w/in.txt"
cat >"$w/want.txt" <<'EOF'
Mr. Smith arrived.
See Art. 5, e.g. Paris.
It is 3.5 km away!


One more line

Der 3.
Oktober, z. B. Berlin.
Ende.
EOF
if expect_exit 0 "text, en" "$x" segment -s en "$w/in.txt"; then
  same "text, en: sentences" "$tmp/out" "$w/want.txt"
fi
cat >"$w/want-de.txt" <<'EOF'
Mr. Smith arrived.
See Art. 5, e.g. Paris.
It is 3.5 km away!


One more line

Der 3. Oktober, z. B. Berlin.
Ende.
EOF
if expect_exit 0 "text, de, stdin, -o" "$x" segment -s de -o "$w/out-de.txt" \
  <"$w/in.txt"; then
  same "text, de: sentences" "$w/out-de.txt" "$w/want-de.txt"
fi
if expect_exit 1 "text without -s" "$x" segment "$w/in.txt"; then
  err_is "text without -s: message" "xliffmt: plain text needs -s LANG
Try 'xliffmt segment --help'."
fi
printf 'Bad \303 byte. Next.\n' >"$w/bad-utf8.txt"
if expect_exit 1 "invalid UTF-8" "$x" segment -s en "$w/bad-utf8.txt"; then
  err_is "invalid UTF-8: message" \
    "xliffmt: $w/bad-utf8.txt:1: invalid UTF-8 at byte 4"
fi

okapi=$XMT_TEST_DATA/srx/okapi-defaultSegmentation.srx
if have_data srx/okapi-defaultSegmentation.srx; then
  printf 'Mr. Holmes is from the U.K. not the U.S. Is Dr. Watson from there too? Yes: both are.\n' >"$w/holmes.txt"
  printf 'Mr. Holmes is from the U.K. not the U.S.\nIs Dr. Watson from there too?\nYes: both are.\n' >"$w/holmes.want"
  if expect_exit 0 "Okapi's rules" "$x" segment --srx "$okapi" -s en \
    "$w/holmes.txt"; then
    same "Okapi's rules: sentences" "$tmp/out" "$w/holmes.want"
  fi
fi

# --- XLIFF: exact output of a small document.
cat >"$w/in.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a.html" source-language="en" target-language="fr" datatype="html">
<body>
<trans-unit id="1">
  <source>First <g id="1">one. Second</g> one.</source>
  <target>First <g id="1">one. Second</g> one.</target>
</trans-unit>
<trans-unit id="2">
  <source>Only one.</source>
</trans-unit>
</body>
</file>
</xliff>
EOF
cat >"$w/want.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a.html" source-language="en" target-language="fr" datatype="html">
<body>
<trans-unit id="1">
  <source>First <g id="1">one. Second</g> one.</source>
  <seg-source><mrk mid="0" mtype="seg">First <bx id="1"/>one.</mrk> <mrk mid="1" mtype="seg">Second<ex id="1"/> one.</mrk></seg-source>
  <target><mrk mid="0" mtype="seg">First <bx id="1"/>one.</mrk> <mrk mid="1" mtype="seg">Second<ex id="1"/> one.</mrk></target>
</trans-unit>
<trans-unit id="2">
  <source>Only one.</source>
  <seg-source><mrk mid="0" mtype="seg">Only one.</mrk></seg-source>
</trans-unit>
</body>
</file>
</xliff>
EOF
if expect_exit 0 "XLIFF" "$x" segment "$w/in.xlf" -o "$w/out.xlf"; then
  same "XLIFF: seg-source and mirrored target" "$w/out.xlf" "$w/want.xlf"
fi
# Already segmented: kept, unless --resegment; segmenting twice changes
# nothing.
if expect_exit 0 "XLIFF, again" "$x" segment "$w/out.xlf" -o "$w/out2.xlf"; then
  same "XLIFF, again: unchanged" "$w/out2.xlf" "$w/want.xlf"
fi
if expect_exit 0 "XLIFF, --resegment" "$x" segment --resegment \
  "$w/out.xlf" -o "$w/out3.xlf"; then
  same "XLIFF, --resegment: same segments" "$w/out3.xlf" "$w/want.xlf"
fi

# translate and extract --resegment: a unit whose <seg-source> holds two
# sentences in one <mrk> is cut anew; translate writes the new
# <seg-source> in place of the old one, and a target that mirrors it.
cat >"$w/reseg.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="fr" datatype="plaintext"><body>
<trans-unit id="1"><source>One sentence. And another.</source><seg-source><mrk mid="0" mtype="seg">One sentence. And another.</mrk></seg-source></trans-unit>
</body></file></xliff>
EOF
cat >"$w/reseg.want" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="fr" datatype="plaintext"><body>
<trans-unit id="1"><source>One sentence. And another.</source><seg-source><mrk mid="0" mtype="seg">One sentence.</mrk> <mrk mid="1" mtype="seg">And another.</mrk></seg-source><target xml:lang="fr" state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mid="0" mtype="seg">One sentence.</mrk> <mrk mid="1" mtype="seg">And another.</mrk></target></trans-unit>
</body></file></xliff>
EOF
if expect_exit 0 "translate --resegment" "$x" translate "$w/reseg.xlf" \
  -o "$w/reseg.out" --mt identity -q --resegment; then
  same "translate --resegment: the new segments" "$w/reseg.out" "$w/reseg.want"
fi
printf '1#0\tOne sentence.\n1#1\tAnd another.\n' >"$w/reseg.tsv.want"
if expect_exit 0 "extract --resegment" "$x" extract "$w/reseg.xlf" \
  -o "$w/reseg.tsv" -q --resegment; then
  sed -i 1d "$w/reseg.tsv" # the header aside
  same "extract --resegment: two sentences" "$w/reseg.tsv" "$w/reseg.tsv.want"
fi
printf '1#0\tOne sentence. And another.\n' >"$w/reseg.kept.want"
if expect_exit 0 "extract" "$x" extract "$w/reseg.xlf" -o "$w/reseg.kept" -q
then
  sed -i 1d "$w/reseg.kept" # the header aside
  same "extract: the <mrk> whole" "$w/reseg.kept" "$w/reseg.kept.want"
fi

# --- Every valid XLIFF input stays valid once segmented.
xsd=$XMT_TEST_DATA/xliff-schema/xliff-core-1.2-transitional.xsd
case ${XMLLINT:-no} in
'' | no) have_lint=0 ;;
*)
  have_lint=1
  have_data xliff-schema/xliff-core-1.2-transitional.xsd || have_lint=0
  have_data okapi/xliff || have_lint=0
  ;;
esac
valid() { "$XMLLINT" --noout --nonet --schema "$xsd" "$1" >"$tmp/lint" 2>&1; }
nvalid=0
nseg=0
if [ "$have_lint" -eq 1 ]; then
  for f in "$XMT_TEST_DATA"/okapi/xliff/* "${XMT_FIXTURES:-}"/enc-*.xlf \
    "${XMT_SAMPLES:-}"/sample.xlf "$w/in.xlf"; do
    [ -f "$f" ] || continue
    name=${f##*/}
    valid "$f" || continue
    nvalid=$((nvalid + 1))
    rm -f "$w/o.xlf"
    if exits_with 0 "$name: segment" "$x" segment "$f" -o "$w/o.xlf"; then
      if valid "$w/o.xlf"; then
        pass "$name: segmented output validates"
      else
        fail "$name: segmented output does not validate"
        sed -n '1,5s/^/    /p' "$tmp/lint"
      fi
      n=$(grep -c 'mtype="seg"' "$w/o.xlf")
      nseg=$((nseg + n))
    fi
  done
  if [ "$nvalid" -ge 5 ] && [ "$nseg" -ge 20 ]; then
    pass "$nvalid valid inputs segmented ($nseg segment lines)"
  else
    fail "only $nvalid valid inputs, $nseg segment lines"
  fi
else
  echo "# xmllint or schema missing: validation not tested"
fi

# Encodings: the output is written in the input's.
for enc in cp1252 utf16le latin1; do
  f=${XMT_FIXTURES:-}/enc-$enc.xlf
  [ -f "$f" ] || continue
  if exits_with 0 "enc-$enc: segment" "$x" segment "$f" -o "$w/e.xlf"; then
    if cmp -s "$f" "$w/e.xlf"; then
      fail "enc-$enc: nothing segmented"
    elif [ "$(head -c 4 "$f" | od -An -tx1)" = \
      "$(head -c 4 "$w/e.xlf" | od -An -tx1)" ]; then
      pass "enc-$enc: same encoding out"
    else
      fail "enc-$enc: encoding changed"
    fi
  fi
done

# --- Bad SRX files: exit 1, the message, no output file left.
bad() {
  desc=$1 file=$2 msg=$3
  rm -f "$w/bad.out"
  if expect_exit 1 "$desc" "$x" segment --srx "$file" -s en "$w/in.txt" \
    -o "$w/bad.out"; then
    err_is "$desc: message" "$msg"
    if [ -e "$w/bad.out" ] || ls "$w" | grep -q '^bad\.out\.tmp'; then
      fail "$desc: output file left"
    else
      pass "$desc: no output file"
    fi
  fi
}
fx=${XMT_FIXTURES:-}
bad "invalid regex" "$fx/srx-bad-regex.srx" \
  "xliffmt: $fx/srx-bad-regex.srx:9: languagerule \"Default\", rule 2: <beforebreak> \"\\b(Mr|Dr\\.\" is not a valid regular expression: unbalanced parentheses at character 11"
bad "invalid afterbreak" "$fx/srx-bad-afterbreak.srx" \
  "xliffmt: $fx/srx-bad-afterbreak.srx:9: languagerule \"English\", rule 1: <afterbreak> \"\\s+\\p{Lux}\" is not a valid regular expression: bad Unicode property at character 11"
bad "invalid XML" "$fx/srx-bad-xml.srx" \
  "xliffmt: $fx/srx-bad-xml.srx:8:16: SRX document is not well-formed XML: Opening and ending tag mismatch: rule line 7 and languagerule"
bad "not SRX" "$fx/srx-not-srx.srx" \
  "xliffmt: $fx/srx-not-srx.srx:2: not an SRX document: the root element is <segmentation>, not <srx>"
bad "unknown languagerule" "$fx/srx-unknown-rule.srx" \
  "xliffmt: $fx/srx-unknown-rule.srx:11: <languagemap>: no languagerule named \"French\""
bad "missing SRX file" "$w/none.srx" \
  "xliffmt: $w/none.srx: cannot open: No such file or directory"

finish
