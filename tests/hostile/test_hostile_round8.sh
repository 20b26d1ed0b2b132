#!/bin/sh
# test_hostile_round8.sh: exit 0 means the output is right.
#   - merge of an HTML page whose XLIFF names no target language and no
#     -t: refused as Word and OpenDocument merge refuse it, exit 1, no
#     output (the page was written translated under its lang="en",
#     exit 0); a target language that is no language tag (the XLIFF's
#     "e s", -t es_ES) refused alike (the lang="en" was kept); Word
#     merge refuses the XLIFF's "e s" too (written as w:lang="e s").
#   - merge of a page or a Word document whose markup was edited after
#     the extract, its text the same (<b> moved from "world" to "Hello",
#     a link from "there" to "now"): refused as a changed source, naming
#     the trans-unit, exit 1, no output (the translation's codes, placed
#     for the old markup, were put on the new: the bold went on the
#     wrong word, exit 0).
#   - merge of a page whose XLIFF target keeps one end of a pair only, or
#     puts them the wrong way round (<bx id="1"/> alone, <x id="1"/> for
#     the <b>, <ex id="1"/> before <bx id="1"/>): refused, naming the
#     unit and the code, exit 1, no output (the page was written with a
#     <b> never closed, which a browser carries on into the paragraphs
#     after, exit 0). Both ends, or neither, are written.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round8
x=$XLIFFMT

# --- An HTML page merged with no target language.
cat >"$tmp/p.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello <b>world</b>.</p><p>Second one.</p></body></html>
EOD
"$x" extract "$tmp/p.html" -o "$tmp/p.xlf" -q || exit 99
"$x" translate "$tmp/p.xlf" -o "$tmp/p.es.xlf" -t es --mt pseudo -q || exit 99
sed 's/ target-language="es"//' "$tmp/p.es.xlf" >"$tmp/p.none.xlf"
sed 's/ target-language="es"/ target-language="e s"/' "$tmp/p.es.xlf" \
  >"$tmp/p.bad.xlf"
# refused DESC MESSAGE ARGS...: merge ARGS -o OUT is refused, exit 1,
# with MESSAGE, no OUT.
refused() {
  desc=$1 msg=$2
  shift 2
  rm -f "$tmp/out.html"
  within "$desc" 1 20 300 "$x" merge "$@" -o "$tmp/out.html" -q
  said "$desc" "$msg"
  check "$desc: no output" test ! -e "$tmp/out.html"
}
refused "HTML merge, no target language" \
  "xliffmt: $tmp/p.none.xlf: no target language: the XLIFF names none; give one with -t" \
  "$tmp/p.html" "$tmp/p.none.xlf"
refused "HTML merge, the XLIFF's target language no tag" \
  "xliffmt: $tmp/p.bad.xlf: target language 'e s' is not a language tag; give one with -t" \
  "$tmp/p.html" "$tmp/p.bad.xlf"
refused "HTML merge, -t no tag" \
  "xliffmt: invalid language tag 'es_ES' for <html lang>" \
  "$tmp/p.html" "$tmp/p.es.xlf" -t es_ES
within "HTML merge, -t" 0 20 300 "$x" merge "$tmp/p.html" "$tmp/p.none.xlf" \
  -t es -o "$tmp/out.html" -q
check "HTML merge, -t: lang=\"es\"" grep -q '^<!DOCTYPE html><html lang="es">' \
  "$tmp/out.html"

# --- Markup edited between extract and merge, the text the same.
cat >"$tmp/e.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello <b>world</b>.</p><p>Go <a href="/x">there</a> now.</p></body></html>
EOD
cat >"$tmp/e2.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello <b>world</b>.</p><p>Go there <a href="/x">now</a>.</p></body></html>
EOD
"$x" extract "$tmp/e.html" -o "$tmp/e.xlf" -q || exit 99
"$x" translate "$tmp/e.xlf" -o "$tmp/e.es.xlf" -t es --mt pseudo -q || exit 99
refused "HTML merge, a link moved since" \
  "xliffmt: $tmp/e.es.xlf:9: <trans-unit> has a source that differs from the page: was the page changed after the extract? (unit 2)" \
  "$tmp/e2.html" "$tmp/e.es.xlf"
within "HTML merge, the page as extracted" 0 20 300 "$x" merge "$tmp/e.html" \
  "$tmp/e.es.xlf" -o "$tmp/out.html" -q
