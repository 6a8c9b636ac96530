"""The places the build hands the script are where the script puts things: after Setup on the
emulated table, Arche Noah's start player card and chip towers lie at the build's listed
script positions (the seat-relative ones are turned by the build, not by the Lua)."""

from __future__ import annotations

from typing import Any

from tts_builder.emulator import EmulatedTable

COLOURS = ["White", "Red", "Yellow"]


def _at(positions: dict[str, Any], label: str) -> tuple[float, float]:
    x, _y, z = positions[label].at
    return x, z


def _near(o: dict[str, Any], xz: tuple[float, float]) -> bool:
    return abs(o["position"][0] - xz[0]) < 1e-6 and abs(o["position"][2] - xz[1]) < 1e-6


def test_setup_puts_the_start_card_and_chips_at_the_builds_places(arche_noah_build: Any) -> None:
    positions = {p.label: p for p in arche_noah_build.positions}
    table = EmulatedTable(arche_noah_build.save, seed=3, images=arche_noah_build.files)
    table.seat(COLOURS)
    table.load()
    table.click_ui("Red", "setup")  # whoever presses Setup starts
    table.settle()
    objects = table.objects()
    (start,) = [o for o in objects if "StartPlayer" in o["tags"]]
    assert _near(start, _at(positions, "Red start card"))
    for colour in COLOURS:
        towers = {
            "PurpleChip": _at(positions, f"{colour} chips"),
            "GreenChip": _at(positions, f"{colour} green chips"),
        }
        for tag, xz in towers.items():
            chips = [o for o in objects if tag in o["tags"] and o["type"] != "Infinite"
                     and _near(o, xz)]  # fmt: skip
            assert chips, (colour, tag)
    assert "removed" in positions and "White start card" in positions
