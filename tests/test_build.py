"""The build pipeline: checker-clean, deterministic, cached, and driven by the definition."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import SESSION_CACHE, build

from rules_ref import arche_noah as ref
from tts_builder.build import BuildOptions, build_game
from tts_builder.definition import ASSETS_ROOT
from tts_builder.emulator import LuaSandbox
from tts_builder.games import arche_noah
from tts_builder.save import loads
from tts_builder.save.checker import check_file_bytes, check_save


def test_save_passes_every_format_check(arche_noah_build) -> None:
    files = arche_noah_build.files
    data = files["arche-noah.json"]
    findings = check_file_bytes(data) + check_save(loads(data, "arche-noah.json"))
    assert findings == []


def test_outputs_listed(arche_noah_build) -> None:
    names = set(arche_noah_build.files)
    assert {"arche-noah.json", "arche-noah.png", "preview.png", "scripts/Global.lua"} <= names
    assert any(name.startswith("images/cards-") for name in names)


def test_save_urls_point_at_built_images(arche_noah_build, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    result = build_game("arche-noah", BuildOptions(out_dir=out), SESSION_CACHE)
    text = result.files["arche-noah.json"].decode()
    urls = {u for u in _urls(json.loads(text)) if u}
    assert urls
    for url in urls:
        assert url.startswith((out.resolve() / "arche-noah").as_uri() + "/images/")
        rel = url.split("/arche-noah/", 1)[1]
        assert rel in result.files


def test_base_url_rewrites_every_asset() -> None:
    result = build(base_url="https://example.org/mods/")
    urls = {u for u in _urls(result.save) if u}
    assert urls and all(u.startswith("https://example.org/mods/arche-noah/images/") for u in urls)


@pytest.fixture(scope="module")
def cold() -> tuple[dict[str, bytes], object]:
    """A build with a cache of its own, empty before: every image drawn afresh."""
    cache: dict[str, bytes] = {}
    return cache, build_game("arche-noah", BuildOptions(), cache)


def test_two_builds_are_byte_identical(cold, arche_noah_build) -> None:
    assert cold[1].files == arche_noah_build.files  # the latter drawn apart, session-cached


def test_rebuild_with_warm_cache_renders_nothing(cold) -> None:
    cache, first = cold
    warm = build_game("arche-noah", BuildOptions(), cache)
    assert first.rendered > 0 and first.drawn > 0
    assert warm.rendered == 0 and warm.drawn == 0
    assert warm.files == first.files


def test_guids_are_stable_and_unique(arche_noah_build) -> None:
    guids = [o["GUID"] for o in _objects(arche_noah_build.save)]
    assert len(guids) == len(set(guids))
    assert guids == [o["GUID"] for o in _objects(build().save)]


def test_one_source_of_truth(tmp_path: Path) -> None:
    """A rule number changed in the YAML changes the Lua, rules_ref and the art."""
    shutil.copytree(ASSETS_ROOT / "arche-noah", tmp_path / "arche-noah")
    path = tmp_path / "arche-noah" / "game.yaml"
    text = path.read_text()
    text = text.replace("set_of_four_bonus: 3", "set_of_four_bonus: 7")
    text = text.replace("card_values: [1, 2, 3, 4]", "card_values: [1, 2, 3, 5]")
    text = text.replace(
        "{players: [5], purple: 10, green: 2}", "{players: [5], purple: 9, green: 2}"
    )
    path.write_text(text)
    changed = build_game("arche-noah", BuildOptions(), dict(SESSION_CACHE), assets_root=tmp_path)
    original = build()

    config = arche_noah.rules_config(changed.definition.data)
    four = {
        "cards": [{"animal": "Lion", "value": v} for v in (1, 2, 3, 5)],
        "purple": 0,
        "green": 0,
        "playthrough": 1,
    }
    sandbox = LuaSandbox()
    env = sandbox.load_script(changed.global_script, "Global")
    assert sandbox.call(env, "Rules.score_collection", four)["bonus"] == 7
    assert ref.score_collection(config, four)["bonus"] == 7
    assert sandbox.call(env, "Rules.setup", {"players": 5})["purple"] == 9
    assert ref.setup(config, {"players": 5})["purple"] == 9
    sheets = sorted(n for n in changed.files if n.startswith("images/cards-"))
    assert any(changed.files[n] != original.files[n] for n in sheets)
    assert changed.files["images/card-back.png"] == original.files["images/card-back.png"]


def _objects(save: dict) -> list[dict]:
    found = []
    stack = list(save["ObjectStates"])
    while stack:
        obj = stack.pop()
        found.append(obj)
        stack.extend(obj.get("ContainedObjects", []))
    return found


def _urls(node: object) -> list[str]:
    if isinstance(node, dict):
        out = []
        for key, value in node.items():
            if key.endswith("URL") and isinstance(value, str):
                out.append(value)
            else:
                out.extend(_urls(value))
        return out
    if isinstance(node, list):
        return [u for item in node for u in _urls(item)]
    return []


def test_shipped_lua_agrees_with_rules_ref(arche_noah_build) -> None:
    """The exact Global script in the save, against rules_ref, on generated inputs."""
    from tts_builder.strategies import strategies_for
    from tts_builder.verify import Engines, check_function

    config = arche_noah.rules_config(arche_noah_build.definition.data)
    engines = Engines("arche-noah", config, arche_noah_build.save["LuaScript"])
    generators = strategies_for("arche-noah", config, arche_noah_build.definition.players)
    assert set(engines.names()) == set(ref.FUNCTIONS)
    for name in engines.names():
        outcome = check_function(engines, name, generators[name], examples=150, seed=1)
        assert outcome.mismatch is None, outcome.mismatch.describe()
        assert outcome.tried >= 4


def test_verify_finds_and_shrinks_a_planted_bug(arche_noah_build) -> None:
    """A rules_ref that is wrong only for four of a kind is caught with a minimal example."""
    from tts_builder.strategies import strategies_for
    from tts_builder.verify import Engines, check_function

    config = arche_noah.rules_config(arche_noah_build.definition.data)
    engines = Engines("arche-noah", config, arche_noah_build.save["LuaScript"])

    def no_bonus(cfg: dict, inp: dict) -> dict:
        return ref.score_collection(
            {**cfg, "scoring": {**cfg["scoring"], "set_of_four_bonus": 0}}, inp
        )

    engines.python_functions = {**engines.python_functions, "score_collection": no_bonus}
    generators = strategies_for("arche-noah", config, arche_noah_build.definition.players)
    outcome = check_function(engines, "score_collection", generators["score_collection"], 400, 0)
    assert outcome.mismatch is not None
    cards = outcome.mismatch.input["cards"]
    assert len(cards) == 4 and len({c["animal"] for c in cards}) == 1


def test_lint_fails_the_build_naming_the_template(arche_noah_build) -> None:
    """A MoonSharp-incompatible line in a rendered template stops the build (exit 2)."""
    import copy
    import dataclasses

    import pytest

    from tts_builder.build import lint_build
    from tts_builder.errors import BuildError

    lint_build(arche_noah_build)  # the real build is clean
    save = copy.deepcopy(arche_noah_build.save)
    save["LuaScript"] = save["LuaScript"].replace(
        "function onSave()", "function onSave()\n  local half = 7 // 2", 1
    )
    assert save["LuaScript"] != arche_noah_build.save["LuaScript"]
    broken = dataclasses.replace(arche_noah_build, save=save)
    with pytest.raises(BuildError, match=r"lua_templates/arche-noah/glue\.lua\.j2.*lua53-syntax"):
        lint_build(broken)
