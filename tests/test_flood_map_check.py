"""Loading the flood race checks its map with rules_ref's validate_map once, not once per
variant: the variants change only rules it does not read (it checks under the standard rules)."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
import yaml

from rules_ref import arche_noah_flood as F
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.games.arche_noah_flood import checks
from tts_builder.variants import with_variant

DATA = yaml.safe_load((ASSETS_ROOT / "arche-noah-flood" / "game.yaml").read_text("utf-8"))


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict]]:
    """The configs validate_map is called with from now on (a fresh memo)."""
    seen: list[dict] = []

    def counted(config: dict) -> list[F.MapProblem]:
        seen.append(config)
        return F.validate_map(config)

    checks._map_problems.cache_clear()
    monkeypatch.setattr(checks, "validate_map", counted)
    yield seen
    checks._map_problems.cache_clear()


def test_the_definition_and_its_variants_share_one_map_check(calls: list[dict]) -> None:
    definition = load_definition("arche-noah-flood")
    assert definition.variants == ["junior", "distinct-species"]
    assert len(calls) == 1


def test_a_variant_changing_a_rule_the_check_reads_is_checked_on_its_own(
    calls: list[dict],
) -> None:
    data = copy.deepcopy(DATA)
    data["variants"]["junior"]["rules"]["min_start_hexes"] = 11
    checks._check_map(with_variant(data, "junior"))
    checks._check_map(with_variant(data, "distinct-species"))
    checks._check_map(data)
    assert [c["min_start_hexes"] for c in calls] == [11, 10]


def test_validate_map_reads_neither_mode_nor_distinct_species() -> None:
    """The guard of the shared check: a map whose swamp row stops the elephants gets the same
    problems under the junior rules (where every hex costs 1) and with distinct species."""
    config = F.config_from_definition(DATA)
    config["map"] = {**config["map"], "terrain": list(config["map"]["terrain"])}
    config["map"]["terrain"][3] = "S" * len(config["map"]["terrain"][3])
    problems = F.validate_map(config)
    assert any("Elephant cannot reach the Ark" in p.message for p in problems)
    assert F.validate_map({**config, "mode": "junior", "distinct_species": True}) == problems
