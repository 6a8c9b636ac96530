"""A client for TTS's External Editor API (LUA.md §4): Save & Play, Execute Lua, and messages.

TTS listens on localhost:39999; the editor listens on localhost:39998, where TTS sends every
reply and event. Each TCP connection carries exactly one JSON document and is then closed.
Lua error positions (MoonSharp's ``chunk_N:(line,col-col)``, or ``name:line:``) are mapped
from the bundled Global script back to the template module, file and line they came from.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import re
import socket
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ..errors import BuildError

HOST = "127.0.0.1"
TTS_PORT = 39999
EDITOR_PORT = 39998
GLOBAL_GUID = "-1"
MAX_DOCUMENT = 64 * 1024 * 1024
ERROR_GRACE = 1.0  # seconds to still wait for Execute Lua's value after an error arrived
#: The most characters of one message's text that are mapped and shown (a Lua error can be
#: tens of KB: mapping it whole would miss Save & Play's reply).
MAX_SHOWN = 4000


class Rx(IntEnum):
    """Messages TTS sends to the editor (port 39998)."""

    OBJECT_PUSHED = 0
    NEW_GAME = 1
    PRINT = 2
    ERROR = 3
    CUSTOM = 4
    RETURN = 5
    GAME_SAVED = 6
    OBJECT_CREATED = 7


class Tx(IntEnum):
    """Messages the editor sends to TTS (port 39999)."""

    GET_SCRIPTS = 0
    SAVE_AND_PLAY = 1
    CUSTOM = 2
    EXECUTE_LUA = 3


# --- messages (pure) ----------------------------------------------------------------------------


def script_states(save: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every script and UI of a save as Save & Play ``scriptStates``.

    Global comes first with both ``script`` and ``ui``; then every object on the table with a
    script or a UI, also with both keys (a missing key would delete that script or UI in TTS).
    Objects inside containers are not live in TTS, so they are not listed.
    """
    states = [
        {
            "name": "Global",
            "guid": GLOBAL_GUID,
            "script": save.get("LuaScript", ""),
            "ui": save.get("XmlUI", ""),
        }
    ]
    for obj in save.get("ObjectStates", []):
        if obj.get("LuaScript") or obj.get("XmlUI"):
            states.append(
                {
                    "name": obj.get("Nickname") or obj.get("Name", ""),
                    "guid": obj["GUID"],
                    "script": obj.get("LuaScript", ""),
                    "ui": obj.get("XmlUI", ""),
                }
            )
    return states


def save_and_play(states: list[dict[str, str]]) -> dict[str, Any]:
    """The Save & Play request."""
    return {"messageID": int(Tx.SAVE_AND_PLAY), "scriptStates": states}


def execute_lua(script: str, guid: str, return_id: int) -> dict[str, Any]:
    """The Execute Lua request (``guid`` -1 runs it in Global)."""
    return {
        "messageID": int(Tx.EXECUTE_LUA),
        "guid": guid,
        "script": script,
        "returnID": return_id,
    }


def table_guids(save: Mapping[str, Any], limit: int = 8) -> list[str]:
    """GUIDs of (up to ``limit``) objects on the table of a save, sorted."""
    return sorted(obj["GUID"] for obj in save.get("ObjectStates", []) if obj.get("GUID"))[:limit]


def guard_script(guids: list[str]) -> str:
    """Lua returning how many of ``guids`` exist in the loaded game."""
    listed = ", ".join(json.dumps(guid) for guid in guids)
    return (
        "local found = 0\n"
        f"for _, guid in ipairs({{{listed}}}) do\n"
        "  if getObjectFromGUID(guid) ~= nil then found = found + 1 end\n"
        "end\n"
        "return found\n"
    )


