"""The package's shape: no import cycles, no module over 500 lines without a stated reason, and
what a build of the YAML-only game imports.

The import graph is read with the stdlib (``ast`` over ``tts_builder/**/*.py``): every import a
module runs, at its top or inside a function, relative ones resolved; imports under
``if TYPE_CHECKING:`` are left out (they never run). ``from a import b`` is an edge to ``a.b``
when that is a module, else to ``a``.

Run as a script, it prints the cycles and the modules a build of ``prototype`` imports:
``python tests/test_architecture.py``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tts_builder"

Graph = dict[str, set[str]]

#: Import cycles others are removing, by name: (owner's area, the modules the cycle runs
#: through; a name ending in "." stands for every module under that package). The check counts
#: one entry's modules as one module, so the cycles among them pass; delete an entry when its
#: cycle is gone (a cycle that leaves an entry's modules and comes back still fails).
ALLOWED_CYCLES: dict[str, tuple[str, tuple[str, ...]]] = {}


def _in(module: str, members: tuple[str, ...]) -> bool:
    """Whether ``module`` is one of ``members`` (or under one ending in ".")."""
    return any(module == m or (m.endswith(".") and module.startswith(m)) for m in members)


#: Modules over MAX_LINES whose reason is not yet in their first docstring lines, with their
#: line count when listed (December 2026): delete an entry when its module is split, or when
#: its docstring says why it is long. A module not listed here fails the test.
LONG_MODULES: dict[str, int] = {
    "tts_builder.cli": 596,
    "tts_builder.emulator.moonsharp": 531,
    "tts_builder.emulator.table": 632,
    "tts_builder.games.ark_and_noah.strategies": 619,
    "tts_builder.geometry": 527,
    "tts_builder.lua.lint": 1124,
    "tts_builder.picture": 1116,
    "tts_builder.render.components": 576,
    "tts_builder.render.hexmap": 645,
    "tts_builder.render.layout": 826,
    "tts_builder.save.checker": 754,
    "tts_builder.save.objects": 617,
    "tts_builder.schema": 534,
    "tts_builder.ship.editor_api": 592,
    "tts_builder.ship.publish": 698,
}
MAX_LINES = 500
#: What a module's docstring says, in its first lines, to be longer than MAX_LINES.
LONG_REASON = "longer than 500 lines:"


def module_name(path: Path) -> str:
    """The dotted name of a file under the project root (a package's ``__init__`` is the
    package)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in {
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        }:
            for inner in node.body:
                found |= {id(n) for n in ast.walk(inner)}
    return found


def imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The package modules ``name`` (at ``path``) imports, wherever in it the import is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    package = name.split(".") if _is_package(path) else name.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    yield f"{source}.{alias.name}"
                elif source in known:
                    yield source


def import_graph() -> Graph:
    """Module -> the package modules it imports (itself left out)."""
    modules = _modules()
    known = set(modules)
    return {
        name: {target for target in imports(name, path, known) if target != name}
        for name, path in modules.items()
    }


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def without_allowed(graph: Graph) -> Graph:
    """``graph`` with the modules of each ALLOWED_CYCLES entry taken as one node (named by the
    entry): the imports among them are gone, those in and out are kept."""

    def node(module: str) -> str:
        return next((name for name, (_, members) in ALLOWED_CYCLES.items()
                     if _in(module, members)), module)  # fmt: skip

    found: Graph = {}
    for source, targets in graph.items():
        edges = found.setdefault(node(source), set())
        edges |= {node(target) for target in targets} - {node(source)}
    return found


def test_no_import_cycles_but_the_allowed_ones() -> None:
    assert cycles(without_allowed(import_graph())) == []


