"""How ``tts-builder check`` scales with the size of a save.

    python benchmarks/bench_check.py [--objects N] [--shapes stacked,deck,snaps,spread]
        [--script-bytes B] [--repeat R] [--baseline DIR] [--keep DIR]

Each shape is a synthetic v13 save of about ``--objects`` objects (13,000 by default: the
62 MB save of 13,000 stacked objects that took 273 s, issue 24), written by the project's own
object builders, its images local PNGs (``file:///``) so that tiles and cards have footprints:

- stacked: half the objects tiles in one stack, half loose cards in another, one object in 500
  sunk into its neighbour (so there are findings to compare), four hand zones; each object
  carries a script of its own of ``--script-bytes`` (3,500 by default: 13,000 objects make the
  issue's 62 MB);
- deck: one deck of that many cards (ContainedObjects), every card with its CustomDeck copy;
- snaps: that many global snap points, and a twentieth as many tiles with 20 attached each;
- spread: that many small tiles on a grid over the table (and off it).

Each run is the real CLI (``python -m tts_builder check SAVE``) in a child process; its CPU
seconds (user + system) come from ``os.wait4``. The figure is the least of ``--repeat`` runs;
the digest is a hash of what ``check`` printed, so two trees can be seen to agree.

``--baseline DIR`` runs DIR's ``tts_builder`` package first on ``PYTHONPATH`` too (e.g.
``mkdir DIR && git archive HEAD tts_builder | tar -x -C DIR``), each save before then after, and
prints after / before. ``--keep DIR`` writes the saves there instead of a temporary folder.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CARD_SHEET = (10, 7)
CELL = (400, 560)  # a portrait cell: cards have a measured size
TILE_IMAGE = (200, 100)


def images(folder: Path) -> tuple[str, str]:
    """A card sheet and a tile picture written in ``folder``: their ``file:///`` URLs."""
    from PIL import Image

    sheet = folder / "sheet.png"
    tile = folder / "tile.png"
    Image.new("1", (CARD_SHEET[0] * CELL[0], CARD_SHEET[1] * CELL[1])).save(sheet)
    Image.new("1", TILE_IMAGE).save(tile)
    return sheet.as_uri(), tile.as_uri()


def _guid(i: int) -> str:
    return f"{i:06x}"