def parse_document(data: bytes) -> Any | None:
    """The JSON document in ``data``, or ``None`` while it is incomplete or not JSON (nested
    too deep for Python's parser included)."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def shown_text(text: str) -> str:
    """``text`` safe to print on a terminal: control characters (escape codes, bells, carriage
    returns, bidirectional overrides) written as escapes; newlines and tabs kept."""
    return "".join(ch if ch in "\n\t" or not _is_control(ch) else ascii(ch)[1:-1] for ch in text)


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def _capped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def _entries(value: Any) -> list[Any]:
    """A message's list field as a list (TTS's, or anything a broken peer sent)."""
    return value if isinstance(value, list) else []


# --- error positions (pure) ---------------------------------------------------------------------

_CHUNK_RE = re.compile(r"chunk_\d+:\((\d+),(\d+)(?:-(\d+)(?:,(\d+))?)?\)")
_LINE_RE = re.compile(r'(\[string "[^"]*"\]|chunk_\d+|[\w.-]+):(\d+):')
_EXPR_RE = re.compile(r"\{\{.*?\}\}")


def template_line(template: str, rendered: str, near: int) -> tuple[int, bool] | None:
    """The template line that rendered as ``rendered``: (line, certain).

    Lines without Jinja expressions must match exactly, lines with ``{{ ... }}`` as a pattern.
    One match is certain; among several, the one nearest to line ``near`` is a guess.
    """
    if not rendered.strip():
        return None
    candidates = []
    for number, line in enumerate(template.split("\n"), start=1):
        if "{%" in line or "{#" in line:
            continue
        if "{{" in line:
            parts = _EXPR_RE.split(line)
            pattern = ".*".join(re.escape(part) for part in parts)
            if re.fullmatch(pattern, rendered, re.DOTALL):
                candidates.append(number)
        elif line == rendered:
            candidates.append(number)
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0], True
    return min(candidates, key=lambda n: (abs(n - near), n)), False


@dataclass
class SourceMap:
    """Where each line of each pushed script came from."""

    game_id: str
    scripts: dict[str, tuple[str, str]]  # guid -> (script name, script text)
    templates: dict[str, str] = field(default_factory=dict)  # module -> template path shown
    template_texts: dict[str, str] = field(default_factory=dict)  # module -> template text
    line_maps: dict[str, dict[int, tuple[str, int]]] = field(default_factory=dict)  # by guid

    @classmethod
    def from_build(cls, build: Any) -> SourceMap:
        """The map for a build, reading its Lua templates (for template line numbers)."""
        from ..lua.scripts import module_templates
        from ..lua.templates import TEMPLATES_DIR

        scripts = {GLOBAL_GUID: ("Global", build.global_script)}
        for obj in build.save.get("ObjectStates", []):
            if obj.get("LuaScript"):
                name = obj.get("Nickname") or obj.get("Name", "")
                scripts[obj["GUID"]] = (f"{name}.{obj['GUID']}", obj["LuaScript"])
        try:
            names = module_templates(build.engine)
        except FileNotFoundError:
            names = {}
        shown = {m: f"{TEMPLATES_DIR.name}/{t}" for m, t in names.items()}
        texts = {}
        for module, template in names.items():
            with contextlib.suppress(OSError):
                texts[module] = (TEMPLATES_DIR / template).read_text(encoding="utf-8")
        return cls(build.game_id, scripts, shown, texts)

    def locate(self, guid: str, line: int) -> tuple[str, str | None] | None:
        """(where, the source line) for ``line`` of the script of ``guid``.

        ``None`` when the line is not in a known script's module body: e.g. an error in code
        run by Execute Lua, whose line numbers are the snippet's own.
        """
        from ..lua.bundle import is_bundle, module_line_map

        if guid not in self.scripts:
            return None
        name, text = self.scripts[guid]
        lines = text.split("\n")
        if not 0 < line <= len(lines):
            return None
        code = lines[line - 1]
        if not is_bundle(text):
            return f"{name}:{line}", code
        if guid not in self.line_maps:
            try:
                self.line_maps[guid] = module_line_map(text)
            except ValueError:
                self.line_maps[guid] = {}
        place = self.line_maps[guid].get(line)
        if place is None:
            return None
        module, module_line = place
        if module not in self.templates:
            label = "bundle root" if module == "__root" else f"module {module}"
            return f"{name} ({label}, line {module_line})", code
        found = None
        if code is not None and module in self.template_texts:
            found = template_line(self.template_texts[module], code, module_line)
        path = self.templates[module]
        if found is None:
            return f"{path} (rendered line {module_line})", code
        number, certain = found
        return (f"{path}:{number}" if certain else f"{path}:~{number}"), code


def explain(message: str, guid: str, source: SourceMap) -> tuple[str, str | None]:
    """``message`` with its Lua positions mapped to the templates; and the first one's line."""
    code_line: list[str | None] = [None]

    def chunk(match: re.Match[str]) -> str:
        line, start, end, end_col = match.groups()
        found = source.locate(guid, int(line))
        if found is None:
            return match.group(0)
        where, code = found
        code_line[0] = code_line[0] if code_line[0] is not None else code
        # (line,col), (line,col-col), or (line,col-line,col) for a span over several lines
        cols = f"{start}-{end}" if end is not None and end_col is None else start
        return f"{where}:{cols}"

    def plain(match: re.Match[str]) -> str:
        found = source.locate(guid, int(match.group(2)))
        if found is None:
            return match.group(0)
        where, code = found
        code_line[0] = code_line[0] if code_line[0] is not None else code
        return f"{where}:"

    message = _capped(message, MAX_SHOWN)
    mapped, count = _CHUNK_RE.subn(chunk, message)
    if not count:
        mapped = _LINE_RE.sub(plain, message)
    return mapped, code_line[0]


