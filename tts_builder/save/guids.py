"""Stable GUIDs: 6 lower-case hex characters derived from a namespace and a key."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from types import MappingProxyType

GUID_LENGTH = 6


def derive_guid(namespace: str, key: str, attempt: int = 0) -> str:
    """The ``attempt``-th candidate GUID for ``key``: sha256 of namespace, key (and counter)."""
    text = f"{namespace}\x00{key}" if attempt == 0 else f"{namespace}\x00{key}\x00{attempt}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:GUID_LENGTH]


class GuidAllocator:
    """Hands out one stable GUID per key, unique within the allocator.

    The first candidate for a key is :func:`derive_guid` with attempt 0. If it is already taken by
    a different key (or reserved), the next attempts are tried in order, so the same keys asked
    for in the same order give the same GUIDs on every run and machine.
    """

    def __init__(self, namespace: str, reserved: Iterable[str] = ()) -> None:
        self.namespace = namespace
        self._by_key: dict[str, str] = {}
        self._taken: set[str] = set(reserved)

    def guid(self, key: str) -> str:
        """The GUID for ``key``; asking again for the same key returns the same GUID."""
        if key in self._by_key:
            return self._by_key[key]
        attempt = 0
        candidate = derive_guid(self.namespace, key, attempt)
        while candidate in self._taken:
            attempt += 1
            candidate = derive_guid(self.namespace, key, attempt)
        self._by_key[key] = candidate
        self._taken.add(candidate)
        return candidate

    @property
    def assigned(self) -> Mapping[str, str]:
        """Read-only view of key → GUID, in the order the keys were first asked for."""
        return MappingProxyType(self._by_key)
