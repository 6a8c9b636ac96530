"""A manifest laid on the table: its save objects, the scripts' data and the checked positions
(longer than 500 lines: one builder per piece kind, deck to zone, on one layer's state of
GUIDs, deck ids and faces, read together).

:func:`lay_table` is pure apart from rendering through :class:`~.art.Art`: it builds every
piece with the :mod:`tts_builder.save.objects` builders at the sizes, heights and rotations of
:mod:`tts_builder.geometry`, one HandTrigger per seat, and hands the scripts every spot Setup
deals to (``steps``) as data, so no position is computed twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from .. import geometry as geo
from ..gamekit.table import hand_zones
from ..plugin import TableHooks
from ..save import objects as obj
from .art import Art
from .derived import left_off, resolved
from .fields import card_fields, filled, seat_fields
from .layout import (
    BAG_LIFT,
    CARD_LIFT,
    THICKNESS,
    SeatFrame,
    Spot,
    _rounded,
    at_players,
    hand_slots,
    row,
    seat_frames,
    seat_track,
    spot_for_seat,
    spots,
    thickness_of,
)
from .model import Anchor, SeatSpot, SetupStep, along_track, at_of, pieces_by_id, step_of
from .printed import manifest_tracks
from .schema import BAG_ORDERS, SHAPES, deck_entries, rosters_of
from .snaps import snap_points
from .track import track_picture

DEFAULT_TOKEN_SCALE = 0.4
DIE_STEP = 1.2  # dice of one piece lie in a row, this far apart along x (unless its step says)


@dataclass
class Table:
    """What a manifest puts on the table."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    #: piece id -> the GUIDs of its objects (one per copy or seat), in table order
    guids: dict[str, list[str]] = field(default_factory=dict)
    #: the scripts' view: seats, pieces and every setup step's spots
    context: dict[str, Any] = field(default_factory=dict)
    #: where the scripts put things (``geometry.ScriptPosition``), for checks and the picture
    positions: list[geo.ScriptPosition] = field(default_factory=list)
    #: (label, component, side, fields) of every distinct face, for previews
    faces: list[tuple[str, str, str, dict[str, Any]]] = field(default_factory=list)
    #: piece id -> the GUIDs of the objects inside its bags, in order
    contents: dict[str, list[str]] = field(default_factory=dict)
    #: the save's SnapPoints (``snap_points`` of the manifest, for the most players)
    snap_points: list[dict[str, Any]] = field(default_factory=list)


def title(piece: dict[str, Any]) -> str:
    """A piece's nickname: its ``name``, else its id as words (``flower-cards`` -> Flower cards)."""
    return piece.get("name") or piece["id"].replace("-", " ").capitalize()


def card_name(deck: dict[str, Any], card: dict[str, Any], default: str) -> str:
    """A deck card's name: the deck's ``contents.name`` printing the card's fields, else its
    roster entry's ``name``, else ``default``."""
    if "name" in deck.get("contents", {}):
        return str(filled(deck["contents"]["name"], card))
    return str(card.get("name", default))


def notes_of(piece: dict[str, Any], fields: dict[str, Any]) -> str:
    """A piece's GM notes: its text, or its mapping as JSON, with the object's fields filled."""
    notes = piece.get("notes", "")
    if not isinstance(notes, dict):
        return str(filled(notes, fields)) if fields else notes
    return json.dumps({k: filled(v, fields) if isinstance(v, str) else v
                       for k, v in notes.items()})  # fmt: skip