def format_message(message: Any, source: SourceMap) -> list[str]:
    """The lines to show for one message from TTS (any JSON: a field of the wrong type is
    shown as it is, never an error)."""
    if not isinstance(message, dict):
        return [f"[tts] unreadable message: {_capped(str(message), 200)}"]
    kind = message.get("messageID")
    if kind == Rx.PRINT:
        return [f"[print] {_capped(str(message.get('message', '')), MAX_SHOWN)}"]
    if kind == Rx.ERROR:
        guid = str(message.get("guid", GLOBAL_GUID))
        text, code = explain(str(message.get("error", "")), guid, source)
        lines = [f"[error] {_capped(str(message.get('errorMessagePrefix', '')), 200)}{text}"]
        if code is not None and code.strip():
            lines.append(f"        | {code.strip()}")
        return lines
    if kind == Rx.RETURN:
        value = _json(message.get("returnValue"))
        return [f"[return #{_capped(str(message.get('returnID', '?')), 40)}] {value}"]
    if kind == Rx.NEW_GAME:
        count = len(_entries(message.get("scriptStates")))
        path = _capped(str(message.get("savePath") or "the game"), 400)
        return [f"[loaded] TTS reloaded {path} ({count} script{'' if count == 1 else 's'})"]
    if kind == Rx.GAME_SAVED:
        return [f"[saved] {_capped(str(message.get('savePath') or 'the game was saved'), 400)}"]
    if kind == Rx.CUSTOM:
        return [f"[message] {_json(message.get('customMessage'))}"]
    if kind == Rx.OBJECT_CREATED:
        return [f"[object] created {_capped(str(message.get('guid', '?')), 40)}"]
    if kind == Rx.OBJECT_PUSHED:
        states = _entries(message.get("scriptStates"))
        names = [str(s.get("name", "?")) if isinstance(s, dict) else "?" for s in states]
        return [f"[object] editor requested for {_capped(', '.join(names), 400)}"]
    return [f"[tts] message {_capped(str(kind), 40)}: {_json(message, 200)}"]


def _json(value: Any, limit: int = MAX_SHOWN) -> str:
    """``value`` as JSON text, cut to ``limit`` characters."""
    try:
        return _capped(json.dumps(value, ensure_ascii=False), limit)
    except (RecursionError, ValueError):
        return "(nested too deep to show)"


