"""Ark & Noah rule numbers (rules_ref's ``make_config``) and the actions told in words."""

from __future__ import annotations

import re

from rules_ref.ark_and_noah import make_config

from ...json_types import Data
from ...table.derived import key_value
from ...variants import with_variant


def rules_config(data: Data, variant: str | None = None) -> Data:
    """The rule numbers shared by rules_ref and the Lua (rules_ref's ``make_config`` of the
    definition with the variant's overlay merged in), naming the variant as ``variant``."""
    config = make_config(with_variant(data, variant))
    config["variant"] = variant
    return config


def action_texts(config: Data) -> dict[str, str]:
    """What each action does, in a few words for its board column: its ``text``, each
    ``{rules.a.b}`` in it printing that rule number of ``config`` (FieldError at the text for
    a key the rules lack)."""
    rules = {"rules": config}
    return {
        a["id"]: re.sub(
            r"\{([\w.]+)\}",
            lambda m, i=i: str(key_value(rules, m.group(1), f"rules.actions[{i}].text")),
            a["text"],
        )
        for i, a in enumerate(config["actions"])
    }
