"""Ark & Noah rule numbers (rules_ref's ``make_config``) and the actions told in words."""

from __future__ import annotations

from rules_ref.ark_and_noah import make_config

from ...json_types import Data
from ...variants import with_variant


def rules_config(data: Data, variant: str | None = None) -> Data:
    """The rule numbers shared by rules_ref and the Lua (rules_ref's ``make_config`` of the
    definition with the variant's overlay merged in), naming the variant as ``variant``."""
    config = make_config(with_variant(data, variant))
    config["variant"] = variant
    return config


def action_texts(config: Data) -> dict[str, str]:
    """What each action does, in a few words for its board column (from the rule numbers)."""
    resources = {"pitch": "pitch cubes", "food": "food", "dividers": "dividers"}
    trading, out = config["trading"], {}
    for action in config["actions"]:
        kind = action["kind"]
        if kind == "gain":
            text = f"take {resources[action['resource']]}"
        elif kind == "tame":
            rest = " each" if action["shared"] else ", the rest go back"
            text = f"draw animals; keep one{rest}"
        elif kind == "trade":
            bonus = "+1 VP" if trading["bonus"] == ["vp"] else "a bonus"
            text = (
                f"{bonus}, then swap two dividers or draw {trading['draws']} animals"
                if trading["swap"]
                else f"{bonus}, then draw {trading['draws']} animals; may swap one"
            )
        elif kind == "build":
            pitch = " and pitch" if config["supply"]["pitch"] > 0 else ""
            text = f"dividers{pitch} to build"
        else:
            text = "pairs to load" if config["loading"]["cost"] == "pairs" else "loading points"
        out[action["id"]] = text
    return out
