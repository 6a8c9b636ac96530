"""What a manifest reads from the definition's own keys, so a rule's number is written once.

- A piece's ``count`` may be ``{key: rules.dice.count}`` (plus ``add: N``): the whole number
  at that key of the definition (a variant's merged in), e.g. as many dice as the rules roll;
  ``{key: rules.actions, length: true}`` is how many items the list at that key has, and
  ``{key: rules.workers, most: count}`` the largest ``count`` of its entries (a by-player-count
  list: as many workers as the most players get).
- The manifest's ``rosters: {name: {from: KEY, times: N, fields: {field: "{template}"}}}``
  makes a roster from a list of mappings in the definition (``from: animals``): each item
  ``times`` times in a row (a number or ``{key: ...}``), with ``fields`` added (each a
  template of the item's fields; an item already holding the field is refused).
  ``roster: <name>`` on a piece uses it like any other roster. ``{count: N, number: FIELD}``
  makes ``N`` entries (a number or ``{key: ...}``), each its 1-based number as ``FIELD`` (or
  empty without ``number``).
- A piece's ``when: {key: rules.mode, is: junior}`` lays it only while the value at that key
  is that value (``not: junior``: only while it is not); ``when: {any: [cond, ...]}`` while one
  of those holds. A piece left off is not on the table: a setup step cannot deal it.

:func:`resolved` gives the manifest with every such count replaced by its number, and
:func:`derived_rosters` the rosters, :func:`left_off` the pieces a ``when`` leaves off; each
raises a located FieldError on a bad key.
"""

from __future__ import annotations

from typing import Any

from ..errors import FieldError
from ..schema import Bool, Custom, Int, JsonSchema, ListOf, Map, MappingOf, Spec, Str
from .fields import filled


def either(fn: Any, *forms: Spec | JsonSchema, doc: str = "") -> Custom:
    """``Custom(fn)`` whose JSON Schema is any of ``forms`` (a spec or a JSON Schema each),
    described by ``doc``: what an editor offers for a value of several forms."""
    found: JsonSchema = {"anyOf": [f.json_schema() if isinstance(f, Spec) else f for f in forms]}
    return Custom(fn, json={**found, "description": doc} if doc else found)


KEY = Str(
    pattern=r"[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*",
    hint="a definition key like 'rules.dice.count'",
)
FIELD = Str(pattern=r"\w+", hint="a field name")
_FROM_KEY = Map(
    {"key": KEY, "add": Int(-99, 99), "length": Bool(), "most": FIELD},
    frozenset({"add", "length", "most"}),
)


def number_or_key(low: int, high: int) -> Custom:
    """A whole number ``low..high``, or ``{key: a.b.c, add?: N}`` (the definition's number at
    that key, or with ``length: true`` its list's length, or with ``most: FIELD`` the largest
    ``FIELD`` of its list's entries; plus ``add``; its range is checked by :func:`key_number`)."""

    def check(value: Any, path: str) -> None:
        if isinstance(value, dict):
            _FROM_KEY.check(value, path)
        else:
            Int(low, high).check(value, path)

    return either(check, Int(low, high), _FROM_KEY)


def key_value(data: dict[str, Any], key: str, path: str) -> Any:
    """The value at the dotted definition key ``key``; FieldError at ``path`` if there is none."""
    value: Any = data
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise FieldError(path, f"the definition has no key {key!r}")
        value = value[part]
    return value


def key_number(value: Any, data: dict[str, Any], path: str, low: int, high: int) -> int:
    """The number a :func:`number_or_key` value stands for in ``data``: itself, or the whole
    number at its key plus its ``add``, within ``low..high`` (FieldError at ``path``)."""
    if not isinstance(value, dict):
        return int(value)
    found = key_value(data, value["key"], f"{path}.key")
    if value.get("length"):
        if not isinstance(found, list):
            raise FieldError(f"{path}.key", f"{value['key']!r} is not a list: {found!r}")
        found = len(found)
    elif "most" in value:
        field = value["most"]
        entries = found if isinstance(found, list) else []
        if not entries or not all(isinstance(e, dict) and _whole(e.get(field)) for e in entries):
            wanted = f"a list of entries each with a whole number {field!r}"
            raise FieldError(f"{path}.key", f"{value['key']!r} is not {wanted}")
        found = max(e[field] for e in entries)
    if isinstance(found, bool) or not isinstance(found, int):
        raise FieldError(f"{path}.key", f"{value['key']!r} is not a whole number: {found!r}")
    number = found + int(value.get("add", 0))
    if not low <= number <= high:
        raise FieldError(path, f"expected {low} to {high}, got {number} (from {value['key']})")
    return number


