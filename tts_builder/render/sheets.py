"""TTS deck sheets: which cards go on which sheet, and the sheet image itself.

Limits (FORMAT.md §4.1): at most 10 columns × 7 rows and 4096 px a side; on a sheet of more
than one slot the last slot is left for TTS's "hidden" image, so a 10×7 sheet holds 69
cards. Card slots are numbered row-major from the top left; the card size never changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from tts_builder.errors import BuildError
from tts_builder.render.layout import alpha_over

MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_PX = 4096
NEUTRAL = (128, 128, 128)


@dataclass(frozen=True)
class SheetPlan:
    """One sheet: its grid and the (global, 0-based) indexes of the cards on it, in slot order."""

    num_width: int
    num_height: int
    indexes: tuple[int, ...]

    @property
    def slots(self) -> int:
        """Number of slots in the grid."""
        return self.num_width * self.num_height

    def slot_box(self, slot: int, card_size: tuple[int, int]) -> tuple[int, int, int, int]:
        """Pixel box [x0, y0, x1, y1) of ``slot`` on the sheet image."""
        w, h = card_size
        col, row = slot % self.num_width, slot // self.num_width
        return col * w, row * h, (col + 1) * w, (row + 1) * h


def _grid(cards: int, max_cols: int, max_rows: int, card_size: tuple[int, int]) -> tuple[int, int]:
    """The compact grid for ``cards`` cards: fewest slots, then the squarest image."""
    if cards == 1:
        return 1, 1
    need = cards + 1  # the last slot stays free for the hidden image
    w, h = card_size
    options = [
        (c * r, abs(c * w - r * h), r, c)
        for c in range(1, max_cols + 1)
        for r in range(1, max_rows + 1)
        if c * r >= need
    ]
    _slots, _squareness, rows, cols = min(options)
    return cols, rows


def plan_sheets(count: int, card_size: tuple[int, int], max_px: int = MAX_PX) -> list[SheetPlan]:
    """Sheets for ``count`` cards of ``card_size`` px, in card order, within the TTS limits."""
    if count < 0:
        raise ValueError(f"card count must be >= 0, got {count}")
    w, h = card_size
    if w < 1 or h < 1:
        raise ValueError(f"card size must be positive, got {card_size}")
    if w > max_px or h > max_px:
        raise BuildError(f"a {w}x{h} px card does not fit on a sheet of at most {max_px} px a side")
    max_cols, max_rows = min(MAX_COLUMNS, max_px // w), min(MAX_ROWS, max_px // h)
    per_sheet = max(1, max_cols * max_rows - 1)
    plans = []
    for start in range(0, count, per_sheet):
        indexes = tuple(range(start, min(count, start + per_sheet)))
        cols, rows = _grid(len(indexes), max_cols, max_rows, card_size)
        plans.append(SheetPlan(cols, rows, indexes))
    return plans


def compose_sheet(
    faces: Sequence[Image.Image | Callable[[], Image.Image]],
    plan: SheetPlan,
    card_size: tuple[int, int],
    back: Image.Image | None = None,
) -> Image.Image:
    """The RGB sheet image of ``plan``.

    ``faces`` holds the faces of this sheet's cards in slot order (one per index of the plan,
    so a deck of many sheets renders one sheet's faces at a time); each must be
    ``card_size``. A face may be a function making it: each is then made and placed in turn,
    so the sheet's faces never sit in memory together. Unused slots are neutral grey; the
    last (hidden) slot of a multi-slot sheet shows ``back`` when one is given.
    """
    if len(faces) != len(plan.indexes):
        raise ValueError(f"{len(faces)} faces for a sheet of {len(plan.indexes)} cards")
    w, h = card_size
    sheet = Image.new("RGB", (plan.num_width * w, plan.num_height * h), NEUTRAL)
    placed = list(enumerate(faces))
    if back is not None and plan.slots > 1:
        placed.append((plan.slots - 1, back))
    for slot, face in placed:
        img = face() if callable(face) else face
        if img.size != (w, h):
            raise ValueError(f"card image is {img.size[0]}x{img.size[1]}, expected {w}x{h}")
        x0, y0, _x1, _y1 = plan.slot_box(slot, card_size)
        alpha_over(sheet, img if img.mode == "RGBA" else img.convert("RGBA"), (x0, y0))
    return sheet
