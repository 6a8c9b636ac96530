"""The emulated Tabletop Simulator table: the Python driver of ``tts_api.lua``."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, Literal

from ..json_types import copied
from .bodies import SAME_SPOT, body_of, image_sizes
from .engines import new_sandbox
from .sandbox import LuaScriptError, explain

FPS = 60
Shuffle = Callable[[list[str]], list[str]]
#: TTS stores a rewind checkpoint about every 10 s (LUA.md §9): the table's default schedule.
REWIND_FRAMES = 10 * FPS


@dataclass
class Checkpoint:
    """A save the table took while its clock ran (every ``onSave`` called, as TTS does):
    ``kind`` is ``"rewind"`` (a scheduled rewind store, held off by ``storeRewindState(_,
    true)`` until ``allowRewindStore()``), ``"player"`` (a player's own save: at any frame) or
    ``"stored"`` (one a script asked for with ``storeRewindState``); ``frame`` is the frame at
    whose end it was taken. ``dice`` (the face values still queued) and ``shuffles`` (the
    shuffle generator's state) are not part of a save: the chance still to come then, which a
    table given them with :meth:`chance_from` draws alike (dice in flight land on the same
    faces, a shuffle still to be made orders the same). ``taken`` makes the save dict, once,
    when it is first read (the table took its copy at the frame: most saves are never loaded,
    and converting one costs most in MoonSharp)."""

    frame: int
    kind: Literal["rewind", "player", "stored"]
    taken: Callable[[], dict[str, Any]] = field(repr=False)
    dice: tuple[str | int, ...] = ()
    shuffles: Any = None

    @cached_property
    def save(self) -> dict[str, Any]:
        """The save as a TTS save dict."""
        return self.taken()


class EmulatorError(RuntimeError):
    """The emulated table cannot go on (never settles, dice queue empty, bad fixture)."""


class TableRuleError(EmulatorError):
    """On the strict table, the scripts broke a rule TTS enforces (objects interpenetrate)."""


def _text(value: Any) -> str:
    """A Lua value as TTS turns it into an XML attribute string."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else format(value, ".14g")
    return str(value)


def _is_false(text: str | None) -> bool:
    return text is not None and text.strip().lower() == "false"


class UiDocument:
    """One XmlUI document (Global's or an object's) with elements addressed by ``id``."""

    def __init__(self, xml: str) -> None:
        self.set_xml(xml)

    def set_xml(self, xml: str) -> None:
        """Replace the document; raises ``ValueError`` for malformed XML."""
        try:
            self.root = ET.fromstring(f"<UIRoot>{xml}</UIRoot>")
        except ET.ParseError as exc:
            raise ValueError(f"malformed XmlUI: {exc}") from None
        self._index()

    def _index(self) -> None:
        self.by_id: dict[str, ET.Element] = {}
        self.parent: dict[ET.Element, ET.Element] = {}
        for element in self.root.iter():
            for child in element:
                self.parent[child] = element
            element_id = element.get("id")
            if element_id is not None and element_id not in self.by_id:
                self.by_id[element_id] = element

    def get_xml(self) -> str:
        """The document as XmlUI text."""
        return "".join(ET.tostring(child, encoding="unicode") for child in self.root)

    def get_table(self) -> list[dict[str, Any]]:
        """The document as TTS's XML table ``{tag, attributes, value, children}``."""

        def convert(element: ET.Element) -> dict[str, Any]:
            item: dict[str, Any] = {"tag": element.tag, "attributes": dict(element.attrib)}
            if element.text and element.text.strip():
                item["value"] = element.text
            if len(element):
                item["children"] = [convert(child) for child in element]
            return item

        return [convert(child) for child in self.root]

    def set_table(self, items: list[dict[str, Any]]) -> None:
        """Replace the document from an XML table."""

        def build(parent: ET.Element, item: dict[str, Any]) -> None:
            element = ET.SubElement(parent, str(item.get("tag", "Panel")))
            for key, value in (item.get("attributes") or {}).items():
                element.set(str(key), _text(value))
            if item.get("value") is not None:
                element.text = _text(item["value"])
            for child in item.get("children") or []:
                build(element, child)

        self.root = ET.Element("UIRoot")
        for item in items or []:
            build(self.root, item)
        self._index()

    def chain(self, element_id: str) -> list[ET.Element]:
        """The element and its ancestors (empty if there is no such element)."""
        element = self.by_id.get(element_id)
        chain = []
        while element is not None and element is not self.root:
            chain.append(element)
            element = self.parent.get(element)
        return chain

    def active(self, element_id: str) -> bool:
        """True if the element and all its ancestors are active."""
        chain = self.chain(element_id)
        return bool(chain) and not any(_is_false(e.get("active")) for e in chain)

    def visible_to(self, element_id: str, color: str) -> bool:
        """True unless a ``visibility`` attribute on the element or an ancestor excludes color."""
        for element in self.chain(element_id):
            visibility = element.get("visibility")
            if visibility and color not in visibility.split("|"):
                return False
        return True

    def call(self, op: str, *args: Any) -> Any:
        """Run a ``UI.<op>(...)`` call from Lua; returns a Python value."""
        takes_id = op not in ("setXml", "getXml", "setXmlTable", "getXmlTable")
        element = self.by_id.get(_text(args[0])) if takes_id and args else None
        if op == "setAttribute":
            if element is None:
                return False
            element.set(_text(args[1]), _text(args[2] if len(args) > 2 else None))
            return True
        if op == "setAttributes":
            if element is None:
                return False
            for key, value in (args[1] or {}).items():
                element.set(str(key), _text(value))
            return True
        if op == "getAttribute":
            return None if element is None else element.get(_text(args[1]))
        if op == "getAttributes":
            return None if element is None else dict(element.attrib)
        if op == "setValue":
            if element is None:
                return False
            element.text = _text(args[1] if len(args) > 1 else None)
            return True
        if op == "getValue":
            return None if element is None else (element.text or "")
        if op in ("show", "hide"):
            if element is None:
                return False
            element.set("active", "True" if op == "show" else "False")
            return True
        if op == "setClass":
            if element is None:
                return False
            element.set("class", _text(args[1]))
            return True
        if op == "setXml":
            self.set_xml(_text(args[0]))
            return True
        if op == "getXml":
            return self.get_xml()
        if op == "setXmlTable":
            self.set_table(args[0] or [])
            return True
        if op == "getXmlTable":
            return self.get_table()
        raise ValueError(f"UI.{op} is not emulated")


#: Wraps each function of Global's ``Rules`` to report its first call (``reached(name)``).
_WATCH_RULES = """
return function(env, reached)
  local rules = env and rawget(env, "Rules")
  if type(rules) ~= "table" then return end
  local names = {}
  for name, fn in pairs(rules) do
    if type(name) == "string" and type(fn) == "function" then names[#names + 1] = name end
  end
  for _, name in ipairs(names) do
    local fn = rules[name]
    rules[name] = function(...)
      rules[name] = fn
      reached(name)
      return fn(...)
    end
  end
end
"""


class EmulatedTable:
    """A TTS table built from a save dict, driven from Python on a virtual 60 fps clock.

    ``dice`` is the queue of face values that rolled dice land on; ``shuffle`` (given the
    contained GUIDs, top first) returns their new order, else a seeded permutation is used.
    With ``raise_errors`` (default) a Lua error in any event handler raises
    :class:`LuaScriptError`; otherwise it is only recorded in :attr:`errors`, as TTS logs it and
    goes on.

    ``strict`` (default) makes the table as strict as TTS on what scripts depend on:
    ``takeObject`` returns at once but the object spawns at the container and arrives (and its
    callback runs) frames later; a spawned object whose GUID had to be replaced gets it only once
    ``spawning`` ends (reading it earlier is a Lua error); a card that comes to rest on a card or
    deck joins it and identical stackable pieces stack; objects that come to rest interpenetrating
    raise :class:`TableRuleError` (also listed in :attr:`violations`); only colours with a
    HandTrigger can be seated and only seated colours can click; ``getObjects()`` and ``pairs``
    iterate in a seeded shuffled order. Sizes come from the geometry model (through
    :mod:`.bodies`); ``images`` (a build's files, name -> bytes) give the image sizes tiles need.
    ``lua`` names the engine that runs the scripts and the table (``lupa`` or ``moonsharp``;
    default: :func:`.engines.default_engine`); ``reached``, a set that collects which ``Rules``
    functions Global calls.

    While the clock runs (:meth:`settle`, :meth:`advance`, so also in the middle of a scripted
    step) the table saves at the end of frames of a seeded schedule, one every ``save_every``
    frames on average (``None``: never), as TTS stores rewind checkpoints; one in
    ``PLAYER_SAVE_OUT_OF`` is a player's own save instead. The last ``keep_saves`` are
    :attr:`checkpoints`.
    """

    #: One scheduled save in this many is a player's (not held off by storeRewindState).
    PLAYER_SAVE_OUT_OF = 4

    def __init__(
        self,
        save: dict[str, Any],
        *,
        seed: int = 0,
        dice: Iterable[str | int] = (),
        shuffle: Shuffle | None = None,
        strict: bool = True,
        raise_errors: bool = True,
        images: Mapping[str, bytes] | None = None,
        lua: str | None = None,
        save_every: int | None = REWIND_FRAMES,
        keep_saves: int = 8,
        reached: set[str] | None = None,
    ) -> None:
        self.save = copied(save)
        #: ``Rules.<name>`` of each Rules function Global called (when a set is given: shared
        #: by the tables of one run)
        self.reached = reached
        self.checkpoints: deque[Checkpoint] = deque(maxlen=keep_saves)
        #: The frame of the last player input (a click or a drop).
        self.input_frame = 0
        self._save_every = save_every
        self._save_random = random.Random(f"saves:{seed}")
        self._next_save: int | None = None
        self._schedule_save(0)
        self.strict = strict
        self.raise_errors = raise_errors
        self.violations: list[str] = []
        self._image_sizes = image_sizes(images or {})
        self.broadcasts: list[dict[str, Any]] = []
        self.prints: list[str] = []
        self.logs: list[str] = []
        self.errors: list[str] = []
        self.shuffles: list[dict[str, Any]] = []
        self._shuffle = shuffle
        self._shuffle_random = random.Random(f"shuffle:{seed}")
        self._guid_random = random.Random(f"guid:{seed}")
        self._ui: dict[str, UiDocument] = {}
        self._xml_changed = False
        self.sandbox = new_sandbox(lua, seed=seed, on_print=self.prints.append)
        self.engine = self.sandbox.engine
        services = self.sandbox.to_lua(
            {
                "report_error": lambda text: self.errors.append(explain(text)),
                "broadcast": self._broadcast,
                "log": self.logs.append,
                "json_decode": self._json_decode,
                "fresh_guid": lambda: f"{self._guid_random.getrandbits(24):06x}",
                "shuffle": self._shuffle_service,
                "ui": self._ui_service,
                "ui_load": self._ui_load,
                "ui_unload": self._ui_unload,
                "body": self._body,
                "violation": self.violations.append,
            }
        )
        vector = self.sandbox.load_module("tts_vector.lua")
        json_module = self.sandbox.load_module("tts_json.lua")
        self._world = self.sandbox.load_module(
            "tts_api.lua", self.sandbox.lib, vector, json_module, services
        )
        self._world["strict"] = strict
        self._world["raise_errors"] = raise_errors
        self._world["same_spot"] = SAME_SPOT
        self._world["seed_order"](random.Random(f"order:{seed}").getrandbits(31))
        self.queue_dice(*dice)
        self._loaded = False

    # ------------------------------------------------------------------ Lua services
    def _broadcast(
        self,
        kind: str,
        message: str,
        to: str | None = None,
        r: float | None = None,
        g: float | None = None,
        b: float | None = None,
    ) -> None:
        color = None if r is None else (float(r), float(g or 0), float(b or 0))
        self.broadcasts.append({"message": message, "color": color, "to": to, "kind": kind})

    def _json_decode(self, text: str) -> tuple[bool, Any]:
        try:
            value = json.loads(text)
        except ValueError as exc:
            return False, str(exc)
        return True, self.sandbox.to_lua(value)

    def _shuffle_service(self, guid: str, guids: Any) -> Any:
        before = [str(g) for g in self.sandbox.from_lua(guids)]
        if self._shuffle is not None:
            after = [str(g) for g in self._shuffle(list(before))]
        else:
            after = self._shuffle_random.sample(before, len(before))
        if sorted(after) != sorted(before):
            raise EmulatorError(f"shuffle of {guid} must return a permutation of {before}")
        self.shuffles.append({"guid": guid, "before": before, "after": after})
        return self.sandbox.to_lua(after)

    def _body(
        self, name: str, custom_image: Any
    ) -> tuple[float | None, float | None, float, bool] | None:
        image = self.sandbox.from_lua(custom_image) if custom_image is not None else None
        body = body_of(name, image if isinstance(image, dict) else None, self._image_sizes)
        if body is None:
            return None
        return body.width, body.depth, body.height, body.centred

    def _ui_load(self, owner: str, xml: str) -> None:
        self._ui[owner] = UiDocument(xml)

    def _ui_unload(self, owner: str) -> None:
        self._ui.pop(owner, None)

    def _ui_service(self, owner: str, op: str, *args: Any) -> Any:
        document = self._ui.setdefault(owner, UiDocument(""))
        args = tuple(
            self.sandbox.from_lua(a) if self.sandbox.lua_type(a) == "table" else a for a in args
        )
        if owner == "Global" and op in ("setXml", "setXmlTable"):
            self._xml_changed = True
        result = document.call(op, *args)
        if isinstance(result, dict | list):
            return self.sandbox.to_lua(result)
        return result

    # ------------------------------------------------------------------ plumbing
    def _run(self, name: str, *args: Any) -> Any:
        """Call a World driver function; Lua errors from the emulator become EmulatorError."""
        start, broken = len(self.errors), len(self.violations)
        try:
            result = self._world[name](*args)
        except self.sandbox.error as exc:
            message = str(exc).split("\nstack traceback:")[0]
            raise EmulatorError(message) from None
        if self.raise_errors and len(self.errors) > start:
            raise LuaScriptError(self.errors[start])
        if len(self.violations) > broken:
            found = self.violations[broken:]
            more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
            raise TableRuleError("; ".join(found[:3]) + more)
        return result

    def _checked(self, name: str, *args: Any) -> None:
        result = self._run(name, *args)
        if isinstance(result, tuple) and not result[0]:
            raise ValueError(str(result[1]))

    def _documents(self) -> list[tuple[str, UiDocument]]:
        return sorted(self._ui.items(), key=lambda item: item[0] != "Global")

    def _element(self, element_id: str) -> tuple[str, UiDocument] | None:
        for owner, document in self._documents():
            if element_id in document.by_id:
                return owner, document
        return None

    # ------------------------------------------------------------------ public API
    def seat(self, colors: Iterable[str]) -> None:
        """Seat these player colours (``getSeatedPlayers()``, ``Player[c].seated``)."""
        self._checked("seat", self.sandbox.to_lua(list(colors)))

    def queue_dice(self, *values: str | int) -> None:
        """Append face values for dice that come to rest."""
        self._world["queue_dice"](self.sandbox.to_lua(list(values)))

    @property
    def dice_left(self) -> int:
        """How many queued dice values are still unused."""
        return int(self._world["dice_left"]())

    def load(self) -> None:
        """Run every script's top level, then onLoad (Global first, then objects), then settle."""
        if self._loaded:
            raise EmulatorError("the table is already loaded")
        self._loaded = True
        self._run("load", self.sandbox.to_lua(self.save))
        if self.reached is not None:
            self._watch_rules()
        self.settle()

    def _watch_rules(self) -> None:
        """Add ``Rules.<name>`` to :attr:`reached` the first time Global calls each function
        of its ``Rules`` table (then the function is put back: one Python call each)."""
        watch = self.sandbox.execute(_WATCH_RULES)
        watch(self._world["global_env"](), lambda name: self.reached.add(f"Rules.{name}"))

    def settle(self, max_seconds: float = 600) -> None:
        """Advance the virtual clock until nothing is pending; raise if that never happens."""
        limit = self.frame + round(max_seconds * FPS)
        while True:
            result = self._run("settle", limit - self.frame, self._next_save)
            if result != "paused":
                break
            self._checkpoint()
        if isinstance(result, tuple) and not result[0]:
            raise EmulatorError(
                f"the table did not settle within {max_seconds} s: {result[1]} is still pending"
            )

    def advance(self, seconds: float) -> None:
        """Run the virtual clock for a fixed time."""
        end = self.frame + round(seconds * FPS)
        while self._run("advance", end - self.frame, self._next_save) == "paused":
            self._checkpoint()

    @property
    def frame(self) -> int:
        """Virtual frames since the table was created."""
        return int(self._world["frame"]())

    def schedule_saves(self, every: int | None) -> None:
        """From now on save every ``every`` frames on average (``None``: never)."""
        self._save_every = every
        self._next_save = None
        self._schedule_save(self.frame)

    def _schedule_save(self, after: int) -> None:
        if self._save_every is not None:
            self._next_save = after + self._save_random.randint(1, 2 * self._save_every - 1)

    def _checkpoint(self) -> None:
        """The clock stopped for a save: the one a script asked for, and/or the scheduled one."""
        frame = self.frame
        dice = tuple(self.sandbox.lua_to_json(self._world["dice_queue"]()) or ())
        shuffles = self._shuffle_random.getstate()
        if self._world["rewind_requested"]():
            self.checkpoints.append(Checkpoint(frame, "stored", self._taken(), dice, shuffles))
            self._run("rewind_stored")
        if self._next_save is not None and frame >= self._next_save:
            self._schedule_save(frame)
            player = self._save_random.randrange(self.PLAYER_SAVE_OUT_OF) == 0
            if player or self._world["rewind_allowed"]():
                kind = "player" if player else "rewind"
                self.checkpoints.append(Checkpoint(frame, kind, self._taken(), dice, shuffles))

    def chance_from(self, checkpoint: Checkpoint) -> None:
        """Draw the chance still to come at ``checkpoint`` alike: its queued dice faces, its
        shuffle order (call before :meth:`load`)."""
        self.queue_dice(*checkpoint.dice)
        if checkpoint.shuffles is not None:
            self._shuffle_random.setstate(checkpoint.shuffles)

    @property
    def time(self) -> float:
        """Virtual seconds since the table was created."""
        return self.frame / FPS

    def click_ui(self, color: str, element_id: str, value: str | None = None) -> None:
        """Click an XmlUI element: calls its ``onClick`` handler as ``fn(player, value, id)``."""
        found = self._element(element_id)
        if found is None:
            raise ValueError(f"no XmlUI element with id {element_id!r}")
        owner, document = found
        if not document.active(element_id):
            raise ValueError(f"XmlUI element {element_id!r} is not active (hidden)")
        if not document.visible_to(element_id, color):
            raise ValueError(f"XmlUI element {element_id!r} is not visible to {color}")
        element = document.by_id[element_id]
        if _is_false(element.get("interactable")):
            raise ValueError(f"XmlUI element {element_id!r} is not interactable")
        handler = next(
            (
                element.get(a)
                for a in ("onClick", "onValueChanged", "onEndEdit", "onSubmit")
                if element.get(a)
            ),
            None,
        )
        if handler is None:
            raise ValueError(f"XmlUI element {element_id!r} has no onClick handler")
        if "/" in handler:
            owner, handler = handler.split("/", 1)
        text = "-1" if value is None else _text(value)
        self.input_frame = self.frame
        self._checked("ui_event", owner, handler, color, text, element_id)
        self.settle()

    def click_button(self, guid: str, label: str | int, color: str, alt: bool = False) -> None:
        """Click an object button (by label text or 0-based index)."""
        self.input_frame = self.frame
        self._checked("click_button", guid, label, color, alt)
        self.settle()

    def buttons(self, guid: str) -> list[dict[str, Any]]:
        """The buttons on an object: ``{index, label, click_function, tooltip}``."""
        return self.sandbox.lua_to_json(self._world["buttons"](guid)) or []

    def drop(self, color: str, guid: str, position: Iterable[float] | None = None) -> None:
        """A player picks up and drops an object, optionally at a new position."""
        lua_position = None if position is None else self.sandbox.to_lua(list(position))
        self.input_frame = self.frame
        self._checked("drop", color, guid, lua_position)
        self.settle()

    def call_global(self, fn_name: str, *json_args: Any) -> Any:
        """Call a Global function with JSON-shaped args; object references come back as GUIDs."""
        return self.call_object("Global", fn_name, *json_args)

    def call_object(self, guid: str, fn_name: str, *json_args: Any) -> Any:
        """Call a function of an object's script (``"Global"`` for Global)."""
        args = [self.sandbox.to_lua(a) for a in json_args]
        result = self._run("call_object", guid, fn_name, *args)
        if not isinstance(result, tuple):
            result = (result,)
        if not result[0]:
            traceback = result[2] if len(result) > 2 else None
            raise LuaScriptError(explain(str(result[1])), traceback)
        return self.sandbox.lua_to_json(result[1]) if len(result) > 1 else None

    def objects(self, contents: bool = True) -> list[dict[str, Any]]:
        """A snapshot of the loose objects, in creation order; without ``contents`` the
        containers' ``contained`` lists are left out (a quicker read)."""
        raw = self._world["snapshot"](None, not contents)
        return [self._snapshot(item) for item in self.sandbox.lua_to_json(raw)]

    def object(self, guid: str) -> dict[str, Any] | None:
        """A snapshot of one loose object, or None."""
        item = self._world["snapshot"](guid)
        return None if item is None else self._snapshot(self.sandbox.lua_to_json(item))

    @staticmethod
    def _snapshot(item: dict[str, Any]) -> dict[str, Any]:
        item["position"] = tuple(map(float, item["position"]))
        item["rotation"] = tuple(map(float, item["rotation"]))
        return item

    @property
    def notebook(self) -> list[dict[str, Any]]:
        """Notebook tabs ``{title, body, color}`` in index order (index 0 first)."""
        return self.sandbox.lua_to_json(self._world["notebook"]())

    @property
    def notes(self) -> str:
        """The on-screen notes (``Notes.setNotes``)."""
        return str(self._world["notes"]())

    def ui_attribute(self, element_id: str, name: str) -> str | None:
        """An XmlUI attribute of an element (Global's UI first, then objects')."""
        found = self._element(element_id)
        return None if found is None else found[1].by_id[element_id].get(name)

    def ui_value(self, element_id: str) -> str | None:
        """The text of an XmlUI element, or None if there is no such element."""
        found = self._element(element_id)
        return None if found is None else (found[1].by_id[element_id].text or "")

    def ui_active(self, element_id: str) -> bool:
        """True if the element exists and it and its ancestors are active."""
        found = self._element(element_id)
        return found is not None and found[1].active(element_id)

    def save_state(self) -> dict[str, Any]:
        """The current table as a save dict (calls every ``onSave``)."""
        return self._taken()()

    def _taken(self) -> Callable[[], dict[str, Any]]:
        """The current table saved (every ``onSave`` called now), as a maker of its save dict:
        the Lua side's copy is converted when the dict is first needed."""
        raw = self._run("save_state")
        xml = self._ui["Global"].get_xml() if self._xml_changed and "Global" in self._ui else None
        return partial(self._save_dict, raw, xml)

    def _save_dict(self, raw: Any, xml: str | None) -> dict[str, Any]:
        """The save dict of a save the Lua side took (``raw``, with Global's XmlUI then)."""
        state = self.sandbox.lua_to_json(raw)
        save = copied(self.save)
        save["ObjectStates"] = state["objects"]
        save["LuaScriptState"] = state["script_state"]
        save["Note"] = state["notes"]
        save["TabStates"] = state["tabs"] or {}
        save["Turns"] = state["turns"] or {}
        if state["snap_points"] or "SnapPoints" in save:
            save["SnapPoints"] = state["snap_points"] or []
        if xml is not None:
            save["XmlUI"] = xml
        return save
