"""Definition keys declared as data: a rules engine's schema file (YAML, beside its module)
compiled to :mod:`tts_builder.schema` specs, with the same located one-line errors.

A schema file maps each definition key the engine adds (``rules``, ``animals``, ...) to a type;
``key?`` marks a key that may be left out. A type is a name or a mapping with one type key
(and that type's options). The vocabulary (docs/tutorial.md, "Reference: schema types"):

- ``int``, ``{int: [low, high]}``, ``{int: {min: N}}`` / ``{int: {max: N}}``;
- ``number`` (int or float, finite), ``{number: [low, high]}``;
- ``bool``, ``color`` (``"#rrggbb"``), ``string`` (non-empty),
  ``{string: {pattern: REGEX, hint: TEXT}}`` (the hint is what an error says was expected);
- ``{one_of: [word, ...]}``, or ``{one_of: NAME}`` for a named list (``seat_colors``);
- ``{point: N}``: a list of N finite numbers;
- ``{range: TYPE}``: ``{min: TYPE, max: TYPE}``, ``min`` at most ``max``;
- ``{list: TYPE, length: N}`` or ``length: [min, max]`` (``max`` may be ``null``); with
  ``unique: KEY`` (and ``what: TEXT``, what an entry is) no two entries share that key's value;
  with ``at_least: PATH`` at least as many entries as the number at ``PATH`` of the whole
  definition (``players.max``: one per seat);
- ``{map: {key: TYPE, key?: TYPE}}``: known keys only; with ``other: TYPE`` any other key
  too, its value of that type; with ``needs: {KEY: {VALUE: [key, ...]}}`` (and ``what: TEXT``,
  what the mapping is) a mapping whose ``KEY`` is ``VALUE`` needs those optional keys;
- ``{mapping: {keys: TYPE, values: TYPE}, what: TEXT, special: {key: TYPE}}``: a non-empty
  mapping of any keys that fit ``keys`` (a key in ``special`` has its own value type);
- ``{ref: PATH, what: TEXT, extra: [word], every: MESSAGE}``: a name found at ``PATH`` of the
  whole definition (``animals[].name``: the name of each animal; ``rules.terrain``: the keys
  of that mapping; ``rules.terrain.*``: its values; ``[PATH, ...]``: at any of them) or one of
  ``extra``; as a mapping's
  ``keys`` with ``every`` (a message, ``{}`` the name) each of those names needs an entry;
- any ``int``, ``number``, ``string`` or ``one_of`` with ``or: [word, ...]`` also takes those
  words (``null`` is YAML's nothing): "an integer >= 1 or null";
- any type mapping with ``doc: TEXT`` says what the key means (its JSON Schema description,
  which an editor shows);
- ``{by_player_count: {key: TYPE}}``: rows ``{players: [counts], key: ...}``, each player
  count ``players.min`` to ``players.max`` in exactly one row (checked with the references);
- ``{component: [side, ...], extra: {key: TYPE, key?: TYPE}}``: a pixel ``size`` and one
  layout per side (checked against the size), plus the extra keys (their references checked);
- ``size`` (a picture's ``[width, height]`` in pixels), ``die_style`` (a die texture's style,
  checked as drawing it would), ``mapping`` (any mapping), ``hex_board`` (a hex-map board's
  place and scale, as :mod:`tts_builder.table.hexboard` reads it);
- ``manifest`` (the table manifest, :mod:`tts_builder.table`), ``{manifest: {key: TYPE}}`` (the
  manifest plus the game's own keys), ``manifest.<key>`` (one key of the manifest: ``type``),
  ``manifest.script.guids`` and ``manifest.script.position`` (one entry of its ``script``: an
  engine's schema may require the names its Lua addresses).

References are checked by :meth:`DefinitionSchema.check_references` (the engine's ``check``
calls it), once the shapes are valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from .bundled import package_folder
from .errors import FieldError, Problems
from .gamekit.specs import SIZE, by_player_count, component
from .render import ELEMENTS, check_die_style
from .render.layout import REQUIRED
from .save.tables import SEAT_COLORS
from .schema import (
    Bool,
    Color,
    Custom,
    Doc,
    Either,
    Int,
    ListOf,
    Map,
    MappingOf,
    Num,
    OneOf,
    Point,
    Ref,
    Spec,
    Str,
    check_references,
)
from .table import MANIFEST
from .table.schema import HEX_BOARD, SCRIPT_GUIDS, SCRIPT_POSITION
from .yamlsrc import join

#: The C loader where PyYAML has it (a schema file is plain YAML either way).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SchemaError(ValueError):
    """A schema file that does not say what a type is (the engine's mistake, not the user's)."""


def _any_mapping(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, f"expected a mapping, got {type(value).__name__}")


#: Types written as a plain name.
NAMED: dict[str, Spec] = {
    "int": Int(),
    "number": Num(),
    "bool": Bool(),
    "color": Color(),
    "string": Str(),
    "size": SIZE,
    "die_style": Custom(check_die_style),
    "mapping": Custom(_any_mapping),
    "manifest": MANIFEST,
    **{f"manifest.{key}": spec for key, spec in MANIFEST.fields.items()},
    "manifest.script.guids": SCRIPT_GUIDS,
    "manifest.script.position": SCRIPT_POSITION,
    "hex_board": HEX_BOARD,
}
#: Lists of words ``one_of`` may name.
NAMED_LISTS: dict[str, tuple[str, ...]] = {"seat_colors": tuple(SEAT_COLORS)}
#: Each type key and the options it takes beside it.
OPTIONS: dict[str, frozenset[str]] = {
    "int": frozenset({"or"}),
    "number": frozenset({"or"}),
    "string": frozenset({"or"}),
    "one_of": frozenset({"or"}),
    "point": frozenset(),
    "range": frozenset(),
    "list": frozenset({"length", "unique", "what", "at_least"}),
    "map": frozenset({"other", "needs", "what"}),
    "mapping": frozenset({"what", "special"}),
    "ref": frozenset({"what", "extra", "every"}),
    "by_player_count": frozenset(),
    "component": frozenset({"extra"}),
    "manifest": frozenset(),
}


def keys_of(node: Any, where: str) -> tuple[dict[str, Spec], frozenset[str]]:
    """The fields of a ``{key: TYPE, key?: TYPE}`` mapping, and which of them are optional."""
    if not isinstance(node, dict):
        raise SchemaError(f"{where or 'the file'}: expected a mapping of key -> type, got {node!r}")
    fields = {
        str(k).removesuffix("?"): compile_type(t, join(where, str(k))) for k, t in node.items()
    }
    return fields, frozenset(str(k)[:-1] for k in node if str(k).endswith("?"))


def _bounds(node: Any, where: str) -> tuple[Any, Any]:
    """``[low, high]`` or ``{min: N, max: N}`` (either may be left out)."""
    if isinstance(node, list) and len(node) == 2:
        return node[0], node[1]
    if isinstance(node, dict) and set(node) <= {"min", "max"}:
        return node.get("min"), node.get("max")
    raise SchemaError(f"{where}: expected [low, high] or {{min: N, max: N}}, got {node!r}")


def _length(node: Any, where: str) -> tuple[int, int | None]:
    """A list's ``length``: N, ``[min, max]`` (max ``null``: no bound) or none (any)."""
    if node is None:
        return 0, None
    if isinstance(node, int):
        return node, node
    low, high = _bounds(node, where)
    return int(low or 0), high


