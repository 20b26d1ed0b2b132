#!/bin/sh
# test_hostile_round5.sh: Word and OpenDocument packages built by hand.
#   - two entries whose names differ in case only (word/document.xml and
#     WORD/DOCUMENT.XML) or in a backslash for '/': one part to a Word
#     reader (OPC part names are equal in any case) and one file once
#     unpacked on Windows or macOS, so which one is shown is the
#     reader's choice: every command refuses the package, naming both,
#     exit 1, nothing written (it translated one and copied the other,
#     exit 0).
#   - a package that is both an OpenDocument text (a mimetype entry
#     first) and a Word document ([Content_Types].xml naming a main
#     part), named .odt or .docx: LibreOffice shows the one and Word the
#     other; refused by every command, exit 1, nothing written (the ODT
#     was translated, the Word document copied as it was, exit 0).
#   - a Word package whose [Content_Types].xml names two main parts (a
#     decoy before the real one), or whose _rels/.rels names another
#     main part than [Content_Types].xml: Word shows the part _rels/.rels
#     names; refused, naming both parts (the decoy was translated, the
#     part Word shows copied untranslated, exit 0).
#   - a relationship whose target is the part's name in another case
#     (Target="COMMENTS.xml" for word/comments.xml), or the main part's
#     relationships entry so named (word/_rels/DOCUMENT.xml.rels): Word
#     finds the part (OPC part names are equal in any case); so does
#     translate, which wrote the comments untranslated, exit 0.
#   - a password-protected OpenDocument (its zip entries plain, the
#     manifest's encryption-data saying content.xml holds ciphertext):
#     refused as encrypted, naming the entry (it was "not well-formed
#     XML", line 1, column 1).
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
packages_lib=$(cd "$(dirname "$0")" && pwd)/packages_lib.sh
require_data office/UTF8.docx office/TestDocument06.odt office/Addcomments.docx
require_commands "python3 not found (it builds the test packages)" python3
cli_setup hostile-round5
x=$XLIFFMT
office=$XMT_TEST_DATA/office
cd "$tmp" || exit 99

. "$packages_lib"

# alike IN OUT ENTRY TWIN: IN with a second ENTRY named TWIN after it,
# its first text changed.
alike() {
  python3 -c 'import sys, zipfile
src, out, entry, twin = sys.argv[1:5]
zin = zipfile.ZipFile(src)
with zipfile.ZipFile(out, "w") as zout:
    for i in zin.infolist():
        d = zin.read(i.filename)
        zout.writestr(i, d)
        if i.filename == entry:
            j = zipfile.ZipInfo(twin, i.date_time)
            j.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(j, d.replace(b"</w:t>", b" other</w:t>", 1))' "$@"
}
alike good.docx case.docx word/document.xml WORD/DOCUMENT.XML || exit 99
every_command case.docx \
  "entries 'word/document.xml' and 'WORD/DOCUMENT.XML' are one part (names differ in case or '\\' only; readers differ on which one they take)" \
  docx
alike good.docx slash.docx word/document.xml 'word\document.xml' || exit 99
every_command slash.docx \
  "entries 'word/document.xml' and 'word\\document.xml' are one part (names differ in case or '\\' only; readers differ on which one they take)" \
  docx
alike good.odt case.odt content.xml Content.xml || exit 99
every_command case.odt \
  "entries 'content.xml' and 'Content.xml' are one part (names differ in case or '\\' only; readers differ on which one they take)" \
  odt

# both OUT: the OpenDocument's entries, then the Word document's.
both() {
  python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for src in ("good.odt", "good.docx"):
        zin = zipfile.ZipFile(src)
        for i in zin.infolist():
            z.writestr(i, zin.read(i.filename))' "$1"
}
both both.odt || exit 99
every_command both.odt \
  "both an OpenDocument text (its mimetype) and a Word document (its [Content_Types].xml): readers differ on which one they show" \
  odt
both both.docx || exit 99
every_command both.docx \
  "both an OpenDocument text (its mimetype) and a Word document (its [Content_Types].xml): readers differ on which one they show" \
  docx

