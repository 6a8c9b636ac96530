"""One variant mechanism for every game: a variant is a data overlay on the definition."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tts_builder.build import BuildOptions, build_game
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.errors import BuildError
from tts_builder.games import game
from tts_builder.variants import merge, with_variant

VARIANT = """
variants:
  generous:
    name: Arche Noah (generous sets)
    rules:
      scoring: {set_of_four_bonus: 9}
"""


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    shutil.copytree(ASSETS_ROOT / "arche-noah", tmp_path / "arche-noah")
    return tmp_path


def _add_variant(assets: Path, text: str = VARIANT) -> None:
    path = assets / "arche-noah" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_merging_merges_mappings_replaces_the_rest_and_is_idempotent() -> None:
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 4}
    over = {"a": {"c": [3]}, "e": 5}
    assert merge(base, over) == {"a": {"b": 1, "c": [3]}, "d": 4, "e": 5}
    assert merge(merge(base, over), over) == merge(base, over)
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 4}  # nothing merged in place


def test_a_game_without_variant_code_gets_a_rules_variant_from_data(assets: Path) -> None:
    _add_variant(assets)
    definition = load_definition("arche-noah", assets)
    assert definition.variants == ["generous"]
    config = game("arche-noah").rules_config(definition.data, "generous")
    assert config["scoring"]["set_of_four_bonus"] == 9
    assert (
        config["scoring"]["purple_chips_per_point"]
        == (definition.data["rules"]["scoring"]["purple_chips_per_point"])
    )
    base = game("arche-noah").rules_config(definition.data)
    assert base["scoring"]["set_of_four_bonus"] != 9
    build = build_game("arche-noah", BuildOptions(variant="generous"), {}, assets)
    assert build.definition.data["rules"]["scoring"]["set_of_four_bonus"] == 9
    assert build.definition.base_data["rules"]["scoring"]["set_of_four_bonus"] != 9
    assert '["set_of_four_bonus"]=9' in build.global_script


def test_a_variants_overlay_is_validated_where_it_is_written(assets: Path) -> None:
    _add_variant(assets, VARIANT.replace("set_of_four_bonus: 9", "set_of_four_bonus: many"))
    with pytest.raises(BuildError) as err:
        load_definition("arche-noah", assets)
    assert "variants.generous.rules.scoring.set_of_four_bonus: expected an integer" in str(
        err.value
    )


def test_a_variant_overlays_only_its_sections() -> None:
    data = load_definition("ark-and-noah").data
    family = with_variant(data, "family")
    assert family["rules"]["turn_mode"] == "seats"
    assert family["components"] is data["components"]  # not overlaid: the same data
    assert with_variant(data, None) is data
    assert with_variant(family, "family") == family