def _typed(key: str, value: Any, node: dict[str, Any], where: str) -> Spec:
    """The spec of a type mapping whose type key is ``key``."""
    if key == "int":
        return Int(*_bounds(value, where)) if value is not None else Int()
    if key == "number":
        return Num(*_bounds(value, where)) if value is not None else Num()
    if key == "string":
        return Str(**value) if value else Str()
    if key == "one_of":
        return OneOf(NAMED_LISTS[value] if isinstance(value, str) else tuple(value))
    if key == "point":
        return Point(int(value))
    if key == "range":
        return _range(compile_type(value, f"{where}.range"))
    if key == "list":
        item = compile_type(value, f"{where}.list")
        unique, what = str(node.get("unique", "")), str(node.get("what", "entry"))
        at_least = str(node.get("at_least", ""))
        return ListOf(item, *_length(node.get("length"), where), unique, what, at_least)
    if key == "map":
        other = compile_type(node["other"], f"{where}.other") if "other" in node else None
        needs = {
            k: {v: tuple(keys) for v, keys in by.items()} for k, by in node.get("needs", {}).items()
        }
        return Map(*keys_of(value, f"{where}.map"), other, needs, str(node.get("what", "entry")))
    if key == "mapping":
        kinds = {k: compile_type(value[k], f"{where}.mapping.{k}") for k in ("keys", "values")}
        special, _ = keys_of(node.get("special", {}), f"{where}.special")
        return MappingOf(kinds["keys"], kinds["values"], str(node.get("what", "")), special)
    if key == "ref":
        extra = tuple(node.get("extra", ()))
        source = str(value) if isinstance(value, str) else tuple(map(str, value))
        what = str(node.get("what", value))
        return Ref(source, what, extra, str(node.get("every", "")))
    if key == "by_player_count":
        return by_player_count(keys_of(value, f"{where}.by_player_count")[0])
    if key == "component":
        return _component(tuple(value), *keys_of(node.get("extra", {}), f"{where}.extra"))
    fields, optional = keys_of(value, f"{where}.manifest")
    return Map({**MANIFEST.fields, **fields}, MANIFEST.optional | optional)


