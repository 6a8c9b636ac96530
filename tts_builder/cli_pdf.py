"""``tts-builder pdf``: a game's print-and-play PDF (see :mod:`tts_builder.pnp`).

The game is built as ``build`` builds it (through the cache in ``<out>/.cache``), then its
save's pieces are laid out on pages and written to
``<out>/print_and_play/<game>/print.pdf``, a folder no build replaces (no game id holds an
underscore). reportlab is a core dependency: the PDF is as much the designer's as the save.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .pnp import DUPLEX, MAX_BLEED_MM, PAPERS

if TYPE_CHECKING:
    from .cli import Reporter

#: Where PDFs go under ``--out``.
FOLDER = "print_and_play"


@click.command()
@click.argument("game")
@click.option("--variant", help="Print this variant of the game.")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option(
    "--bleed",
    type=click.FloatRange(0, MAX_BLEED_MM),
    default=0.0,
    show_default=True,
    help="Millimetres of each picture's edge printed beyond its cut line (fewer fit a page).",
)
@click.option(
    "--duplex",
    type=click.Choice(DUPLEX),
    default="long",
    show_default=True,
    help="The edge your printer flips the sheet on: backs are placed to meet their fronts.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Build folder (default: dist/ in the current folder).",
)
@click.pass_obj
def pdf(
    report: Reporter,
    game: str,
    variant: str | None,
    paper: str,
    bleed: float,
    duplex: str,
    out_dir: Path | None,
) -> None:
    """Write GAME's print-and-play PDF: every card, tile and token at true size with crop
    marks, backs for double-sided printing, boards over several pages, and a cover listing
    the components."""
    from .build import DEFAULT_OUT, BuildOptions, build_game
    from .cache import locked
    from .definition import find_game
    from .pnp import pieces, render_pdf
    from .sources import output_folder
    from .writer import write_file

    find_game(game, report.assets)  # a one-line error for an unknown game, before anything else
    out = (out_dir or DEFAULT_OUT).resolve()
    with locked(out) as store:
        build = build_game(game, BuildOptions(out_dir=out, variant=variant), store, report.assets)
    items, skipped = pieces(build.save, build.files)
    data = render_pdf(build.definition.name, items, skipped, paper, bleed, duplex)
    path = out / FOLDER / output_folder(game, variant) / "print.pdf"
    write_file(path, data)
    count = sum(1 if item.infinite else item.copies for item in items)
    report(f"wrote {path}: {count} pieces of {len(items)} kinds on {paper.upper()}")


def register(group: click.Group) -> None:
    """Add ``pdf`` to ``group``."""
    group.add_command(pdf)
