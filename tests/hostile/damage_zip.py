"""damage_zip.py IN OUT ENTRY MODE: a copy of the zip IN with ENTRY
damaged, the other entries as they were (written anew by zipfile).
MODE stored: ENTRY stored, one byte of its data flipped (the CRC no
longer matches); deflated: ENTRY deflated, one byte in the middle of its
compressed data flipped."""
import sys
import zipfile

src, dst, name, mode = sys.argv[1:5]
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