# decoy OUT HOW: good.docx with a second document part, word/decoy.xml:
# HOW "types" names it a main part too, before the real one; "rels"
# makes it the target of _rels/.rels.
decoy() {
  python3 -c 'import sys, zipfile
out, how = sys.argv[1:3]
zin = zipfile.ZipFile("good.docx")
items = [(i, zin.read(i.filename)) for i in zin.infolist()]
main = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
with zipfile.ZipFile(out, "w") as z:
    for i, d in items:
        if i.filename == "[Content_Types].xml":
            ct = b"application/xml" if how == "rels" else main
            d = d.replace(b"<Override ", b"<Override PartName=\"/word/decoy.xml\" ContentType=\"" + ct + b"\"/><Override ", 1)
        if i.filename == "_rels/.rels" and how == "rels":
            d = d.replace(b"Target=\"word/document.xml\"", b"Target=\"/word/decoy.xml\"")
        if i.filename == "word/document.xml":
            z.writestr(i, d)
            d = d.replace(b"</w:t>", b" decoy</w:t>", 1)
            i = zipfile.ZipInfo("word/decoy.xml", i.date_time)
        z.writestr(i, d)' "$@"
}
decoy types.docx types || exit 99
every_command types.docx \
  "[Content_Types].xml names two main parts, 'word/decoy.xml' and 'word/document.xml': Word shows one of them" \
  docx
decoy rels.docx rels || exit 99
every_command rels.docx \
  "_rels/.rels names 'word/decoy.xml' as the main part, [Content_Types].xml 'word/document.xml': Word shows the first" \
  docx

# cased OUT HOW: Addcomments.docx, the comments' target ("target") or the
# main part's relationships entry ("rels") named in upper case.
cp "$office/Addcomments.docx" comments.docx
cased() {
  python3 -c 'import sys, zipfile
out, how = sys.argv[1:3]
zin = zipfile.ZipFile("comments.docx")
items = [(i, zin.read(i.filename)) for i in zin.infolist()]
with zipfile.ZipFile(out, "w") as z:
    for i, d in items:
        if i.filename == "word/_rels/document.xml.rels":
            if how == "target":
                d = d.replace(b"Target=\"comments.xml\"", b"Target=\"COMMENTS.xml\"")
            else:
                i = zipfile.ZipInfo("word/_rels/DOCUMENT.xml.rels", i.date_time)
        z.writestr(i, d)' "$@"
}
within "comments.docx: translated" 0 30 800 "$x" translate comments.docx \
  -o comments.out.docx -s en -t es --mt pseudo -q
for how in target rels; do
  cased "cased-$how.docx" "$how" || exit 99
  within "a $how in upper case: translated" 0 30 800 "$x" translate \
    "cased-$how.docx" -o "cased-$how.out.docx" -s en -t es --mt pseudo -q
  check "a $how in upper case: the comments translated" python3 -c '
import sys, zipfile
a, b = (zipfile.ZipFile(f).read("word/comments.xml") for f in sys.argv[1:3])
sys.exit(a != b or a == zipfile.ZipFile("comments.docx").read("word/comments.xml"))' \
    comments.out.docx "cased-$how.out.docx"
done

# The manifest says content.xml is encrypted; its bytes are not XML.
python3 -c 'import sys, zipfile
zin = zipfile.ZipFile("good.odt")
items = [(i, zin.read(i.filename)) for i in zin.infolist()]
enc = (b"manifest:full-path=\"content.xml\"><manifest:encryption-data"
       b" manifest:checksum-type=\"SHA1/1K\" manifest:checksum=\"x\"/>"
       b"</manifest:file-entry>")
with zipfile.ZipFile("locked.odt", "w") as z:
    for i, d in items:
        if i.filename == "content.xml":
            d = bytes(range(256)) * 8
        if i.filename == "META-INF/manifest.xml":
            d = d.replace(b"manifest:full-path=\"content.xml\"/>", enc)
        z.writestr(i, d)' || exit 99
every_command locked.odt \
  "an encrypted (password-protected) OpenDocument: entry 'content.xml' is encrypted" \
  odt

finish
