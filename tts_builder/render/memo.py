"""Pictures a process keeps in memory between uses: one bounded store for every kind.

A build (and ``watch``, and a build of several variants) reuses what it drew or decoded
before: card faces and sheets' parts, scaled-down images of ``table.png``, preview cells, the
layers of a picture, and the encoded bytes read from a cache folder. Each kind is kept in a
:class:`PictureMemo` of its own, all with the same rules: a memo holds at most its budget in
bytes (of pixels, or of encoded bytes), drops the least recently used first, and keeps nothing
bigger than its whole budget. What it hands out is shared: callers must not change it.
:func:`forget_all` empties every memo, as in a new process.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import Any

from PIL import Image

#: Every memo of the process (to forget them all at once).
_MEMOS: weakref.WeakSet[PictureMemo] = weakref.WeakSet()


def picture_bytes(img: Image.Image | bytes) -> int:
    """The bytes of a picture's pixels (width x height x bands), or of encoded bytes."""
    if isinstance(img, bytes):
        return len(img)
    return img.width * img.height * len(img.getbands())


class PictureMemo:
    """Pictures (or encoded pictures, as bytes) by key within ``budget`` bytes of pixels (or
    of bytes), the least recently used dropped first; one bigger than the whole budget is not
    kept (the memo stays within it)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.bytes = 0
        self._pictures: dict[str, Any] = {}
        _MEMOS.add(self)

    def __len__(self) -> int:
        return len(self._pictures)

    def __contains__(self, key: object) -> bool:
        return key in self._pictures

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._pictures))

    def get(self, key: str) -> Any:
        """The picture kept under ``key`` (now the most recently used), else None."""
        img = self._pictures.pop(key, None)
        if img is not None:
            self._pictures[key] = img
        return img

    def add(self, key: str, img: Any) -> Any:
        """Keep ``img`` under ``key`` (replacing what was kept there), dropping the least
        recently used pictures while the memo would pass its budget; ``img``."""
        self.pop(key)
        size = picture_bytes(img)
        if size > self.budget:
            return img
        while self._pictures and self.bytes + size > self.budget:
            self.pop(next(iter(self._pictures)))
        self._pictures[key] = img
        self.bytes += size
        return img

    def pop(self, key: str) -> Any:
        """Forget the picture under ``key``; it, or None."""
        img = self._pictures.pop(key, None)
        if img is not None:
            self.bytes -= picture_bytes(img)
        return img

    def clear(self) -> None:
        """Forget every picture."""
        self._pictures.clear()
        self.bytes = 0


def forget_all() -> None:
    """Empty every memo of the process: the next use decodes or draws as a new process."""
    for memo in list(_MEMOS):
        memo.clear()
