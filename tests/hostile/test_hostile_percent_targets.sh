#!/bin/sh
# test_hostile_percent_targets.sh: Word relationships whose Target is
# percent-encoded. OPC part names are IRIs (ECMA-376 part 2, 9.1.1), so
# Target="comment%73.xml" names word/comments.xml and
# Target="my%20comments.xml" the entry "word/my comments.xml": translate
# finds the comments and translates them as it does under their plain
# name (they were copied untranslated, exit 0). An escaped '/' is no
# part name's: Target="..%2Fword%2Fcomments.xml" names no entry, and the
# comments stay as they were, the document translated, exit 0.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data office/Addcomments.docx
require_commands "python3 not found (it builds the test packages)" python3
cli_setup hostile-percent
x=$XLIFFMT
cd "$tmp" || exit 99
cp "$XMT_TEST_DATA/office/Addcomments.docx" comments.docx

# escaped OUT TARGET [ENTRY]: comments.docx with the comments' Target
# written TARGET, their entry renamed ENTRY (word/ENTRY).
escaped() {
  python3 -c 'import sys, urllib.parse, zipfile
out, target = sys.argv[1:3]
entry = sys.argv[3] if len(sys.argv) > 3 else "comments.xml"
zin = zipfile.ZipFile("comments.docx")
items = [(i, zin.read(i.filename)) for i in zin.infolist()]
with zipfile.ZipFile(out, "w") as z:
    for i, d in items:
        if i.filename == "word/_rels/document.xml.rels":
            d = d.replace(b"Target=\"comments.xml\"",
                          b"Target=\"" + target.encode() + b"\"")
        elif i.filename == "[Content_Types].xml":
            d = d.replace(b"PartName=\"/word/comments.xml\"", b"PartName=\"/word/"
                          + urllib.parse.quote(entry).encode() + b"\"")
        elif i.filename == "word/comments.xml":
            i = zipfile.ZipInfo("word/" + entry, i.date_time)
            i.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(i, d)' "$@"
}

# comments OUT ENTRY: the bytes of OUT's word/ENTRY.
comments() {
  python3 -c 'import sys, zipfile
sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("word/" + sys.argv[2]))' \
    "$@"
}

within "plain target: translated" 0 30 800 "$x" translate comments.docx \
  -o plain.out.docx -s en -t es --mt pseudo -q
comments comments.docx comments.xml >source.xml || exit 99
comments plain.out.docx comments.xml >plain.xml || exit 99
check "plain target: the comments translated" test -s plain.xml
check "plain target: the comments differ from the source" \
  sh -c '! cmp -s source.xml plain.xml'

n=0
for case in "comment%73.xml|comments.xml" \
  "my%20comments.xml|my comments.xml" "%63omments%2Exml|comments.xml"; do
  n=$((n + 1))
  target=${case%%|*} entry=${case#*|}
  escaped "e$n.docx" "$target" "$entry" || exit 99
  within "Target=\"$target\": translated" 0 30 800 "$x" translate "e$n.docx" \
    -o "e$n.out.docx" -s en -t es --mt pseudo -q
  comments "e$n.out.docx" "$entry" >got.xml || exit 99
  check "Target=\"$target\": word/$entry translated as under its plain name" \
    cmp -s plain.xml got.xml
done

escaped slash.docx "..%2Fword%2Fcomments.xml" || exit 99
within "an escaped '/': translated" 0 30 800 "$x" translate slash.docx \
  -o slash.out.docx -s en -t es --mt pseudo -q
comments slash.out.docx comments.xml >got.xml || exit 99
check "an escaped '/' names no part: the comments as they were" \
  cmp -s source.xml got.xml

finish