def _number(value: Any) -> bool:
    """Whether ``value`` is an integer or a float (``true`` is neither)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _range(bound: Spec) -> Spec:
    """``{min: N, max: N}``, both of the type ``bound``, ``min`` at most ``max`` when both are
    numbers (else a FieldError at ``max``; a null or a word ``bound`` allows is not ordered)."""
    shape = Map({"min": bound, "max": bound})

    def check(value: Any, path: str) -> None:
        shape.check(value, path)
        low, high = value["min"], value["max"]
        if _number(low) and _number(high) and low > high:
            name = path.rsplit(".", 1)[-1]
            raise FieldError(join(path, "max"), f"expected >= {name}.min")

    return Custom(check, shape)


def layout_json() -> dict[str, Any]:
    """A layout (a list of drawing elements) in JSON Schema: each element's ``type`` and the
    keys that type takes (:data:`~tts_builder.render.ELEMENTS`; their values, boxes fitting
    the picture, are the loader's to check)."""
    kinds = [
        {
            "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
            "then": {
                "properties": {"type": {}, **{key: {} for key in keys}},
                "required": ["type", *(k for k, (_, d) in keys.items() if d is REQUIRED)],
                "additionalProperties": False,
            },
        }
        for kind, keys in ELEMENTS.items()
    ]
    element = {
        "type": "object",
        "properties": {"type": {"enum": list(ELEMENTS)}},
        "required": ["type"],
        "allOf": kinds,
    }
    return {"type": "array", "minItems": 1, "items": element}


def _component(
    sides: tuple[str, ...], extra: Mapping[str, Spec], optional: frozenset[str] = frozenset()
) -> Spec:
    """A component (:func:`~tts_builder.gamekit.specs.component`) with extra keys (those in
    ``optional`` may be left out; their references are checked like any others)."""
    drawn = component(*sides)
    own = ("size", *sides)
    shape = Map({**extra, **{k: Custom(lambda v, p: None) for k in own}}, optional)
    json = shape.json_schema()
    json["properties"] |= {"size": SIZE.json_schema(), **{side: layout_json() for side in sides}}
    if not extra:
        return Custom(drawn.fn, json=json)

    def check(value: Any, path: str) -> None:
        shape.check(value, path)
        drawn.check({k: value[k] for k in own}, path)

    return Custom(check, shape, json)


def compile_type(node: Any, where: str = "") -> Spec:
    """The spec a schema type (a name or a type mapping) describes."""
    if isinstance(node, str):
        if node not in NAMED:
            raise SchemaError(f"{where}: unknown type {node!r} (types: {', '.join(NAMED)})")
        return NAMED[node]
    if not isinstance(node, dict):
        raise SchemaError(f"{where}: expected a type name or mapping, got {node!r}")
    found = [key for key in node if key in OPTIONS]
    if len(found) != 1:
        raise SchemaError(f"{where}: expected one type key of {', '.join(OPTIONS)}, got {node!r}")
    key = found[0]
    unknown = set(node) - {key, "doc"} - OPTIONS[key]
    if unknown:
        raise SchemaError(f"{where}: {key} takes no {', '.join(sorted(unknown))}")
    spec = _typed(key, node[key], node, where)
    if "or" in node:
        spec = Either(spec, tuple(node["or"]))  # type: ignore[arg-type]
    return Doc(spec, " ".join(str(node["doc"]).split())) if "doc" in node else spec


@dataclass(frozen=True)
class DefinitionSchema:
    """The definition keys a schema file declares (a :class:`~tts_builder.plugin.Game`'s
    ``fields`` and ``optional``), and the check of their references."""

    fields: dict[str, Spec]
    optional: frozenset[str]

    def check_references(self, data: Any) -> None:
        """Every ``ref`` of the definition names something it has (after the shapes); raises
        every problem found."""
        problems = Problems()
        for key, spec in self.fields.items():
            if key in data:
                problems.run(check_references, spec, data[key], data, key)
        problems.raise_any()


def schema_from_text(text: str, where: str = "schema") -> DefinitionSchema:
    """The schema a YAML text declares (``where`` names it in a :class:`SchemaError`)."""
    try:
        return DefinitionSchema(*keys_of(yaml.load(text, Loader=_LOADER), ""))
    except SchemaError as err:
        raise SchemaError(f"{where}: {err}") from None


@cache
def load_schema(package: str, name: str = "schema.yaml") -> DefinitionSchema:
    """The schema file ``name`` of a package (a rules engine's, beside its module)."""
    text = (package_folder(package) / name).read_text(encoding="utf-8")
    return schema_from_text(text, f"{package}/{name}")