# --- A target that keeps one end of a pair of the page.
cat >"$tmp/b.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello <b>world</b>.</p><p>Second one.</p></body></html>
EOD
"$x" extract "$tmp/b.html" -t es -o "$tmp/b.xlf" -q || exit 99
# lone NAME TARGET: b.xlf with TARGET for unit 1 and "Segundo." for 2.
lone() {
  sed -e "s|</g>.</source>|&<target>$2</target>|" \
    -e 's|<source>Second one.</source>|&<target>Segundo.</target>|' \
    "$tmp/b.xlf" >"$tmp/$1.xlf"
}
for t in 'bx:<bx id="1"/>Hola mundo.' 'x:Hola <x id="1"/>mundo.' \
  'exbx:<ex id="1"/>Hola <bx id="1"/>mundo.'; do
  lone "${t%%:*}" "${t#*:}"
  refused "HTML merge, ${t#*:}" \
    "xliffmt: $tmp/${t%%:*}.xlf: unit 1: the target has a code (id \"1\") without its other end, before it or across another pair: the page's element would be left open or closed unopened" \
    "$tmp/b.html" "$tmp/${t%%:*}.xlf"
done
lone bxex '<bx id="1"/>Hola<ex id="1"/> mundo.'
within "HTML merge, <bx/> and <ex/>" 0 20 300 "$x" merge "$tmp/b.html" \
  "$tmp/bxex.xlf" -o "$tmp/out.html" -q
check "HTML merge, <bx/> and <ex/>: the pair written" grep -q \
  '<p><b>Hola</b> mundo.</p><p>Segundo.</p>' "$tmp/out.html"
lone none 'Hola mundo.'
within "HTML merge, neither end" 0 20 300 "$x" merge "$tmp/b.html" \
  "$tmp/none.xlf" -o "$tmp/out.html" -q
check "HTML merge, neither end: no <b>" grep -q \
  '<p>Hola mundo.</p><p>Segundo.</p>' "$tmp/out.html"

py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if "$py" -c 'import docx' 2>/dev/null; then
  "$py" - "$tmp/w1.docx" "$tmp/w2.docx" <<'EOD' || exit 99
import sys, docx
for path, bold in zip(sys.argv[1:], (1, 0)):
    d = docx.Document()
    p = d.add_paragraph("" if bold == 0 else "Hello ")
    r = p.add_run("Hello" if bold == 0 else "world")
    r.bold = True
    p.add_run(" world." if bold == 0 else ".")
    d.save(path)
EOD
  "$x" extract "$tmp/w1.docx" -s en -o "$tmp/w1.xlf" -q || exit 99
  "$x" translate "$tmp/w1.xlf" -o "$tmp/w1.es.xlf" -t es --mt pseudo -q ||
    exit 99
  rm -f "$tmp/out.docx"
  within "Word merge, the bold moved since" 1 20 300 "$x" merge \
    "$tmp/w2.docx" "$tmp/w1.es.xlf" -o "$tmp/out.docx" -q
  said "Word merge, the bold moved since" \
    "xliffmt: $tmp/w1.es.xlf:5: <trans-unit> has a source that differs from the document's: was the XLIFF extracted from another document, or the document changed since? (unit document:1)"
  check "Word merge, the bold moved since: no output" test ! -e "$tmp/out.docx"
  within "Word merge, the document as extracted" 0 20 300 "$x" merge \
    "$tmp/w1.docx" "$tmp/w1.es.xlf" -o "$tmp/out.docx" -q
  sed 's/ target-language="es"/ target-language="e s"/' "$tmp/w1.es.xlf" \
    >"$tmp/w1.bad.xlf"
  rm -f "$tmp/out.docx"
  within "Word merge, the XLIFF's target language no tag" 1 20 300 "$x" \
    merge "$tmp/w1.docx" "$tmp/w1.bad.xlf" -o "$tmp/out.docx" -q
  said "Word merge, the XLIFF's target language no tag" \
    "xliffmt: $tmp/w1.bad.xlf: target language 'e s' is not a language tag; give one with -t"
  check "Word merge, the XLIFF's target language no tag: no output" \
    test ! -e "$tmp/out.docx"
else
  echo "# python3-docx missing: the Word case skipped"
fi

finish
