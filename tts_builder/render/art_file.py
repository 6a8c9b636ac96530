"""A designer's art file: found inside the game folder, read within limits, its header checked
before a pixel is decoded.

Every art file a game names comes through here: at load (:func:`art_problem`,
:func:`check_art_file`: the definition's checks, a FieldError at the field naming the file, so
the loader says ``game.yaml:line:col: field: problem``; the file is read, its header checked,
no pixel decoded) and at build (:func:`art_path`, :func:`load_art`, :func:`decode_art`:
``<file>: <where>: <problem>``). The limits (docs/game-definition.md, "Art
files"): a PNG (``.png``) or JPEG (``.jpg``, ``.jpeg``) whose bytes are that format; at most
:data:`MAX_ART_BYTES` bytes, :data:`MAX_ART_SIDE` px a side and :data:`MAX_ART_PIXELS` px in
all, read from the header; a PNG's text and colour-profile chunks small once decompressed; a
JPEG of few scans; chunks or segments few enough to walk; the path inside the game folder once
its links are resolved (once: the file read is the file checked) and a regular file.
:func:`art_header` is pure (bytes in, format and size out).
"""

from __future__ import annotations

import io
import os
import re
import stat
import struct
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from tts_builder.errors import BuildError, FieldError

#: The file name endings of art files and the format their bytes must be.
ART_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
#: The longest side of an art file (px): twice the longest side of any picture the build makes
#: (4096, the texture size TTS loads safely, FORMAT §4.1), so art is at most halved to fit.
MAX_ART_SIDE = 8192
#: The most pixels of an art file: a 4096x4096 picture, the most any side of a component shows
#: (64 MiB decoded as RGBA); a fifth of Pillow's bomb warning (89 Mpx), a tenth of its error.
MAX_ART_PIXELS = 4096 * 4096
#: The most bytes of an art file: 1.5 times an 8-bit RGBA picture of MAX_ART_PIXELS
#: uncompressed, so any encoding of the largest picture allowed fits (noise as PNG: 64 MiB).
MAX_ART_BYTES = 96 * 2**20
#: The most bytes of a PNG's text and colour-profile chunks together, decompressed: half
#: Pillow's limit for one chunk (1 MiB, past which it raises instead of reading the picture);
#: an ICC profile or an XMP packet is a few KiB. It bounds the inflating a file can ask for.
MAX_ART_METADATA = 512 * 2**10
#: The most chunks of a PNG, or segments and fill bytes of a JPEG: Pillow walks each in Python
#: (this many in about 0.7 s); a PNG of MAX_ART_BYTES in libpng's 8 KiB chunks has 12,288.
MAX_ART_CHUNKS = 32_768
#: The most scans of a JPEG: libjpeg's progressive JPEGs have 6 (grey), 10 (colour) or 18
#: (CMYK); each is a pass over the whole picture (up to 0.35 s at MAX_ART_PIXELS: 64 scans
#: took 14 s), so a JPEG at the limits decodes in about 6 s at most.
MAX_ART_SCANS = 20
#: The longest art path (characters) looked up: macOS's PATH_MAX; no game folder comes near.
MAX_ART_PATH = 1024

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_TEXT = {b"tEXt", b"zTXt", b"iTXt", b"iCCP", b"eXIf"}
#: PNG colour type -> the bit depths it may have (PNG spec, IHDR).
_PNG_DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
#: JPEG start-of-frame markers (the picture's size), not DHT (C4), JPG (C8) or DAC (CC).
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
#: A marker in a JPEG's entropy-coded data: 0xFF then neither 0x00 (a stuffed 0xFF), a
#: restart marker (D0-D7) nor a fill byte.
_JPEG_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")
#: What Pillow raises on bytes it cannot read (a damaged file, not a bug of ours).
_UNREADABLE = (OSError, ValueError, SyntaxError, EOFError, struct.error, zlib.error, IndexError,
               Image.DecompressionBombError)  # fmt: skip
