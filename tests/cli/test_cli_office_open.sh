#!/bin/sh
# test_cli_office_open.sh: real readers open what xliffmt writes. Every
# .docx and .odt of tests/data/office, a report of three pages made by
# python3-docx (tests/bench/docx_gen.py: headings, bold, italic and
# underlined runs, a link, a table) and the documents of word_docx.py
# (make, parts: headers, notes, comments, a text box, tracked changes,
# hidden text; codes: fields, links), translated with --mt identity gives
# every zip entry byte for byte the input's; with --mt pseudo:
#  - pandoc (-t json) reads source and target with as many paragraphs
#    (Para, Header, Plain), tables, links, Strong, Emph and Underline;
#  - every paragraph with text in the source has pseudo-translated text
#    in the target, as pandoc shows it;
#  - LibreOffice (soffice --headless --convert-to html, one run over all
#    the files) reads both with as many paragraphs, tables and links.
# encrypted.docx is refused: exit 1, the exact message, no output.
# Counts and texts: tests/cli/office_open.py.
# Env: XLIFFMT, XMT_TEST_DATA. Needs LibreOffice Writer
# (libreoffice-writer-nogui), pandoc and python3-docx, which
# scripts/install-deps.sh installs. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
docs="Addcomments.docx OutOfTheTextBox.docx TextBoxes.docx UTF8.docx
reordered-zip.docx TestDocument01.odt TestDocument06.odt
bookmark-reference.odt"
for d in $docs encrypted.docx; do require_data "office/$d"; done
why="needs soffice, pandoc and python3-docx (scripts/install-deps.sh)"
require_commands "$why" soffice pandoc
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! "$py" -c 'import docx' 2>/dev/null; then
  echo "SKIP: $why"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
open="$py $here/office_open.py"
cli_setup office-open
x=$XLIFFMT
cd "$tmp" || exit 99
mkdir src tgt lo || exit 99

# the documents under src/ (their translations under tgt/) as NAME.EXT,
# NAME unique over all of them (LibreOffice names its output by it)
for d in $docs; do
  cp "$XMT_TEST_DATA/office/$d" "src/$d" || exit 99
done
"$py" "$here/../bench/docx_gen.py" 3 src/report.docx || exit 99
for k in make parts codes; do
  "$py" "$here/word_docx.py" "$k" "src/word-$k.docx" || exit 99
done
docs="$docs report.docx word-make.docx word-parts.docx word-codes.docx"

cp "$XMT_TEST_DATA/office/encrypted.docx" . || exit 99
if exits_with 1 "encrypted.docx refused" "$x" translate -q -s en -t es \
  --mt pseudo encrypted.docx -o encrypted.es.docx; then
  expect_text "encrypted.docx: the message" "$tmp/err" \
    "xliffmt: encrypted.docx: an encrypted (password-protected) or old binary Office file, not a zip package"
  check "encrypted.docx: no output" test ! -e encrypted.es.docx
fi

for d in $docs; do
  if exits_with 0 "$d identity" "$x" translate -q -s en -t es \
    --mt identity "src/$d" -o "id-$d"; then
    check "$d identity: every entry byte for byte" $open same "src/$d" "id-$d"
  fi
  expect_exit 0 "$d pseudo" "$x" translate -q -s en -t es --mt pseudo \
    "src/$d" -o "tgt/$d"
done

# pandoc
: >totals
for d in $docs; do
  if ! pandoc -t json "src/$d" -o "$d.src.json" 2>pandoc.err; then
    fail "pandoc reads the source $d"
    continue
  fi
  if ! pandoc -t json "tgt/$d" -o "$d.out.json" 2>pandoc.err; then
    fail "pandoc reads the target $d"
    sed -n '1,3s/^/    /p' pandoc.err
    continue
  fi
  $open pandoc "$d.src.json" >"$d.src.n"
  $open pandoc "$d.out.json" >"$d.out.n"
  cat "$d.src.n" >>totals
  expect_text "pandoc: $d paragraphs, tables, links, bold, italic, underline" \
    "$d.out.n" "$(cat "$d.src.n")"
  $open translated "$d.src.json" "$d.out.json" >"$d.left"
  case $d in
  # its one paragraph outside the heading is a text:bookmark-ref field,
  # whose text LibreOffice computes from the heading it refers to: ODF
  # fields are codes, their text kept as it is
  bookmark-reference.odt)
    left="not translated: '1 Heading & title' (source '1 Heading & title')"
    ;;
  # hidden text (w:vanish) is left alone; pandoc shows it
  word-parts.docx)
    left="not translated: '[ñéw Óld téxt ~~~~]secret' (source 'Old new textsecret')"
    ;;
  *) left= ;;
  esac
  if [ -n "$left" ]; then
    expect_text "pandoc: $d, each paragraph translated but a field" \
      "$d.left" "$left"
  else
    check "pandoc: $d, each paragraph with text translated" test ! -s "$d.left"
    sed -n '1,3s/^/    /p' "$d.left"
  fi
done
# the documents hold each kind the counts compare, so that none compares
# zeros alone
awk '$2 > 0 { print $1 }' totals | sort -u >kinds
expect_text "the documents hold every kind compared" kinds \
  "emph
link
para
strong
table
underline"

# LibreOffice: one run over all the files (it is slow to start), its own
# profile; 30 seconds a file at most
for d in $docs; do
  n=$(echo "$d" | tr . _)
  cp "src/$d" "lo/$n.src.${d##*.}" && cp "tgt/$d" "lo/$n.out.${d##*.}"
done
limit=$((60 + 30 * $(echo "$docs" | wc -w) * 2))
timeout "$limit" soffice --headless -env:UserInstallation="file://$tmp/profile" \
  --convert-to html --outdir html lo/* >soffice.log 2>&1
check "soffice converts every file (in ${limit}s)" test $? -eq 0
for d in $docs; do
  n=$(echo "$d" | tr . _)
  if [ ! -s "html/$n.src.html" ] || [ ! -s "html/$n.out.html" ]; then
    fail "LibreOffice: $d source and target converted"
    continue
  fi
  $open lo "html/$n.src.html" >"$n.src.lo"
  $open lo "html/$n.out.html" >"$n.out.lo"
  expect_text "LibreOffice: $d paragraphs, tables, links" "$n.out.lo" \
    "$(cat "$n.src.lo")"
done
finish
