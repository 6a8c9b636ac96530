"""Ark & Noah's definition and the seed's load_pair example, shared by the rules_ref tests and
the Lua rules tests: the same enclosures, pitch, food and pairs on both sides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rules_ref import ark_and_noah as ref

REPO = Path(__file__).resolve().parents[1]
DEFINITION = yaml.safe_load((REPO / "assets/ark-and-noah/game.yaml").read_text(encoding="utf-8"))
CONFIG = ref.make_config(DEFINITION)
FAMILY = ref.make_config(DEFINITION, "family")
# The colour each of the seed's characters plays (`characters` and `colors` are both in seat
# order), so the seed's examples do not depend on the order of the colours.
COLOR_OF = dict(zip(DEFINITION["characters"], CONFIG["colors"], strict=False))


def divs(edges: str | list[str], color: str = "Red") -> list[dict[str, str]]:
    """Dividers of one colour on ``edges`` (a list, or one string of space-separated edges)."""
    return [
        {"edge": e, "color": color} for e in (edges.split() if isinstance(edges, str) else edges)
    ]


def box(r0: int, c0: int, r1: int, c1: int) -> list[str]:
    """The outline of the rectangle of squares r0..r1 x c0..c1 (inclusive)."""
    cols, rows = range(c0, c1 + 1), range(r0, r1 + 1)
    return ([f"h:{r0}:{c}" for c in cols] + [f"h:{r1 + 1}:{c}" for c in cols]
            + [f"v:{r}:{c0}" for r in rows] + [f"v:{r}:{c1 + 1}" for r in rows])  # fmt: skip


def pair(name: str, male: str | None, female: str | None) -> dict[str, Any]:
    """A pair of ``name`` (size and VP from the standard roster) with its animals' owners."""
    s = next(s for s in CONFIG["species"] if s["name"] == name)
    return {"species": name, "size": s["size"], "vp": s["vp"], "male": male, "female": female}


LIONS = box(0, 1, 0, 3)  # 8 edges; pitch fields p:0:2 p:0:3
ELEPHANTS = box(0, 5, 0, 8)  # 10 edges; pitch fields p:0:6 p:0:7 p:0:8
# Japheth's colour (5 of the lions' dividers), Noah's (2), Ham's (1); Noah and Shem built the
# elephants' enclosure, 5 dividers each.
SEED_DIVIDERS = (
    divs(LIONS[:5], COLOR_OF["Japheth"]) + divs(LIONS[5:7], COLOR_OF["Noah"])
    + divs(LIONS[7:], COLOR_OF["Ham"])
    + divs(ELEPHANTS[:5], COLOR_OF["Noah"]) + divs(ELEPHANTS[5:], COLOR_OF["Shem"])
)  # fmt: skip
SEED_PITCH = ["p:0:2", "p:0:3", "p:0:6", "p:0:7", "p:0:8"]
SEED_FOOD = [[0, 1], [0, 2], [0, 3], [0, 5], [0, 6], [0, 7], [0, 8]]