def _whole(value: Any) -> bool:
    """Whether ``value`` is a whole number (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def resolved(data: dict[str, Any], key: str = "table") -> dict[str, Any]:
    """The manifest ``data[key]`` with each piece's ``{key: ...}`` count replaced by its number
    (a piece its ``when`` leaves off keeps its own: the number may be none, a supply of 0)."""
    manifest, off = data[key], left_off(data, key)
    pieces = [
        {**p, "count": key_number(p["count"], data, f"{key}.pieces[{i}].count", 1, 200)}
        if isinstance(p.get("count"), dict) and p["id"] not in off
        else p
        for i, p in enumerate(manifest["pieces"])
    ]
    return {**manifest, "pieces": pieces}


def _check_scalar(value: Any, path: str) -> None:
    if value is not None and not isinstance(value, str | int | float | bool):
        raise FieldError(path, f"expected a text, number, true/false or null, got {value!r}")


_SCALAR = Custom(_check_scalar, json={"type": ["string", "number", "boolean", "null"]})
_KEY_IS = Map({"key": KEY, "is": _SCALAR}, frozenset())
_KEY_NOT = Map({"key": KEY, "not": _SCALAR}, frozenset())


def _check_when(value: Any, path: str) -> None:
    if isinstance(value, dict) and "any" in value:
        Map({"any": ListOf(WHEN, 1)}, frozenset()).check(value, path)
    else:
        form = _KEY_NOT if isinstance(value, dict) and "not" in value else _KEY_IS
        form.check(value, path)


_ANY: JsonSchema = {
    "type": "object",
    "properties": {"any": {"type": "array", "minItems": 1, "items": {"type": "object"}}},
    "required": ["any"],
    "additionalProperties": False,
}
#: A piece's ``when``: ``{key: K, is: V}``, ``{key: K, not: V}`` or ``{any: [when, ...]}``.
WHEN = either(
    _check_when, _KEY_IS, _KEY_NOT, _ANY, doc="While a definition key is (or is not) a value."
)


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same kind (``0`` is not ``false``)."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def holds(when: dict[str, Any], data: dict[str, Any], path: str) -> bool:
    """Whether a :data:`WHEN` condition holds in the definition ``data`` (FieldError at
    ``path``'s ``key`` if the definition has no such key: every one of ``any``'s is read)."""
    if "any" in when:
        return any([holds(w, data, f"{path}.any[{i}]") for i, w in enumerate(when["any"])])
    found = key_value(data, when["key"], f"{path}.key")
    return _same(found, when["is"]) if "is" in when else not _same(found, when["not"])


def left_off(data: dict[str, Any], key: str = "table") -> frozenset[str]:
    """The ids of the manifest ``data[key]``'s pieces whose ``when`` does not hold."""
    return frozenset(
        p["id"]
        for i, p in enumerate(data[key]["pieces"])
        if "when" in p and not holds(p["when"], data, f"{key}.pieces[{i}].when")
    )


_ROSTER_FROM = Map(
    {
        "from": KEY,
        "times": number_or_key(1, 20),
        "fields": MappingOf(FIELD, Str(), "field -> text"),
    },
    frozenset({"times", "fields"}),
)
_ROSTER_COUNT = Map({"count": number_or_key(0, 400), "number": FIELD}, frozenset({"number"}))


def _check_roster(value: Any, path: str) -> None:
    form = _ROSTER_COUNT if isinstance(value, dict) and "count" in value else _ROSTER_FROM
    form.check(value, path)


#: A manifest's ``rosters`` entry: a roster made from a list of the definition
#: (``from``) or numbered entries (``count``).
ROSTER = either(_check_roster, _ROSTER_FROM, _ROSTER_COUNT)
ROSTERS = MappingOf(
    Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a roster id"),
    ROSTER,
    "roster id -> {from, times, fields} or {count, number}",
)


def derived_rosters(data: dict[str, Any], key: str = "table") -> dict[str, list[dict[str, Any]]]:
    """The rosters the manifest ``data[key]`` makes from the definition's lists: each item of
    ``from`` ``times`` times in a row, with ``fields`` added (first, then the item's keys)."""
    made = {}
    for name, spec in data.get(key, {}).get("rosters", {}).items():
        path = f"{key}.rosters.{name}"
        if "count" in spec:
            count, field = (
                key_number(spec["count"], data, f"{path}.count", 0, 400),
                spec.get("number"),
            )
            made[name] = [{field: k} if field else {} for k in range(1, count + 1)]
            continue
        items = key_value(data, spec["from"], f"{path}.from")
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise FieldError(f"{path}.from", f"{spec['from']!r} is not a list of mappings")
        times = key_number(spec.get("times", 1), data, f"{path}.times", 1, 20)
        fields = spec.get("fields", {})
        entries = []
        for i, item in enumerate(items):
            if clash := sorted(set(fields) & set(item)):
                raise FieldError(f"{path}.fields.{clash[0]}", f"item {i} has {clash[0]!r} already")
            entry = {**{f: filled(t, item) for f, t in fields.items()}, **item}
            entries += [dict(entry) for _ in range(times)]
        made[name] = entries
    return made