#: What other image files start with, to say what a misnamed file holds.
_MAGIC = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"BM", "a BMP image"),
    (b"RIFF", "a RIFF file (WebP?)"),
    (b"\x00\x00\x01\x00", "an ICO image"),
    (b"8BPS", "a Photoshop document"),
    (b"%PDF", "a PDF document"),
    (b"<", "text (SVG or HTML?)"),
)


class ArtProblem(Exception):
    """Why an art file is refused (``problem``) and the file or path it names (``shown``)."""

    def __init__(self, problem: str, shown: object = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.shown = shown

    def at_build(self, path: object, where: str) -> BuildError:
        """As a build's error: ``<path>: <where>: <problem>``."""
        return BuildError(f"{path}: {where}: {self.problem}")


@dataclass(frozen=True)
class ArtHeader:
    """What an art file's header says: its format (``PNG`` or ``JPEG``) and size (w, h)."""

    format: str
    size: tuple[int, int]


# ------------------------------------------------------------------------------- the file


def said(text: object) -> str:
    """``text`` as one printable line: quoted with escapes if it holds a line break, NUL,
    another control character or a lone surrogate."""
    text = str(text)
    return text if text.isprintable() else ascii(text)


def shown_art(root: Path, rel: str) -> str:
    """``root/rel`` as an error shows it (:func:`said`; a path too long cut short)."""
    if len(rel) > MAX_ART_PATH:
        return said(f"{root}/{rel[:80]}...")
    return said(root / rel)


def find_art(root: Path, rel: str) -> Path:
    """The art file ``root/rel`` with its links resolved, once: it is there and inside
    ``root`` (resolved too). ArtProblem otherwise (too long a path, NUL, outside, missing, a
    link loop, a name the system refuses)."""
    if len(rel) > MAX_ART_PATH:
        raise ArtProblem(f"art file path is {len(rel):,} characters long, at most {MAX_ART_PATH}")
    if "\x00" in rel:
        raise ArtProblem("art file path holds a NUL character", said(rel))
    try:
        os.fsencode(rel)
    except UnicodeError:
        raise ArtProblem("art file path holds what no file name can", said(rel)) from None
    path, shown = root / rel, shown_art(root, rel)
    if not _under(Path(os.path.normpath(path.absolute())), root.absolute()):
        raise ArtProblem("art file must be inside the game folder", said(rel))
    try:
        base = root.resolve(strict=True)
        real = path.resolve(strict=True)
    except (FileNotFoundError, NotADirectoryError):
        raise ArtProblem("art file not found", shown) from None
    except RuntimeError:  # Python < 3.13 says a link loop so
        raise ArtProblem("cannot read art file (a loop of links)", shown) from None
    except OSError as err:
        raise ArtProblem(f"cannot read art file ({err.strerror})", shown) from None
    if not _under(real, base):
        link = said(f"{rel} (a link to {real})")
        raise ArtProblem("art file must be inside the game folder", link)
    return real


def _under(path: Path, folder: Path) -> bool:
    return path.is_relative_to(Path(os.path.normpath(folder)))


def read_art(root: Path, rel: str) -> tuple[Path, bytes]:
    """The art file ``root/rel`` (:func:`find_art`) and its bytes: a regular file of at most
    :data:`MAX_ART_BYTES`, read from the path resolved (a link put there since is refused)."""
    real = find_art(root, rel)
    shown = shown_art(root, rel)
    # a FIFO opens without waiting for a writer, a link put where the file was is refused
    # (on Windows, which has neither, the bytes are read untranslated)
    extra = ("O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC", "O_BINARY")
    flags = os.O_RDONLY | sum(getattr(os, name, 0) for name in extra)
    try:
        fd = os.open(real, flags)
    except OSError as err:
        raise ArtProblem(f"cannot read art file ({err.strerror})", shown) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ArtProblem("art file is a folder, not a file", shown)
        if not stat.S_ISREG(mode):
            raise ArtProblem("art file is not a regular file (a device, pipe or socket)", shown)
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(MAX_ART_BYTES + 1)
    except OSError as err:
        raise ArtProblem(f"cannot read art file ({err.strerror})", shown) from None
    finally:
        os.close(fd)
    if len(data) > MAX_ART_BYTES:
        raise ArtProblem(f"art file is more than {MAX_ART_BYTES:,} bytes", shown)
    return real, data


def art_problem(root: Path, rel: str) -> str | None:
    """What is wrong with the art file ``root/rel`` as the definition's checks say it (any
    problem :func:`read_art` or :func:`art_header` finds, no pixel decoded), or None."""
    try:
        real, data = read_art(root, rel)
    except ArtProblem as problem:
        return problem.problem + ("" if problem.shown is None else f": {problem.shown}")
    try:
        art_header(data, real.name)
    except ArtProblem as problem:
        return f"art file {said(rel)}: {problem.problem}"
    return None


def check_art_file(root: Path, rel: str, field: str) -> None:
    """FieldError at ``field`` if the art file ``root/rel`` has a problem (:func:`art_problem`)."""
    problem = art_problem(root, rel)
    if problem is not None:
        raise FieldError(field, problem)


# ----------------------------------------------------------------------------- the header


def art_header(data: bytes, name: str) -> ArtHeader:
    """The format and size of art bytes ``data`` of a file named ``name``, read from the
    header and checked against the limits without decoding a pixel; ArtProblem if its ending
    is not an art format's, its bytes are not that format, it is past a limit or its
    structure is broken."""
    suffix = Path(name).suffix
    expected = ART_FORMATS.get(suffix.lower())
    if expected is None:
        named = f"named '{suffix}'" if suffix else "named without an ending"
        raise ArtProblem(f"{named}: art files are PNG (.png) or JPEG (.jpg, .jpeg)")
    if not data:
        raise ArtProblem("empty")
    if expected == "PNG" and data.startswith(b"\x89PNG") and not data.startswith(_PNG_SIGNATURE):
        raise _damaged("PNG: its first 8 bytes are not the PNG signature")
    if expected == "PNG" and not data.startswith(_PNG_SIGNATURE):
        raise ArtProblem(f"named {suffix} but holds {_what(data)}: save it as PNG")
    if expected == "JPEG" and not data.startswith(b"\xff\xd8\xff"):
        raise ArtProblem(f"named {suffix} but holds {_what(data)}: save it as JPEG")
    width, height = _png_size(data) if expected == "PNG" else _jpeg_size(data)
    if width < 1 or height < 1:
        raise _damaged(f"{expected}: its header gives {width}x{height} px")
    if max(width, height) > MAX_ART_SIDE or width * height > MAX_ART_PIXELS:
        raise ArtProblem(
            f"{width}x{height} px, past the art limit of {MAX_ART_SIDE} px a side and "
            f"{MAX_ART_PIXELS:,} px in all (4096x4096): scale it down"
        )
    header = ArtHeader(expected, (width, height))
    with _opened(data, header):
        return header


def _opened(data: bytes, header: ArtHeader) -> Image.Image:
    """Pillow's picture of art bytes whose header is ``header``, opened (its header read, no
    pixel decoded); ArtProblem if Pillow cannot read that header or reads another size."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's notes on odd metadata are no errors
            image = Image.open(io.BytesIO(data), formats=[header.format])
    except UnidentifiedImageError:  # its message names a BytesIO object, nothing more
        raise ArtProblem(f"not a {header.format} Pillow reads") from None
    except _UNREADABLE as exc:
        raise ArtProblem(f"not a {header.format} Pillow reads ({_detail(exc)})") from None
    if image.size != header.size:
        image.close()
        raise _damaged(f"{header.format}: it gives two sizes, {header.size} and {image.size}")
    return image


def _detail(exc: BaseException) -> str:
    """What an exception says, on one printable line of at most 200 characters."""
    return said(str(exc)[:200]) if str(exc) else type(exc).__name__


def _what(data: bytes) -> str:
    return next((what for magic, what in _MAGIC if data.startswith(magic)), "no image format")


def _damaged(what: str) -> ArtProblem:
    return ArtProblem(f"a damaged {what}")


def _png_size(data: bytes) -> tuple[int, int]:
    """A PNG's size from IHDR, once every chunk is whole with its checksum right, an IDAT and
    IEND are there and the text and colour-profile chunks are within their limit."""
    view = memoryview(data)
    pos, chunks, metadata = len(_PNG_SIGNATURE), 0, 0
    size, seen = (0, 0), set()
    while b"IEND" not in seen:
        if pos + 12 > len(data):
            raise _damaged("PNG: it ends before its IEND chunk")
        length, kind = struct.unpack_from(">I4s", data, pos)
        end = pos + 8 + length
        if end + 4 > len(data):
            raise _damaged(f"PNG: its {_name(kind)} chunk runs past the end of the file")
        if zlib.crc32(view[pos + 4 : end]) != struct.unpack_from(">I", data, end)[0]:
            raise _damaged(f"PNG: the checksum of its {_name(kind)} chunk is wrong")
        chunks += 1
        if chunks > MAX_ART_CHUNKS:
            raise ArtProblem(f"a PNG of more than {MAX_ART_CHUNKS:,} chunks")
        if chunks == 1:
            size = _ihdr(kind, data[pos + 8 : end])
        elif kind == b"IHDR":
            raise _damaged("PNG: a second IHDR chunk")
        elif kind in _PNG_TEXT:
            metadata += _text_size(kind, data[pos + 8 : end], MAX_ART_METADATA - metadata)
            if metadata > MAX_ART_METADATA:
                raise ArtProblem(
                    f"PNG text and colour-profile chunks of more than {MAX_ART_METADATA:,} "
                    "bytes decompressed: save it without its metadata"
                )
        seen.add(kind)
        pos = end + 4
    if b"IDAT" not in seen:
        raise _damaged("PNG: it has no IDAT chunk (no pixels)")
    return size


def _name(kind: bytes) -> str:
    """A chunk's type as text (bytes that are no letters escaped)."""
    return kind.decode("latin-1").encode("unicode_escape").decode("ascii")


def _ihdr(kind: bytes, body: bytes) -> tuple[int, int]:
    if kind != b"IHDR" or len(body) != 13:
        raise _damaged("PNG: it does not start with an IHDR chunk")
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", body
    )
    if depth not in _PNG_DEPTHS.get(colour, ()):
        raise _damaged(f"PNG: its IHDR gives colour type {colour} at {depth} bits")
    if (compression, filtering) != (0, 0) or interlace not in (0, 1):
        raise _damaged("PNG: its IHDR names an unknown compression, filter or interlace")
    return width, height


