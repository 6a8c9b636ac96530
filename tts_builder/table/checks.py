"""The table manifest's cross-field checks (:func:`check_manifest`): what its keys' specs
(:mod:`.schema`) cannot say alone, every problem found in one run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..errors import FieldError, Problems, field_errors
from ..gamekit.checks import unique_names
from ..plugin import TableHooks
from ..save.tables import HAND_PLACEMENTS
from .derived import holds, left_off, resolved
from .layout import at_players
from .model import (
    Anchor,
    Guids,
    SeatSpot,
    TrackCell,
    at_of,
    guids_of,
    pieces_by_id,
    seat_colors,
    step_count,
    step_of,
)
from .model import Point as TablePoint
from .schema import (
    BOARD_WIDTH,
    KINDS,
    MAX_PICTURE_PX,
    SHAPED_WIDTH,
    SOURCES,
    deck_size,
    rosters_of,
)
from .track import check_track


@dataclass(frozen=True)
class _Known:
    """The names a manifest may use: its own and those its game hands it."""

    anchors: dict[str, Any]
    tracks: dict[str, Any]
    areas: dict[str, Any]
    pictures: dict[str, Any]
    seat_points: set[str]
    #: the game's tracks every seat has (``<name>:<colour>``), by name
    seat_tracks: set[str] = frozenset()  # type: ignore[assignment]
    #: tracks whose own data has a problem (reported there): their points are not known
    unsure: set[str] = frozenset()  # type: ignore[assignment]


def check_manifest(data: dict[str, Any], path: str = "table", hooks: TableHooks | None = None
                   ) -> None:  # fmt: skip
    """Cross-field checks: unique ids, known anchors, tracks, pictures, components and rosters
    of the right kind, seats at the table, player counts covered, enough pieces for every deal.
    ``hooks`` are the names the game supplies (:class:`~tts_builder.plugin.TableHooks`).
    Raises every problem found (a FieldErrors of several): one per piece, setup step, snap
    point and script name at most; a bad count or roster key stops it at once."""
    manifest = resolved(data, path)  # counts read from definition keys
    low, high = data["players"]["min"], data["players"]["max"]

    hooks = at_players(hooks or TableHooks(), high)  # the table laid for the most players
    hooks = replace(hooks, omit=hooks.omit | left_off(data, path))  # and each piece's ``when``
    components = data.get("components", {})
    rosters = rosters_of(data, hooks, path)
    problems = Problems()
    for name in manifest.get("rosters", {}):
        if name in hooks.rosters or name in data.get("rosters", {}):
            problems.add(f"{path}.rosters.{name}", f"roster {name!r} is listed already")
    seats = seat_colors(manifest)
    points = [set(s) - {"color", "facing"} for s in manifest["seats"] if isinstance(s, dict)]
    own = manifest.get("anchors", {})
    for name in own:
        if name in hooks.anchors or name in hooks.tracks:
            problems.add(f"{path}.anchors.{name}", f"{name!r} is a point the game supplies")
    tracks, unsure = _manifest_tracks(manifest, data, path, hooks, problems)
    known = _Known({**hooks.anchors, **own}, tracks, dict(hooks.areas),
                   dict(hooks.pictures),
                   set.intersection(*points) if len(points) == len(seats) else set(),
                   seat_tracks(TableHooks(tracks=tracks), seats), unsure)  # fmt: skip
    problems.run(unique_names, seats, f"{path}.seats[{{}}]", "seat colour {!r} listed twice")
    if len(seats) < high:
        problems.add(f"{path}.seats", f"expected at least {high} seats, got {len(seats)}")
    table_seats = HAND_PLACEMENTS[manifest["type"]]
    for i, colour in enumerate(seats):
        if colour not in table_seats:
            problems.add(f"{path}.seats[{i}]", f"{manifest['type']} has no seat {colour}")
    for i, snap in enumerate(manifest.get("snap_points", [])):
        problems.run(_check_snap, snap, f"{path}.snap_points[{i}]", known, data)
    ids = [piece["id"] for piece in manifest["pieces"]]
    problems.run(unique_names, ids, f"{path}.pieces[{{}}].id", "piece id {!r} listed twice")
    bad = {
        piece["id"]
        for i, piece in enumerate(manifest["pieces"])
        if not problems.run(
            _check_piece, piece, f"{path}.pieces[{i}]", components, rosters, known
        )  # fmt: skip
    }
    pieces = pieces_by_id(manifest)
    problems.run(_check_script, manifest.get("script", {}), f"{path}.script", manifest)
    taken: dict[tuple[str, int], int] = {}  # (source, players) -> dealt by the steps so far
    for i, step in enumerate(manifest.get("setup", [])):
        where = f"{path}.setup[{i}]"
        if not problems.run(_check_step, step, where, pieces, known, rosters, (low, high)):
            continue
        if step["deal"] in hooks.omit:
            problems.add(f"{where}.deal", f"{step['deal']!r} is not on the table in this game")
        elif step["deal"] not in bad:  # a bad piece's supply is not known
            problems.run(_check_supply, step, where, pieces[step["deal"]], rosters, (low, high),
                         taken)  # fmt: skip
    score = manifest.get("score")
    if score and not score["min"] <= score["start"] <= score["max"]:
        problems.add(f"{path}.score.start", f"expected within min..max "
                     f"({score['min']}..{score['max']}), got {score['start']}")  # fmt: skip
    problems.raise_any()


def _manifest_tracks(
    manifest: dict[str, Any], data: dict[str, Any], path: str, hooks: TableHooks,
    problems: Problems,
) -> tuple[dict[str, Any], set[str]]:  # fmt: skip
    """The tracks a manifest may name: the game's and each track piece's (its cells, and with
    ``seats`` each seat's place: ``<id>:<colour>``); and those whose data has a problem
    (added to ``problems``, their points unknown)."""
    tracks, unsure = dict(hooks.tracks), set()
    for i, piece in enumerate(manifest["pieces"]):
        if piece["kind"] != "track":
            continue
        where = f"{path}.pieces[{i}]"
        if piece["id"] in tracks:
            problems.add(f"{where}.id", f"{piece['id']!r} is a track the game supplies")
            continue
        try:
            tracks[piece["id"]] = range(check_track(piece, data, where))
        except FieldError as err:
            problems.found += field_errors(err)
            tracks[piece["id"]] = range(0)
            unsure.add(piece["id"])
            continue
        if "seats" in piece["track"]:
            tracks |= {f"{piece['id']}:{colour}": range(1) for colour in seat_colors(manifest)}
    return tracks, unsure


def _check_snap(snap: dict[str, Any], path: str, known: _Known, data: dict[str, Any]) -> None:
    """A snap point's place names what is known; its ``when`` reads keys the definition has."""
    _check_at(snap["at"], f"{path}.at", known)
    if "when" in snap:
        holds(snap["when"], data, f"{path}.when")


def _check_at(at: Any, path: str, known: _Known) -> None:
    """The names a place uses are known: its anchor, area, track (and cell), seat point or
    seat track."""
    place = at_of(at)
    match place:
        case Anchor(name, _, False):
            key, names, what = "anchor", known.anchors, "anchors"
        case Anchor(name, _, True):
            key, names, what = "area", known.areas, "areas"
        case TrackCell(name, _) if name in known.unsure:
            return  # its own problem is reported
        case TrackCell(name, _):
            key, names, what = "track", known.tracks, "tracks"
        case SeatSpot(None, str() as name, None):
            key, names, what = "seat", known.seat_points, "points of every seat"
        case SeatSpot(None, None, str() as name):
            key, names, what = "seat_track", known.seat_tracks, "tracks of every seat"
        case _:
            return
    if name not in names:
        listed = ", ".join(sorted(names)) or "none"
        raise FieldError(f"{path}.{key}", f"unknown {key} {name!r} ({what}: {listed})")
    if isinstance(place, TrackCell) and place.cell is not None:
        have = len(known.tracks[place.track])
        if place.cell >= have:
            raise FieldError(f"{path}.cell", f"track {name!r} has {have} points (0..{have - 1})")


def seat_tracks(hooks: TableHooks, seats: list[str]) -> set[str]:
    """The names of the game's tracks every seat has: a track ``<name>:<colour>`` per seat."""
    names = {name.rsplit(":", 1)[0] for name in hooks.tracks if ":" in name}
    return {n for n in names if all(f"{n}:{colour}" in hooks.tracks for colour in seats)}


def object_count(piece: dict[str, Any], rosters: dict[str, Any]) -> int:
    """How many objects a piece lays at each of its spots (a roster token: entries x count)."""
    count = piece.get("count", 1)
    if piece["kind"] == "token" and "roster" in piece:
        return len(rosters[piece["roster"]]) * count
    if piece["kind"] in ("bag", "infinite_bag") and "roster" in piece:
        return len(rosters[piece["roster"]])
    return count if piece["kind"] in ("token", "tile", "die", "bag") else 1


def _check_piece(
    piece: dict[str, Any], path: str, components: dict[str, Any], rosters: dict[str, Any],
    known: _Known,
) -> None:  # fmt: skip
    kind = piece["kind"]
    needs = KINDS[kind]
    _check_at(piece["at"], f"{path}.at", known)
    for key in _keys_not_for(kind):
        if key in piece:
            raise FieldError(f"{path}.{key}", f"a {kind} has no {key!r}")
    if "picture" in piece:
        _check_picture(piece, path, known)
    elif needs and "component" not in piece:
        raise FieldError(f"{path}.component", f"missing required key (a {kind} is drawn "
                         "from a component)")  # fmt: skip
    named = [("component", piece["component"])] if "component" in piece else []
    for key, name in named:
        if name not in components:
            listed = ", ".join(sorted(components)) or "none"
            raise FieldError(f"{path}.{key}", f"unknown component {name!r} (components: {listed})")
        sides = piece.get("contents", {}).get("sides", ["face"])
        has_faces = all(isinstance(components[name].get(side), list) for side in sides)
        if (needs == "die") == has_faces:
            want = "a die (faces, style)" if needs == "die" else "a layout (size, face)"
            raise FieldError(f"{path}.{key}", f"a {kind} needs {want} component; "
                             f"{name!r} is not one")  # fmt: skip
    if kind == "deck" and "roster" not in piece:
        raise FieldError(f"{path}.roster", "missing required key (a deck has one card "
                         "per roster entry)")  # fmt: skip
    if "roster" in piece and piece["roster"] not in rosters:
        listed = ", ".join(sorted(rosters)) or "none"
        raise FieldError(f"{path}.roster", f"unknown roster {piece['roster']!r} "
                         f"(rosters: {listed})")  # fmt: skip
    if kind == "deck" and deck_size(piece, rosters) < 2:
        raise FieldError(f"{path}.roster", "a deck holds at least 2 cards")
    if kind in ("deck", "card") and "back" not in components[piece["component"]]:
        raise FieldError(f"{path}.component", f"a {kind}'s component needs a back layout")
    if "back" in piece:
        _check_back(piece["back"], f"{path}.back", components, known)
    _check_shape(piece, path)
    _check_shape(piece.get("contents", {}), f"{path}.contents", piece)
    contents = piece.get("contents", {})
    if ("sides" in contents or "file" in contents) and (kind != "bag" or "shape" not in contents
                                                        or "roster" not in piece):  # fmt: skip
        raise FieldError(f"{path}.contents", "sides and file are for the shaped tiles of a "
                         "roster bag")  # fmt: skip
    if kind == "bag" and "roster" in piece and "count" in piece:
        raise FieldError(f"{path}.count", "a bag holds count tokens or one per roster entry, "
                         "not both")  # fmt: skip
    drawn_wide = "picture" in piece and known.pictures[piece["picture"]].width is not None
    drawn_wide = drawn_wide or "cell_width" in piece.get("track", {})
    if kind in ("board", "tile", "track") and "width" not in piece and not drawn_wide:
        raise FieldError(f"{path}.width", f"missing required key (the {kind}'s width on the "
                         "table, in TTS units)")  # fmt: skip
    if "width" in piece and "shape" not in piece:
        BOARD_WIDTH.check(piece["width"], f"{path}.width")
    at = at_of(piece["at"])
    covers_area = isinstance(at, Anchor) and at.area
    if kind == "zone" and "size" not in piece and not covers_area:
        raise FieldError(f"{path}.size", "missing required key (the zone's [x, z] size)")
    if covers_area != (kind == "zone" and "size" not in piece) and not isinstance(at, TablePoint):
        raise FieldError(f"{path}.at", "a zone lies at an area or has a size; only a zone "
                         "covers an area")  # fmt: skip
    along = isinstance(at, TrackCell) and at.cell is None and at.track not in known.unsure
    if along and ("count" in piece or "roster" in piece):
        have, need = len(known.tracks[at.track]), object_count(piece, rosters)  # type: ignore[union-attr]
        if need > have:
            raise FieldError(f"{path}.at.track", f"{need} objects but track {at.track!r} "
                             f"has {have} points")  # fmt: skip


def _check_shape(shaped: dict[str, Any], path: str, piece: dict[str, Any] | None = None) -> None:
    """A tile-shaped token (``shape``) is drawn from a layout component, ``width`` wide at
    rest; a plain token has no width (its ``scale`` sizes it)."""
    owner = piece or shaped
    if "shape" in shaped:
        if "component" not in owner:
            raise FieldError(f"{path}.shape", "a shaped token is drawn from a component")
        if "width" not in shaped:
            raise FieldError(f"{path}.width", "missing required key (a shaped token's side "
                             "or diameter at rest, in TTS units)")  # fmt: skip
        SHAPED_WIDTH.check(shaped["width"], f"{path}.width")
    elif "width" in shaped and owner["kind"] not in ("tile", "board", "track"):
        raise FieldError(f"{path}.width", "only a shaped token (shape) has a width")


def _check_back(name: str, path: str, components: dict[str, Any], known: _Known) -> None:
    """A tile's or board's other side: a picture the game draws, or a layout component."""
    if name in known.pictures and not known.pictures[name].faces:
        _check_pixels(name, path, known)
        return
    if name in components and "face" in components[name]:
        return
    listed = ", ".join(sorted({*known.pictures, *components})) or "none"
    raise FieldError(path, f"unknown picture or layout component {name!r} (known: {listed})")


def _check_picture(piece: dict[str, Any], path: str, known: _Known) -> None:
    """A piece drawn from a picture of the game's: known, a d6 texture for a die, no component."""
    name, kind = piece["picture"], piece["kind"]
    if "component" in piece:
        raise FieldError(f"{path}.picture", "a piece is drawn from a component or a picture, "
                         "not both")  # fmt: skip
    if name not in known.pictures:
        listed = ", ".join(sorted(known.pictures)) or "none"
        raise FieldError(f"{path}.picture", f"unknown picture {name!r} (the game draws: "
                         f"{listed})")  # fmt: skip
    if (kind == "die") != bool(known.pictures[name].faces):
        want = "a d6 texture (with faces)" if kind == "die" else "a picture, not a d6 texture"
        raise FieldError(f"{path}.picture", f"a {kind} needs {want}; {name!r} is not one")
    _check_pixels(name, f"{path}.picture", known)


def _check_pixels(name: str, path: str, known: _Known) -> None:
    """A picture the game draws is at most :data:`MAX_PICTURE_PX` a side when its size is
    known before drawing: else FieldError at the field that sizes it (or at ``path``)."""
    pixels = known.pictures[name].pixels
    if pixels is not None and pixels > MAX_PICTURE_PX:
        raise FieldError(
            known.pictures[name].sized_by or path,
            f"the {name} picture would be {pixels} px a side; at most {MAX_PICTURE_PX} load in TTS",
        )


#: Keys each kind takes beyond id, kind, at, name, tags, notes and when.
_KEYS: dict[str, frozenset[str]] = {
    "deck": frozenset({"component", "roster", "copies", "face_up", "contents"}),
    "card": frozenset({"component", "face_up", "locked"}),
    "token": frozenset(
        {
            "component",
            "picture",
            "roster",
            "count",
            "scale",
            "thickness",
            "stand_up",
            "numbered",
            "locked",
            "shape",
            "width",
        }
    ),
    "bag": frozenset(
        {
            "component",
            "picture",
            "roster",
            "count",
            "scale",
            "thickness",
            "locked",
            "contents",
            "tint",
            "order",
        }
    ),  # fmt: skip
    "infinite_bag": frozenset(
        {"component", "picture", "roster", "scale", "thickness", "locked", "contents"}
    ),
    "tile": frozenset(
        {
            "component",
            "picture",
            "count",
            "width",
            "thickness",
            "numbered",
            "locked",
            "back",
        }
    ),  # fmt: skip
    "board": frozenset({"component", "picture", "width", "thickness", "locked", "back"}),
    "track": frozenset({"track", "width", "thickness"}),
    "die": frozenset({"component", "picture", "count", "scale", "numbered", "step"}),
    "zone": frozenset({"size"}),
}
_OPTIONAL_KEYS = frozenset().union(*_KEYS.values())


def _keys_not_for(kind: str) -> Iterator[str]:
    yield from sorted(_OPTIONAL_KEYS - _KEYS[kind])


def _check_step(
    raw: dict[str, Any], path: str, pieces: dict[str, dict[str, Any]],
    known: _Known, rosters: dict[str, Any], players: tuple[int, int],
) -> None:  # fmt: skip
    low, high = players
    step = step_of(raw)
    source = pieces.get(step.deal)
    if source is None:
        raise FieldError(f"{path}.deal", f"unknown piece {step.deal!r} "
                         f"(pieces: {', '.join(sorted(pieces))})")  # fmt: skip
    if source["kind"] not in SOURCES:
        raise FieldError(f"{path}.deal", f"{step.deal!r} is a {source['kind']}; setup deals "
                         f"from a {', '.join(SOURCES)}")  # fmt: skip
    if isinstance(at_of(source["at"]), SeatSpot):
        raise FieldError(f"{path}.deal", f"{step.deal!r} lies at every seat; deal from a "
                         "shared piece")  # fmt: skip
    if "roster" in source and source["kind"] == "infinite_bag":
        raise FieldError(f"{path}.deal", f"{step.deal!r} is a bag per roster entry; deal "
                         "from one bag")  # fmt: skip
    if step.to is None and source["kind"] != "deck":
        raise FieldError(f"{path}.to", "only cards go to a hand; put tokens at a seat spot")
    if isinstance(step.to, TrackCell):
        raise FieldError(f"{path}.to.track", "setup deals to a spot, not along a track")
    if step.to is not None:
        _check_at(step.to, f"{path}.to", known)
    elif step.spread is not None:
        raise FieldError(f"{path}.spread", "a hand lays its cards out itself; spread is for spots")
    if not isinstance(step.count, int):
        seen: dict[int, int] = {}
        for i, (counts, _n) in enumerate(step.count):
            for j, n in enumerate(counts):
                if n in seen:
                    raise FieldError(f"{path}.count[{i}].players[{j}]", f"{n} players listed twice")
                seen[n] = i
        for n in range(low, high + 1):
            if n not in seen and n in (step.players or range(low, high + 1)):
                raise FieldError(f"{path}.count", f"no entry for {n} players")


def _check_supply(
    step: dict[str, Any], path: str, source: dict[str, Any], rosters: dict[str, Any],
    players: tuple[int, int], taken: dict[tuple[str, int], int],
) -> None:  # fmt: skip
    """Every player count's deals so far fit in the deck or bag (an infinite bag never ends)."""
    if source["kind"] == "infinite_bag":
        return
    have = (deck_size(source, rosters) if source["kind"] == "deck"
            else object_count(source, rosters))  # fmt: skip
    for n in range(players[0], players[1] + 1):
        need = taken.get((source["id"], n), 0) + step_count(step, n) * n
        taken[(source["id"], n)] = need
        if need > have:
            raise FieldError(f"{path}.count", f"{n} players need {need} from {source['id']!r}, "
                             f"which holds {have}")  # fmt: skip


def _check_script(script: dict[str, Any], path: str, manifest: dict[str, Any]) -> None:
    """The pieces and anchors ``script`` names are the manifest's (every problem, one per
    name)."""
    problems = Problems()
    for name, value in script.get("guids", {}).items():
        problems.run(_check_guids, guids_of(value), f"{path}.guids.{name}", pieces_by_id(manifest))
    for name in script.get("seats", {}):
        if any(not isinstance(s, dict) or name not in s for s in manifest["seats"]):
            problems.add(f"{path}.seats.{name}", f"not a point every seat names: {name!r}")
    anchors = manifest.get("anchors", {})
    for name, point in script.get("positions", {}).items():
        if point["anchor"] not in anchors:
            listed = ", ".join(sorted(anchors)) or "none"
            problems.add(
                f"{path}.positions.{name}.anchor",
                f"unknown anchor {point['anchor']!r} (the manifest's anchors: {listed})",
            )
    problems.raise_any()


def _check_guids(entry: Guids, path: str, pieces: dict[str, dict[str, Any]]) -> None:
    """The pieces one ``script.guids`` entry names are laid, at every seat for a ``by_seat``
    form."""
    if entry.listed:
        named = [(f"{path}[{i}]", piece) for i, piece in enumerate(entry.pieces)]
    else:
        named = [(path, entry.pieces[0])]
    for where, piece in named:
        if piece not in pieces:
            listed = ", ".join(sorted(pieces))
            raise FieldError(where, f"unknown piece {piece!r} (pieces: {listed})")
    at = at_of(pieces[entry.pieces[0]]["at"])
    if entry.form in ("by_seat", "first_by_seat") and not isinstance(at, SeatSpot):
        raise FieldError(
            path,
            f"{entry.pieces[0]!r} is not laid at every seat (its at names no seat or seat_track)",
        )