# --- sockets (I/O) ------------------------------------------------------------------------------


def send(
    message: Mapping[str, Any], host: str = HOST, port: int = TTS_PORT, timeout: float = 5.0
) -> None:
    """Send one JSON document to TTS on its own connection."""
    data = json.dumps(message, ensure_ascii=False).encode("utf-8")
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError:
        raise BuildError(f"TTS is not running (nothing listens on localhost:{port})") from None
    try:
        with sock:
            sock.sendall(data)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_WR)
    except OSError as err:
        raise BuildError(f"TTS closed the connection on localhost:{port}: {err}") from None


def read_document(conn: socket.socket, timeout: float) -> Any | None:
    """Read one JSON document: until the peer closes, or as soon as the bytes parse (bytes
    that never parse: a text saying so, shown as an unreadable message)."""
    conn.settimeout(timeout)
    chunks: list[bytes] = []
    size = 0
    with contextlib.suppress(OSError):
        while size <= MAX_DOCUMENT:
            chunk = conn.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if chunk.rstrip().endswith((b"}", b"]")) and parse_document(b"".join(chunks)):
                break
    if not chunks:
        return None
    document = parse_document(b"".join(chunks))
    return f"{size} bytes that are not one JSON document" if document is None else document


class Listener:
    """The editor's server on port 39998: every document TTS sends lands in a queue."""

    def __init__(self, host: str = HOST, port: int = EDITOR_PORT) -> None:
        self.messages: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if os.name != "nt":  # on Windows SO_REUSEADDR would let two listeners share the port
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            server.bind((host, port))
            server.listen(16)
        except OSError as err:
            server.close()
            raise BuildError(
                f"port {port} is in use ({err.strerror or err}): another editor (the VS Code "
                "or Atom TTS plugin, or another tts-builder push/watch) is listening for TTS; "
                "close it and try again"
            ) from None
        server.settimeout(0.1)
        self.server = server
        self.port = server.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, name="tts-editor-listener", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            with conn:
                document = read_document(conn, timeout=5.0)
            if document is not None:
                self.messages.put(document)

    def get(self, timeout: float) -> Any | None:
        """The next message, or ``None`` after ``timeout`` seconds."""
        try:
            return self.messages.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        self.server.close()

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class PushOutcome:
    """What happened during a push."""

    reloaded: bool = False
    errors: int = 0
    returned: list[Any] = field(default_factory=list)


