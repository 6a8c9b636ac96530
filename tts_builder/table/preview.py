"""A laid table's thumbnail and preview sheet, from the distinct faces it shows, through the one
picture mechanism every game uses (:mod:`tts_builder.gamekit.pictures`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from typing import Any

from PIL import Image

from ..errors import FieldError
from ..gamekit import pictures
from .art import Art
from .assemble import Table

Face = tuple[str, str, str, dict[str, Any]]


def face_picture(art: Art, face: Face) -> Image.Image:
    """One face of :attr:`Table.faces`: a layout side, a d6 face, or the game's picture."""
    _label, name, side, fields = face
    if side == "die":
        return art.die_face(name, int(fields["face"]))
    if side == "picture":
        return art.picture(name)
    return art.side(name, side, fields)


def face_spec(art: Art, face: Face) -> Any:
    """What one face is drawn from (its cache key)."""
    _label, name, side, fields = face
    if side == "die":
        return {"die": art.components[name], **fields}
    if side == "picture":
        return art.pictures[name].spec
    return art.spec(name, side, fields)


def as_picture(art: Art, face: Face) -> pictures.Picture:
    """One face as a picture: its spec and its drawing."""
    return face_spec(art, face), partial(face_picture, art, face)


def thumbnail(art: Art, name: str, faces: list[Face]) -> bytes:
    """The thumbnail: ``faces`` fanned above ``name``; its PNG bytes."""
    return pictures.thumbnail(art.images, name, [as_picture(art, f) for f in faces])


def preview(table: Table, art: Art, columns: int = 8, cell_max: int = 240) -> bytes:
    """The preview sheet: every distinct face of the table once (a card backed like the deck
    does not show that back again), labelled, in rows of ``columns``; its PNG bytes."""
    distinct: dict[str, Face] = {}
    for face in table.faces:
        distinct.setdefault(json.dumps(face_spec(art, face), sort_keys=True, default=str), face)
    items = [(f[0], as_picture(art, f)) for f in distinct.values()]
    return pictures.preview(art.images, items, columns, cell_max)


def thumbnail_faces(table: Table, shown: int = 5, labels: Sequence[str] = ()) -> list[Face]:
    """The faces a thumbnail fans: with ``labels`` (the manifest's ``thumbnail``), each label's
    first face that is no card back, in that order (FieldError at ``table.thumbnail[i]`` for a
    label no face has); else the first ``shown`` faces that are no card back."""
    faces = [f for f in table.faces if f[2] != "back"]
    first: dict[str, Face] = {}
    for face in faces:
        first.setdefault(face[0], face)
    for i, label in enumerate(labels):
        if label not in first:
            raise FieldError(f"table.thumbnail[{i}]", f"no face on the table is labelled {label!r}")
    return [first[label] for label in labels] or faces[:shown] or table.faces[:1]


def add_previews(
    table: Table,
    art: Art,
    name: str,
    *,
    shown: int = 5,
    columns: int = 8,
    cell_max: int = 240,
    labels: Sequence[str] = (),
) -> tuple[bytes, bytes]:
    """The thumbnail (:func:`thumbnail_faces`) and the preview sheet, taken out of the build's
    images."""
    faces = thumbnail_faces(table, shown, labels)
    return thumbnail(art, name, faces), preview(table, art, columns, cell_max)
