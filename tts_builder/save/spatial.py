"""Which boxes may touch, without testing every pair: the geometry checks' indexes.

A box is one ``(low, high)`` interval per axis. :func:`overlapping_pairs` sweeps the boxes
along the axis on which the fewest pairs overlap (the others filter), so a stack of 13,000
objects at one spot, distinct in height, costs about 13,000 comparisons, not 84 million.
:class:`BoxGrid` finds the boxes holding a point through a grid of cells. Both answer in a
fixed order (pairs and boxes by index), so what the checks report keeps its order. When the
work would pass a budget they say so (None) instead of doing it: the caller reports that it
did not check.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence

Interval = tuple[float, float]
Box = Sequence[Interval]


def _usable(box: Box) -> bool:
    """Every interval ordered (``low <= high``); false for NaN."""
    return all(low <= high for low, high in box)


def overlapping_pairs(
    boxes: Sequence[Box], near: float, budget: int | None = None
) -> list[tuple[int, int]] | None:
    """Index pairs ``(i, j)``, ``i < j``, in that order, of the boxes overlapping by more than
    ``near`` on every axis (``min(highs) - max(lows) > near``); None when sweeping would
    compare more than ``budget`` pairs (boxes crowded along every axis)."""
    kept = [k for k, box in enumerate(boxes) if _usable(box)]
    if len(kept) < 2:
        return []
    axes = len(boxes[kept[0]])
    best: tuple[int, int, list[int], list[float]] | None = None
    for axis in range(axes):
        order = sorted(kept, key=lambda k: boxes[k][axis][0])
        lows = [boxes[k][axis][0] for k in order]
        cost = sum(
            bisect_left(lows, boxes[k][axis][1] - near, pos + 1) - (pos + 1)
            for pos, k in enumerate(order)
        )
        if best is None or cost < best[0]:
            best = (cost, axis, order, lows)
    assert best is not None
    cost, axis, order, lows = best
    if budget is not None and cost > budget:
        return None
    pairs = []
    for pos, k in enumerate(order):
        a = boxes[k]
        reach = a[axis][1] - near
        for q in range(pos + 1, len(order)):
            if lows[q] >= reach:
                break
            m = order[q]
            b = boxes[m]
            if all(
                min(ah, bh) - max(al, bl) > near for (al, ah), (bl, bh) in zip(a, b, strict=True)
            ):
                pairs.append((k, m) if k < m else (m, k))
    pairs.sort()
    return pairs


#: A box covering more cells than this is kept aside and tried for every point.
_MAX_CELLS = 64
#: Cell numbers stop here (a coordinate near a double's largest, over a small cell, is past
#: any integer a float converts to).
_FAR = 2.0**60


class BoxGrid:
    """Boxes on the (x, z) plane, asked which of them may hold a point.

    ``pad`` widens every box, so that an exact test with rounding of its own (a rotated
    rectangle's ``contains``) is never refused a box it would accept. A box that is not finite
    (NaN, infinity) may hold any point: it is tried for every one, as are boxes too wide for
    the grid.
    """

    def __init__(
        self, boxes: Sequence[Box | None], pad: float = 1e-6, budget: int | None = None
    ) -> None:
        self.left = budget
        finite = [box if box is not None and _finite(box) else None for box in boxes]
        spans = sorted(max(b[0][1] - b[0][0], b[1][1] - b[1][0]) for b in finite if b is not None)
        self.cell = max(spans[len(spans) // 2], 1e-3) if spans else 1.0
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.wide: list[int] = []
        self.boxes: list[Box | None] = []
        for k, box in enumerate(finite):
            if box is None:
                self.boxes.append(None)
                self.wide.append(k)
                continue
            (x0, x1), (z0, z1) = box[0], box[1]
            x0, x1, z0, z1 = (
                x0 - _pad(x0, pad),
                x1 + _pad(x1, pad),
                z0 - _pad(z0, pad),
                z1 + _pad(z1, pad),
            )
            self.boxes.append(((x0, x1), (z0, z1)))
            low, high = self._cell(x0, z0), self._cell(x1, z1)
            if low is None or high is None:
                self.wide.append(k)
                continue
            (i0, j0), (i1, j1) = low, high
            if (i1 - i0 + 1) * (j1 - j0 + 1) > _MAX_CELLS:
                self.wide.append(k)
                continue
            for i in range(i0, i1 + 1):
                for j in range(j0, j1 + 1):
                    self.cells.setdefault((i, j), []).append(k)

    def _cell(self, x: float, z: float) -> tuple[int, int] | None:
        """The cell of a point; None for one too far out to number (a box reaching there is
        tried for every point, and a point there is tried against those boxes only)."""
        i, j = x / self.cell, z / self.cell
        if not (abs(i) < _FAR and abs(j) < _FAR):
            return None
        return math.floor(i), math.floor(j)

    def holding(self, x: float, z: float) -> list[int] | None:
        """Indexes, ascending, of the boxes that may hold the point (x, z), a finite one; None
        once the boxes tried for all the points asked so far pass the budget."""
        cell = self._cell(x, z)
        found = (self.cells.get(cell, []) if cell is not None else []) + self.wide
        if self.left is not None:
            self.left -= len(found)
            if self.left < 0:
                return None
        held = []
        for k in found:
            box = self.boxes[k]
            if box is None or (box[0][0] <= x <= box[0][1] and box[1][0] <= z <= box[1][1]):
                held.append(k)
        held.sort()
        return held


def _pad(value: float, pad: float) -> float:
    """``pad``, grown with the value's magnitude (a float's rounding grows so)."""
    return pad + abs(value) * 1e-12


def _finite(box: Box) -> bool:
    """Every bound finite and every interval ordered."""
    return all(math.isfinite(low) and math.isfinite(high) and low <= high for low, high in box)