def _text_size(kind: bytes, body: bytes, budget: int) -> int:
    """The bytes a PNG text or colour-profile chunk holds, decompressed (inflating at most
    ``budget`` + 1 bytes)."""
    name_end = body.find(b"\x00")
    compressed = None
    if kind in (b"zTXt", b"iCCP") and name_end >= 0:
        compressed = body[name_end + 2 :]
    elif kind == b"iTXt" and name_end >= 0 and body[name_end + 1 : name_end + 2] == b"\x01":
        language = body.find(b"\x00", name_end + 3)
        translated = body.find(b"\x00", language + 1) if language >= 0 else -1
        compressed = body[translated + 1 :] if translated >= 0 else None
    if compressed is None:
        return len(body)
    try:
        return len(zlib.decompressobj().decompress(compressed, max(budget, 0) + 1))
    except zlib.error:
        return len(compressed)  # Pillow drops a chunk it cannot inflate


_FILL = re.compile(rb"\xff+")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """A JPEG's size from its frame header, once its segments are whole up to the end marker,
    one frame header and a scan come before it and its scans and segments are within their
    limits."""
    pos, segments, scans = 2, 0, 0
    size: tuple[int, int] | None = None
    while True:
        fill = _FILL.match(data, pos)
        if fill is None:
            raise _damaged("JPEG: a segment does not start with a marker")
        segments += fill.end() - pos  # the marker and any fill bytes before it
        if segments > MAX_ART_CHUNKS:
            raise ArtProblem(f"a JPEG of more than {MAX_ART_CHUNKS:,} segments and fill bytes")
        pos = fill.end() - 1  # the marker's 0xFF
        if pos + 2 > len(data):
            raise _damaged("JPEG: it ends before its end marker")
        marker = data[pos + 1]
        if marker == 0xD9:
            break
        if marker in (0x01, *range(0xD0, 0xD8)):  # no length: TEM, a restart marker
            pos += 2
            continue
        if pos + 4 > len(data):
            raise _damaged("JPEG: it ends inside a segment")
        (length,) = struct.unpack_from(">H", data, pos + 2)
        end = pos + 2 + length
        if length < 2 or end > len(data):
            raise _damaged("JPEG: a segment runs past the end of the file")
        if marker in _JPEG_SOF:
            if size is not None or length < 8:
                raise _damaged("JPEG: a second or short frame header")
            height, width = struct.unpack_from(">HH", data, pos + 5)
            size = (width, height)
        if marker == 0xDA:
            if size is None:
                raise _damaged("JPEG: a scan comes before its frame header")
            scans += 1
            if scans > MAX_ART_SCANS:
                raise ArtProblem(
                    f"a JPEG of more than {MAX_ART_SCANS} scans: save it as a baseline JPEG"
                )
            found = _JPEG_MARKER.search(data, end)
            if found is None:
                raise _damaged("JPEG: it ends before its end marker")
            end = found.start()
        pos = end
    if size is None or scans == 0:
        raise _damaged("JPEG: it has no frame header or no scan")
    return size


