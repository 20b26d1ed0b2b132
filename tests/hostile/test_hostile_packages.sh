#!/bin/sh
# test_hostile_packages.sh: a Word or OpenDocument package with one
# damaged entry (a stored entry whose CRC no longer matches, a deflated
# one whose data is broken), the entry one that translation would copy
# with its compressed bytes: translate, check, extract, report and merge
# refuse it, exit 1, naming the entry, and write nothing. Copying it raw
# would have passed the damage on to the output with exit 0. A package
# with word/document.xml twice (readers differ on which they take) is
# refused the same way; it used to fail late with "File already exists".
# A part in UTF-16 (OPC allows it; with a BOM or without, either byte
# order) is translated and written back in UTF-16, identity byte for
# byte: the translation was spliced into it as UTF-8, a broken part with
# exit 0. A part declared in ISO-8859-1 is refused, naming it. A
# package with a picture of 100 MB is translated in 120 MB of address
# space.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
packages_lib=$(cd "$(dirname "$0")" && pwd)/packages_lib.sh
require_data office/UTF8.docx office/TestDocument06.odt
require_commands "python3 not found (it damages the test packages)" python3
cli_setup hostile-packages
x=$XLIFFMT
damage="python3 $(cd "$(dirname "$0")" && pwd)/damage_zip.py"
office=$XMT_TEST_DATA/office
cd "$tmp" || exit 99

. "$packages_lib"

$damage good.docx stored.docx word/theme/theme1.xml stored || exit 99
every_command stored.docx \
  "entry 'word/theme/theme1.xml' is damaged: CRC error" docx
$damage good.docx deflated.docx word/styles.xml deflated || exit 99
every_command deflated.docx \
  "entry 'word/styles.xml' is damaged: Zlib error: data error" docx
$damage good.odt stored.odt meta.xml stored || exit 99
every_command stored.odt "entry 'meta.xml' is damaged: CRC error" odt

python3 -c 'import sys, zipfile, warnings
warnings.simplefilter("ignore")
zin = zipfile.ZipFile(sys.argv[1])
items = [(i, zin.read(i.filename)) for i in zin.infolist()]
doc = zin.read("word/document.xml")
with zipfile.ZipFile(sys.argv[2], "w") as zout:
    for i, d in items:
        zout.writestr(i, d)
    zout.writestr("word/document.xml", doc)' \
  good.docx twice.docx || exit 99
every_command twice.docx \
  "entry 'word/document.xml' is in the package twice (readers differ on which one they take)" \
  docx

# utf16_part DESC PKG ENTRY ENCODING TEXT: PKG translated with pseudo:
# ENTRY decodes as ENCODING and holds TEXT; identity gives ENTRY back.
utf16_part() {
  what=$1 pkg=$2 entry=$3 enc=$4 text=$5
  ext=${pkg##*.}
  within "$what: translated" 0 30 800 "$x" translate "$pkg" -o "u.$ext" \
    -s en -t es --mt pseudo -q
  python3 -c 'import sys, zipfile
d = zipfile.ZipFile(sys.argv[1]).read(sys.argv[2])
sys.stdout.write(d.decode(sys.argv[3]))' "u.$ext" "$entry" "$enc" \
    >u.txt 2>u.err
  check "$what: written in $enc, holds the translation" \
    grep -q -F "$text" u.txt
  within "$what: identity" 0 30 800 "$x" translate "$pkg" -o "i.$ext" \
    -s en -t es --mt identity -q
  check "$what: identity gives the part back byte for byte" python3 -c '
import sys, zipfile
a, b, e = sys.argv[1:4]
sys.exit(zipfile.ZipFile(a).read(e) != zipfile.ZipFile(b).read(e))' \
    "$pkg" "i.$ext" "$entry"
}
$damage good.docx u16le.docx word/document.xml utf-16le-bom || exit 99
utf16_part "document.xml in UTF-16LE with a BOM" u16le.docx \
  word/document.xml utf-16 '<w:t>[“tést”. ~~~]</w:t>'
$damage good.odt u16be.odt content.xml utf-16be || exit 99
utf16_part "content.xml in UTF-16BE without a BOM" u16be.odt content.xml \
  utf-16-be 'encoding="UTF-16"'
$damage good.docx latin1.docx word/document.xml latin-1 || exit 99
every_command latin1.docx \
  "entry 'word/document.xml' declares the encoding 'ISO-8859-1': a package's parts are read in UTF-8 or UTF-16 only" \
  docx

# The same package written anew, every entry stored, undamaged: read.
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as zin, zipfile.ZipFile(sys.argv[2], "w") as zout:
    for i in zin.infolist():
        zout.writestr(i, zin.read(i.filename), compress_type=zipfile.ZIP_STORED)' \
  good.docx fine.docx || exit 99
within "an undamaged stored package: translated" 0 30 800 \
  "$x" translate fine.docx -o fine.out.docx -s en -t es --mt pseudo -q

# A package with a picture of 100 MB (stored: every byte on disk) is
# translated in 120 MB of address space: the package is put together in
# a temporary file, not in memory, so a picture is never held. It took
# the whole package in memory (exit 2, "Malloc failure").
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as zin, zipfile.ZipFile(sys.argv[2], "w") as zout:
    for i in zin.infolist():
        zout.writestr(i, zin.read(i.filename))
    big = zipfile.ZipInfo("word/media/picture.bin")
    zout.writestr(big, bytes(100 << 20), compress_type=zipfile.ZIP_STORED)' \
  good.docx picture.docx || exit 99
within "a package with a 100 MB picture, in 120 MB" 0 60 120 \
  "$x" translate picture.docx -o picture.out.docx -s en -t es --mt identity -q
check "the picture copied whole" python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    sys.exit(z.read("word/media/picture.bin") != bytes(100 << 20))' \
  picture.out.docx
rm -f picture.docx picture.out.docx

finish
