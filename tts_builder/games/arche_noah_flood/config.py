"""Reading the definition: the variant's data, the terrain names, the shared rule config."""

from __future__ import annotations

from typing import Any


def variant_spec(data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    """The variant's data ({} for the base game)."""
    if variant is None:
        return {}
    return dict((data.get("variants") or {})[variant])


def terrains(data: dict[str, Any]) -> list[str]:
    """The terrain names of ``rules.terrain``, each once, in letter order of first use."""
    return list(dict.fromkeys(data["rules"]["terrain"].values()))


def rules_config(data: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The config shared by rules_ref and the Lua: ``rules`` plus ``map`` and the species names.

    The distinct-species variant sets ``distinct_species``; the junior variant keeps the
    config (its rule functions take ``"variant": "junior"``).
    """
    from rules_ref.arche_noah_flood import config_from_definition

    config = config_from_definition(data)
    if variant_spec(data, variant).get("distinct_species"):
        config["distinct_species"] = True
    return config