def _cards(n: int, sheet: str, start: int) -> list[dict[str, Any]]:
    from tts_builder.save import card, card_id, custom_deck_entry

    slots = CARD_SHEET[0] * CARD_SHEET[1] - 1  # the last slot stays unused
    entry = custom_deck_entry(sheet, sheet, *CARD_SHEET)
    return [card(_guid(start + i), card_id(1 + i // slots, i % slots), entry) for i in range(n)]


def _seats(start: int) -> list[dict[str, Any]]:
    from tts_builder.save import default_hand_triggers

    colors = ("White", "Red", "Green", "Blue")
    guids = {c: _guid(start + i) for i, c in enumerate(colors)}
    return default_hand_triggers(guids.__getitem__, colors=colors)


def _at(obj: dict[str, Any], x: float, y: float, z: float, rot_y: float = 0.0) -> dict[str, Any]:
    obj["Transform"].update(posX=x, posY=y, posZ=z, rotY=float(rot_y))
    return obj


#: Bytes of Lua each object of the stacked save carries (``--script-bytes``).
SCRIPT_BYTES = [3_500]
_LUA = 'function onLoad() self.setColorTint("White") end\n'


def stacked(n: int, sheet: str, tile: str) -> dict[str, Any]:
    """Half the objects tiles in one stack, half cards in another, a few sunk; a script each."""
    from tts_builder.save import custom_tile

    tiles = n // 2
    objects = [
        _at(custom_tile(_guid(i), tile), -5.0, 0.96 + 0.2 * i - 0.1 * (i % 500 == 1), 0.0, 180)
        for i in range(tiles)
    ]
    cards = _cards(n - tiles, sheet, tiles)
    objects += [
        _at(c, 5.0, 0.96 + 0.02 * i - 0.01 * (i % 500 == 1), 0.0, 180) for i, c in enumerate(cards)
    ]
    for i, o in enumerate(objects):
        o["LuaScript"] = (_LUA * (SCRIPT_BYTES[0] // len(_LUA) + 1))[: SCRIPT_BYTES[0]] + f"-- {i}"
    return _save(objects + _seats(n), lua="-- the objects' scripts")


def deck(n: int, sheet: str, tile: str) -> dict[str, Any]:
    """One deck of ``n`` cards."""
    from tts_builder.save import deck as make_deck

    pile = make_deck(_guid(n), _cards(n, sheet, 0))
    return _save([_at(pile, 0.0, 0.96, 0.0, 180)] + _seats(n + 1))


def snaps(n: int, sheet: str, tile: str) -> dict[str, Any]:
    """``n`` global snap points on a grid, ``n / 20`` tiles with 20 attached ones each."""
    from tts_builder.save import custom_tile, snap_point

    side = max(1, round(n**0.5))
    points = [
        snap_point((-25.0 + 50.0 * (i % side) / side, 0.96 + 0.2 * (i % 7 == 0),
                    -15.0 + 30.0 * (i // side) / side))
        for i in range(n)
    ]  # fmt: skip
    objects = []
    count = max(1, n // 20)
    across = max(1, round(count**0.5))
    for i in range(count):
        obj = custom_tile(_guid(i), tile)
        obj["AttachedSnapPoints"] = [snap_point((0.1 * k - 1.0, 0.2, 0.0)) for k in range(20)]
        x, z = -25.0 + 50.0 * (i % across) / across, -15.0 + 30.0 * (i // across) / across
        objects.append(_at(obj, x, 0.96, z, 180))
    return _save(objects + _seats(count), points)


def spread(n: int, sheet: str, tile: str) -> dict[str, Any]:
    """``n`` small tiles on a grid over the table and past its edges."""
    from tts_builder.save import custom_tile

    side = max(1, round(n**0.5))
    objects = []
    for i in range(n):
        obj = custom_tile(_guid(i), tile)
        obj["Transform"].update(scaleX=0.15, scaleZ=0.15)
        objects.append(_at(obj, -30.0 + 0.5 * (i % side), 0.96, -20.0 + 0.35 * (i // side), 180))
    return _save(objects + _seats(n))


def _save(
    objects: list[dict[str, Any]], points: list[dict[str, Any]] | None = None, lua: str = ""
) -> dict:
    from tts_builder.save import new_save

    return new_save(save_name="bench", game_mode="bench", objects=objects, lua_script=lua,
                    xml_ui="", snap_points=points)  # fmt: skip


SHAPES: dict[str, Callable[[int, str, str], dict[str, Any]]] = {
    "stacked": stacked, "deck": deck, "snaps": snaps, "spread": spread,
}  # fmt: skip


def measure(save: Path, tree: Path | None, cwd: Path) -> tuple[float, int, str]:
    """(CPU seconds, exit code, digest of the output) of ``check SAVE`` run with ``tree``'s
    package (this checkout's when None) first on the path, in the empty folder ``cwd``."""
    env = dict(os.environ)
    first = str(tree if tree is not None else ROOT)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [first, env.get("PYTHONPATH")]))
    args = [sys.executable, "-m", "tts_builder", "check", "--all", str(save)]
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 2):
        raise SystemExit(f"check exited {code} on {save}")
    return usage.ru_utime + usage.ru_stime, code, hashlib.sha256(out).hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=13_000)
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--script-bytes", type=int, default=SCRIPT_BYTES[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--keep", type=Path)
    opts = parser.parse_args()
    SCRIPT_BYTES[0] = opts.script_bytes
    from tts_builder.save import dumps

    folder = opts.keep or Path(tempfile.mkdtemp(prefix="bench-check-"))
    folder.mkdir(parents=True, exist_ok=True)
    cwd = Path(tempfile.mkdtemp(prefix="bench-check-cwd-"))
    try:
        sheet, tile = images(folder)
        trees = [opts.baseline.resolve(), None] if opts.baseline else [None]
        print(f"{'shape':8} {'MB':>6}  " + "  ".join(
            f"{'before' if t is not None else 'after' if opts.baseline else 'CPU s':>8} digest"
            for t in trees
        ) + ("  after/before" if opts.baseline else ""))  # fmt: skip
        for shape in opts.shapes.split(","):
            save = folder / f"{shape}-{opts.objects}.json"
            save.write_bytes(dumps(SHAPES[shape](opts.objects, sheet, tile)))
            cells = []
            times = []
            for tree in trees:
                runs = [measure(save, tree, cwd) for _ in range(opts.repeat)]
                best = min(r[0] for r in runs)
                times.append(best)
                cells.append(f"{best:8.2f} {runs[0][2]}")
            ratio = f"  {times[1] / times[0]:.4f}" if opts.baseline else ""
            size = save.stat().st_size / 1e6
            print(f"{shape:8} {size:6.1f}  " + "  ".join(cells) + ratio, flush=True)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
        if opts.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
