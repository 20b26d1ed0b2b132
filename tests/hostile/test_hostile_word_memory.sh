#!/bin/sh
# test_hostile_word_memory.sh: a Word part is held once while it is read.
# word/document.xml of 42 MB (short comments, which no unit holds,
# before the document's own paragraphs) translated with identity in 140
# MB of address space: the part was read into a buffer grown by doubling
# (64 MB for 42) and handed to expat whole, which copied it into a
# buffer of its own (64 MB more): 192 MB were needed. Read into its
# declared size and given to expat in pieces, about 105 MB.
# One comment of 36 MB, a token expat must hold whole, given in pieces of
# one size was scanned again for each (30 s); in pieces that double
# while it is pending, in about the time of one piece.
# The limit is on address space: one malloc arena (MALLOC_ARENA_MAX=1)
# keeps it near the resident size.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data office/UTF8.docx
require_commands "python3 not found (it makes the test package)" python3
cli_setup hostile-word-memory
x=$XLIFFMT
cd "$tmp" || exit 99

# padded WIDTH OUT: 27 MB of random bytes, in base64 (deflate cannot
# shrink it much: no expansion limit is met), WIDTH characters a comment.
padded() {
  python3 -c 'import sys, zipfile, base64, random
zin = zipfile.ZipFile(sys.argv[1])
raw = base64.b64encode(random.Random(42).randbytes(27 << 20)).decode()
w = int(sys.argv[3])
pad = "".join("<!--" + raw[i:i + w] + "-->\n"
              for i in range(0, len(raw), w)).encode()
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as zout:
    for i in zin.infolist():
        d = zin.read(i.filename)
        if i.filename == "word/document.xml":
            at = d.index(b"?>") + 2
            d = d[:at] + pad + d[at:]
        zout.writestr(i, d)' "$XMT_TEST_DATA/office/UTF8.docx" "$2" "$1"
}
padded 72 padded.docx || exit 99

within "a part of 42 MB: translated in 140 MB of address space" 0 120 140 \
  env MALLOC_ARENA_MAX=1 "$x" translate padded.docx -o out.docx \
  -s en -t es --mt identity --quiet
check "a part of 42 MB: identity gives every entry byte for byte" \
  python3 -c 'import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
sys.exit(0 if a.namelist() == b.namelist() and all(
    a.read(n) == b.read(n) for n in a.namelist()) else 1)' \
  padded.docx out.docx 2>/dev/null
padded 40000000 comment.docx || exit 99
within "one comment of 36 MB: translated in linear time" 0 20 260 \
  env MALLOC_ARENA_MAX=1 "$x" translate comment.docx -o out.docx \
  -s en -t es --mt identity --quiet
finish