class Session:
    """One conversation with TTS: requests out on 39999, everything shown as it comes in."""

    def __init__(
        self,
        listener: Listener,
        source: SourceMap,
        echo: Callable[[str], None],
        host: str = HOST,
        tts_port: int = TTS_PORT,
    ) -> None:
        self.listener = listener
        self.source = source
        self.echo = echo
        self.host = host
        self.tts_port = tts_port
        self.outcome = PushOutcome()
        self._ids: Iterator[int] = itertools.count(1)

    def send(self, message: Mapping[str, Any]) -> None:
        send(message, self.host, self.tts_port)

    def _show(self, message: Any) -> None:
        if isinstance(message, dict) and message.get("messageID") == Rx.ERROR:
            self.outcome.errors += 1
        for line in format_message(message, self.source):
            self.echo(shown_text(line))

    def wait_for(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float, what: str
    ) -> dict[str, Any]:
        """Show messages until one is ``wanted``; BuildError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.listener.get(min(left, 0.5))
            if message is None:
                continue
            self._show(message)
            if isinstance(message, dict) and wanted(message):
                return message
        raise BuildError(
            f"TTS did not answer {what} within {timeout:g} s (is a game loaded in TTS?)"
        )

    def save_and_play(self, states: list[dict[str, str]], timeout: float) -> None:
        """Send every script and UI, and wait for TTS to reload the game."""
        self.send(save_and_play(states))
        self.wait_for(lambda m: m.get("messageID") == Rx.NEW_GAME, timeout, "Save & Play")
        self.outcome.reloaded = True

    def _call(self, script: str, guid: str, timeout: float, quiet: bool) -> tuple[bool, Any]:
        """Execute Lua and wait for its value: (True, value), or (False, None) after an error.

        An error may be the answer or a late one from the reload (TTS does not say which), so
        after an error the wait for the return value is cut to ``ERROR_GRACE`` seconds. With
        ``quiet`` the answer (value or error) is neither shown nor counted.
        """
        return_id = next(self._ids)
        self.send(execute_lua(script, guid, return_id))
        deadline = time.monotonic() + timeout
        errors = 0
        while (left := deadline - time.monotonic()) > 0:
            message = self.listener.get(min(left, 0.5))
            if message is None:
                continue
            is_dict = isinstance(message, dict)
            is_error = is_dict and message.get("messageID") == Rx.ERROR
            answer = (
                is_dict
                and message.get("messageID") == Rx.RETURN
                and (message.get("returnID") == return_id)
            )
            if not (quiet and (is_error or answer)):
                self._show(message)
            if answer:
                return True, message.get("returnValue")
            if is_error:
                errors += 1
                deadline = min(deadline, time.monotonic() + ERROR_GRACE)
        if errors:
            return False, None
        raise BuildError(
            f"TTS did not answer Execute Lua within {timeout:g} s (is a game loaded in TTS?)"
        )

    def execute(self, script: str, guid: str, timeout: float) -> Any:
        """Run Lua in TTS; its value (``None`` if it failed: the error is shown and counted)."""
        ok, value = self._call(script, guid, timeout, quiet=False)
        if ok:
            self.outcome.returned.append(value)
        return value

    def is_loaded(self, guids: list[str], timeout: float) -> bool:
        """Whether the game loaded in TTS has any of ``guids`` on its table."""
        if not guids:
            return True
        ok, value = self._call(guard_script(guids), GLOBAL_GUID, timeout, quiet=True)
        return ok and isinstance(value, int | float) and value > 0

    def check_loaded(self, save: Mapping[str, Any], game_id: str, timeout: float) -> None:
        """Refuse to Save & Play into another game: that would overwrite its scripts."""
        if not self.is_loaded(table_guids(save), timeout):
            raise BuildError(
                f"the game loaded in TTS is not {game_id} (none of its objects is on the table):"
                f" load it first (tts-builder install {game_id}), or pass --force"
            )

    def listen(self, seconds: float | None, swallow_interrupt: bool = True) -> None:
        """Show messages for ``seconds`` (``None``: until Ctrl-C; Ctrl-C ends the listening
        quietly when ``swallow_interrupt``, else it propagates)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        try:
            while deadline is None or time.monotonic() < deadline:
                left = 0.5 if deadline is None else min(0.5, deadline - time.monotonic())
                message = self.listener.get(left)
                if message is not None:
                    self._show(message)
        except KeyboardInterrupt:
            if not swallow_interrupt:
                raise


def push(
    build: Any,
    *,
    reload: bool = True,
    code: str | None = None,
    guid: str = GLOBAL_GUID,
    force: bool = False,
    listen: float | None = 3.0,
    timeout: float = 30.0,
    host: str = HOST,
    tts_port: int = TTS_PORT,
    editor_port: int = EDITOR_PORT,
    echo: Callable[[str], None] = print,
) -> PushOutcome:
    """Save & Play every script and UI of ``build``, optionally run ``code``, show what TTS says.

    ``listen`` is how long to keep showing messages afterwards (``None``: until Ctrl-C).
    Unless ``force``, Save & Play is refused when the game loaded in TTS is another one.
    """
    source = SourceMap.from_build(build)
    with Listener(host, editor_port) as listener:
        session = Session(listener, source, echo, host, tts_port)
        if reload:
            if not force:
                session.check_loaded(build.save, build.game_id, timeout)
            session.save_and_play(script_states(build.save), timeout)
        if code:
            session.execute(code, guid, timeout)
        if listen is None or listen > 0:
            session.listen(listen)
    return session.outcome
