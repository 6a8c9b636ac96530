"""A laid table's thumbnail and preview sheet, from the distinct faces it shows, through the one
picture mechanism every game uses (:mod:`tts_builder.gamekit.pictures`)."""

from __future__ import annotations

from functools import partial
from typing import Any

from PIL import Image

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


def add_previews(
    table: Table, art: Art, name: str, *, shown: int = 5, columns: int = 8, cell_max: int = 240
) -> tuple[bytes, bytes]:
    """The thumbnail (the first ``shown`` faces that are no card back, fanned above ``name``)
    and the preview sheet (every face, labelled, in rows of ``columns``); their PNG bytes,
    taken out of the build's images."""
    thumb = [f for f in table.faces if f[2] != "back"][:shown] or table.faces[:1]
    thumbnail = pictures.thumbnail(art.images, name, [as_picture(art, f) for f in thumb])
    items = [(f[0], as_picture(art, f)) for f in table.faces]
    return thumbnail, pictures.preview(art.images, items, columns, cell_max)
