#!/bin/sh
# test_hostile_percent_main.sh: a Word package whose main part is named
# with percent escapes. OPC part names are IRIs (ECMA-376 part 2, 9.1.1):
# PartName="/word/docu%6Dent.xml" in [Content_Types].xml, or that Target
# in _rels/.rels, in any case, names the entry word/document.xml, which
# Word shows; translate finds it and translates it as under its plain
# name (exit 0). A decoy entry named "word/docu%6Dent.xml" as written,
# which Word does not show, is copied as it was.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data office/Addcomments.docx
require_commands "python3 not found (it builds the test packages)" python3
cli_setup hostile-percent-main
x=$XLIFFMT
cd "$tmp" || exit 99
cp "$XMT_TEST_DATA/office/Addcomments.docx" plain.docx

# escaped OUT PARTNAME TARGET [DECOY]: plain.docx with the main part's
# PartName and Target written so; with DECOY, an entry of that name
# holding the main part with its text replaced.
escaped() {
  python3 -c 'import sys, zipfile
out, part, target = sys.argv[1:4]
decoy = sys.argv[4] if len(sys.argv) > 4 else None
zin = zipfile.ZipFile("plain.docx")
items = [(i, zin.read(i.filename)) for i in zin.infolist()]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for i, d in items:
        if i.filename == "[Content_Types].xml":
            d = d.replace(b"PartName=\"/word/document.xml\"",
                          b"PartName=\"" + part.encode() + b"\"")
        elif i.filename == "_rels/.rels":
            d = d.replace(b"Target=\"word/document.xml\"",
                          b"Target=\"" + target.encode() + b"\"")
        z.writestr(i, d)
        if decoy is not None and i.filename == "word/document.xml":
            z.writestr(decoy, d.replace(b"<w:t>", b"<w:t>DECOY "))' "$@"
}

# entry OUT NAME: the bytes of OUT's entry NAME.
entry() {
  python3 -c 'import sys, zipfile
sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' "$@"
}

within "plain names: translated" 0 30 800 "$x" translate plain.docx \
  -o plain.out.docx -s en -t es --mt pseudo -q
entry plain.docx word/document.xml >source.xml || exit 99
entry plain.out.docx word/document.xml >plain.xml || exit 99
check "plain names: the text differs from the source" \
  sh -c '! cmp -s source.xml plain.xml'

n=0
for case in "/word/docu%6Dent.xml|word/document.xml" \
  "/word/document.xml|word/docu%6Dent.xml" \
  "/WORD/Docu%6dent%2Exml|/word/%64ocument.xml" \
  "/word/my%20document.xml|word/document.xml"; do
  n=$((n + 1))
  part=${case%%|*} target=${case#*|}
  escaped "e$n.docx" "$part" "$target" || exit 99
  if [ $n -eq 4 ]; then
    # "my document.xml" is no entry: refused as before, nothing written
    within "PartName=\"$part\": no such entry" 1 30 800 "$x" translate \
      "e$n.docx" -o "e$n.out.docx" -s en -t es --mt pseudo -q
    check "PartName=\"$part\": the message" test "$(cat "$tmp/err")" = \
      "xliffmt: e$n.docx: the Word document has no main part"
    check "PartName=\"$part\": nothing written" test ! -e "e$n.out.docx"
    continue
  fi
  within "PartName=\"$part\" Target=\"$target\": translated" 0 30 800 \
    "$x" translate "e$n.docx" -o "e$n.out.docx" -s en -t es --mt pseudo -q
  entry "e$n.out.docx" word/document.xml >got.xml 2>/dev/null || : >got.xml
  check "PartName=\"$part\" Target=\"$target\": as under the plain name" \
    cmp -s plain.xml got.xml
done

# The decoy is named as the escapes are written; Word decodes them.
escaped decoy.docx "/word/docu%6Dent.xml" "word/docu%6Dent.xml" \
  "word/docu%6Dent.xml" || exit 99
entry decoy.docx "word/docu%6Dent.xml" >decoy.xml || exit 99
within "a decoy named with the escapes: translated" 0 30 800 "$x" translate \
  decoy.docx -o decoy.out.docx -s en -t es --mt pseudo -q
entry decoy.out.docx word/document.xml >got.xml 2>/dev/null || : >got.xml
check "the part Word shows translated" cmp -s plain.xml got.xml
entry decoy.out.docx "word/docu%6Dent.xml" >got.xml 2>/dev/null ||
  : >got.xml
check "the decoy as it was" cmp -s decoy.xml got.xml

finish
