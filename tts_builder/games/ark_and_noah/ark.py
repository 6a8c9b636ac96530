"""The Ark on the table: where a grid board of the definition's ``table.grids`` (:mod:`.grid`;
Ark & Noah's one, ``ark``) lies for each player count: its sections' boards, its spots as points
the manifest lays and snaps to, and the script positions that mean its printed spots.

A grid ``G`` is handed to the table manifest as the game's hooks (:func:`with_grids`, beside
the game's other hooks, :func:`~.boards.table_hooks`):
- its pictures: ``G-<kind>`` for each section kind (``G`` for a board in one piece), each as
  wide on the table as ``cell_width`` per cell says;
- the tracks ``G-<kind>`` (``G``): the centres of the sections of that kind on the table of
  the most players, so a ``kind: board`` piece ``at: {track: G-<kind>}`` lays them (a piece on a
  kind that table has none of is left off);
- per player count, the tracks ``G-cells``, ``G-edges`` (each point with the rotY along its
  edge: a snap point there turns a divider along it) and ``G-hull``, on the boards' top: the
  manifest's ``snap_points`` name them, and the script that lays the table out for the seated
  count sets that count's (:func:`~tts_builder.table.snaps.snap_points`).
The whole board is centred on the grid's ``at`` and reads upright for the first seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, NamedTuple

from PIL import Image

from ... import geometry as geo
from ...errors import FieldError
from ...plugin import Picture, TableHooks
from ...table.derived import left_off
from ...table.layout import THICKNESS, thickness_of, top_of
from ...table.model import TrackCell, along_track, at_of
from ...table.printed import Board, board, shared_rot_y
from .grid import (
    DEFAULT_NAMES,
    SPOT_SETS,
    Grid,
    cell_width,
    kinds_of,
    layout_for,
    picture_boxes,
    pictures_layout,
    render_pictures,
    section_offsets,
    section_width,
    whole,
)

Point = tuple[float, ...]


class GridPlan(NamedTuple):
    """A grid board on the table of one player count: its ``layout`` of sections, each
    section's (kind, Board), the whole grid's ``rows`` and ``cols``, and its spots: ``cells``
    and ``hull`` name -> [x, z], ``edges`` name -> [x, z, rotY]."""

    layout: list[str]
    sections: list[tuple[str, Board]]
    rows: int
    cols: int
    cells: dict[str, list[float]]
    edges: dict[str, list[float]]
    hull: dict[str, list[float]]


def _spec(data: Mapping[str, Any], grid: str, key: str) -> tuple[dict[str, Any], str]:
    return data[key]["grids"][grid], f"{key}.grids.{grid}"


def piece_name(grid: str, kind: str) -> str:
    """The name of a section kind's picture and track (``G-<kind>``; ``G`` for one piece)."""
    return f"{grid}-{kind}" if kind else grid


def grid_plan(data: Mapping[str, Any], grid: str, players: int, key: str = "table") -> GridPlan:
    """Where the grid ``grid``'s sections and spots lie on a table of ``players`` players."""
    spec, path = _spec(data, grid, key)
    section = Grid.of(spec, dict(data), path)
    layout = layout_for(spec, dict(data), players, path)
    g = whole(section, len(layout))
    unit = cell_width(spec, dict(data), path) / section.cell
    laid = board(spec["at"], g.size, g.size[0] * unit, shared_rot_y(data[key]))
    sections = []
    for kind, x0 in section_offsets(section, spec, layout):
        size = (section_width(section, spec, kind), g.size[1])
        centre = laid.at((x0 + size[0] / 2, size[1] / 2))
        sections.append((kind, board(centre, size, size[0] * unit, laid.transform.rot_y)))
    points = g.points()
    edges = {
        name: [*laid.at((x, y)), laid.angle(angle)]
        for name, (x, y, angle) in points["edges"].items()
    }
    cells = {name: laid.at(xy) for name, xy in points["cells"].items()}
    hull = {name: laid.at(xy) for name, xy in points["hull"].items()}
    return GridPlan(layout, sections, g.rows, g.cols, cells, edges, hull)