class _Layer:
    """Builds one manifest's objects, allocating GUIDs and deck ids as it goes."""

    def __init__(self, data: dict[str, Any], key: str, art: Art, guids: Any,
                 hooks: TableHooks | None = None) -> None:  # fmt: skip
        self.data = data
        self.manifest = resolved(data, key)  # counts read from definition keys
        self.art = art
        self.guids = guids
        #: the table is laid out for the most players (their own tracks: ``by_players``)
        self.players = int(data["players"]["max"])
        self.hooks = with_tracks(data, key, at_players(hooks or TableHooks(), self.players))
        self.hooks = replace(self.hooks, omit=self.hooks.omit | left_off(data, key))  # ``when``
        if art is not None:  # the tracks' pictures join the game's
            for name, picture in self.hooks.pictures.items():
                art.pictures.setdefault(name, picture)
        self.rosters = rosters_of(data, self.hooks, key)
        self.table = Table()
        self.next_deck_id = 1
        self.frames = seat_frames(self.manifest)
        self.track: list[Spot] = []  # the spots of the piece being laid along a track
        self._seat_printed: dict[tuple[str, str], bool] = {}  # see _prints_seat

    def add(self, piece: dict[str, Any], made: dict[str, Any]) -> None:
        self.table.objects.append(made)
        self.table.guids.setdefault(piece["id"], []).append(made["GUID"])

    # --- pieces -----------------------------------------------------------------------------

    def lay(self, piece: dict[str, Any]) -> None:
        if piece["id"] in self.hooks.omit:
            return
        at = at_of(piece["at"])
        places = spots(at, self.manifest, self.hooks)
        on_track = along_track(at)
        self.track = places if on_track else []
        for n, spot in enumerate(places[:1] if on_track else places):
            if isinstance(at, SeatSpot) and at.track is not None:
                self.track = seat_track(at.track, spot.seat, self.hooks)  # type: ignore[arg-type]
            where = f"{piece['id']}:{spot.seat.color}" if spot.seat else piece["id"]
            name = title(piece)
            if spot.seat:  # named after its seat, or with the seat's fields when it prints them
                fields = self._fields(spot)
                name = str(filled(name, fields)) if "{" in name else f"{spot.seat.color} {name}"
            getattr(self, f"_{piece['kind']}")(piece, spot, where, name, n)
        self.track = []

    def _nth(self, spot: Spot, i: int, rise: float) -> tuple[Spot, float]:
        """Where a piece's object ``i`` lies: its point of the track, else ``spot`` (with the
        height ``rise`` above the spot's, for a pile); and that height."""
        at = self.track[i] if self.track else spot
        base = geo.TABLE_TOP_Y if at.y is None else at.y
        return at, base + (0.0 if self.track else rise)

    def _count(self, piece: dict[str, Any]) -> int:
        """How many objects a piece lays: its ``count``; on a track without one, one per point."""
        return int(piece.get("count", len(self.track) if self.track else 1))

    def _numbered(self, piece: dict[str, Any], name: str, i: int) -> str:
        """An object's nickname: the piece's, numbered from 1 when the piece says ``numbered``."""
        return f"{name} {i + 1}" if piece.get("numbered") else name

    def _fields(self, spot: Spot) -> dict[str, Any]:
        """The {fields} a piece at a seat may print: ``seat`` and ``seat_color`` (#rrggbb),
        and the seat's own fields the game hands over (``TableHooks.seats``: a character's name)."""
        if not spot.seat:
            return {}
        return {**self._seat_extra(spot.seat.slot), **seat_fields(spot.seat.color)}

    def _seat_extra(self, slot: int) -> dict[str, Any]:
        """The seat's own fields the game hands over (slot is 1-based; none: {})."""
        own = self.hooks.seats
        return dict(own[slot - 1]) if slot <= len(own) else {}

    def _prints_seat(self, component: str, side: str = "face") -> bool:
        """Whether a component's side prints a seat's field (so each seat gets its own
        picture); worked out once per side."""
        if (component, side) not in self._seat_printed:
            layout = self.data["components"][component][side]
            text, extra = json.dumps(layout), self._seat_extra(1)
            printed = uses_seat(layout) or any(f"{{{key}}}" in text for key in extra)
            self._seat_printed[component, side] = printed
        return self._seat_printed[component, side]

    def _url(self, component: str | None, side: str, spot: Spot, piece: Any = None) -> str:
        """A side's picture, drawn for the piece's seat when its layout prints the seat; or
        the game's picture the piece names."""
        if component is None:  # a piece drawn from the game's picture
            return self.art.picture_url(piece["picture"])
        if spot.seat and self._prints_seat(component, side):
            suffix = f"-{spot.seat.color.lower()}"
            return self.art.side_url(component, side, self._fields(spot), suffix)
        return self.art.side_url(component, side)

    def _info(self, piece: dict[str, Any], name: str,
              fields: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
        info = {"nickname": name, "tags": list(piece.get("tags", [])),
                "gm_notes": notes_of(piece, fields or {})}  # fmt: skip
        if "description" in piece:
            info["description"] = str(filled(piece["description"], fields or {}))
        return info

    def _deck(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        """One card per roster entry and copy; each distinct face once on the sheets (copies
        share their face's CardID, as TTS allows)."""
        component = piece["component"]
        entries = deck_entries(piece, self.rosters)
        faces: list[dict[str, Any]] = []
        for entry in entries:
            if entry not in faces:
                faces.append(entry)
        back_url = self.art.side_url(component, "back")
        flip = 0.0 if piece.get("face_up") else 180.0
        at = obj.transform((spot.x, geo.TABLE_TOP_Y, spot.z), (0.0, spot.rot_y, flip))
        ids: list[tuple[int, dict[str, Any]]] = [(0, {})] * len(faces)  # (CardID, sheet entry)
        for sheet in self.art.sheets(component, [card_fields(f) for f in faces], piece["id"]):
            plan = sheet.plan
            entry = obj.custom_deck_entry(sheet.url, back_url, plan.num_width, plan.num_height)
            deck_id = self.next_deck_id
            self.next_deck_id += 1
            for slot, index in enumerate(plan.indexes):
                ids[index] = (obj.card_id(deck_id, slot), entry)
        made = []
        cards = [e for e in entries for _ in range(piece.get("copies", 1))]
        inner = {**piece, **piece.get("contents", {})}
        for index, card in enumerate(cards):
            info = self._info(inner, card_name(piece, card, name), card)
            if "notes" not in piece.get("contents", {}):  # by default a card notes its entry
                info["gm_notes"] = json.dumps(card, sort_keys=True, ensure_ascii=False)
            card_id, entry = ids[faces.index(card)]
            guid = self.guids.guid(f"card:{where}:{index}")
            made.append(obj.card(guid, card_id, entry, transform=at, **info))
        self.add(piece, obj.deck(self.guids.guid(f"deck:{where}"), made, transform=at,
                                 **self._info(piece, name)))  # fmt: skip
        if n == 0:
            self.table.faces.append((f"{title(piece)} back", component, "back", {}))
            for face in faces:
                label = card_name(piece, face, title(piece))
                self.table.faces.append((label, component, "face", card_fields(face)))

    def _card(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        """A single card with its own one-card sheet (e.g. a start player card)."""
        component = piece["component"]
        entry = obj.custom_deck_entry(self._url(component, "face", spot),
                                      self._url(component, "back", spot), 1, 1)  # fmt: skip
        flip = 0.0 if piece.get("face_up") else 180.0
        at = obj.transform((spot.x, geo.TABLE_TOP_Y, spot.z), (0.0, spot.rot_y, flip))
        made = obj.card(self.guids.guid(f"card:{where}"), obj.card_id(self.next_deck_id, 0),
                        entry, transform=at, **self._info(piece, name))  # fmt: skip
        self.next_deck_id += 1
        if piece.get("locked"):
            made["Locked"] = True
        self.add(piece, made)
        self._face_once(piece, spot, n)
        if n == 0:
            self.table.faces.append((f"{title(piece)} back", component, "back", {}))

    def _token_obj(self, piece: dict[str, Any], key: str, name: str, at: Any, spot: Spot,
                   url: str = "", fields: dict[str, Any] | None = None
                   ) -> dict[str, Any]:  # fmt: skip
        drawn = self.art.pictures.get(piece.get("picture", "")) if self.art else None
        scale = float(piece.get("scale", (drawn and drawn.scale) or DEFAULT_TOKEN_SCALE))
        url = url or self._url(piece.get("component"), "face", spot, piece)
        if "shape" in piece:
            return self._shaped(piece, key, name, at, url, fields or self._fields(spot))
        extra = {"stand_up": True} if piece.get("stand_up") else {}
        return obj.custom_token(
            self.guids.guid(key), url, thickness=thickness_of(piece),
            stackable=False,  # the scripts hand tokens out one by one; a stack would hide them
            locked=bool(piece.get("locked", False)), **extra,
            transform=obj.transform(at[0], at[1], (scale, 1.0, scale)),
            **self._info(piece, name, fields or self._fields(spot)),
        )  # fmt: skip

    def _shaped(self, piece: dict[str, Any], key: str, name: str, at: Any, url: str,
                fields: dict[str, Any], back: str = "") -> dict[str, Any]:  # fmt: skip
        """A token shaped as a Custom_Tile (``shape``): ``width`` across at rest, its picture's
        aspect along z, lying at ``at`` ((x, y, z), (0, rotY, 0))."""
        w_px, h_px = self.art.size(piece["component"])
        width = float(piece["width"])
        (x, y, z), (_rx, rot_y, _rz) = at
        laid = geo.tile_transform_for((x, z), (width, width * h_px / w_px), w_px / h_px, rot_y, y)
        return obj.custom_tile(
            self.guids.guid(key), url, back, tile_type=SHAPES[piece["shape"]],
            thickness=thickness_of(piece),
            locked=bool(piece.get("locked", False)), transform=laid.as_save(),
            **self._info(piece, name, fields),
        )  # fmt: skip

    def _token(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        if "roster" in piece:
            self._roster_tokens(piece, spot, where, n)
            return
        for i in range(self._count(piece)):
            place, y = self._nth(spot, i, thickness_of(piece) * i)
            at = ((place.x, y, place.z), (0.0, place.rot_y, 0.0))
            key = f"token:{where}:{i}"
            self.add(piece, self._token_obj(piece, key, self._numbered(piece, name, i), at, spot))
        self._face_once(piece, spot, n)

    def _roster_tokens(self, piece: dict[str, Any], spot: Spot, where: str, n: int) -> None:
        """``count`` tokens per roster entry, each entry's face drawn with its fields
        (``images/<component>-face-<k>.png``, the k-th distinct entry: equal entries share it
        and are numbered among themselves), named after the entry, GM notes its entry (with
        ``piece``: the object's number, 0-based, in the piece's order)."""
        component, count = piece["component"], piece.get("count", 1)
        thickness = thickness_of(piece)
        distinct: list[dict[str, Any]] = []
        made_of: dict[int, int] = {}  # distinct entry -> objects made of it so far
        entries = [e for e in self.rosters[piece["roster"]] for _ in range(count)]
        for i, entry in enumerate(entries):
            if entry not in distinct:
                distinct.append(entry)
            k = distinct.index(entry)
            fields = {**card_fields(entry), **self._fields(spot)}
            url = self.art.side_url(component, "face", fields, f"-{k + 1}")
            label = str(entry.get("name", title(piece)))
            j = made_of[k] = made_of.get(k, -1) + 1
            if n == 0 and j == 0:
                self.table.faces.append((label, component, "face", fields))
            place, y = self._nth(spot, i, thickness * i)
            at = ((place.x, y, place.z), (0.0, place.rot_y, 0.0))
            nickname = self._numbered(piece, label, j)
            made = self._token_obj(piece, f"token:{where}:{i}", nickname, at, spot, url=url)
            made["GMNotes"] = json.dumps({**entry, "piece": i}, sort_keys=True, ensure_ascii=False)
            self.add(piece, made)

    def _face_once(self, piece: dict[str, Any], spot: Spot, n: int) -> None:
        """The piece's faces for the preview: once, or once per seat if they print the seat
        (a game's picture: once, as ``(label, picture, "picture", {})``)."""
        if "picture" in piece:
            face = (title(piece), piece["picture"], "picture", {})
            if face not in self.table.faces:
                self.table.faces.append(face)
            return
        component = piece["component"]
        if n > 0 and not (spot.seat and self._prints_seat(component)):
            return
        label = title(piece)
        fields = self._fields(spot) if spot.seat and self._prints_seat(component) else {}
        if fields:  # its name printing the seat's fields (Red worker), else with the seat
            shown = str(filled(label, fields))
            label = shown if shown != label else f"{label} ({spot.seat.color})"
        face = (label, component, "face", fields)
        if face not in self.table.faces:
            self.table.faces.append(face)

    def _bag(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        """A bag of ``count`` tokens, or of one per roster entry (each drawn with its entry's
        fields); tinted ``tint`` (#rrggbb, or a field of the bag's), handing them out in
        ``order``."""
        inner = {**piece, **piece.get("contents", {})}
        seat = self._fields(spot)
        entries = (
            self.rosters[piece["roster"]] if "roster" in piece else [{}] * piece.get("count", 1)
        )
        distinct = [e for i, e in enumerate(entries) if e and e not in entries[:i]]
        inside = []
        for i, entry in enumerate(entries):
            fields = {**card_fields(entry), **seat}
            urls = ["", ""]
            if entry:  # a picture per distinct entry (and per seat, at a seat)
                k = distinct.index(entry) + 1
                seat_part = f"-{spot.seat.color.lower()}" if spot.seat else ""
                urls = [self._entry_url(inner, side, fields, f"-{piece['id']}-{k}{seat_part}")
                        for side in inner.get("sides", ["face", None])]  # fmt: skip
            key, label = f"token:{where}:{i}", str(filled(title(inner), fields))
            at = ((0.0, 0.0, 0.0), (0.0, spot.rot_y, 0.0))
            if "sides" in inner:  # a double-sided tile: its two layouts
                made = self._shaped(inner, key, label, at, urls[0], fields, urls[1])
            else:
                made = self._token_obj(inner, key, label, at, spot, url=urls[0], fields=fields)
            inside.append(made)
        self.table.contents[piece["id"]] = [o["GUID"] for o in inside]
        at = obj.transform((spot.x, self._nth(spot, 0, 0.0)[1] + BAG_LIFT, spot.z),
                           (0.0, spot.rot_y, 0.0))  # fmt: skip
        info = self._info(piece, name, seat)
        if "tint" in piece:
            tint = str(filled(piece["tint"], seat)).lstrip("#")
            info["color"] = tuple(round(int(tint[k : k + 2], 16) / 255, 4) for k in (0, 2, 4))
        self.add(piece, obj.bag(self.guids.guid(f"bag:{where}"), inside, transform=at,
                                order=BAG_ORDERS[piece.get("order", "lifo")],
                                locked=bool(piece.get("locked", False)), **info))  # fmt: skip
        if "sides" not in inner:
            self._face_once(piece, spot, n)
        elif n == 0:  # each distinct tile's two sides
            for entry in distinct:
                fields = {**card_fields(entry), **seat}
                label = str(filled(title(inner), fields))
                for side in inner["sides"]:
                    self.table.faces.append((label, inner["component"], side, fields))

    def _entry_url(self, inner: dict[str, Any], side: str | None, fields: dict[str, Any],
                   suffix: str) -> str:  # fmt: skip
        """A roster bag's token side (``images/<component>-<side><suffix>.png``, or
        ``images/<file>-<side>.png`` when the contents name their ``file``); "" for none."""
        if side is None:
            return ""
        if "file" in inner:
            name = f"{filled(inner['file'], fields)}-{side}"
            return self.art.sides.png(name, inner["component"], side, fields)
        return self.art.side_url(inner["component"], side, fields, suffix)

    def _infinite_bag(self, piece: dict[str, Any], spot: Spot, where: str, name: str,
                      n: int) -> None:  # fmt: skip
        if "roster" in piece:
            self._roster_bags(piece, spot, where, name)
            return
        inner = {**piece, **piece.get("contents", {})}
        template = self._token_obj(inner, f"token:{where}:template", title(inner),
                                   ((0.0, 0.0, 0.0), (0.0, spot.rot_y, 0.0)), spot)  # fmt: skip
        at = obj.transform((spot.x, self._nth(spot, 0, 0.0)[1] + BAG_LIFT, spot.z),
                           (0.0, spot.rot_y, 0.0))  # fmt: skip
        self.add(piece, obj.infinite_bag(self.guids.guid(f"bag:{where}"), template, transform=at,
                                         locked=bool(piece.get("locked", False)),
                                         **self._info(piece, name)))  # fmt: skip
        self._face_once(piece, spot, n)

    def _roster_bags(self, piece: dict[str, Any], spot: Spot, where: str, name: str) -> None:
        """An infinite bag per roster entry (at a track: one per point, in order), each of
        tokens drawn with the entry's fields (``images/<component>-face-<k>.png``), named,
        noted and titled with them."""
        inner = {**piece, **piece.get("contents", {})}
        component = piece["component"]
        for i, entry in enumerate(self.rosters[piece["roster"]]):
            fields = {**card_fields(entry), **self._fields(spot)}
            url = self.art.side_url(component, "face", fields, f"-{i + 1}")
            place, y = self._nth(spot, i, 0.0)
            label = filled(title(inner), fields)
            self.table.faces.append((str(label), component, "face", fields))
            template = self._token_obj(inner, f"token:{where}:{i}", str(label),
                                       ((0.0, 0.0, 0.0), (0.0, place.rot_y, 0.0)), place,
                                       url=url, fields=fields)  # fmt: skip
            at = obj.transform((place.x, y + BAG_LIFT, place.z), (0.0, place.rot_y, 0.0))
            self.add(piece, obj.infinite_bag(self.guids.guid(f"bag:{where}:{i}"), template,
                                             transform=at, locked=bool(piece.get("locked", False)),
                                             **self._info(piece, str(filled(name, fields)),
                                                          fields)))  # fmt: skip

    def _tile_obj(self, piece: dict[str, Any], key: str, name: str, spot: Spot, y: float,
                  locked: bool) -> dict[str, Any]:  # fmt: skip
        component = piece.get("component")
        if component is None:  # the game's picture
            drawn = self.art.pictures[piece["picture"]]
            width_px, height_px = self.art.picture(piece["picture"]).size
            width = float(piece.get("width", drawn.width or 0.0))
        else:
            width_px, height_px = self.art.size(component)
            width = float(piece["width"])
        at = obj.laid_transform((spot.x, spot.z), (width, width * height_px / width_px),
                                (width_px, height_px), geo.reader_rot_y(spot.rot_y), y)  # fmt: skip
        return obj.custom_tile(self.guids.guid(key), self._url(component, "face", spot, piece),
                               self._back_url(piece),
                               thickness=thickness_of(piece), locked=locked,
                               transform=at, **self._info(piece, name))  # fmt: skip

    def _back_url(self, piece: dict[str, Any]) -> str:
        """The picture of a tile's other side (``back``: the game's picture or a component's
        face), or "" for a plain back."""
        name = piece.get("back")
        if name is None:
            return ""
        if name in self.art.pictures:
            return self.art.picture_url(name)
        return self.art.side_url(name, "face")

    def _tile(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int,
              locked: bool = False) -> None:  # fmt: skip
        for i in range(self._count(piece)):
            key = f"tile:{where}:{i}"
            place, y = self._nth(spot, i, thickness_of(piece) * i)
            label = self._numbered(piece, name, i)
            locks = bool(piece.get("locked", locked))
            self.add(piece, self._tile_obj(piece, key, label, place, y, locks))
        self._face_once(piece, spot, n)
        if n == 0 and "back" in piece:
            side = "picture" if piece["back"] in self.art.pictures else "face"
            self.table.faces.append((f"{title(piece)} back", piece["back"], side, {}))

    def _board(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        self._tile(piece, spot, where, name, n, locked=True)

    def _track(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        """A track: a board printed from its own picture (:mod:`.track`), named by its id."""
        self._tile({**piece, "picture": piece["id"]}, spot, where, name, n, locked=True)

    def _die(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        if "picture" in piece:
            url = self.art.picture_url(piece["picture"])
            faces = list(self.art.pictures[piece["picture"]].faces)
        else:
            url = self.art.die_url(piece["component"])
            faces = self.data["components"][piece["component"]]["faces"]
        rotations = [(label, rot) for label, (_n, rot) in zip(faces, obj.D6_ROTATIONS,
                                                               strict=True)]  # fmt: skip
        scale = float(piece.get("scale", 1.0))
        dx, dz = piece.get("step", (DIE_STEP, 0.0))  # off a track, a row along step
        for i in range(self._count(piece)):
            place, y = self._nth(spot, i, 0.0)
            x, z = place.x, place.z
            if not self.track:
                x, z = x + dx * i, (z + dz * i if dz else z)
            at = obj.transform((x, y + geo.D6_SIDE * scale / 2, z), (0.0, 0.0, 0.0),
                               (scale, scale, scale))  # fmt: skip
            self.add(
                piece,
                obj.custom_dice(
                    self.guids.guid(f"die:{where}:{i}"),
                    url,
                    rotations,
                    transform=at,
                    **self._info(piece, self._numbered(piece, name, i)),
                ),
            )
        if "picture" in piece:
            self._face_once(piece, spot, n)
        elif n == 0:
            for i, label in enumerate(faces):
                face = (f"{title(piece)}: {label}", piece["component"], "die", {"face": i})
                self.table.faces.append(face)

    def _zone(self, piece: dict[str, Any], spot: Spot, where: str, name: str, n: int) -> None:
        """A scripting zone of ``size``, or covering the game's area, 2 units high."""
        at = at_of(piece["at"])
        covers = isinstance(at, Anchor) and at.area
        sx, sz = self.hooks.areas[at.name][1] if covers else piece["size"]  # type: ignore[union-attr]
        turn = spot.seat.hand_rot_y if spot.seat else 0.0
        at = obj.transform((spot.x, self._nth(spot, 0, 0.0)[1] + 1.0, spot.z), (0.0, turn, 0.0),
                           (float(sx), 2.0, float(sz)))  # fmt: skip
        self.add(piece, obj.scripting_trigger(self.guids.guid(f"zone:{where}"), at,
                                              **self._info(piece, name)))  # fmt: skip

    # --- seats and setup --------------------------------------------------------------------

    def hands(self) -> None:
        """A hand zone per seat, at the table's default place (every seat has one: checked)."""
        colours = [frame.color for frame in self.frames]
        self.table.objects += hand_zones(self.guids, self.manifest["type"], colours)

    def steps(self) -> list[dict[str, Any]]:
        """Every setup step as the scripts see it: what it deals, and per seat colour the
        spots its pieces go to (in the order the rule numbers them) and their rotation."""
        low, high = self.data["players"]["min"], self.data["players"]["max"]
        pieces = pieces_by_id(self.manifest)
        all_steps = [step_of(s) for s in self.manifest.get("setup", [])]
        hand_total = max((sum(s.count_at(n) for s in all_steps if s.to is None)
                          for n in range(low, high + 1)), default=0)  # fmt: skip
        out = []
        for index, step in enumerate(all_steps, start=1):
            source = pieces[step.deal]
            is_card = source["kind"] == "deck"
            target = step.target
            most = max(step.count_at(n) * (n if target == "shared" else 1)
                       for n in range(low, high + 1))  # fmt: skip
            face_up = step.to is None or not is_card if step.face_up is None else step.face_up
            lift = CARD_LIFT if is_card else THICKNESS
            by_seat: dict[str, list[Any]] = {}
            turns: dict[str, list[float]] = {}
            for frame in self.frames:
                if target == "hand":
                    at = hand_slots(frame, hand_total)
                    turn = frame.reader_rot_y
                else:
                    start = spot_for_seat(step.to, self.manifest, frame, self.hooks)
                    at = row(start, most, step.spread, lift, geo.TABLE_TOP_Y)
                    turn = start.rot_y
                    self._record(step, index, frame, at, turn, is_card)
                by_seat[frame.color] = [list(p) for p in at]
                turns[frame.color] = [0.0, turn, 0.0 if face_up else 180.0]
            out.append({"index": index, "deal": step.deal, "kind": source["kind"],
                        "target": target, "spots": by_seat, "rotation": turns})  # fmt: skip
        return out

    def _record(self, step: SetupStep, index: int, frame: SeatFrame, at: list[Any],
                turn: float, is_card: bool) -> None:  # fmt: skip
        """The step's spots as checked positions: each card of a row, a pile's first spot."""
        if step.target == "shared" and frame is not self.frames[0]:
            return  # one shared row, listed once
        shown = at if step.spread is not None else at[:1]
        owner = "" if step.target == "shared" else f"{frame.color} "
        for k, point in enumerate(shown, start=1):
            label = f"{owner}{step.deal} (setup {index}, {k})"
            size = geo.PORTRAIT_CARD if is_card else (0.0, 0.0)
            self.table.positions.append(
                geo.ScriptPosition(
                    label, tuple(point), size=size, rot_y=turn, kind="card" if is_card else "token"
                )
            )


def with_tracks(data: dict[str, Any], key: str, hooks: TableHooks) -> TableHooks:
    """``hooks`` plus, for each ``kind: track`` piece of the manifest ``data[key]``, its
    picture (named by its id) and its cells as a track of the same name: each cell's table
    point at the board's top, where a marker on it lies (``at: {track: ID, cell: K}``); with
    ``seats``, each seat's place on the first cell (``ID:<colour>``: ``at: {seat_track: ID}``)
    (:func:`~.printed.manifest_tracks`)."""
    pictures = dict(hooks.pictures)
    for i, piece in enumerate(data[key]["pieces"]):
        if piece["kind"] == "track":
            pictures[piece["id"]] = track_picture(piece, data, f"{key}.pieces[{i}]")
    tracks = {**hooks.tracks, **manifest_tracks(data, key)}
    return replace(hooks, pictures=pictures, tracks=tracks)


def uses_seat(layout: list[dict[str, Any]]) -> bool:
    """Whether a layout prints a seat field (``{seat}`` or ``{seat_color}``)."""
    return "{seat" in json.dumps(layout)


def setup_positions(
    data: dict[str, Any],
    colours: list[str] | None = None,
    key: str = "table",
    hooks: TableHooks | None = None,
) -> list[geo.ScriptPosition]:
    """The positions Setup deals to (no art needed): every seat's, or only ``colours``' and
    the shared ones."""
    layer = _Layer(data, key, None, None, hooks)  # type: ignore[arg-type]
    if colours is not None:
        layer.frames = [f for f in layer.frames if f.color in colours]
    layer.steps()
    return layer.table.positions


def lay_table(data: dict[str, Any], art: Art, guids: Any, key: str = "table",
              hooks: TableHooks | None = None) -> Table:  # fmt: skip
    """Every object of the manifest ``data[key]``, the scripts' data and the positions;
    ``hooks`` are what the game supplies (pictures, anchors, tracks, rosters, omitted pieces)."""
    layer = _Layer(data, key, art, guids, hooks)
    for piece in layer.manifest["pieces"]:
        layer.lay(piece)
    layer.hands()
    steps = layer.steps()
    table = layer.table
    table.snap_points = snap_points(data, layer.hooks, layer.players, key)
    table.context = {
        "seats": [{"color": f.color, "slot": f.slot} for f in layer.frames],
        "pieces": {
            pid: {"guids": guids_, "kind": pieces_by_id(layer.manifest)[pid]["kind"]}
            for pid, guids_ in table.guids.items()
        },  # fmt: skip
        "steps": steps,
        "anchors": {k: _rounded(tuple(map(float, v))) for k, v in layer.hooks.anchors.items()},
        "tracks": {
            k: [_rounded(tuple(map(float, p))) for p in v] for k, v in layer.hooks.tracks.items()
        },  # fmt: skip
    }
    return table
