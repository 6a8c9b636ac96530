"""Paired build benchmarks, every figure a ratio to a clean build in the same run.

    python benchmarks/bench_build.py [GAME|all] [--repeat N] [--sizes 1,2,4,6] [--no-sizes]
        [--baseline DIR]

Each step is the real CLI (``python -m tts_builder -q build ...``) in a child process; its CPU
seconds (user + system) and peak memory (ru_maxrss) come from ``os.wait4`` of that child, so a
busy machine disturbs the figures less than wall-clock time would. One round runs, in order:

- clean: a fresh ``--out`` folder (no render or lint cache);
- no-op: the same command again (everything cached, nothing written);
- no-op in a warm process: the build command run twice in one child through ``tts_builder.cli.run``,
  the second timed (what ``watch`` pays per rebuild: no interpreter start, no imports);
- one-animal change: the game copied, one animal's colour edited (its cards change; for a game
  without animal colours, one pixel of the first animal's art), rebuilt into the same folder
  with ``--assets``;
- clean and one-animal change in a warm process: in one child, a throwaway build (imports,
  fonts), then a clean build into a fresh folder and the one-animal change into it, both timed
  through ``tts_builder.cli.run`` (what ``watch`` pays per edit); the change is also given as a
  ratio to that in-process clean build;
- encode floor: encoding every final PNG of the build once (the images, thumbnails, previews
  and ``table.png`` of every folder the clean build wrote, its variants' too, decoded from
  them) with the build's own encoder and settings (``render.encode_png``: Pillow's, as every
  build PNG is written), in one process, timed after loading;
  nothing drawn, nothing else built;
- work besides pictures (with the one-animal step): in one warm process, the game built again
  in memory through a cache already holding every picture of it (``build_game``: loading,
  assembling, scripts, the save), its scripts linted and its saves checked with no cache; with
  the floor, the least a clean build can cost whatever its drawing costs (in a new process,
  plus a no-op build's start-up: interpreter, the CLI's imports, the manifest check): their sum
  over the floor bounds ``clean / encode floor`` from below;
- publish: recompressing every PNG ``publish`` uploads for the game's own save (``images/`` and
  the thumbnail of ``dist/<game>/``) once
  with its lossless optimiser (oxipng, no cache), as a ratio to the clean build, and the
  bytes it gives as a ratio to the build's (all, and the largest ratio of one file);
- interpreter floor: ``python -c "import tts_builder.cli"``.

``--phases`` only breaks the one-animal change down: where its CPU goes, by phase (the no-op
check, the definition, the sheets, the preview, lint, check, table.png, writing, ...), in one
child that rebuilds the change as the console script does.

``all`` builds every bundled game and variant (``build`` without a game; no one-animal step).

``--baseline DIR`` pairs a change with what it changes: DIR is another checkout (e.g. ``git
worktree add --detach DIR main``) whose ``tts_builder`` package every child of a "before" round
runs instead (put first on ``PYTHONPATH``, as this checkout is in an "after" round; every child
runs in an empty folder, so that no checkout shadows it through ``sys.path[0]``; the bundled
games and templates stay this checkout's), and each round runs before, then after, so both
meet the same machine load; both tables are printed, then after / before of every step.

Then the deck-size series builds copies of Arche Noah whose roster is repeated 1x/2x/4x/6x
(40 to 240 cards), clean, with CPU and peak memory each. Min and median over ``--repeat``.
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
CLI = [sys.executable, "-m", "tts_builder", "-q"]


#: The checkout whose package the children run (``--baseline``); None: this one.
TREE: list[Path | None] = [None]


def child_env() -> dict[str, str]:
    """The environment of every child: bytecode caching on, as for a user; the package of
    :data:`TREE` (this checkout's in an "after" round) first on the path."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    tree = TREE[0] if TREE[0] is not None else ROOT
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    return env


_NEUTRAL: list[Path] = []


def neutral_folder() -> Path:
    """An empty folder every child runs in: ``python -m``/``-c`` put the current folder first
    on ``sys.path``, so a child started in a checkout would run that checkout's package,
    whatever :func:`child_env` asks (a ``--baseline`` round measuring this checkout)."""
    if not _NEUTRAL:
        _NEUTRAL.append(Path(tempfile.mkdtemp(prefix="bench-cwd-")))
        atexit.register(shutil.rmtree, _NEUTRAL[0], True)
    return _NEUTRAL[0]


def measure(args: list[str], cwd: Path | None = None) -> tuple[float, float, str]:
    """Run ``args`` (in ``cwd``, by default :func:`neutral_folder`); (CPU seconds, peak
    memory in MB, stdout) of that child."""
    cwd = cwd or neutral_folder()
    proc = subprocess.Popen(args, cwd=cwd, env=child_env(), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {shlex.join(args)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


WARM = """
import sys, time
from tts_builder.cli import run
args = sys.argv[1:]
assert run(args) == 0
started = time.process_time()
assert run(args) == 0
print(time.process_time() - started)
"""

BESIDES_PICTURES = """
import sys, time
from tts_builder.build import BuildOptions, build_game, check_build, lint_build
game = sys.argv[1]
cache = {}
build_game(game, BuildOptions(), cache)  # every picture of it now cached
started = time.process_time()
result = build_game(game, BuildOptions(), cache)
assemble = time.process_time() - started
assert result.drawn == 0 and result.rendered == 0
started = time.process_time()
lint_build(result)
lint = time.process_time() - started
started = time.process_time()
check_build(result)
print(assemble, lint, time.process_time() - started)
"""

PUBLISH = """
import sys, time
from pathlib import Path
from tts_builder.ship.publish import png_optimizer
folder = Path(sys.argv[1])
names = sorted(p for p in (folder / "images").glob("*.png")) + [folder / sys.argv[2]]
data = [p.read_bytes() for p in names]
optimize = png_optimizer()
if optimize is None:
    print("nan nan nan")
    raise SystemExit
started = time.process_time()
out = [optimize(d) for d in data]
seconds = time.process_time() - started
worst = max(len(o) / len(d) for o, d in zip(out, data))
print(seconds, sum(map(len, out)) / sum(map(len, data)), worst)
"""

WARM_CHANGE = """
import re, shutil, sys, tempfile, time
from pathlib import Path
from tts_builder.cli import run
game, assets_copy, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
assert run(["-q", "build", game, "--out", str(work / "warm")]) == 0
# a fresh --out folder: its cache is empty and a build keeps no pictures beyond its own store
started = time.process_time()
assert run(["-q", "build", game, "--out", str(work / "fresh")]) == 0
clean = time.process_time() - started
started = time.process_time()
assert run(["-q", "--assets", str(assets_copy), "build", game, "--out", str(work / "fresh")]) == 0
print(clean, time.process_time() - started)
"""

ENCODE = """
import sys, time
from io import BytesIO
from pathlib import Path
from PIL import Image
from tts_builder.render import encode_png
images = []
for path in sorted(Path(sys.argv[1]).rglob("*.png")):
    if ".cache" not in path.parts:
        with Image.open(path) as im:
            im.load()
            images.append(im.copy())
started = time.process_time()
for im in images:
    encode_png(im)
print(time.process_time() - started)
"""


PHASES = """
import importlib, os, sys, time
started = time.process_time()
import tts_builder.cli
imported = time.process_time() - started
args, names = sys.argv[1:-1], sys.argv[-1].split(",")
spent, active = {}, set()

def timed(name, real):
    def wrapper(*a, **k):
        if name in active:  # recursion: counted once, outermost
            return real(*a, **k)
        active.add(name)
        begun = time.process_time()
        try:
            return real(*a, **k)
        finally:
            active.discard(name)
            spent[name] = spent.get(name, 0.0) + time.process_time() - begun
    return wrapper

for name in names:  # module[:Class].function, wrapped where it is looked up when called
    module, _, attr = name.partition(":")
    owner = importlib.import_module(module)
    *classes, function = attr.split(".")
    for cls in classes:
        owner = getattr(owner, cls)
    setattr(owner, function, timed(name, getattr(owner, function)))
wrapped = time.process_time() - started - imported
begun = time.process_time()
assert tts_builder.cli.run(args) == 0  # as the console script does
total = time.process_time() - begun
print(imported, wrapped, total, *(spent.get(name, 0.0) for name in names))
"""

#: What ``--phases`` times in the one-animal change (inclusive CPU seconds, each once however
#: deep it recurses; a phase inside another is indented under it).
CHANGE_PHASES = [
    ("lock, sweep, inputs and manifest", "tts_builder.cli_build:Record.__init__", 0),
    ("definition", "tts_builder.definition:load_definition", 0),
    ("build_game", "tts_builder.build:build_game", 0),
    ("deck sheets", "tts_builder.render.components:deck_sheets", 1),
    ("preview", "tts_builder.gamekit.pictures:preview", 1),
    ("thumbnail", "tts_builder.gamekit.pictures:thumbnail", 1),
    ("Global script", "tts_builder.lua.scripts:global_script", 1),
    ("faces drawn (any picture)", "tts_builder.render.components:Sides.draw", 1),
    ("PNGs encoded (any picture)", "tts_builder.build:ImageSet.encode_png", 1),
    ("lint", "tts_builder.build:lint_build", 0),
    ("check", "tts_builder.build:check_build", 0),
    ("table.png", "tts_builder.cli_build:_table_png", 0),
    ("write", "tts_builder.writer:write_tree", 0),
]


def change_phases(game: str) -> None:
    """Where the one-animal change's CPU goes (``--phases``): the change rebuilt in one child
    through the CLI, as the console script runs it, with each phase of
    :data:`CHANGE_PHASES` timed; the rest is what no phase covers."""
    work = Path(tempfile.mkdtemp(prefix="bench-phases-"))
    try:
        out, assets = work / "dist", work / "assets"
        measure([*CLI, "build", game, "--out", str(out)])
        change_one_animal(copy_game(game, assets))
        names = ",".join(name for _label, name, _depth in CHANGE_PHASES)
        args = ["-q", "--assets", str(assets), "build", game, "--out", str(out)]
        cpu, _mb, text = measure([sys.executable, "-c", PHASES, *args, names])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    imported, wrapped, total, *spent = map(float, text.split())
    print(f"one-animal change by phase ({game}, one child, CPU seconds, inclusive):")
    print(f"  {'child in all':34s} {cpu:7.3f} s")
    print(f"  {'imports (cli)':34s} {imported:7.3f} s")
    print(f"  {'imports (the build modules timed)':34s} {wrapped:7.3f} s")
    print(f"  {'the command':34s} {total:7.3f} s")
    for (label, _name, depth), seconds in zip(CHANGE_PHASES, spent, strict=True):
        print(f"  {'  ' * (depth + 1)}{label:{32 - 2 * depth}s} {seconds:7.3f} s")
    phases = zip(CHANGE_PHASES, spent, strict=True)
    top = sum(seconds for (_label, _name, depth), seconds in phases if depth == 0)
    print(f"    {'rest of the command':32s} {total - top:7.3f} s")
    print(f"  {'interpreter, the rest':34s} {cpu - imported - wrapped - total:7.3f} s")


def copy_game(game: str, into: Path) -> Path:
    """A copy of a bundled game under ``into`` (an --assets folder); its game.yaml."""
    shutil.copytree(ASSETS / game, into / game)
    return into / game / "game.yaml"


def change_one_animal(definition: Path) -> str:
    """Change one animal's cards: the colour of the first animal of the roster that has one
    (Arche Noah, the flood game), else one pixel of the first animal's art (Ark & Noah's
    ``art:`` table); what was changed."""
    text = definition.read_text(encoding="utf-8")
    roster = r'(?m)^(  - \{name: [^\n]*color: )"#[0-9a-fA-F]{6}"'
    changed, count = re.subn(roster, r'\1"#123456"', text, count=1)
    if count == 1:
        definition.write_text(changed, encoding="utf-8")
        return "the first animal's colour"
    found = re.search(r"(?m)^art:\n  [^:\n]+: (\S+\.png)$", text)
    assert found, "no animal colour or art to change"
    from PIL import Image

    path = definition.parent / found.group(1)
    with Image.open(path) as img:
        img.load()
        pixel = img.getpixel((0, 0))
        img.putpixel((0, 0), tuple((v + 1) % 256 for v in pixel) if isinstance(pixel, tuple)
                     else (pixel + 1) % 256)  # fmt: skip
        img.save(path)
    return f"one pixel of {found.group(1)}"


def scale_roster(definition: Path, factor: int) -> None:
    """Repeat Arche Noah's animal roster ``factor`` times (copies renamed 'Name 2', ...)."""
    lines = definition.read_text(encoding="utf-8").splitlines(keepends=True)
    start = lines.index("animals:\n") + 1
    end = start
    while end < len(lines) and lines[end].startswith("  - {name: "):
        end += 1
    roster = lines[start:end]
    extra = [
        line.replace("{name: ", "{name: ", 1).replace(", color", f" {copy}, color", 1)
        for copy in range(2, factor + 1)
        for line in roster
    ]
    definition.write_text("".join(lines[:end] + extra + lines[end:]), encoding="utf-8")


def ratio_line(label: str, values: list[float], base: float, unit: str = "s") -> str:
    low, mid = min(values), statistics.median(values)
    return (
        f"  {label:34s} min {low:7.3f} {unit}  median {mid:7.3f} {unit}  "
        f"= {low / base:6.3f} x clean"
    )


def one_round(opts: argparse.Namespace, record: Callable[..., None]) -> None:
    """One round of every step, each recorded as (step, CPU seconds[, peak MB])."""
    work = Path(tempfile.mkdtemp(prefix="bench-build-"))
    try:
        out = work / "dist"
        games = [] if opts.game == "all" else [opts.game]
        build = [*CLI, "build", *games, "--out", str(out)]
        record("clean", *measure(build)[:2])
        record("no-op", *measure(build)[:2])
        warm = measure([sys.executable, "-c", WARM, *build[3:]])
        record("no-op in a warm process", float(warm[2].split()[-1]))
        if games:
            assets = work / "assets"
            print("one-animal change:", change_one_animal(copy_game(opts.game, assets)))
            changed = [*CLI, "--assets", str(assets), "build", opts.game, "--out", str(out)]
            record("one-animal change", *measure(changed)[:2])
            warm_change = measure([sys.executable, "-c", WARM_CHANGE, opts.game, str(assets),
                                   str(work / "warm-change")])  # fmt: skip
            warm_clean, warm_changed = map(float, warm_change[2].split()[-2:])
            record("clean, warm process", warm_clean)
            record("one-animal change, warm process", warm_changed)
            record("  change / clean, warm process", warm_changed / warm_clean)
            besides = measure([sys.executable, "-c", BESIDES_PICTURES, opts.game])
            labels = (
                "  assemble, all pictures cached",
                "  lint, no cache",
                "  check, no cache",
            )
            for step, value in zip(labels, besides[2].split()[-3:], strict=True):
                record(step, float(value))
        floor = measure([sys.executable, "-c", ENCODE, str(out)])  # every folder built
        record("encode floor (PNGs once)", float(floor[2].split()[-1]))
        record("interpreter + imports", *measure([sys.executable, "-c",
                                                  "import tts_builder.cli"])[:2])  # fmt: skip
        record("interpreter alone", *measure([sys.executable, "-c", "pass"])[:2])
        if games and opts.publish:
            folder = out / opts.game
            thumb = next(p.name for p in folder.glob("*.png")
                         if p.name not in ("preview.png", "table.png"))  # fmt: skip
            pub = measure([sys.executable, "-c", PUBLISH, str(folder), thumb])
            seconds, overall, worst = map(float, pub[2].split()[-3:])
            record("publish: optimise PNGs (CPU)", seconds)
            record("  published bytes / built", overall)
            record("  largest ratio of one PNG", worst)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(title: str, steps: dict[str, list[float]], memory: dict[str, list[float]]) -> None:
    """Print one table: every step's min and median, as a ratio to the clean build."""
    clean = min(steps["clean"])
    print(title)
    ratios = {"  change / clean, warm process": "ratio to the warm clean build",
              "  published bytes / built": "ratio of bytes, all published PNGs",
              "  largest ratio of one PNG": "ratio of bytes, the least shrunk PNG"}  # fmt: skip
    for step, values in steps.items():
        if step in ratios:  # already a ratio, paired within one round
            print(
                f"  {step:34s} min {min(values):7.3f}    median "
                f"{statistics.median(values):7.3f}    ({ratios[step]})"
            )
        else:
            print(ratio_line(step, values, clean))
    floor = min(steps["encode floor (PNGs once)"])
    print(
        f"  clean / encode floor: {clean / floor:.2f} "
        f"(warm process: {min(steps.get('clean, warm process', [clean])) / floor:.2f})"
    )
    if "  assemble, all pictures cached" in steps:
        besides = sum(
            min(steps[f"  {step}"])
            for step in ("assemble, all pictures cached", "lint, no cache", "check, no cache")
        )
        startup = min(steps["no-op"])  # interpreter, the CLI's imports, the manifest check
        print(
            f"  least clean / encode floor (floor + work besides pictures): "
            f"{(floor + besides) / floor:.2f} warm, {(floor + besides + startup) / floor:.2f} "
            "with a no-op CLI build's start-up"
        )
    print(
        f"  peak memory: clean {max(memory['clean']):.0f} MB, no-op {max(memory['no-op']):.0f} MB"
    )


def compare(before: dict[str, list[float]], after: dict[str, list[float]]) -> None:
    """After / before of every step, by its min and as its ratio to its own clean build."""
    print("after / before (min CPU of each step; each step's ratio to its own clean build):")
    for step, values in after.items():
        if step not in before or step.startswith("  ") or "clean" not in after:
            continue
        old, new = min(before[step]), min(values)
        old_ratio, new_ratio = old / min(before["clean"]), new / min(after["clean"])
        print(f"  {step:34s} {new / old:6.3f}   x clean: {old_ratio:6.3f} -> {new_ratio:6.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="arche-noah")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="1,2,4,6", help="deck-size factors (Arche Noah)")
    parser.add_argument("--no-sizes", action="store_true", help="skip the deck-size series")
    parser.add_argument("--publish", action="store_true",
                        help="also time publish's PNG optimiser (seconds per round)")  # fmt: skip
    parser.add_argument(
        "--baseline", type=Path, default=None, help="a checkout run in 'before' rounds"
    )
    parser.add_argument(
        "--phases", action="store_true", help="only where the one-animal change's CPU goes"
    )
    opts = parser.parse_args()
    print("command:", shlex.join([Path(sys.executable).name, *sys.argv]))
    if opts.phases:
        change_phases(opts.game)
        return
    trees = {"before": opts.baseline.resolve(), "after": None} if opts.baseline else {"": None}
    tables: dict[str, tuple[dict[str, list[float]], dict[str, list[float]]]] = {}
    for tree in trees.values():
        TREE[0] = tree
        measure([sys.executable, "-c", "import tts_builder.cli"])  # bytecode written once
    for _ in range(opts.repeat):
        for label, tree in trees.items():
            TREE[0] = tree
            steps, memory = tables.setdefault(label, ({}, {}))

            def record(step: str, seconds: float, mb: float = 0.0, steps=steps, memory=memory):
                steps.setdefault(step, []).append(seconds)
                memory.setdefault(step, []).append(mb)

            one_round(opts, record)
    TREE[0] = None
    for label, (steps, memory) in tables.items():
        where = f" [{label}: {trees[label] or ROOT}]" if label else ""
        title = f"{opts.game}, {opts.repeat} paired rounds (CPU seconds of each child){where}:"
        report(title, steps, memory)
    if opts.baseline:
        compare(tables["before"][0], tables["after"][0])
    if opts.no_sizes:
        return
    factors = [int(f) for f in opts.sizes.split(",")]
    print("deck-size series (Arche Noah, clean builds):")
    first = None
    for factor in factors:
        cpu, mb = [], []
        for _ in range(opts.repeat):
            work = Path(tempfile.mkdtemp(prefix="bench-deck-"))
            try:
                scale_roster(copy_game("arche-noah", work / "assets"), factor)
                seconds, peak, _ = measure([*CLI, "--assets", str(work / "assets"), "build",
                                            "arche-noah", "--out", str(work / "dist")])  # fmt: skip
                cpu.append(seconds)
                mb.append(peak)
            finally:
                shutil.rmtree(work, ignore_errors=True)
        first = first or (min(cpu), max(mb))
        print(
            f"  {factor}x ({40 * factor:3d} cards): CPU min {min(cpu):6.2f} s "
            f"({min(cpu) / first[0]:5.2f} x 1x), peak {max(mb):6.0f} MB "
            f"({max(mb) / first[1]:5.2f} x 1x)"
        )


if __name__ == "__main__":
    main()