def spot_tracks(plan: GridPlan, grid: str, top: float) -> dict[str, list[Point]]:
    """A plan's spots as the manifest's tracks at height ``top``: ``G-cells``, ``G-edges``
    (each with its rotY) and ``G-hull``."""
    return {
        f"{grid}-cells": [(x, top, z) for x, z in plan.cells.values()],
        f"{grid}-edges": [(x, top, z, angle) for x, z, angle in plan.edges.values()],
        f"{grid}-hull": [(x, top, z) for x, z in plan.hull.values()],
    }


def _on_sections(data: Mapping[str, Any], key: str, grid: str) -> list[tuple[int, dict]]:
    """The manifest ``data[key]``'s pieces laid on the grid's section tracks (those its
    ``when`` leaves off: none), each with its index."""
    names = {piece_name(grid, kind) for kind in kinds_of(data[key]["grids"][grid]) or [""]}
    off = left_off(dict(data), key)
    return [
        (i, piece)
        for i, piece in enumerate(data[key]["pieces"])
        if _section_track(piece) in names and piece["id"] not in off
    ]


def _section_track(piece: Mapping[str, Any]) -> str | None:
    """The track a piece lies on (at one of its cells or along it), if any."""
    at = at_of(piece["at"])
    return at.track if isinstance(at, TrackCell) else None


def board_top(data: Mapping[str, Any], grid: str, key: str = "table") -> float:
    """The height of the grid's boards' top (the thickest piece laid on its sections)."""
    pieces = [piece for _i, piece in _on_sections(data, key, grid)]
    thickness = max((thickness_of(p) for p in pieces), default=THICKNESS)
    return top_of(thickness)


def grid_pictures(data: Mapping[str, Any], grid: str, key: str = "table") -> dict[str, Picture]:
    """Each section kind's picture (the one board's), cut from one drawing; each picture's
    spec (its cache key) is the layout it is drawn from and its box in it (the manifest
    refuses one larger than TTS loads, at the grid's ``cell``)."""
    spec, path = _spec(data, grid, key)
    layout = pictures_layout(spec, dict(data), path)
    unit = cell_width(spec, dict(data), path) / int(spec["cell"])
    drawn: dict[str, Image.Image] = {}

    def cut(kind: str) -> Image.Image:
        if not drawn:
            drawn.update(render_pictures(spec, dict(data), path))
        return drawn[kind]

    return {
        piece_name(grid, kind): Picture(
            {"grid": grid, "kind": kind, "layout": layout, "box": box},
            partial(cut, kind),
            width=(box[2] - box[0]) * unit,
            pixels=max(box[2] - box[0], box[3] - box[1]),
            sized_by=f"{path}.cell",
        )
        for kind, box in picture_boxes(spec, dict(data), path).items()
    }


def with_grids(data: Mapping[str, Any], key: str, hooks: TableHooks) -> TableHooks:
    """``hooks`` plus each of the manifest ``data[key]``'s grids: its pictures, its sections'
    tracks on the table of the most players, its spots' tracks per player count
    (``by_players``) and, left off, the pieces laid on a section kind that table has none of
    (:func:`check_grid_names` refuses a name the game's ``hooks`` have already)."""
    manifest = data[key]
    if not manifest.get("grids"):
        return hooks
    low, high = int(data["players"]["min"]), int(data["players"]["max"])
    pictures, tracks = dict(hooks.pictures), dict(hooks.tracks)
    by_players = {n: dict(hooks.by_players.get(n, {})) for n in range(low, high + 1)}
    omit = set(hooks.omit)
    for grid, spec in manifest["grids"].items():
        kinds = kinds_of(spec) or [""]
        for i, kind in enumerate(kinds):
            where = f"{key}.grids.{grid}.sections.kinds[{i}]"
            if kind in SPOT_SETS:
                raise FieldError(where, f"{kind!r} names the grid's spots: name it otherwise")
            if kind in kinds[:i]:
                raise FieldError(where, f"{kind!r} is listed twice: each kind is its own picture")
        pictures |= grid_pictures(data, grid, key)
        most = grid_plan(data, grid, high, key)
        for kind in kinds:
            tracks[piece_name(grid, kind)] = [
                (b.transform.pos[0], b.transform.pos[2]) for k, b in most.sections if k == kind
            ]
        on_sections = _on_sections(data, key, grid)
        _enough_sections(key, grid, most, [p for p in on_sections if p[1]["id"] not in omit])
        empty = {name for name in map(partial(piece_name, grid), kinds) if not tracks[name]}
        omit |= {p["id"] for _i, p in on_sections if _section_track(p) in empty}
        top = board_top(data, grid, key)
        for n in by_players:
            by_players[n] |= spot_tracks(grid_plan(data, grid, n, key), grid, top)
    return replace(
        hooks, pictures=pictures, tracks=tracks, by_players=by_players, omit=frozenset(omit)
    )


