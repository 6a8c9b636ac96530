"""The plug-in contract: every game is registered, rules_ref is a leaf nobody reaches into, and
the game code does not import the pipeline back."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import yaml

from tts_builder.definition import ASSETS_ROOT
from tts_builder.games import REGISTERED, game, game_ids
from tts_builder.plugin import Game

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tts_builder"
RULES_REF = ROOT / "rules_ref"


def _modules(folder: Path) -> list[tuple[str, ast.Module]]:
    """(dotted module name, syntax tree) of every Python file under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, ast.parse(path.read_text(encoding="utf-8"))))
    return found


def _imported(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``import from`` names, relative ones resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    base = package[: len(package) - node.level + (1 if _is_package(module) else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_package(module: str) -> bool:
    return (ROOT / Path(*module.split(".")) / "__init__.py").is_file()


def private_rules_ref_uses(module: str, tree: ast.Module) -> list[str]:
    """Every ``_private`` name of rules_ref the module imports or reads off a rules_ref module."""
    found: list[str] = []
    bound: set[str] = set()  # local names of rules_ref modules
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "rules_ref":
                    bound.add(alias.asname or alias.name.split(".")[0])
                    found += [alias.name for part in alias.name.split(".") if part[:1] == "_"]
        elif isinstance(node, ast.ImportFrom):
            source = _imported(module, node)
            if source.split(".")[0] != "rules_ref":
                continue
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{source}.{alias.name}")
                elif source == "rules_ref" and (RULES_REF / f"{alias.name}.py").is_file():
                    bound.add(alias.asname or alias.name)  # a rules_ref module
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr.startswith("_")
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_production_code_uses_only_rules_refs_public_api() -> None:
    found = {
        module: uses
        for module, tree in _modules(PACKAGE)
        if (uses := private_rules_ref_uses(module, tree))
    }
    assert found == {}


def test_the_private_use_finder_finds_them() -> None:
    tree = ast.parse(
        "from rules_ref.ark_and_noah import _grid\n"
        "from rules_ref import ark_and_noah as R\n"
        "x = R._merge\ny = R.make_config\n"
    )
    assert private_rules_ref_uses("tts_builder.x", tree) == ["rules_ref.ark_and_noah._grid",
                                                            "R._merge"]  # fmt: skip


def test_rules_ref_is_a_leaf() -> None:
    for module, tree in _modules(RULES_REF):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert _imported(module, node).split(".")[0] != "tts_builder", module
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "tts_builder" for a in node.names), module


def test_every_game_defined_is_registered() -> None:
    defining = [
        module
        for module, tree in _modules(PACKAGE)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "Game"
    ]
    assert defining, "no module defines a Game"
    for module in defining:
        games = [v for v in vars(importlib.import_module(module)).values() if isinstance(v, Game)]
        for value in games:
            assert any(value is registered for registered in REGISTERED), (module, value.id)


def test_every_bundled_definition_and_template_folder_has_a_registered_engine() -> None:
    for path in sorted(ASSETS_ROOT.glob("*/game.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert game(data.get("engine", path.parent.name)).id in game_ids()
    templates = ROOT / "lua_templates"
    engines = [p.name for p in templates.iterdir()
               if p.is_dir() and p.name != "common" and not p.name.startswith("__")]  # fmt: skip
    assert set(engines) <= set(game_ids())


def test_registered_games_keep_the_contract() -> None:
    assert game_ids() == sorted(g.id for g in REGISTERED)
    for registered in REGISTERED:
        assert isinstance(registered, Game)
        assert set(registered.optional) <= set(registered.fields)
        if registered.strategies:  # a game without rule functions of its own has none
            assert importlib.util.find_spec(registered.strategies), registered.id


def test_game_code_does_not_import_the_pipeline() -> None:
    """Games import the contract (tts_builder.plugin), never build or definition, so there is no
    import cycle between the pipeline and the games (art code's file digests excepted until the
    shared art module takes them)."""
    pipeline = {"tts_builder.build", "tts_builder.definition"}
    found = []
    for module, tree in _modules(PACKAGE / "games"):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _imported(module, node) in pipeline:
                names = {a.name for a in node.names}
                if names != {"file_digest"}:
                    found.append((module, sorted(names)))
    assert found == []


def test_the_pipelines_signatures_name_no_any() -> None:
    """The contract, the registry, the variants and the pipeline's functions are typed (the
    image cache's spec, art code, stays as the art module has it)."""
    files = ["plugin.py", "variants.py", "json_types.py", "definition.py", "build.py"]
    found = []
    for name in [*files, "games/__init__.py"]:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        skip = {
            id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name == "ImageSet"
            for f in ast.walk(c)
        }  # fmt: skip
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and id(node) not in skip:
                annotations = [a.annotation for a in (*node.args.args, *node.args.kwonlyargs)]
                for annotation in [*annotations, node.returns]:
                    if annotation is not None and "Any" in ast.unparse(annotation):
                        found.append(f"{name}:{node.lineno} {node.name}")
    assert found == []
