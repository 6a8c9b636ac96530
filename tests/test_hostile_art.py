"""Hostile art files and art paths (issue 24): each refused by the build's CLI with one line
``game.yaml:line:col: components.seed.face[i].src: problem``, exit 2, quickly, nothing
written; good art (PNG, JPEG, metadata, a link inside the folder) still builds. The limits
are render/art_file.py's (docs/game-definition.md, "Art files")."""

from __future__ import annotations

import io
import os
import re
import shutil
import struct
import time
import zlib
from pathlib import Path

import pytest
import yaml
from PIL import Image

from tts_builder.bundled import ASSETS_DIR
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.render.art_file import (
    MAX_ART_PIXELS,
    MAX_ART_SCANS,
    MAX_ART_SIDE,
    ArtProblem,
    art_header,
)

PROJECT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((PROJECT / "assets" / "prototype" / "game.yaml").read_text("utf-8"))
GAME = "art-game"
#: The index of the image element added to the seed card's face.
INDEX = len(BASE["components"]["seed"]["face"])
#: The longest a refusal may take, in seconds (each is read from the header: ~0.01).
REFUSED_WITHIN = 5.0


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(width: int, height: int, before: bytes = b"", idat: bytes | None = None) -> bytes:
    """A PNG (RGB) of that header size: rows of zeros, or ``idat`` (a bomb's empty data)."""
    if idat is None:
        idat = zlib.compress(b"\x00" * (1 + 3 * width) * height)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + before + chunk(b"IDAT", idat)
            + chunk(b"IEND", b""))  # fmt: skip


