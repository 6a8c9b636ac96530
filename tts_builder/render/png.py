"""Deterministic PNG bytes and encoder-independent image digests.

An RGB or RGBA picture is encoded as a stack of horizontal bands: each band's rows (PNG filter
"none", row-local) are deflated on their own (:func:`encode_band`), and a PNG is the bands
joined (:func:`join_bands`: one zlib stream, its Adler-32 combined from the bands'). A band
depends only on its own pixels, so a picture whose bands are known (e.g. a deck sheet's card
rows, kept in the render cache) is encoded by deflating only the bands that changed; the bytes
are the same either way. Publishing recompresses every PNG losslessly (oxipng), so build
outputs favour speed over size.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

#: zlib level of a band: fast (publish recompresses every PNG with oxipng anyway).
COMPRESS_LEVEL = 1
#: What a band's bytes depend on besides its pixels (part of every cached band's key).
ENCODER = f"bands, filter none, zlib {zlib.ZLIB_RUNTIME_VERSION} level {COMPRESS_LEVEL}"
#: Rows per band when a picture is encoded whole (a deck sheet's bands are its card rows).
BAND_ROWS = 256
#: zlib level of a cached part (a face other pictures are composed from): quick to write.
PART_COMPRESS_LEVEL = 1
_PART_MAGIC = b"tts-builder part"  # then: mode, width, height, codec
_BAND_MAGIC = b"tts-builder band"
_COLOR_TYPE = {"RGB": 2, "RGBA": 6}
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE = 65521
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, "fastest" level hint
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # a final, empty fixed-Huffman block ends the stream


@dataclass(frozen=True)
class Band:
    """Rows of a picture, deflated on their own: mode, width, rows, the Adler-32 and length of
    the raw (filtered) data, and the deflate bytes (ending byte-aligned, not final)."""

    mode: str
    width: int
    rows: int
    adler: int
    raw_length: int
    deflated: bytes


def encode_band(img: Image.Image) -> bytes:
    """The bytes of :class:`Band` for every row of ``img`` (RGB or RGBA)."""
    if img.mode not in _COLOR_TYPE:
        raise ValueError(f"a band is RGB or RGBA, not {img.mode}")
    data = memoryview(img.tobytes())
    stride = len(data) // img.height
    packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15, 9)
    parts, adler = [], 1
    for start in range(0, len(data), stride):  # row by row: the filtered data is never joined
        row = b"\x00" + data[start : start + stride]
        adler = zlib.adler32(row, adler)
        parts.append(packer.compress(row))
    parts.append(packer.flush(zlib.Z_SYNC_FLUSH))
    raw_length = len(data) + img.height
    head = f"{img.mode} {img.width} {img.height} {adler} {raw_length}\n".encode()
    return b"".join([_BAND_MAGIC, b" ", head, *parts])


def decode_band(data: bytes) -> Band:
    """The :class:`Band` of :func:`encode_band` bytes."""
    head, _, deflated = data.partition(b"\n")
    magic, mode, width, rows, adler, length = head.decode().rsplit(" ", 5)
    if magic.encode() != _BAND_MAGIC:
        raise ValueError("not an encoded band")
    return Band(mode, int(width), int(rows), int(adler), int(length), deflated)


def band_image(data: bytes) -> Image.Image:
    """The picture of :func:`encode_band` bytes: its rows inflated (a new picture, the caller's
    to change), so a band made again with a small change starts from the pixels it had."""
    band = decode_band(data)
    raw = zlib.decompressobj(-15).decompress(band.deflated)
    stride = len(raw) // band.rows if band.rows else 0
    if len(raw) != band.raw_length or stride != band.width * len(band.mode) + 1:
        raise ValueError("a damaged band")
    size = (band.width, band.rows)
    # Each row's pixels follow its filter byte: read with the row's stride, past the first.
    return Image.frombytes(band.mode, size, memoryview(raw)[1:], "raw", band.mode, stride)


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % _ADLER_BASE
    b = (b1 + b2 + rem * (a1 - 1)) % _ADLER_BASE
    return (b << 16) | a


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def join_bands(bands: Sequence[bytes]) -> bytes:
    """PNG bytes of the picture whose rows are the :func:`encode_band` ``bands``, top to bottom
    (all of one mode and width)."""
    parts = [decode_band(data) for data in bands]
    if not parts:
        raise ValueError("a picture needs at least one band")
    mode, width = parts[0].mode, parts[0].width
    if any((band.mode, band.width) != (mode, width) for band in parts):
        raise ValueError("bands of different modes or widths")
    adler = 1
    for band in parts:
        adler = _adler_combine(adler, band.adler, band.raw_length)
    stream = b"".join([_ZLIB_HEADER, *(band.deflated for band in parts), _FINAL_EMPTY_BLOCK,
                       struct.pack(">I", adler)])  # fmt: skip
    height = sum(band.rows for band in parts)
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPE[mode], 0, 0, 0)
    return _PNG_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img``: same pixels give the same bytes (no metadata, fixed settings).
    RGB and RGBA pictures are joined from bands of :data:`BAND_ROWS` rows; other modes are
    left to Pillow."""
    if img.mode in _COLOR_TYPE:
        cuts = range(0, img.height, BAND_ROWS)
        return join_bands(
            [encode_band(img.crop((0, y, img.width, min(img.height, y + BAND_ROWS)))) for y in cuts]
        )
    clean = img.copy()
    clean.info = {}  # drop icc_profile, dpi, text chunks, gamma... that Pillow would copy
    buf = io.BytesIO()
    clean.save(buf, format="PNG", compress_level=COMPRESS_LEVEL, optimize=False)
    return buf.getvalue()