def check_grid_names(data: Mapping[str, Any], key: str, hooks: TableHooks) -> None:
    """Refuse (FieldError at ``grids.G``) a grid's picture or track whose name the game's
    ``hooks`` or an earlier grid of the manifest ``data[key]`` has already."""
    pictures = set(hooks.pictures)
    tracks = {*hooks.tracks, *(name for n in hooks.by_players.values() for name in n)}
    for grid, spec in data[key].get("grids", {}).items():
        boards = {piece_name(grid, kind) for kind in kinds_of(spec) or [""]}
        spots = {f"{grid}-{s}" for s in SPOT_SETS}
        for what, clash in (("picture", boards & pictures), ("track", (boards | spots) & tracks)):
            if clash:
                name = min(clash)
                raise FieldError(f"{key}.grids.{grid}", f"its {what} {name!r} is one already")
        pictures |= boards
        tracks |= boards | spots


def _enough_sections(key: str, grid: str, most: GridPlan, pieces: list[tuple[int, dict]]) -> None:
    """Refuse (FieldError at the last one's ``at``) the ``pieces`` (index, piece) on a section
    track that lay fewer boards than the table of the most players has sections of its kind (a
    board piece lays one at each point of its track, or one at its ``cell``)."""
    wanted = Counter(piece_name(grid, kind) for kind, _board in most.sections)
    laid: Counter[str] = Counter()
    last: dict[str, int] = {}
    for i, piece in pieces:
        track = str(_section_track(piece))
        laid[track] += wanted[track] if along_track(piece["at"]) else 1
        last[track] = i
    for track, i in last.items():
        if laid[track] < wanted[track]:
            raise FieldError(
                f"{key}.pieces[{i}].at",
                f"track {track!r}: its pieces lay {laid[track]} section(s), the layout "
                f"{most.layout} of the most players has {wanted[track]}",
            )


def section_keys(layout: Sequence[str], middle: str) -> list[str]:
    """Each section's key in a layout: its kind, the ``middle`` ones numbered
    (``middle:1``, ``middle:2``...), so a script can tell them apart."""
    middles = iter(range(1, len(layout) + 1))
    return [f"{middle}:{next(middles)}" if kind == middle else kind for kind in layout]


def section_guids(
    data: Mapping[str, Any],
    grid: str,
    layout: Sequence[str],
    guids: Mapping[str, list[str]],
    key: str = "table",
) -> list[str]:
    """The GUIDs of the section objects of ``layout`` as the table of the most players lays
    them (``guids``: the laid table's, by piece id), in layout order."""
    laid: dict[str, list[str]] = {}
    for _i, piece in _on_sections(data, key, grid):
        laid.setdefault(str(_section_track(piece)), []).extend(guids.get(piece["id"], []))
    taken = {name: iter(found) for name, found in laid.items()}
    return [next(taken[piece_name(grid, kind)]) for kind in layout]


