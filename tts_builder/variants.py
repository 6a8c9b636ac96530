"""Variants, one mechanism for every game: a variant is a data overlay on the definition.

``variants: {<id>: {name, description, rules, components, table}}``: ``name`` and
``description`` say what the variant is; each of :data:`OVERLAID` present is deep-merged over
the definition's section of that name (mappings merge key by key, anything else is replaced).
The pipeline hands a game's ``assemble`` the overlaid definition
(``GameDefinition.variant`` set, its ``data`` merged), so code reads the merged rule numbers
and flags and never tests a variant's id. Merging is idempotent: overlaying data that is
already overlaid changes nothing (``rules_config(definition.data, variant)`` is safe).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Set

from .errors import FieldError, Problems, field_errors
from .json_types import Data, Json
from .schema import DESCRIPTION, TITLE, Custom, Map, Spec, Str

#: The definition sections a variant may overlay.
OVERLAID = ("rules", "components", "table")
VARIANT_ID = Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a lower-case variant id")


def _a_mapping(value: Json, path: str) -> None:
    """Keys of the game's section of that name, merged over it."""
    if not isinstance(value, dict):
        raise FieldError(path, f"expected a mapping, got {type(value).__name__}")


VARIANT = Map(
    {"name": TITLE, "description": DESCRIPTION, **{key: Custom(_a_mapping) for key in OVERLAID}},
    frozenset({"description", *OVERLAID}),
)


def _check_variants(value: Json, path: str) -> None:
    """``variants``: a non-empty mapping of variant id -> :data:`VARIANT`."""
    if not isinstance(value, dict) or not value:
        raise FieldError(path, "expected a mapping of a lower-case variant id to entries")
    problems = Problems()
    for key, entry in value.items():
        problems.run(VARIANT_ID.check, key, f"{path}.{key}")
        problems.run(VARIANT.check, entry, f"{path}.{key}")
    problems.raise_any()


#: The header's spec of ``variants`` (in JSON Schema: each variant's sections are mappings;
#: what they may hold is the game's own sections' spec, checked on the merged data).
VARIANTS = Custom(
    _check_variants,
    json={
        "type": "object",
        "minProperties": 1,
        "propertyNames": VARIANT_ID.json_schema(),
        "additionalProperties": {
            **VARIANT.json_schema(),
            "properties": {
                "name": TITLE.json_schema(),
                "description": DESCRIPTION.json_schema(),
                **{key: {"type": "object"} for key in OVERLAID},
            },
        },
        "description": "Variant id -> {name, description, and the rules, components or table "
        "keys it merges over the game's}.",
    },
)


def merge(base: Json, over: Json) -> Json:
    """Deep-merge ``over`` into ``base``: mappings merge, everything else is replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = {key: copy.deepcopy(value) for key, value in base.items()}
        for key, value in over.items():
            out[key] = merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)


def variant_entry(data: Data, variant: str | None) -> Data:
    """The variant's own entry (``{}`` for the base game)."""
    return {} if variant is None else dict(data["variants"][variant])


def with_variant(data: Data, variant: str | None) -> Data:
    """The definition's data with the variant's sections merged over it (``data`` for None)."""
    entry = variant_entry(data, variant)
    overlays = {key: merge(data.get(key, {}), entry[key]) for key in OVERLAID if key in entry}
    return {**data, **overlays} if overlays else data


def variant_title(data: Data, variant: str | None) -> tuple[str, str]:
    """(name, description) of the base game or of the variant (its own, where it has them)."""
    entry = variant_entry(data, variant)
    return entry.get("name", data["name"]), entry.get("description", data["description"])


def check_overlays(
    data: Data, fields: Mapping[str, Spec], base: Set[tuple[str, str]] = frozenset()
) -> None:
    """Check every variant's overlaid sections against the game's specs, every error located
    in the variant (``variants.<id>.rules...``), unknown keys too; a section the game's
    definition has no spec for (e.g. ``rules`` of a prototype) cannot be overlaid. A problem
    the variant only inherits, ``(field, detail)`` among the ``base`` definition's own, is
    reported there once, not again for each variant."""
    problems = Problems()
    for variant, entry in (data.get("variants") or {}).items():
        if not isinstance(entry, dict):
            continue  # the header's check says so
        for key in OVERLAID:
            if key in entry and key not in fields:
                known = ", ".join(k for k in OVERLAID if k in fields) or "none"
                problems.add(
                    f"variants.{variant}.{key}",
                    f"this game has no '{key}' section to overlay (sections: {known})",
                )
        if any(key in entry and not isinstance(entry[key], dict) for key in OVERLAID):
            continue  # the header's check says so
        merged = with_variant(data, variant)
        prefix = f"variants.{variant}."
        for key in OVERLAID:
            if key in entry and key in fields:
                try:
                    fields[key].check(merged[key], f"{prefix}{key}")
                except FieldError as err:
                    for one in field_errors(err):
                        if (one.field.removeprefix(prefix), one.detail) not in base:
                            problems.found.append(one)
    problems.raise_any()