# ------------------------------------------------------------------------------ the build


def art_path(root: Path, rel: str, where: str) -> Path:
    """The art file ``root/rel`` with its links resolved (:func:`find_art`), a regular file
    of at most :data:`MAX_ART_BYTES`; BuildError ``"<file>: <where>: ..."`` otherwise."""
    shown = shown_art(root, rel)
    try:
        real = find_art(root, rel)
        info = real.stat()
    except ArtProblem as problem:
        raise problem.at_build(shown, where) from None
    except OSError as err:
        raise BuildError(f"{shown}: {where}: cannot read art file ({err.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise BuildError(f"{shown}: {where}: art file is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise BuildError(f"{shown}: {where}: art file is not a regular file")
    if info.st_size > MAX_ART_BYTES:
        raise BuildError(f"{shown}: {where}: art file is more than {MAX_ART_BYTES:,} bytes")
    return real


def load_art(root: Path, rel: str, where: str) -> Image.Image:
    """The picture at ``root/rel`` as RGBA; BuildError ``"<file>: <where>: ..."`` if it is
    missing, outside ``root``, past a limit or not a readable PNG or JPEG."""
    try:
        real, data = read_art(root, rel)
    except ArtProblem as problem:
        raise problem.at_build(shown_art(root, rel), where) from None
    return decode_art(data, real, where)


def decode_art(data: bytes, path: Path, where: str) -> Image.Image:
    """The picture of the art file ``path``'s bytes ``data`` as RGBA, its header checked
    first (:func:`art_header`); BuildError ``"<file>: <where>: ..."`` if they are past a
    limit or not a readable image of the format the name says."""
    try:
        header = art_header(data, path.name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's notes on odd metadata are no errors
            with _opened(data, header) as image:
                image.load()
                return image.convert("RGBA")
    except ArtProblem as problem:
        raise problem.at_build(said(path), where) from None
    except _UNREADABLE as exc:
        message = f"cannot read art file ({_detail(exc)})"
        raise BuildError(f"{said(path)}: {where}: {message}") from None