def keyed_sections(
    data: Mapping[str, Any], grid: str, guids: Mapping[str, list[str]], key: str = "table"
) -> dict[str, str]:
    """Each section object's GUID by its key (:func:`section_keys`) on the table of the most
    players (``guids``: the laid table's, by piece id), in layout order."""
    spec, path = _spec(data, grid, key)
    layout = layout_for(spec, dict(data), int(data["players"]["max"]), path)
    found = section_guids(data, grid, layout, guids, key)
    return dict(zip(section_keys(layout, _middle(spec)), found, strict=True))


def section_moves(
    data: Mapping[str, Any],
    grid: str,
    plan: GridPlan,
    sections: Mapping[str, str],
    key: str = "table",
) -> tuple[list[dict[str, Any]], list[str]]:
    """What a script that lays the table out for ``plan``'s player count does with the
    sections of the most players' (``sections``: :func:`keyed_sections`): where it moves each
    of ``plan``'s (``{guid, pos, rot}``, pos and rot ``{x, y, z}``, in layout order), and the
    GUIDs of those it takes off the table."""
    keys = section_keys(plan.layout, _middle(_spec(data, grid, key)[0]))
    placed = [
        {
            "guid": sections[name],
            "pos": dict(zip("xyz", b.transform.pos, strict=True)),
            "rot": dict(zip("xyz", b.transform.rot, strict=True)),
        }
        for name, (_kind, b) in zip(keys, plan.sections, strict=True)
    ]
    return placed, [guid for name, guid in sections.items() if name not in keys]


def _middle(spec: Mapping[str, Any]) -> str:
    """The middle section kind ("" for a board in one piece)."""
    kinds = kinds_of(dict(spec))
    return kinds[1] if kinds else ""


def grid_positions(
    data: Mapping[str, Any],
    grid: str,
    plan: GridPlan,
    guids: Sequence[str],
    key: str = "table",
) -> list[geo.ScriptPosition]:
    """A script position at each of ``plan``'s cells, edges and hull points, each on the
    section under it (``guids``: the section objects in the plan's order), meaning the spot
    printed there within its ``half`` size (the grid's ``spots``): at its table point, on the
    boards' top."""
    spec, path = _spec(data, grid, key)
    section = Grid.of(spec, dict(data), path)
    g = whole(section, len(plan.layout))
    y = board_top(data, grid, key)
    offsets = section_offsets(section, spec, plan.layout)
    bounds = [
        (x0, b, guid)
        for (_kind, b), guid, (_k, x0) in zip(plan.sections, guids, offsets, strict=True)
    ]
    own = spec.get("spots", {})
    names = {s: own.get(s, {}).get("name", DEFAULT_NAMES[s]) for s in SPOT_SETS}
    default = {"cells": g.cell / 2, "edges": g.cell / 10, "hull": g.margin / 2}
    half = {s: float(own.get(s, {}).get("half", default[s])) for s in SPOT_SETS}

    def on(
        spots: str,
        name: str,
        xz: list[float],
        px: Sequence[float],
        size: tuple[float, float],
        probe: float = 0.0,
    ) -> geo.ScriptPosition:
        """On the section under ``px`` (``probe`` px to its left: an edge on a seam belongs
        to the left section)."""
        x0, b, guid = next((s for s in reversed(bounds) if px[0] + probe >= s[0]), bounds[0])
        label = f"{names[spots]} {name}"
        return b.cell(label, guid, (px[0] - x0, px[1]), size, spots, y, xz)

    points = g.points()
    cell, hull = half["cells"], half["hull"]
    found = [
        on("cells", name, plan.cells[name], px, (cell, cell))
        for name, px in points["cells"].items()
    ]
    for name, (x, y_px, angle) in points["edges"].items():
        size = (g.cell / 2, half["edges"]) if angle == 0 else (half["edges"], g.cell / 2)
        found.append(on("edges", name, plan.edges[name][:2], (x, y_px), size, -1))
    return found + [
        on("hull", name, plan.hull[name], px, (hull, hull)) for name, px in points["hull"].items()
    ]
