"""damage_zip.py IN OUT ENTRY MODE: a copy of the zip IN with ENTRY
damaged or re-encoded, the other entries as they were (written anew by
zipfile). MODE stored: ENTRY stored, one byte of its data flipped (the
CRC no longer matches); deflated: ENTRY deflated, one byte in the middle
of its compressed data flipped; utf-16le-bom, utf-16be: ENTRY's text
(UTF-8) in that encoding, its declaration saying UTF-16; latin-1: in
ISO-8859-1, declared so."""
import sys
import zipfile

src, dst, name, mode = sys.argv[1:5]
if mode in ("utf-16le-bom", "utf-16be", "latin-1"):
    zin = zipfile.ZipFile(src)
    items = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for n, d in items:
            if n == name:
                text = d.decode("utf-8")
                label = "ISO-8859-1" if mode == "latin-1" else "UTF-16"
                text = text.replace('encoding="UTF-8"', 'encoding="%s"' % label, 1)
                if mode == "utf-16le-bom":
                    d = b"\xff\xfe" + text.encode("utf-16-le")
                elif mode == "utf-16be":
                    d = text.encode("utf-16-be")
                else:
                    d = text.encode("latin-1", "replace")
            kind = zipfile.ZIP_STORED if n == "mimetype" else zipfile.ZIP_DEFLATED
            zout.writestr(n, d, compress_type=kind)
    sys.exit(0)
method = zipfile.ZIP_STORED if mode == "stored" else zipfile.ZIP_DEFLATED
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        kind = method if info.filename == name else info.compress_type
        if info.filename == "mimetype":
            kind = zipfile.ZIP_STORED
        zout.writestr(info, data, compress_type=kind)
with zipfile.ZipFile(dst) as z:
    info = z.getinfo(name)
with open(dst, "r+b") as f:
    f.seek(info.header_offset + 26)
    head = f.read(4)
    name_len = int.from_bytes(head[0:2], "little")
    extra_len = int.from_bytes(head[2:4], "little")
    start = info.header_offset + 30 + name_len + extra_len
    at = start + (info.compress_size // 2 if mode == "deflated" else 0)
    f.seek(at)
    byte = f.read(1)
    f.seek(at)
    f.write(bytes([byte[0] ^ 0x55]))
