"""docs/limits.md says every limit with the constant that holds it: each number there is the
constant's value, so the page cannot drift from the code."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "limits.md"
ROW = re.compile(r"^\| [^|]+ \| [^|]+ \| (?P<value>[^|]+) \| `(?P<code>[\w.]+)` \|", re.M)


def _rows() -> list[tuple[str, str]]:
    return [(m["value"].strip(), m["code"]) for m in ROW.finditer(DOC.read_text("utf-8"))]


def test_every_number_in_the_limits_page_is_its_constant() -> None:
    rows = _rows()
    assert len(rows) >= 40
    checked = 0
    for value, code in rows:
        module, _, name = code.rpartition(".")
        if not name.isupper():  # a module named for a rule, not one constant
            import_module(code)
            continue
        actual = getattr(import_module(module), name)
        first = value.split(" x ")[0].replace(",", "")
        if re.fullmatch(r"\d+(\.\d+)?", first):
            assert float(first) == float(actual), f"docs/limits.md: {code} is {actual}, not {value}"
            checked += 1
    assert checked >= 35
