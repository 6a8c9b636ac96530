"""The manifest after validation, read the same way everywhere: its pieces by id and its
seats' colours."""

from __future__ import annotations

from typing import Any


def pieces_by_id(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The manifest's pieces by id (checked unique by :func:`~.schema.check_manifest`)."""
    return {piece["id"]: piece for piece in manifest["pieces"]}


def seat_colors(manifest: dict[str, Any]) -> list[str]:
    """The manifest's seat colours in order (a seat is a colour or a mapping with ``color``)."""
    return [s["color"] if isinstance(s, dict) else s for s in manifest["seats"]]