def test_the_cycle_finder_finds_them(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e", "f"}, "f": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    monkeypatch.setattr(__name__ + ".ALLOWED_CYCLES", {"x": ("area", ("p.a", "p.b", "q."))})
    within = {"p.a": {"p.b"}, "p.b": {"p.a"}, "q.c": {"q.d"}, "q.d": {"q.c"}}
    assert cycles(without_allowed(within)) == []
    out_and_back = {**within, "p.b": {"r"}, "r": {"p.a"}}
    assert cycles(without_allowed(out_and_back)) == [["r", "x"]]


def test_relative_and_function_level_imports_are_edges(tmp_path: Path) -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from . import b\n"
        "from .c import thing\n"
        "if TYPE_CHECKING:\n    from .d import T\n"
        "def f():\n    from ..top import y\n    import p.e\n"
    )
    path = tmp_path / "a.py"
    path.write_text(source, encoding="utf-8")
    known = {"p.a", "p.b", "p.c", "p.d", "p.e", "top"}
    assert sorted(imports("p.a", path, known)) == ["p.b", "p.c", "p.e", "top"]


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _states_why(path: Path) -> bool:
    """Whether the module's docstring says, in its first 5 lines, why it is long."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return LONG_REASON in " ".join(docstring.splitlines()[:5])


def long_modules() -> dict[str, int]:
    """Module -> line count, for those over MAX_LINES that do not state why."""
    return {
        name: lines
        for name, path in _modules().items()
        if (lines := _line_count(path)) > MAX_LINES and not _states_why(path)
    }


def test_no_long_module_without_a_reason() -> None:
    found = long_modules()
    unlisted = {name: lines for name, lines in found.items() if name not in LONG_MODULES}
    assert unlisted == {}, f"over {MAX_LINES} lines: split it, or say why ({LONG_REASON!r})"


#: Where each game's parts live, and the folders left with what serves every game.
SHARED_PARTS = ("tts_builder.play", "tts_builder.balance", "tts_builder.strategies")
#: What a build never imports: the verification and analysis code and their libraries.
NOT_IN_A_BUILD = (*SHARED_PARTS, "tts_builder.verify", "tts_builder.eval_doc", "rules_ref",
                  "hypothesis", "matplotlib", "numpy", "fontTools")  # fmt: skip


def test_each_game_is_one_folder_registered_once() -> None:
    """Every registered game's parts are modules of its own folder and import; the shared
    folders hold no game's code (nothing there imports rules_ref or a game's folder)."""
    from tts_builder.games import MODULES, REGISTERED

    for game in REGISTERED:
        package = f"tts_builder.games{MODULES[game.id]}"
        for part in ("strategies", "play", "balance"):
            reference: str = getattr(game, part)
            if reference:
                assert reference.startswith(f"{package}."), (game.id, part, reference)
                assert game.part(part) is not None
    graph = import_graph()
    for name, targets in graph.items():
        if _under(name, SHARED_PARTS):
            game_code = {t for t in targets if t.startswith("tts_builder.games.")}
            assert game_code == set(), (name, game_code)
            assert "rules_ref" not in _top_level_imports(_modules()[name]), name


def _top_level_imports(path: Path) -> set[str]:
    """The top-level packages ``path`` imports (anywhere in it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_a_build_imports_no_verification_code(tmp_path: Path) -> None:
    """A build of the YAML-only game imports no game's strategies, play or balance part, no
    other game's code (what only one game has is in its folder: Ark & Noah's grid and seat
    areas), no verify, no rules_ref, and none of hypothesis, matplotlib, numpy or fontTools."""
    modules = build_imports("prototype", tmp_path)
    assert "tts_builder.games.prototype" in modules
    games = {m for m in modules if m.startswith("tts_builder.games.")}
    assert {m for m in games if not _under(m, ("tts_builder.games.prototype",))} == set()
    parts = (".strategies", ".play", ".balance")
    found = [
        m
        for m in modules
        if _under(m, NOT_IN_A_BUILD) or (_under(m, ("tts_builder.games",)) and m.endswith(parts))
    ]
    assert found == []


def _under(module: str, packages: tuple[str, ...]) -> bool:
    """Whether ``module`` is one of ``packages`` or in one."""
    return any(module == p or module.startswith(f"{p}.") for p in packages)


#: What the child process runs: a build of the bundled YAML-only game into the folder given,
#: then the modules it imported, as JSON.
_TRACE = """
import json, sys
before = set(sys.modules)
from tts_builder.cli import main
game, out = sys.argv[1:]
sys.argv = ["tts-builder", "-q", "build", game, "--out", out,
            "--base-url", "https://example.invalid/m"]
try:
    main()
except SystemExit as stop:
    assert not stop.code, stop.code
new = set(sys.modules) - before
print(json.dumps(sorted(new)))
"""


def build_imports(game: str, out: Path) -> list[str]:
    """Every module a clean CLI build of ``game`` into ``out`` imports (in a fresh process),
    sorted."""
    proc = subprocess.run(
        [sys.executable, "-c", _TRACE, game, str(out)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(proc.stdout.strip().splitlines()[-1])


def own(modules: list[str]) -> list[str]:
    """The tts_builder modules among ``modules``."""
    return [m for m in modules if m.split(".")[0] == "tts_builder"]


if __name__ == "__main__":
    for component in cycles(import_graph()):
        print("cycle:", " ".join(component))
    for name, lines in sorted(long_modules().items()):
        print(f"long: {name} {lines}")
    with tempfile.TemporaryDirectory() as folder:
        modules = build_imports(sys.argv[1] if len(sys.argv) > 1 else "prototype", Path(folder))
    print(f"a build imports {len(own(modules))} tts_builder modules:")
    print("\n".join(f"  {m}" for m in own(modules)))
    others = sorted(
        {m.split(".")[0] for m in modules} - {"tts_builder"} - set(sys.stdlib_module_names)
    )
    print("and these top-level packages:", " ".join(p for p in others if not p.startswith("_")))