def saved(image: Image.Image, fmt: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def jpeg_of_scans(count: int) -> bytes:
    """A progressive JPEG with its last scan repeated until it has ``count`` scans."""
    data = saved(Image.new("RGB", (16, 16), "red"), "JPEG", progressive=True)
    scans = [m.start() for m in re.finditer(rb"\xff\xda", data)]
    last = data[scans[-1] : data.rindex(b"\xff\xd9")]
    return data[: data.rindex(b"\xff\xd9")] + last * (count - len(scans)) + b"\xff\xd9"


BOMB = zlib.compress(b"\x00" * 50_000_000, 9)
EMPTY_IDAT = zlib.compress(b"")
SMALL = saved(Image.new("RGBA", (8, 8), (200, 30, 30, 255)), "PNG")


def game(root: Path, src: str, files: dict[str, bytes | str | None]) -> Path:
    """``root/art-game``: the prototype with an image ``src`` on the seed card's face and
    ``files`` (bytes; ``"->target"`` a link; ``"fifo"``; None a folder)."""
    folder = root / GAME
    folder.mkdir(parents=True)
    data = yaml.safe_load(yaml.safe_dump(BASE))
    data["id"] = GAME
    data["components"]["seed"]["face"].append({"type": "image", "src": src, "box": [0, 0, 9, 9]})
    (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    (root / "secret.png").write_bytes(SMALL)
    for name, content in files.items():
        path = folder / name
        if content is None:
            path.mkdir()
        elif content == "fifo":
            os.mkfifo(path)
        elif isinstance(content, str):
            path.symlink_to(content.removeprefix("->"))
        else:
            path.write_bytes(content)
    return root


def build(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, str, float]:
    started = time.monotonic()
    code = run(["-q", "--assets", str(root), "build", GAME, "--out", str(root / "dist")])
    return code, capsys.readouterr().err.strip(), time.monotonic() - started


REFUSED = {
    "a 400-Mpx pixel bomb": (
        "a.png", {"a.png": png(20_000, 20_000, idat=EMPTY_IDAT)},
        "art file a.png: 20000x20000 px, past the art limit of 8192 px a side and "
        "16,777,216 px in all (4096x4096): scale it down"),
    "144 Mpx": ("a.png", {"a.png": png(12_000, 12_000, idat=EMPTY_IDAT)}, "12000x12000 px"),
    "1 x 200,000": ("a.png", {"a.png": png(1, 200_000, idat=EMPTY_IDAT)}, "1x200000 px"),
    "one px past 4096 x 4096": ("a.png", {"a.png": png(4097, 4096, idat=EMPTY_IDAT)},
                                "4097x4096 px"),
    "a zTXt bomb": ("a.png", {"a.png": png(8, 8, chunk(b"zTXt", b"k\x00\x00" + BOMB))},
                    "PNG text and colour-profile chunks of more than 524,288 bytes"),
    "an iCCP bomb": ("a.png", {"a.png": png(8, 8, chunk(b"iCCP", b"p\x00\x00" + BOMB))},
                     "PNG text and colour-profile chunks of more than 524,288 bytes"),
    "an iTXt bomb": ("a.png", {"a.png": png(8, 8, chunk(b"iTXt", b"k\x00\x01\x00\x00\x00" + BOMB))},
                     "PNG text and colour-profile chunks of more than 524,288 bytes"),
    "many text chunks": (
        "a.png", {"a.png": png(8, 8, b"".join(chunk(b"tEXt", b"k\x00" + b"a" * 100_000)
                                              for _ in range(6)))},
        "PNG text and colour-profile chunks of more than 524,288 bytes"),
    "a float TIFF named .png": ("a.png", {"a.png": saved(Image.new("F", (8, 8)), "TIFF")},
                                "art file a.png: named .png but holds a TIFF image"),
    "a JPEG named .png": ("a.png", {"a.png": saved(Image.new("RGB", (8, 8)), "JPEG")},
                          "named .png but holds a JPEG image: save it as PNG"),
    "a PNG named .jpg": ("a.jpg", {"a.jpg": SMALL}, "named .jpg but holds a PNG image"),
    "a GIF": ("a.gif", {"a.gif": saved(Image.new("P", (8, 8)), "GIF")},
              "art file a.gif: named '.gif': art files are PNG (.png) or JPEG (.jpg, .jpeg)"),
    "an empty file": ("a.png", {"a.png": b""}, "art file a.png: empty"),
    "a truncated PNG": ("a.png", {"a.png": SMALL[:40]},
                        "a damaged PNG: it ends before its IEND chunk"),
    "a damaged checksum": ("a.png", {"a.png": SMALL[:-4] + b"\x00" * 4},
                           "a damaged PNG: the checksum of its IEND chunk is wrong"),
    "a JPEG of too many scans": ("a.jpg", {"a.jpg": jpeg_of_scans(MAX_ART_SCANS + 1)},
                                 f"a JPEG of more than {MAX_ART_SCANS} scans"),
    "a link to itself": ("a.png", {"a.png": "->a.png"}, "cannot read art file (a loop of links)"),
    "two links in a loop": ("a.png", {"a.png": "->b.png", "b.png": "->a.png"}, "a loop of links"),
    "a link out of the folder": ("a.png", {"a.png": "->../secret.png"},
                                 "art file must be inside the game folder: a.png (a link to "),
    "a link to /dev/zero": ("a.png", {"a.png": "->/dev/zero"},
                            "art file must be inside the game folder: a.png (a link to /dev/zero)"),
    "a path up and out": ("../secret.png", {},
                          "art file must be inside the game folder: ../secret.png"),
    "an absolute path": ("/etc/passwd", {}, "art file must be inside the game folder: /etc/passwd"),
    "a name too long for the system": ("x" * 300 + ".png", {},
                                       "cannot read art file (File name too long)"),
    "a path over 1024 characters": ("d/" * 600 + "a.png", {},
                                    "art file path is 1,205 characters long, at most 1024"),
    "a NUL": ("a\x00.png", {}, ""),  # refused as text or as a path: located either way
    "a line break": ("a\nb.png", {}, r"art file not found: '"),
    "a folder": ("a.png", {"a.png": None}, "art file is a folder, not a file"),
    "a FIFO": ("a.png", {"a.png": "fifo"}, "art file is not a regular file"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_hostile_art_is_one_located_line(
    case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, files, said = REFUSED[case]
    code, err, took = build(capsys, game(tmp_path, src, files))
    assert code == EXIT_BAD_INPUT, err
    assert "\n" not in err and "Traceback" not in err and err.isprintable(), err
    located = (
        re.escape(f"{GAME}/game.yaml:") + rf"\d+:\d+: components\.seed\.face\[{INDEX}\]\.src: "
    )
    assert re.search(located, err), err
    assert said in err, err
    assert took < REFUSED_WITHIN, f"{took:.1f} s"
    assert not (tmp_path / "dist" / GAME).exists()


ACCEPTED = {
    "a JPEG": ("a.jpg", {"a.jpg": saved(Image.new("RGB", (8, 8), "blue"), "JPEG")}),
    "a progressive grey JPEG": ("a.JPEG", {"a.JPEG": saved(Image.new("L", (8, 8)), "JPEG",
                                                           progressive=True)}),
    "a PNG named .PNG": ("art/a.PNG", {"art": None, "art/a.PNG": SMALL}),
    "a PNG with metadata": ("a.png", {"a.png": png(8, 8, chunk(b"iCCP", b"p\x00\x00"
                                                           + zlib.compress(b"\x00" * 3000))
                                                   + chunk(b"tEXt", b"k\x00" + b"a" * 100_000))}),
    "a link inside the folder": ("a.png", {"art": None, "art/b.png": SMALL,
                                           "a.png": "->art/b.png"}),
    "a path through .. back in": ("art/../a.png", {"art": None, "a.png": SMALL}),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_good_art_builds(case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src, files = ACCEPTED[case]
    code, err, _took = build(capsys, game(tmp_path, src, files))
    assert (code, err) == (EXIT_OK, "")
    assert (tmp_path / "dist" / GAME).is_dir()


def test_damaged_pixel_data_is_one_line_naming_the_file_at_build(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A header that passes the load with pixel data that is not zlib: the build refuses it,
    naming the file (the load reads no pixel), and writes nothing."""
    code, err, _took = build(capsys, game(tmp_path, "a.png", {"a.png": png(8, 8, idat=b"nope")}))
    assert code == EXIT_BAD_INPUT, err
    assert "\n" not in err and "Traceback" not in err, err
    assert re.search(r"a\.png: art: cannot read art file \(.+\)$", err), err
    assert not (tmp_path / "dist" / GAME).exists()


@pytest.mark.parametrize(
    ("size", "fits"),
    [((4096, 4096), True), ((MAX_ART_SIDE, 2048), True), ((1, MAX_ART_SIDE), True),
     ((MAX_ART_SIDE + 1, 1), False), ((4097, 4096), False), ((2**31 - 1, 1), False)],
)  # fmt: skip
def test_the_size_limits_are_read_from_the_header(size: tuple[int, int], fits: bool) -> None:
    data = png(*size, idat=EMPTY_IDAT)
    started = time.monotonic()
    if fits:
        assert art_header(data, "a.png").size == size
        assert size[0] * size[1] <= MAX_ART_PIXELS
    else:
        with pytest.raises(ArtProblem, match="past the art limit"):
            art_header(data, "a.png")
    assert time.monotonic() - started < 0.5


def test_a_jpeg_of_the_most_scans_allowed_is_read() -> None:
    assert art_header(jpeg_of_scans(MAX_ART_SCANS), "a.jpg").size == (16, 16)


@pytest.mark.parametrize("game", ["ark-and-noah", "arche-noah-flood"])
def test_an_engine_s_own_art_keys_are_refused_at_their_line(
    game: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ark & Noah's ``art:`` and the flood race's ``animals[i].art`` go through the same door:
    a path out of the game folder is one located line at load (was an unlocated build error)."""
    shutil.copytree(ASSETS_DIR / game, tmp_path / game)
    path = tmp_path / game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    first = re.search(r"art/[\w-]+\.png", text)
    assert first is not None
    shutil.copy(tmp_path / game / first.group(0), tmp_path / "secret.png")  # a real picture
    path.write_text(text.replace(first.group(0), "../secret.png", 1), encoding="utf-8")
    line = text[: first.start()].count("\n") + 1
    code = run(["-q", "--assets", str(tmp_path), "build", game, "--out", str(tmp_path / "d")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "Traceback" not in err
    assert re.match(rf"error: \S*{game}/game\.yaml:{line}:\d+: \S*art\S*: ", err), err
    assert not (tmp_path / "d" / game).exists()
