"""The pictures of a manifest's components: each distinct side rendered once per build.

A component is either a layout (``size`` plus a ``face`` and maybe a ``back`` layout, drawn by
:mod:`tts_builder.render`) or a d6 (``faces`` labels and a ``style``). Every picture goes
through the build's :class:`~tts_builder.build.ImageSet`, so its cache key is the layout, the
fields and a digest of the game's art files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from ..schema import Custom, Int, ListOf, Map, Str

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


def art_digest(root: Path) -> str:
    """A digest of every file under the game's ``art/`` folder (none: the empty digest)."""
    digest = hashlib.sha256()
    folder = root / "art"
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class Art:
    """Renders and names the build's component pictures; memoised by (component, side, fields)."""

    def __init__(self, root: Path, components: dict[str, Any], images: Any) -> None:
        self.root = root
        self.components = components
        self.images = images
        self.digest = art_digest(root)
        self.memo: dict[str, Image.Image] = {}

    def side(self, component: str, side: str, fields: dict[str, Any]) -> Image.Image:
        """One side of a layout component, drawn with ``fields``."""
        from ..render import load_art, render_layout

        key = json.dumps([component, side, fields], sort_keys=True, default=str)
        if key not in self.memo:
            spec = self.components[component]
            self.memo[key] = render_layout(
                spec[side], tuple(spec["size"]), fields,
                lambda src: load_art(self.root, src, "art"),
                where=f"components.{component}.{side}",
            )  # fmt: skip
        return self.memo[key]

    def spec(self, component: str, side: str, fields: dict[str, Any] | None = None) -> Any:
        """What a side's picture depends on (its cache key)."""
        spec = self.components[component]
        return {"layout": spec[side], "size": spec["size"], "fields": fields or {},
                "art": self.digest}  # fmt: skip

    def png(self, name: str, spec: Any, make: Callable[[], Image.Image]) -> str:
        """Add ``images/<name>.png`` to the build; its URL."""
        return self.images.png(name, spec, make)

    def side_url(
        self, component: str, side: str, fields: dict[str, Any] | None = None, suffix: str = ""
    ) -> str:
        """The URL of one side (``images/<component>-<side><suffix>.png``)."""
        return self.png(f"{component}-{side}{suffix}", self.spec(component, side, fields),
                        lambda: self.side(component, side, fields or {}))  # fmt: skip

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
        width, height = self.components[component]["size"]
        return int(width), int(height)
