"""What a script knows of the laid objects, as data computed once: the fields each object
inside a roster bag was made from (:func:`bag_entries`), so the script knows a tile it meets by
its GUID alone (no reading of GM notes at play time); each seat's objects of a piece are the
manifest's ``script.guids`` ``{by_seat: ID}`` (:func:`~.schema.script_context`).

A roster bag (``kind: bag`` with a ``roster``) holds one object per roster entry, in the
roster's order (:attr:`~tts_builder.table.Table.contents`), so the k-th GUID is the k-th entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .assemble import Table
from .model import pieces_by_id


def bag_entries(
    manifest: Mapping[str, Any],
    laid: Table,
    rosters: Mapping[str, Sequence[Mapping[str, Any]]],
    bags: Sequence[str],
    fields: Sequence[str],
) -> dict[str, dict[str, Any]]:
    """GUID -> the ``fields`` of its roster entry, for every object in the roster bags ``bags``
    (piece ids, in that order; ``rosters``: the definition's and the game's, by name)."""
    pieces = pieces_by_id(dict(manifest))
    found = {}
    for bag in bags:
        entries = rosters[pieces[bag]["roster"]]
        for entry, guid in zip(entries, laid.contents[bag], strict=True):
            found[guid] = {key: entry[key] for key in fields}
    return found
