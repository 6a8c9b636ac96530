"""The dice: face labels and rotations, textures, and the dice objects on the table."""

from __future__ import annotations

from PIL import Image

from ...json_types import Data
from ...render import render_die_texture
from ...save import objects as obj
from ...save.objects import D6_ROTATIONS
from .scene import Scene

DIE_Y = 1.6


def die_labels(faces: list[int | str]) -> list[str]:
    """The RotationValue labels of a die: its faces as text, in face order 1..6."""
    return [str(f) for f in faces]


def die_rotation_values(faces: list[int | str]) -> list[tuple[str, tuple[float, float, float]]]:
    """(label, rotation) per face: face k+1 of the d6 template carries ``faces[k]``."""
    return [(label, rot) for label, (_n, rot) in zip(die_labels(faces), D6_ROTATIONS, strict=True)]


def _die(data: Data, symbols: bool) -> tuple[str, Data, Data]:
    """(component name, rules spec, style) of the symbol (junior) or number dice."""
    kind = "symbol_die" if symbols else "number_die"
    spec = data["rules"]["junior"]["dice"] if symbols else data["rules"]["dice"]
    return kind, spec, data["components"][kind]["style"]


def die_spec(data: Data, symbols: bool) -> Data:
    """Everything the texture of the symbol (junior) or number dice is drawn from."""
    _kind, spec, style = _die(data, symbols)
    return {"die": die_labels(spec["faces"]), "style": style}


def die_texture(data: Data, symbols: bool) -> Image.Image:
    """The texture of the symbol (junior) or number dice."""
    kind, spec, style = _die(data, symbols)
    return render_die_texture(die_labels(spec["faces"]), style, f"components.{kind}")


def add_dice(scene: Scene, symbols: bool, offset: int = 0) -> list[str]:
    """Put the symbol (junior) or number dice on the table, in a row; their GUIDs."""
    data = scene.data
    kind, spec, style = _die(data, symbols)
    url = scene.images.png(
        kind.replace("_", "-"), die_spec(data, symbols), lambda: die_texture(data, symbols)
    )
    x, z = data["table"]["dice"]
    found = []
    for i in range(spec["count"]):
        guid = scene.guids.guid(f"{kind}:{i}")
        found.append(guid)
        scene.add(
            obj.custom_dice(
                guid, url, die_rotation_values(spec["faces"]),
                nickname=("Symbol die " if symbols else "Die ") + str(i + 1),
                tags=["Die"],
                transform=obj.transform((x + 2.0 * (i + offset), DIE_Y, z)),
            )
        )
    return found


def add_game_dice(scene: Scene, junior: bool) -> tuple[list[str], list[str]]:
    """The players' dice and the number dice the flood rolls; (their GUIDs, the flood's).

    They are the same dice in the standard game; the junior game has number dice only if
    its flood rolls between rounds.
    """
    dice = add_dice(scene, junior)
    if not junior:
        return dice, dice
    if scene.data["rules"]["junior"]["flood_rolls_per_starting_player"] > 0:
        return dice, add_dice(scene, False, offset=len(dice))
    return dice, []
