"""Decks of any size: as many sheets as they need, each composed from its own faces, and a
preview of a big deck within a bounded picture size."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import SESSION_CACHE
from PIL import Image

from tts_builder.build import build_game, lint_build
from tts_builder.definition import ASSETS_ROOT
from tts_builder.emulator import EmulatedTable
from tts_builder.render import compose_sheet, composite, plan_sheets, render_preview
from tts_builder.render.composite import PREVIEW_MAX_PIXELS
from tts_builder.save.checker import check_save

CARD = (20, 28)


def _colour(i: int) -> tuple[int, int, int]:
    return (i % 256, (i * 7) % 256, (i * 13) % 256)


@pytest.mark.parametrize("count", [1, 69, 70, 200])
def test_every_sheet_of_a_deck_composes_from_its_own_faces(count: int) -> None:
    faces = [Image.new("RGB", CARD, _colour(i)) for i in range(count)]
    plans = plan_sheets(count, CARD)
    assert [i for plan in plans for i in plan.indexes] == list(range(count))
    assert len(plans) == -(-count // 69)
    for plan in plans:
        sheet = compose_sheet([faces[i] for i in plan.indexes], plan, CARD)
        assert sheet.size == (plan.num_width * CARD[0], plan.num_height * CARD[1])
        for slot, index in enumerate(plan.indexes):
            x0, y0, _, _ = plan.slot_box(slot, CARD)
            assert sheet.getpixel((x0 + 5, y0 + 5)) == _colour(index)


def test_a_sheet_wants_exactly_its_own_faces() -> None:
    first, second = plan_sheets(70, CARD)
    faces = [Image.new("RGB", CARD) for _ in range(70)]
    with pytest.raises(ValueError, match="70 faces for a sheet of 1 cards"):
        compose_sheet(faces, second, CARD)
    assert compose_sheet(faces[69:], second, CARD).size == CARD


def test_preview_of_hundreds_of_cards_stays_within_its_pixel_budget(monkeypatch) -> None:
    monkeypatch.setattr(composite, "PREVIEW_MAX_PIXELS", 1_500_000)  # small, to be quick
    made: list[int] = []

    def face(i: int) -> Image.Image:
        made.append(i)
        return Image.new("RGB", (100, 140), _colour(i))

    items = [(f"card {i}", lambda i=i: face(i)) for i in range(244)]
    preview = render_preview(items, columns=10, cell_max=140)
    assert preview.width * preview.height <= composite.PREVIEW_MAX_PIXELS
    assert made == list(range(244))  # each made once, in order
    small = render_preview([("one", Image.new("RGB", (400, 560)))], columns=10)
    assert small.size == (16 + 400 + 16, 16 + 560 + 40 + 16)  # small previews keep full size


def _arche_noah_with(tmp_path: Path, animals: int) -> Path:
    """A copy of arche-noah whose roster has ``animals`` animals (the bundled art, reused)."""
    root = tmp_path / "assets"
    shutil.copytree(ASSETS_ROOT / "arche-noah", root / "arche-noah")
    path = root / "arche-noah" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    head, rest = text.split("\nanimals:\n", 1)
    roster, tail = rest.split("\n\n", 1)
    lines = roster.splitlines()
    arts = [line.split("art: ")[1].rstrip("}") for line in lines]
    colours = [line.split('color: "')[1].split('"')[0] for line in lines]
    new = [
        f'  - {{name: "Animal {i + 1}", color: "{colours[i % len(colours)]}", '
        f"art: {arts[i % len(arts)]}}}"
        for i in range(animals)
    ]
    path.write_text(f"{head}\nanimals:\n" + "\n".join(new) + f"\n\n{tail}", encoding="utf-8")
    return root


@pytest.fixture(scope="module", params=[18, 60])
def big_deck(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """(animals, the build of arche-noah with that many animals)."""
    root = _arche_noah_with(tmp_path_factory.mktemp("big-deck"), request.param)
    return request.param, build_game("arche-noah", cache=SESSION_CACHE, assets_root=root)


def test_arche_noah_with_a_deck_of_many_sheets_builds(big_deck: Any) -> None:
    animals, build = big_deck
    lint_build(build)
    assert [f for f in check_save(build.save) if f.level == "req"] == []
    (deck,) = [o for o in build.save["ObjectStates"] if o.get("Nickname") == "Animal cards"]
    cards = animals * 4
    assert len(deck["ContainedObjects"]) == len(deck["DeckIDs"]) == cards
    sheets = sorted(n for n in build.files if n.startswith("images/cards-"))
    assert len(sheets) == len(deck["CustomDeck"]) == -(-cards // 69)
    assert {c["Nickname"] for c in deck["ContainedObjects"]} >= {f"Animal {animals} 4"}
    with Image.open(io.BytesIO(build.files["preview.png"])) as preview:
        assert preview.width * preview.height <= PREVIEW_MAX_PIXELS


def test_a_deck_of_many_sheets_sets_up_on_the_emulated_table(big_deck: Any) -> None:
    animals, build = big_deck
    seats = build.definition.data["table"]["seats"]
    colors = [seat["color"] for seat in seats[:5]]
    table = EmulatedTable(build.save, seed=3)
    table.seat(colors)
    table.load()
    table.click_ui(colors[0], "setup")
    assert not table.errors and not table.ui_active("setup")
    cards = [o for o in table.objects() if o["type"] == "Card" and "AnimalCard" in o["tags"]]
    offer = [c for c in cards if not c["face_down"] and not c["locked"]]
    assert len(offer) == 5  # one per player, drawn from a deck spread over several sheets
    names = {json.loads(c["gm_notes"])["animal"] for c in cards}
    assert names <= {f"Animal {i + 1}" for i in range(animals)}