def decode_png(data: bytes) -> Image.Image:
    """The picture of PNG bytes, loaded (its mode and pixels exactly as encoded)."""
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        img.info = {}
        return img


def open_png(data: bytes) -> Image.Image:
    """The picture of PNG bytes, as :func:`decode_png` gives it, its pixels decoded on first
    use (Pillow loads an opened picture before reading its pixels): a caller that only asks
    its size or mode (laying a tile of a drawn picture) inflates nothing."""
    img = Image.open(io.BytesIO(data), formats=["PNG"])
    img.info = {}
    return img


def image_digest(img: Image.Image) -> str:
    """SHA-256 (hex) of the mode, size and pixels of ``img``; independent of any encoder."""
    h = hashlib.sha256()
    h.update(f"{img.mode} {img.width}x{img.height}\n".encode())
    if img.mode == "P":
        h.update(bytes(img.getpalette() or []))
    h.update(img.tobytes())
    return h.hexdigest()


#: A cached RGBA or RGB part is run-length encoded first (Pillow's TGA RLE, in C: flat art
#: packs into runs quickly), then deflated: half the time of deflating the pixels, fewer bytes.
_PART_RLE = {"RGBA": ("BGRA", 32), "RGB": ("BGR", 24)}


def encode_part(img: Image.Image) -> bytes:
    """Bytes of a picture for the render cache: mode, size and packed pixels (lossless like
    PNG, several times quicker to write since nothing is filtered)."""
    rle = _PART_RLE.get(img.mode)
    codec = "tga_rle" if rle else "raw"
    pixels = img.tobytes("tga_rle", rle[0], -1) if rle else img.tobytes()
    head = f"{img.mode} {img.width} {img.height} {codec}\n".encode()
    return _PART_MAGIC + b" " + head + zlib.compress(pixels, PART_COMPRESS_LEVEL)


def decode_part(data: bytes) -> Image.Image:
    """The picture of :func:`encode_part` bytes."""
    head, _, packed = data.partition(b"\n")
    magic, mode, width, height, codec = head.decode().rsplit(" ", 4)
    if magic.encode() != _PART_MAGIC:
        raise ValueError("not a cached part")
    size, pixels = (int(width), int(height)), zlib.decompress(packed)
    if codec == "tga_rle":
        rawmode, depth = _PART_RLE[mode]
        return Image.frombytes(mode, size, pixels, "tga_rle", rawmode, -1, depth)
    return Image.frombytes(mode, size, pixels)
