#!/usr/bin/env python3
"""png_info.py PNG [R,G,B]: prints "WIDTH HEIGHT COLOURS [PIXELS]" for an
8-bit RGB or RGBA PNG: its size, the number of distinct colours, and how
many pixels have the colour R,G,B when one is given. Exit 1 when the file
is not such a PNG. Standard library only, for the browser test."""
import struct
import sys
import zlib


def rows(data, width, height, bpp):
    stride = width * bpp
    prev = bytearray(stride)
    pos = 0
    for _ in range(height):
        kind = data[pos]
        line = bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        yield line
        prev = line


def main():
    with open(sys.argv[1], "rb") as f:
        png = f.read()
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        print("not a PNG", file=sys.stderr)
        return 1
    pos, idat, header = 8, b"", None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        print("not 8-bit RGB(A), non-interlaced", file=sys.stderr)
        return 1
    bpp = 3 if colour == 2 else 4
    want = tuple(int(v) for v in sys.argv[2].split(",")) if len(sys.argv) > 2 else None
    colours, hits = set(), 0
    for line in rows(zlib.decompress(idat), width, height, bpp):
        for i in range(0, len(line), bpp):
            rgb = (line[i], line[i + 1], line[i + 2])
            colours.add(rgb)
            if rgb == want:
                hits += 1
    out = [width, height, len(colours)] + ([hits] if want else [])
    print(" ".join(str(v) for v in out))
    return 0


sys.exit(main())
