"""The pictures of a manifest's components: each distinct side rendered once per build.

A component is either a layout (``size`` plus a ``face`` and maybe a ``back`` layout, drawn by
:mod:`tts_builder.render`) or a d6 (``faces`` labels and a ``style``). Every picture goes
through the build's :class:`~tts_builder.build.ImageSet`, so its cache key is the layout, the
fields and the digest of each art file it shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from ..errors import FieldError
from ..plugin import Picture
from ..schema import Custom, Int, ListOf, Map, Str
from .derived import key_value
from .fields import card_fields, seat_fields
from .model import seat_colors
from .schema import deck_entries, rosters_of

SIZE = ListOf(Int(16, 4096), 2, 2)
_ANY_ELEMENT = Custom(lambda value, path: None)  # elements are checked by validate_layout


def _check_component(value: Any, path: str) -> None:
    """A layout component (size, face, back?) or a die component (faces, style?)."""
    from ..render import validate_layout
    from ..render.composite import DIE_STYLE

    if isinstance(value, dict) and "faces" in value:
        style = Map({key: Custom(lambda v, p: None) for key in DIE_STYLE}, frozenset(DIE_STYLE))
        Map({"faces": ListOf(Str(), 6, 6), "style": style}, frozenset({"style"})).check(
            value, path
        )  # the style's values are checked where the die is drawn
        return
    shape = Map({"size": SIZE, "face": ListOf(_ANY_ELEMENT, 1), "back": ListOf(_ANY_ELEMENT, 1)},
                frozenset({"back"}))  # fmt: skip
    shape.check(value, path)
    for side in ("face", "back"):
        if side in value:
            validate_layout(value[side], f"{path}.{side}", tuple(value["size"]))


COMPONENT = Custom(_check_component)


class Art:
    """A build's component pictures, each through the build's picture store (``images``, which
    draws a picture only when it holds none of the same spec): layout sides
    (:class:`~tts_builder.render.Sides`: a side's spec is the digest of its layout, size,
    fields and art files' bytes; the art files are read once and decoded when first drawn),
    d6 textures and faces, named output images."""

    def __init__(self, root: Path, components: dict[str, Any], images: Any,
                 pictures: Mapping[str, Picture] | None = None) -> None:  # fmt: skip
        from ..render.components import ArtFiles, Sides

        self.components = components
        self.images = images
        self.sides = Sides(components, ArtFiles(root), images)
        self.pictures = dict(pictures or {})
        self._urls: dict[str, str] = {}  # a side's spec's digest -> its URL

    def picture_url(self, name: str) -> str:
        """The URL of a picture the game draws (``images/<name>.png``, or its ``file``)."""
        drawn = self.pictures[name]
        return self.png(drawn.file or name, drawn.spec, drawn.make)

    def picture(self, name: str) -> Image.Image:
        """A picture the game draws (drawn once per build)."""
        drawn = self.pictures[name]
        return self.images.picture(drawn.spec, drawn.make)

    def side(self, component: str, side: str, fields: dict[str, Any]) -> Image.Image:
        """One side of a layout component, drawn with ``fields`` (once per build)."""
        return self.sides(component, side, fields)

    def spec(self, component: str, side: str, fields: dict[str, Any] | None = None) -> Any:
        """What a side's picture depends on (its cache key)."""
        return self.sides.spec(component, side, fields or {})

    def png(self, name: str, spec: Any, make: Callable[[], Image.Image]) -> str:
        """Add ``images/<name>.png`` to the build; its URL."""
        return self.images.png(name, spec, make)

    def side_url(
        self, component: str, side: str, fields: dict[str, Any] | None = None, suffix: str = ""
    ) -> str:
        """The URL of one side (``images/<component>-<side><suffix>.png``); a side drawn
        exactly like one already named (a card backed like the deck) is that same picture."""
        key = self.spec(component, side, fields)["side"]  # a digest of all it is drawn from
        if key not in self._urls:
            name = f"{component}-{side}{suffix}"
            self._urls[key] = self.sides.png(name, component, side, fields or {})
        return self._urls[key]

    def sheets(self, component: str, faces: list[dict[str, Any]], name: str) -> list[Any]:
        """A deck's sheets (``render.components.DeckSheet``) of ``faces``, one per card face."""
        from ..render.components import deck_sheets

        return deck_sheets(self.sides, component, faces, name)

    def die_url(self, component: str) -> str:
        """The URL of a d6 component's texture (``images/<component>.png``)."""
        from ..render import render_die_texture

        spec = self.components[component]
        style = spec.get("style", {})
        return self.png(component, {"die": spec["faces"], "style": style},
                        lambda: render_die_texture(list(spec["faces"]), style,
                                                   f"components.{component}"))  # fmt: skip

    def die_face(self, component: str, index: int) -> Image.Image:
        """Face ``index`` (0-based) of a d6 component, for the preview."""
        from ..render import render_die_face

        spec = self.components[component]
        return render_die_face(spec["faces"][index], spec.get("style", {}),
                               f"components.{component}.style")  # fmt: skip

    def size(self, component: str) -> tuple[int, int]:
        """A layout component's pixel size (width, height)."""
        width, height = self.sides.size(component)
        return int(width), int(height)


def check_art(data: dict[str, Any], root: Path, hooks: Any = None) -> None:
    """Every image element of a layout component (those inside a ``repeat`` too) names an art
    file the build can read, for each of the fields it is drawn with (the roster entries of
    the decks showing it, the seat colours; a repeat's copies with theirs): inside the game
    folder, a PNG or JPEG within the art limits by its header
    (:func:`~tts_builder.render.art_file.art_problem`, each file once). FieldError at
    ``components.<id>.<side>[i].src`` (``...[i].elements[j].src`` inside a repeat). Checked at
    load, so a bad file is located in the definition (and in the variant that names it)."""
    table = data.get("table", {})
    seats = [seat_fields(color) for color in seat_colors(table)] if "seats" in table else []
    checked: dict[str, str | None] = {}  # a file's path -> its problem, each read once
    for name, component in data["components"].items():
        fields = [{}, *seats]
        for piece in table.get("pieces", []):
            if piece.get("component") == name and "roster" in piece:
                fields += [card_fields(e) for e in deck_entries(piece, rosters_of(data, hooks))]
        for side in ("face", "back"):
            where = f"components.{name}.{side}"
            _check_images(root, component.get(side, []), fields, where, checked)


def _check_images(
    root: Path,
    elements: list[Any],
    fields: list[dict[str, Any]],
    where: str,
    checked: dict[str, str | None],
) -> None:
    """The image elements of a layout drawn with each of ``fields``, and those inside a
    ``repeat`` with each copy's fields (a repeat over a list field some fields lack is not
    drawn with them: validate_layout names unknown fields)."""
    from ..render.layout import repeat_copies

    for index, element in enumerate(elements):
        path = f"{where}[{index}]"
        if element.get("type") == "image":
            _check_src(root, str(element["src"]), fields, f"{path}.src", checked)
        elif element.get("type") == "repeat":
            over = element.get("over")
            copies = [
                copy
                for values in fields
                if over is None or isinstance(values.get(over), list | tuple)
                for _offset, copy in repeat_copies(element, values, path)
            ]
            _check_images(root, element["elements"], copies, f"{path}.elements", checked)


def _check_src(
    root: Path,
    src: str,
    fields: list[dict[str, Any]],
    field: str,
    checked: dict[str, str | None],
) -> None:
    from ..render.art_file import art_problem

    for values in fields:
        try:
            rel = src.format_map(values)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue  # not drawn with these fields (validate_layout names unknown fields)
        if rel not in checked:
            checked[rel] = art_problem(root, rel)
        problem = checked[rel]
        if problem is not None:
            raise FieldError(field, problem)


def die_picture(labels: list[str], style: Mapping[str, Any], where: str) -> Picture:
    """A d6 texture a game draws from its own rule data (faces 1..6 labelled ``labels``, a
    die style as :func:`~tts_builder.render.render_die_texture` takes it): a ``die`` piece's
    ``picture``. ``where`` names the style's field in errors."""
    from ..render import render_die_texture

    faces = tuple(labels)
    return Picture(
        {"die": list(faces), "style": style},
        lambda: render_die_texture(list(faces), style, where),
        faces=faces,
    )


def rule_die(data: Mapping[str, Any], component: str, key: str) -> Picture:
    """A d6 texture whose faces are the six values at the definition key ``key`` (the rules'
    faces: ``rules.dice.faces``, numbers or words, written once there), drawn in the style of
    the die component ``component`` (``components.<component>.style``): a ``die`` piece's
    ``picture``. FieldError at ``components.<component>`` when the key holds no six faces."""
    where = f"components.{component}"
    faces = key_value(dict(data), key, where)
    if not isinstance(faces, list) or len(faces) != 6:
        raise FieldError(where, f"{key!r} is not a list of six die faces: {faces!r}")
    return die_picture([str(f) for f in faces], data["components"][component]["style"], where)


def layout_picture(
    layout: list[dict[str, Any]],
    size: tuple[int, int],
    fields: dict[str, Any],
    files: Any,
    where: str,
) -> Picture:
    """A layout drawn with {fields} a game computes from its rules (a card printing a table of
    the rule numbers), as RGB; its cache key holds the layout, size, fields and the digest of
    each art file it shows (``files``: the game's :class:`~tts_builder.render.ArtFiles`).
    ``where`` is the layout's field (``components.<c>.face``: its elements' problems are found
    at ``<where>[i]``); its ``pixels`` are its size's (the component's ``size`` sizes it)."""
    from ..render import layout_spec, render_layout

    return Picture(
        {"layout": layout_spec(layout, size, fields, files, where)},
        lambda: render_layout(layout, size, fields, files, where=where).convert("RGB"),
        pixels=max(size),
        sized_by=f"{where.rpartition('.')[0]}.size",
    )
