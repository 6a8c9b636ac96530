"""A MoonSharp-compatibility lint for generated TTS Lua (LUA.md §1.3, §6 "Static checks").

The source is tokenized properly (strings, long strings and comments never match a rule),
then token patterns are flagged with their line: Lua 5.3 syntax, MoonSharp-only syntax,
5.3-only library calls, libraries TTS does not load, calls whose results differ between
MoonSharp and Lua 5.2, and deprecated or non-existent TTS API. Finally the source is parsed
(not run) by Lua 5.2 in lupa, which rejects anything else that is not Lua 5.2 syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .bundle import is_bundle, unbundle


@dataclass(frozen=True)
class LintHit:
    """One finding: ``chunk:line: [rule] message``."""

    chunk: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.chunk}:{self.line}: [{self.rule}] {self.message}"


@dataclass(frozen=True)
class Token:
    """A Lua token: kind is name, number, string, op or eof."""

    kind: str
    value: str
    line: int


_OPS = ("...", "..", "==", "~=", "<=", ">=", "::", "//", "<<", ">>", "!=")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER_RE = re.compile(
    r"0[xX](?:[0-9a-fA-F]*\.?[0-9a-fA-F]*)(?:[pP][+-]?[0-9]+)?"
    r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
)
_LONG_OPEN_RE = re.compile(r"\[(=*)\[")


def tokenize(source: str) -> list[Token]:
    """Lua tokens with 1-based lines; comments and whitespace dropped.

    Lenient: an unterminated string or comment runs to the end of the line or source (the
    parse check reports it).
    """
    tokens: list[Token] = []
    i, line, n = 0, 1, len(source)
    while i < n:
        ch = source[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in " \t\r\f\v":
            i += 1
        elif source.startswith("--", i):
            long = _LONG_OPEN_RE.match(source, i + 2)
            if long:
                end = _long_end(source, long.end(), long.group(1))
                line += source.count("\n", i, end)
                i = end
            else:
                end = source.find("\n", i)
                i = n if end < 0 else end
        elif ch == "[" and (long := _LONG_OPEN_RE.match(source, i)):
            end = _long_end(source, long.end(), long.group(1))
            tokens.append(Token("string", source[long.end():end - len(long.group(0))], line))
            line += source.count("\n", i, end)
            i = end
        elif ch in "\"'":
            value, end = _quoted(source, i)
            tokens.append(Token("string", value, line))
            line += source.count("\n", i, end)
            i = end
        elif ch.isdigit() or (ch == "." and i + 1 < n and source[i + 1].isdigit()):
            m = _NUMBER_RE.match(source, i)
            assert m is not None
            tokens.append(Token("number", m.group(0), line))
            i = m.end()
        elif ch.isalpha() or ch == "_":
            m = _NAME_RE.match(source, i)
            assert m is not None
            tokens.append(Token("name", m.group(0), line))
            i = m.end()
        else:
            op = next((o for o in _OPS if source.startswith(o, i)), ch)
            tokens.append(Token("op", op, line))
            i += len(op)
    tokens.append(Token("eof", "", line))
    return tokens


def _long_end(source: str, start: int, level: str) -> int:
    """Index just after the ``]=*]`` closing a long bracket opened before ``start``."""
    close = "]" + level + "]"
    end = source.find(close, start)
    return len(source) if end < 0 else end + len(close)


def _quoted(source: str, i: int) -> tuple[str, int]:
    """The raw contents of the quoted string at ``i`` (escapes kept) and its end index."""
    quote, j, n = source[i], i + 1, len(source)
    while j < n:
        c = source[j]
        if c == "\\":
            j += 2
        elif c == quote:
            return source[i + 1:j], j + 1
        elif c == "\n":
            break
        else:
            j += 1
    return source[i + 1:j], j


EVENT_NAMES = frozenset((
    "onBlindfold", "onChat", "onExternalMessage", "onFixedUpdate", "onLoad",
    "onObjectCollisionEnter", "onObjectCollisionExit", "onObjectCollisionStay", "onObjectDestroy",
    "onObjectDrop", "onObjectEnterContainer", "onObjectEnterZone", "onObjectFlick",
    "onObjectHover", "onObjectLeaveContainer", "onObjectLeaveZone", "onObjectLoopingEffect",
    "onObjectNumberTyped", "onObjectPageChange", "onObjectPeek", "onObjectPickUp",
    "onObjectRandomize", "onObjectRotate", "onObjectSearchEnd", "onObjectSearchStart",
    "onObjectSpawn", "onObjectStateChange", "onObjectTriggerEffect", "onPlayerAction",
    "onPlayerChangeColor", "onPlayerChangeTeam", "onPlayerChatTyping", "onPlayerConnect",
    "onPlayerDisconnect", "onPlayerPing", "onPlayerTurn", "onSave", "onScriptingButtonDown",
    "onScriptingButtonUp", "onUpdate", "onZoneGroupSort", "tryObjectEnterContainer",
    "tryObjectRandomize", "tryObjectRotate", "onCollisionEnter", "onCollisionExit",
    "onCollisionStay", "onDestroy", "onDrop", "onFlick", "onGroupSort", "onHover", "onNumberTyped",
    "onPageChange", "onPeek", "onPickUp", "onRandomize", "onRotate", "onSearchEnd",
    "onSearchStart", "onStateChange", "tryObjectEnter", "tryRandomize", "tryRotate",
))
_LUA53_MEMBERS = {
    "table": {"move"},
    "math": {"type", "tointeger", "ult"},
    "string": {"pack", "unpack", "packsize"},
    "coroutine": {"isyieldable"},
}
_OS_ALLOWED = {"clock", "date", "time", "difftime"}
_NOT_IN_TTS = {"load", "loadstring", "dofile", "loadfile", "setfenv", "getfenv"}
_DEPRECATED = {
    "onObjectEnterScriptingZone": "deprecated: use onObjectEnterZone",
    "onObjectLeaveScriptingZone": "deprecated: use onObjectLeaveZone",
    "getAllObjects": "deprecated: use getObjects",
    "filterObjectEnterContainer": "deprecated: use tryObjectEnterContainer",
}
_FORMAT_SPEC_RE = re.compile(r"%[-+ #0]*[0-9]*(?:\.[0-9]*)?([a-zA-Z%])")


class _Linter:
    """Token-pattern rules over one chunk."""

    def __init__(self, source: str, chunk: str) -> None:
        self.tokens = tokenize(source)
        self.chunk = chunk
        self.hits: list[LintHit] = []
        self.bundle_modules: set[str] | None = None
        if is_bundle(source):
            try:
                self.bundle_modules = set(unbundle(source))
            except ValueError:
                self.bundle_modules = set()

    def hit(self, tok: Token, rule: str, message: str) -> None:
        self.hits.append(LintHit(self.chunk, tok.line, rule, message))

    def at(self, k: int) -> Token:
        return self.tokens[min(max(k, 0), len(self.tokens) - 1)]

    def is_op(self, k: int, value: str) -> bool:
        tok = self.at(k)
        return tok.kind == "op" and tok.value == value

    def is_name(self, k: int, value: str | None = None) -> bool:
        tok = self.at(k)
        return tok.kind == "name" and (value is None or tok.value == value)

    def global_name(self, k: int) -> bool:
        """Whether the name at ``k`` is not a field (``a.x``, ``a:x``) nor a table key."""
        if k > 0 and (self.is_op(k - 1, ".") or self.is_op(k - 1, ":")):
            return False
        key = self.is_op(k + 1, "=") and (self.is_op(k - 1, "{") or self.is_op(k - 1, ","))
        return not key

    def run(self) -> list[LintHit]:
        for k, tok in enumerate(self.tokens):
            if tok.kind == "op":
                self.check_op(k, tok)
            elif tok.kind == "name":
                self.check_name(k, tok)
        return self.hits

    # ---- operators ---------------------------------------------------------------------

    def check_op(self, k: int, tok: Token) -> None:
        v = tok.value
        if v in ("//", "&", "|", "~", "<<", ">>"):
            self.hit(tok, "lua53-syntax", f"'{v}' is Lua 5.3 syntax (MoonSharp and 5.2 reject"
                     " it); use bit32.* or math.floor(a / b)")
        elif v == "!=":
            self.hit(tok, "moonsharp-only", "'!=' only parses in MoonSharp; use '~='")
        elif v == "%":
            right = self.at(k + 1)
            if right.kind != "number" or _number_value(right.value) <= 0:
                self.hit(tok, "modulo", "'%' with a right operand that is not a positive numeric"
                         " literal differs in MoonSharp; use mod(a, b)")

    # ---- names -------------------------------------------------------------------------

    def check_name(self, k: int, tok: Token) -> None:
        name = tok.value
        field = self.at(k + 2) if self.is_op(k + 1, ".") and self.is_name(k + 2) else None
        member = field.value if field else None
        if name in _DEPRECATED and self.global_name(k):
            self.hit(tok, "tts-deprecated", f"{name}: {_DEPRECATED[name]}")
        if name == "tag" and self.is_op(k - 1, ".") and not self.is_op(k + 1, "("):
            self.hit(tok, "tts-deprecated", ".tag is deprecated: use .type")
        if name == "setNotebookTab" and (self.is_op(k - 1, ".") or self.is_op(k - 1, ":")):
            self.hit(tok, "tts-api", "Notes.setNotebookTab does not exist: use"
                     " Notes.addNotebookTab / Notes.editNotebookTab")
        if name == "local":
            self.check_local_event(k)
        if (name == "format" and self.is_op(k - 1, ":") and self.is_op(k - 2, ")")
                and self.is_op(k - 4, "(")):  # ("..."):format(...)
            self.check_format(self.at(k - 3))
        if not self.global_name(k):
            return
        if name == "utf8" and member is not None:
            self.hit(tok, "lua53-api", f"utf8.{member} is Lua 5.3 only")
        elif name in _LUA53_MEMBERS and member in _LUA53_MEMBERS[name]:
            self.hit(tok, "lua53-api", f"{name}.{member} is Lua 5.3 only")
        elif name in ("io", "debug") and (self.is_op(k + 1, ".") or self.is_op(k + 1, ":")):
            self.hit(tok, "not-in-tts", f"the {name} library is not loaded in TTS")
        elif name == "os" and member is not None and member not in _OS_ALLOWED:
            self.hit(tok, "not-in-tts", f"os.{member} is not loaded in TTS (only os.clock,"
                     " os.date, os.time, os.difftime)")
        elif name in _NOT_IN_TTS and not self.is_name(k - 1, "function"):
            self.hit(tok, "not-in-tts", f"{name} is not available in TTS")
        elif name == "require":
            self.check_require(k, tok)
        elif name in ("unpack", "pack") and self.is_op(k + 1, "(") and not self.is_name(
                k - 1, "function"):
            self.hit(tok, "bare-unpack", f"bare {name}() is missing in Lua 5.2: use"
                     f" table.{name}()")
        elif name == "math" and member == "fmod":
            self.hit(tok, "math-fmod", "math.fmod rounds differently in MoonSharp: use mod(a, b)")
        elif name == "math" and member == "huge":
            self.hit(tok, "math-huge", "math.huge is not infinity in MoonSharp")
        elif name == "tonumber" and self.is_op(k + 1, "("):
            if self.call_has_second_arg(k + 1):
                self.hit(tok, "tonumber-base", "tonumber(x, base) differs in MoonSharp (bases"
                         " 2-10 and 16 only; errors on '')")
        elif name == "string" and member == "format" and self.is_op(k + 3, "("):
            self.check_format(self.at(k + 4))

    def check_local_event(self, k: int) -> None:
        j = k + 2 if self.is_name(k + 1, "function") else k + 1
        tok = self.at(j)
        if tok.kind == "name" and tok.value in EVENT_NAMES:
            self.hit(tok, "local-event", f"{tok.value} declared local: TTS only calls global"
                     " event handlers")

    def check_require(self, k: int, tok: Token) -> None:
        if self.bundle_modules is None:
            self.hit(tok, "not-in-tts", "require only works inside a luabundle bundle")
            return
        arg = self.at(k + 2) if self.is_op(k + 1, "(") else self.at(k + 1)
        if arg.kind == "string" and arg.value not in self.bundle_modules:
            self.hit(tok, "bundle-require", f"require of '{arg.value}', which the bundle does"
                     " not register")

    def call_has_second_arg(self, open_k: int) -> bool:
        depth = 0
        for j in range(open_k, len(self.tokens)):
            t = self.tokens[j]
            if t.kind == "op" and t.value in "([{":
                depth += 1
            elif t.kind == "op" and t.value in ")]}":
                depth -= 1
                if depth == 0:
                    return False
            elif t.kind == "op" and t.value == "," and depth == 1:
                return True
            elif t.kind == "eof":
                return False
        return False

    def check_format(self, fmt: Token) -> None:
        if fmt.kind != "string":
            return
        specs = [m.group(1) for m in _FORMAT_SPEC_RE.finditer(fmt.value)]
        if "s" in specs:
            self.hit(fmt, "format-s", "string.format '%s' raises on nil/booleans in MoonSharp:"
                     " concatenate with tostring(...) and '..', or use %d for integers")


def _number_value(text: str) -> float:
    try:
        return float(int(text, 16)) if text.lower().startswith("0x") else float(text)
    except ValueError:
        return -1.0


@cache
def _lua():  # type: ignore[no-untyped-def]
    from lupa import lua52

    return lua52.LuaRuntime()


def parse_check(source: str, chunk: str) -> list[LintHit]:
    """Compile (never run) ``source`` as Lua 5.2; a syntax error as one hit."""
    result = _lua().globals().load(source, "=" + chunk, "t")
    if not isinstance(result, tuple):
        return []  # only the compiled function: it parses
    text = str(result[1])
    m = re.match(r"^(?:.*?):(\d+): (.*)$", text, re.S)
    if m:
        return [LintHit(chunk, int(m.group(1)), "syntax", m.group(2))]
    return [LintHit(chunk, 0, "syntax", text)]


def lint(source: str, chunk: str) -> list[LintHit]:
    """All findings for ``source`` (named ``chunk`` in the hits), sorted by line."""
    hits = _Linter(source, chunk).run() + parse_check(source, chunk)
    return sorted(hits, key=lambda h: (h.line, h.rule))
