"""A MoonSharp-compatibility lint for generated TTS Lua (LUA.md §1.3, §6 "Static checks").

The source is tokenized properly (strings, long strings and comments never match a rule),
then token patterns are flagged with their line: Lua 5.3 syntax, MoonSharp-only syntax,
5.3-only library calls, libraries TTS does not load, calls whose results differ between
MoonSharp and Lua 5.2, and deprecated or non-existent TTS API. The traps measured in real
MoonSharp (LUA.md §7-8) follow the blocks of the chunk (loops, functions): string ordering,
comparator-less sorts, '#' over tables with holes, error with a table or a level, math.modf,
float formats, tostring of fractions, bit32 shifts, pairs-order results, a bare local in a
generic for body (§8.1), lazy '-' patterns and a multiple assignment whose target reads what
another target writes (§8.1). Finally the source is parsed
(not run) by Lua 5.2 in lupa, which rejects anything else that is not Lua 5.2 syntax.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

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


class Token(NamedTuple):
    """A Lua token: kind is name, number, string, op or eof."""

    kind: str
    value: str
    line: int


_OPS = ("...", "..", "==", "~=", "<=", ">=", "::", "//", "<<", ">>", "!=")
_NUMBER_RE = re.compile(
    r"0[xX](?:[0-9a-fA-F]*\.?[0-9a-fA-F]*)(?:[pP][+-]?[0-9]+)?"
    r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
)
_LONG_OPEN_RE = re.compile(r"\[(=*)\[")


#: One token or gap at a position: whitespace, a newline, a name, a number, the start of a
#: comment, long string or quoted string (read by the code below), else an operator (the longest
#: of :data:`_OPS`, else one character).
_SCAN_RE = re.compile(
    r"(?P<space>[ \t\r\f\v]+)|(?P<newline>\n)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    rf"|(?P<number>{_NUMBER_RE.pattern})|(?P<special>--|\[=*\[|[\"'])"
    rf"|(?P<op>{'|'.join(re.escape(op) for op in _OPS)}|.)",
    re.S,
)


def tokenize(source: str) -> list[Token]:
    """Lua tokens with 1-based lines; comments and whitespace dropped.

    Lenient: an unterminated string or comment runs to the end of the line or source (the
    parse check reports it).
    """
    tokens: list[Token] = []
    append, scan, new = tokens.append, _SCAN_RE.match, tuple.__new__  # Token(...), quicker
    i, line, n = 0, 1, len(source)
    while i < n:
        m = scan(source, i)
        assert m is not None  # the last alternative matches any character
        kind, end = m.lastgroup, m.end()
        if kind == "space":
            pass
        elif kind == "newline":
            line += 1
        elif kind != "special":
            append(new(Token, (kind, m.group(), line)))
        elif m.group() == "--":
            long = _LONG_OPEN_RE.match(source, end)
            if long:
                end = _long_end(source, long.end(), long.group(1))
                line += source.count("\n", i, end)
            else:
                found = source.find("\n", i)
                end = n if found < 0 else found
        elif m.group()[0] == "[":
            level = m.group()[1:-1]
            end = _long_end(source, m.end(), level)
            append(Token("string", source[m.end() : end - len(m.group())], line))
            line += source.count("\n", i, end)
        else:
            value, end = _quoted(source, i)
            append(Token("string", value, line))
            line += source.count("\n", i, end)
        i = end
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
            return source[i + 1 : j], j + 1
        elif c == "\n":
            break
        else:
            j += 1
    return source[i + 1 : j], j


EVENT_NAMES = frozenset(
    (
        "onBlindfold",
        "onChat",
        "onExternalMessage",
        "onFixedUpdate",
        "onLoad",
        "onObjectCollisionEnter",
        "onObjectCollisionExit",
        "onObjectCollisionStay",
        "onObjectDestroy",
        "onObjectDrop",
        "onObjectEnterContainer",
        "onObjectEnterZone",
        "onObjectFlick",
        "onObjectHover",
        "onObjectLeaveContainer",
        "onObjectLeaveZone",
        "onObjectLoopingEffect",
        "onObjectNumberTyped",
        "onObjectPageChange",
        "onObjectPeek",
        "onObjectPickUp",
        "onObjectRandomize",
        "onObjectRotate",
        "onObjectSearchEnd",
        "onObjectSearchStart",
        "onObjectSpawn",
        "onObjectStateChange",
        "onObjectTriggerEffect",
        "onPlayerAction",
        "onPlayerChangeColor",
        "onPlayerChangeTeam",
        "onPlayerChatTyping",
        "onPlayerConnect",
        "onPlayerDisconnect",
        "onPlayerPing",
        "onPlayerTurn",
        "onSave",
        "onScriptingButtonDown",
        "onScriptingButtonUp",
        "onUpdate",
        "onZoneGroupSort",
        "tryObjectEnterContainer",
        "tryObjectRandomize",
        "tryObjectRotate",
        "onCollisionEnter",
        "onCollisionExit",
        "onCollisionStay",
        "onDestroy",
        "onDrop",
        "onFlick",
        "onGroupSort",
        "onHover",
        "onNumberTyped",
        "onPageChange",
        "onPeek",
        "onPickUp",
        "onRandomize",
        "onRotate",
        "onSearchEnd",
        "onSearchStart",
        "onStateChange",
        "tryObjectEnter",
        "tryRandomize",
        "tryRotate",
    )
)
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
#: Every operator a rule of :meth:`_Linter.check_op` looks at.
_LINTED_OPS = frozenset(("//", "&", "|", "~", "<<", ">>", "!=", "%"))
#: Every name a rule of :meth:`_Linter.check_name` starts from (any other name is skipped).
_LINTED_NAMES = frozenset((
    *_DEPRECATED, *_LUA53_MEMBERS, *_NOT_IN_TTS, "tag", "setNotebookTab", "local", "format",
    "utf8", "io", "debug", "os", "require", "unpack", "pack", "math", "tonumber", "string",
))  # fmt: skip


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
        """The token at ``k``, clamped to the first and the last (eof)."""
        tokens = self.tokens
        if 0 <= k < len(tokens):
            return tokens[k]
        return tokens[0] if k < 0 else tokens[-1]

    def is_op(self, k: int, value: str) -> bool:
        kind, text, _line = self.at(k)
        return text == value and kind == "op"

    def is_name(self, k: int, value: str | None = None) -> bool:
        kind, text, _line = self.at(k)
        return kind == "name" and (value is None or text == value)

    def global_name(self, k: int) -> bool:
        """Whether the name at ``k`` is not a field (``a.x``, ``a:x``) nor a table key."""
        if k > 0 and (self.is_op(k - 1, ".") or self.is_op(k - 1, ":")):
            return False
        key = self.is_op(k + 1, "=") and (self.is_op(k - 1, "{") or self.is_op(k - 1, ","))
        return not key

    def run(self) -> list[LintHit]:
        for k, tok in enumerate(self.tokens):
            if tok.kind == "op":
                if tok.value in _LINTED_OPS:
                    self.check_op(k, tok)
            elif tok.kind == "name":
                self.check_name(k, tok)
        _Traps(self).run()
        return self.hits

    # ---- operators ---------------------------------------------------------------------

    def check_op(self, k: int, tok: Token) -> None:
        v = tok.value
        if v in ("//", "&", "|", "~", "<<", ">>"):
            self.hit(
                tok,
                "lua53-syntax",
                f"'{v}' is Lua 5.3 syntax (MoonSharp and 5.2 reject"
                " it); use bit32.* or math.floor(a / b)",
            )
        elif v == "!=":
            self.hit(tok, "moonsharp-only", "'!=' only parses in MoonSharp; use '~='")
        elif v == "%":
            right = self.at(k + 1)
            if right.kind != "number" or _number_value(right.value) <= 0:
                self.hit(
                    tok,
                    "modulo",
                    "'%' with a right operand that is not a positive numeric"
                    " literal differs in MoonSharp; use mod(a, b)",
                )

    # ---- names -------------------------------------------------------------------------

    def check_name(self, k: int, tok: Token) -> None:
        name = tok.value
        if name not in _LINTED_NAMES:
            return
        field = self.at(k + 2) if self.is_op(k + 1, ".") and self.is_name(k + 2) else None
        member = field.value if field else None
        if name in _DEPRECATED and self.global_name(k):
            self.hit(tok, "tts-deprecated", f"{name}: {_DEPRECATED[name]}")
        if name == "tag" and self.is_op(k - 1, ".") and not self.is_op(k + 1, "("):
            self.hit(tok, "tts-deprecated", ".tag is deprecated: use .type")
        if name == "setNotebookTab" and (self.is_op(k - 1, ".") or self.is_op(k - 1, ":")):
            self.hit(
                tok,
                "tts-api",
                "Notes.setNotebookTab does not exist: use"
                " Notes.addNotebookTab / Notes.editNotebookTab",
            )
        if name == "local":
            self.check_local_event(k)
        if (
            name == "format"
            and self.is_op(k - 1, ":")
            and self.is_op(k - 2, ")")
            and self.is_op(k - 4, "(")
        ):  # ("..."):format(...)
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
            self.hit(
                tok,
                "not-in-tts",
                f"os.{member} is not loaded in TTS (only os.clock, os.date, os.time, os.difftime)",
            )
        elif name in _NOT_IN_TTS and not self.is_name(k - 1, "function"):
            self.hit(tok, "not-in-tts", f"{name} is not available in TTS")
        elif name == "require":
            self.check_require(k, tok)
        elif (
            name in ("unpack", "pack")
            and self.is_op(k + 1, "(")
            and not self.is_name(k - 1, "function")
        ):
            self.hit(tok, "bare-unpack", f"bare {name}() is missing in Lua 5.2: use table.{name}()")
        elif name == "math" and member == "fmod":
            self.hit(tok, "math-fmod", "math.fmod rounds differently in MoonSharp: use mod(a, b)")
        elif name == "math" and member == "huge":
            self.hit(tok, "math-huge", "math.huge is not infinity in MoonSharp")
        elif name == "tonumber" and self.is_op(k + 1, "("):
            if self.call_has_second_arg(k + 1):
                self.hit(
                    tok,
                    "tonumber-base",
                    "tonumber(x, base) differs in MoonSharp (bases 2-10 and 16 only; errors on '')",
                )
        elif name == "string" and member == "format" and self.is_op(k + 3, "("):
            self.check_format(self.at(k + 4))

    def check_local_event(self, k: int) -> None:
        j = k + 2 if self.is_name(k + 1, "function") else k + 1
        tok = self.at(j)
        if tok.kind == "name" and tok.value in EVENT_NAMES:
            self.hit(
                tok,
                "local-event",
                f"{tok.value} declared local: TTS only calls global event handlers",
            )

    def check_require(self, k: int, tok: Token) -> None:
        if self.bundle_modules is None:
            self.hit(tok, "not-in-tts", "require only works inside a luabundle bundle")
            return
        arg = self.at(k + 2) if self.is_op(k + 1, "(") else self.at(k + 1)
        if arg.kind == "string" and arg.value not in self.bundle_modules:
            self.hit(
                tok,
                "bundle-require",
                f"require of '{arg.value}', which the bundle does not register",
            )

    def call_has_second_arg(self, open_k: int) -> bool:
        """Whether the call opened at ``open_k`` has a second argument."""
        return self.arg_start(open_k, 2) is not None

    def arg_start(self, open_k: int, n: int) -> int | None:
        """Index of the first token of the ``n``-th argument (``n`` >= 2) of the call opened
        at ``open_k``: the token after its ``n - 1``-th comma outside nested brackets."""
        depth, count = 0, 1
        for j in range(open_k, len(self.tokens)):
            t = self.tokens[j]
            if t.kind == "op" and t.value in "([{":
                depth += 1
            elif t.kind == "op" and t.value in ")]}":
                depth -= 1
                if depth == 0:
                    return None
            elif t.kind == "op" and t.value == "," and depth == 1:
                count += 1
                if count == n:
                    return j + 1
        return None

    def check_format(self, fmt: Token) -> None:
        if fmt.kind != "string":
            return
        specs = [m.group(1) for m in _FORMAT_SPEC_RE.finditer(fmt.value)]
        if "s" in specs:
            self.hit(
                fmt,
                "format-s",
                "string.format '%s' raises on nil/booleans in MoonSharp:"
                " concatenate with tostring(...) and '..', or use %d for integers",
            )
        floats = sorted(set(specs) & _FLOAT_SPECS)
        if floats:
            self.hit(
                fmt,
                "format-float",
                f"string.format '%{floats[0]}' rounds or writes"
                " exponents differently in MoonSharp (2.675 -> 2.68, 1e+004): format"
                " integers with %d",
            )


# ---------------------------------------------------------------------------------------------
# MoonSharp traps measured in real MoonSharp (LUA.md §7-8): results that differ from Lua 5.2

_OPENERS = frozenset(("function", "if", "do", "repeat"))
_CLOSERS = frozenset(("end", "until"))
# Fields that hold text in the shipped scripts (colours, names, ids): ordering them with '<' is
# culture-aware in MoonSharp.
STRING_FIELDS = frozenset((
    "color", "colour", "name", "guid", "id", "species", "animal", "kind", "edge", "space",
    "field", "text", "label", "key", "nickname", "description",
))  # fmt: skip
_FLOAT_MATH = frozenset(("sqrt", "random", "pow", "exp", "log", "log10", "sin", "cos", "tan",
                         "asin", "acos", "atan", "atan2", "deg", "rad", "pi"))  # fmt: skip
_BIT32_SHIFTS = frozenset(("arshift", "lshift", "rshift", "lrotate", "rrotate", "replace",
                           "extract"))  # fmt: skip
_PATTERN_FUNCTIONS = frozenset(("find", "match", "gmatch", "gsub"))
_FLOAT_SPECS = frozenset("eEgGaAf")
#: Every name a rule of :meth:`_Traps.check_name` starts from (any other name is skipped).
_TRAP_NAMES = frozenset((
    "local", "error", "math", "bit32", "table", "tostring", "unpack", *_PATTERN_FUNCTIONS,
))  # fmt: skip


_KEYWORDS = frozenset((
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
    "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
))  # fmt: skip


def _merge_reads(
    a: tuple[set[str], set[str], bool], b: tuple[set[str], set[str], bool] | None
) -> tuple[set[str], set[str], bool]:
    """Two :meth:`_Traps._reads` results as one."""
    if b is None:
        return a
    return a[0] | b[0], a[1] | b[1], a[2] or b[2]


@dataclass
class _Block:
    """An open block: ``kind`` is function, if, do, repeat, while, for or for-in; ``pairs``
    whether a for-in iterates ``pairs``/``next``; ``end`` the index of its closing token."""

    kind: str
    start: int
    pairs: bool = False
    end: int = -1


def _blocks(tokens: list[Token]) -> tuple[list[_Block], list[tuple[_Block, ...]]]:
    """Every block, and for each token the blocks enclosing it (innermost last)."""
    stack: list[_Block] = []
    blocks: list[_Block] = []
    inside: list[tuple[_Block, ...]] = []
    pending: _Block | None = None  # a for/while whose 'do' has not come yet
    enclosing: tuple[_Block, ...] = ()  # tuple(stack), made again only when the stack changes
    for k, tok in enumerate(tokens):
        inside.append(enclosing)
        if tok.kind != "name":
            continue
        word = tok.value
        if k > 0 and tokens[k - 1].kind == "op" and tokens[k - 1].value in (".", ":"):
            continue  # a field named like a keyword cannot be one; keywords are never fields
        if word in ("for", "while"):
            pending = _Block(word, k)
        elif word == "in" and pending is not None and pending.kind == "for":
            pending.kind = "for-in"
            nxt = tokens[k + 1] if k + 1 < len(tokens) else tok
            pending.pairs = nxt.kind == "name" and nxt.value in ("pairs", "next")
        elif word == "do":
            block = pending if pending is not None else _Block("do", k)
            pending = None
            stack.append(block)
            blocks.append(block)
            enclosing = tuple(stack)
        elif word in _OPENERS:
            block = _Block(word, k)
            stack.append(block)
            blocks.append(block)
            enclosing = tuple(stack)
        elif word in _CLOSERS and stack:
            stack.pop().end = k
            enclosing = tuple(stack)
    return blocks, inside


def _closers(tokens: list[Token]) -> dict[int, int]:
    """For each opening bracket (any of ``([{``), the index of the bracket that closes it (any
    of ``)]}``: brackets are counted, not matched by kind), else of the eof token."""
    found: dict[int, int] = {}
    open_at: list[int] = []
    for j, (kind, value, _line) in enumerate(tokens):
        if kind != "op":
            continue
        if value in ("(", "[", "{"):
            open_at.append(j)
        elif value in (")", "]", "}") and open_at:
            found[open_at.pop()] = j
    eof = len(tokens) - 1
    for j in open_at:
        found[j] = eof
    return found


def _loop_owner(enclosing: tuple[_Block, ...], kind: str) -> _Block | None:
    """The innermost enclosing block matching ``kind`` (``for-in`` or ``pairs``) inside the
    innermost function (a nested function is another frame)."""
    for block in reversed(enclosing):
        if block.kind == "function":
            return None
        if block.kind == "for-in" and (kind == "for-in" or block.pairs):
            return block
    return None


def lazy_dash(pattern: str) -> bool:
    """Whether a Lua pattern (the literal's source text) uses the lazy '-' quantifier."""
    i, n, item = 0, len(pattern), False  # item: the last thing read is a single-char class
    while i < n:
        ch = pattern[i]
        if ch == "%":
            special = pattern[i + 1 : i + 2]
            if special == "b":  # %bxy: a balanced match, not quantifiable
                i, item = i + 4, False
                continue
            if special == "f":  # %f[set]: a frontier, not quantifiable
                i, item = _set_end(pattern, i + 2), False
                continue
            i, item = i + 2, True
        elif ch == "[":
            i, item = _set_end(pattern, i), True
        elif ch in "*+?-":
            if item and ch == "-":
                return True
            i, item = i + 1, not item  # after an item a quantifier; else a plain character
        elif ch in "()" or (ch == "^" and i == 0) or (ch == "$" and i == n - 1):
            i, item = i + 1, False
        else:
            i, item = i + 1, True
    return False


def _set_end(pattern: str, i: int) -> int:
    """Index just after the set ``[...]`` opening at ``i`` (``]`` first is a member)."""
    j, n = i + 1, len(pattern)
    if pattern[j : j + 1] == "^":
        j += 1
    if pattern[j : j + 1] == "]":
        j += 1
    while j < n and pattern[j] != "]":
        j += 2 if pattern[j] == "%" else 1
    return j + 1


class _Traps:
    """The MoonSharp-divergence rules over one chunk's tokens (LUA.md §7-8)."""

    def __init__(self, linter: _Linter) -> None:
        self.lint = linter
        self.tokens = linter.tokens
        self.blocks, self.inside = _blocks(self.tokens)
        self.closers = _closers(self.tokens)
        #: For each closing bracket, the one it closes (see :func:`_closers`).
        self.closers_back = {close: open_k for open_k, close in self.closers.items()}
        self.string_names = self._string_names()
        self.holey = self._holey_tables()

    def run(self) -> None:
        lint = self.lint
        for k, tok in enumerate(self.tokens):
            if tok.kind == "op" and tok.value in ("<", ">", "<=", ">="):
                self.check_compare(k, tok)
            elif tok.kind == "op" and tok.value == "#":
                chain = self._chain_after(k + 1)
                if chain in self.holey:
                    lint.hit(
                        tok,
                        "len-hole",
                        f"#{chain} after {chain}[i] = nil: MoonSharp's '#'"
                        " stops at the first nil; keep sequences without holes",
                    )
            elif tok.kind == "op" and tok.value == "{":
                self.check_constructor(k)
            elif tok.kind == "op" and tok.value == "=":
                self.check_multi_assign(k)
            elif tok.kind == "name":
                self.check_name(k, tok)
        for block in self.blocks:
            if block.kind == "for-in" and block.pairs:
                self.check_pairs_body(block)

    # ---- names and calls ---------------------------------------------------------------

    def check_name(self, k: int, tok: Token) -> None:
        lint, name = self.lint, tok.value
        if name not in _TRAP_NAMES:
            return
        dotted = lint.is_op(k + 1, ".") and lint.is_name(k + 2)
        member = self.tokens[k + 2].value if dotted else None
        is_global = lint.global_name(k)
        if name == "local" and not lint.is_name(k + 1, "function"):
            self.check_bare_local(k, tok)
        elif name == "error" and is_global and lint.is_op(k + 1, "("):
            if lint.is_op(k + 2, "{"):
                lint.hit(tok, "error-table", "error with a table: MoonSharp raises only strings")
            elif lint.call_has_second_arg(k + 1):
                lint.hit(
                    tok,
                    "error-level",
                    "error with a level: MoonSharp ignores it and adds"
                    " the chunk position; call error(message) and never compare positions",
                )
        elif name == "math" and is_global and member == "modf":
            lint.hit(
                tok,
                "math-modf",
                "math.modf rounds negative numbers the other way in"
                " MoonSharp: use math.floor / math.ceil",
            )
        elif name == "bit32" and is_global and member in _BIT32_SHIFTS:
            lint.hit(
                tok,
                "bit32-shift",
                f"bit32.{member} differs in MoonSharp (sign, width): use integer arithmetic",
            )
        elif name == "table" and is_global and member == "sort" and lint.is_op(k + 3, "("):
            if not lint.call_has_second_arg(k + 3):
                lint.hit(
                    tok,
                    "sort-no-comparator",
                    "table.sort without a comparator orders"
                    " strings differently in MoonSharp: pass a comparator",
                )
        elif name == "tostring" and is_global and lint.is_op(k + 1, "("):
            if self._may_be_fraction(k + 2, self._close(k + 1)):
                lint.hit(
                    tok,
                    "tostring-fraction",
                    "tostring of a fraction prints differently in"
                    " MoonSharp (0.333333333333333, 1E+15): format integers with %d",
                )
        elif name in _PATTERN_FUNCTIONS and k > 0:
            self.check_pattern_call(k, tok)
        if name == "unpack" and lint.is_op(k + 1, "(") and self._chain_after(k + 2) in self.holey:
            lint.hit(
                tok,
                "len-hole",
                f"unpack of {self._chain_after(k + 2)}, which is given"
                " t[i] = nil: MoonSharp's unpack stops at the first nil",
            )

    def check_pattern_call(self, k: int, tok: Token) -> None:
        lint = self.lint
        if not lint.is_op(k + 1, "("):
            return
        if lint.is_op(k - 1, ":"):
            pattern = self.tokens[k + 2]
        elif lint.is_op(k - 1, ".") and lint.is_name(k - 2, "string"):
            comma = lint.arg_start(k + 1, 2)
            pattern = self.tokens[comma] if comma is not None else tok
        else:
            return
        if pattern.kind == "string" and lazy_dash(pattern.value):
            lint.hit(
                pattern,
                "lazy-pattern",
                "a lazy '-' pattern fails on long strings in"
                " MoonSharp ('pattern too complex'): use a greedy pattern or string.find",
            )

    def check_bare_local(self, k: int, tok: Token) -> None:
        j = k + 1
        while self.lint.is_name(j) and self.lint.is_op(j + 1, ","):
            j += 2
        if not self.lint.is_name(j) or self.lint.is_op(j + 1, "="):
            return
        if _loop_owner(self.inside[k], "for-in") is not None:
            self.lint.hit(
                tok,
                "bare-local",
                f"bare 'local {self.tokens[j].value}' in a generic"
                " for body is not nil in MoonSharp: write 'local x = nil'",
            )

    # ---- multiple assignment -----------------------------------------------------------

    def check_multi_assign(self, k: int) -> None:
        """``t1, t2, ... = ...`` (not ``local``): MoonSharp evaluates each target's table and
        key only when it assigns that target, left to right; Lua 5.2 evaluates them all first
        (LUA.md §8.1). Flag a target whose table or key reads a ``#``, a name another target
        assigns, or the contents of a table another target writes into (same text)."""
        targets = self._targets_before(k)
        if targets is None or len(targets) < 2:
            return
        if targets[0][0] > 0 and self.lint.is_op(targets[0][0] - 1, "{"):
            return  # a constructor's fields ({x, y = 1}); a 'local' list has no table or key
        names: dict[int, str] = {}  # target index -> the name it assigns
        tables: dict[int, str] = {}  # target index -> the table (its text) it writes into
        reads: dict[int, tuple[set[str], set[str], bool]] = {}
        for i, (s, e) in enumerate(targets):
            if s == e:
                names[i] = self.tokens[s].value
                continue
            last = self.closers_back.get(e, e - 1)  # the final '[' (or the '.' before a field)
            tables[i] = self._text(s, last)
            table_reads = self._reads(s, last)
            key_reads = self._reads(last + 1, e) if self.tokens[e].value == "]" else None
            reads[i] = _merge_reads(table_reads, key_reads)
        for i, (read_names, read_tables, has_len) in reads.items():
            why = "a '#'" if has_len else ""
            for j, (s, e) in enumerate(targets):
                if why or j == i:
                    continue
                if names.get(j) in read_names:
                    why = f"{names[j]}, which another target assigns"
                elif tables.get(j) in read_tables:
                    why = f"table {tables[j]}, which the target {self._text(s, e + 1)} writes into"
            if why:
                s, e = targets[i]
                self.lint.hit(
                    self.tokens[s],
                    "multi-assign",
                    f"the target {self._text(s, e + 1)} of a multiple assignment reads {why}:"
                    " MoonSharp assigns target by target (LUA.md §8.1); write one assignment"
                    " per statement",
                )
                return

    def _targets_before(self, k: int) -> list[tuple[int, int]] | None:
        """The targets (first and last token) of the assignment whose '=' is at ``k``, in
        order; None when what precedes is no list of variables (a constructor's field)."""
        targets: list[tuple[int, int]] = []
        e = k - 1
        while True:
            last = self.tokens[e] if e >= 0 else None
            if last is None or not (
                (last.kind == "name" and last.value not in _KEYWORDS)
                or (last.kind == "op" and last.value == "]")
            ):
                return None
            if last.kind == "name" and e > 0 and self.lint.is_op(e - 1, ":"):
                return None
            s = self._prefix_start(e)
            if s is None:
                return None
            targets.append((s, e))
            if not self.lint.is_op(s - 1, ","):
                return targets[::-1]
            e = s - 2

    def _prefix_start(self, e: int) -> int | None:
        """The first token of the prefix expression (``a.b[c](d).e``) ending at ``e``."""
        toks, lint = self.tokens, self.lint
        while e >= 0:
            t = toks[e]
            if t.kind == "name":
                if t.value in _KEYWORDS:
                    return None
                if lint.is_op(e - 1, ".") or lint.is_op(e - 1, ":"):
                    e -= 2
                    continue
                return e
            opener = self.closers_back.get(e) if t.kind == "op" else None
            if t.kind != "string" and opener is None:
                return None
            start = e if t.kind == "string" else opener
            before = toks[start - 1] if start > 0 else None
            called = before is not None and (
                (before.kind == "name" and before.value not in _KEYWORDS)
                or before.kind == "string"
                or (before.kind == "op" and before.value in (")", "]", "}"))
            )
            if t.value == ")" and not called:
                return opener  # a parenthesised expression starts the prefix
            if not called:
                return None  # a constructor or a string is no prefix expression
            e = start - 1
        return None

    def _reads(self, lo: int, hi: int) -> tuple[set[str], set[str], bool]:
        """What evaluating tokens[lo:hi] reads: variable names, the tables whose contents it
        reads (as text: ``g`` for ``g.edges``, ``a.b`` for ``a.b[k]``), and whether a '#'."""
        toks, lint = self.tokens, self.lint
        names: set[str] = set()
        tables: set[str] = set()
        has_len = False
        for j in range(lo, hi):
            t = toks[j]
            if t.kind == "op" and t.value == "#":
                has_len = True
            if t.kind != "name" or t.value in _KEYWORDS:
                continue
            if lint.is_op(j - 1, ".") or lint.is_op(j - 1, ":"):
                continue
            names.add(t.value)
            end = j  # walk the chain of suffixes: each index reads the table so far
            while end + 1 < hi:
                if (lint.is_op(end + 1, ".") or lint.is_op(end + 1, ":")) and end + 2 < hi:
                    tables.add(self._text(j, end + 1))
                    end += 2
                elif lint.is_op(end + 1, "[") and self._close(end + 1) < hi:
                    tables.add(self._text(j, end + 1))
                    end = self._close(end + 1)
                else:
                    break  # a call's result is not followed
        return names, tables, has_len

    def _text(self, lo: int, hi: int) -> str:
        return "".join(t.value for t in self.tokens[lo:hi])

    # ---- comparisons -------------------------------------------------------------------

    def check_compare(self, k: int, tok: Token) -> None:
        left, right = self.tokens[k - 1], self.tokens[k + 1]
        texty = left.kind == "string" or right.kind == "string"
        texty |= left.kind == "name" and self.lint.is_op(k - 2, ".") and left.value in STRING_FIELDS
        texty |= (
            left.kind == "name"
            and not self.lint.is_op(k - 2, ".")
            and (left.value in self.string_names)
        )
        if right.kind == "name" and not self.lint.is_op(k + 2, "("):
            last, j = right, k + 1
            while self.lint.is_op(j + 1, ".") and self.lint.is_name(j + 2):
                j += 2
                last = self.tokens[j]
            ends = not (
                self.lint.is_op(j + 1, "(")
                or self.lint.is_op(j + 1, "[")
                or self.lint.is_op(j + 1, ":")
            )
            if ends and (
                (j > k + 1 and last.value in STRING_FIELDS)
                or (j == k + 1 and last.value in self.string_names)
            ):
                texty = True
        if texty:
            self.lint.hit(
                tok,
                "string-compare",
                f"'{tok.value}' on strings is culture-aware in"
                " MoonSharp ('a' < 'B'): compare numbers or bytes you control",
            )

    def _string_names(self) -> set[str]:
        """Locals assigned a string literal or tostring(...) where declared."""
        names: set[str] = set()
        toks = self.tokens
        for k, tok in enumerate(toks):
            if (
                tok.kind == "name"
                and tok.value == "local"
                and self.lint.is_name(k + 1)
                and (self.lint.is_op(k + 2, "="))
            ):
                value = toks[k + 3]
                literal = value.kind == "string" and not self.lint.is_op(k + 4, "..")
                if literal or (value.kind == "name" and value.value == "tostring"):
                    names.add(toks[k + 1].value)
        return names

    # ---- tables with holes -------------------------------------------------------------

    def _chain_after(self, j: int) -> str:
        """The dotted name starting at token ``j`` ('S.list'), or '' when none."""
        if not self.lint.is_name(j):
            return ""
        parts = [self.tokens[j].value]
        while self.lint.is_op(j + 1, ".") and self.lint.is_name(j + 2):
            j += 2
            parts.append(self.tokens[j].value)
        return ".".join(parts)

    def _holey_tables(self) -> set[str]:
        """Tables given ``t[i] = nil`` with ``i`` other than ``#t`` (which leaves no hole)."""
        out: set[str] = set()
        toks, lint = self.tokens, self.lint
        for k, tok in enumerate(toks):
            if not (tok.kind == "op" and tok.value == "["):
                continue
            close = self._close(k)
            if not (lint.is_op(close + 1, "=") and lint.is_name(close + 2, "nil")):
                continue
            j = k - 1
            while lint.is_name(j) and lint.is_op(j - 1, "."):
                j -= 2
            chain = self._chain_after(j)
            if not chain or not lint.is_name(j):
                continue
            if "".join(t.value for t in toks[k + 1 : close]) != "#" + chain:
                out.add(chain)
        return out

    def check_constructor(self, k: int) -> None:
        close = self._close(k)
        j = k + 1
        while j < close:  # at the constructor's own depth: a nested bracket is skipped whole
            t = self.tokens[j]
            if t.kind == "op" and t.value in "([{":
                j = self._close(j)
            elif t.kind == "name" and t.value == "nil":
                before, after = self.tokens[j - 1], self.tokens[j + 1]
                positional = before.kind == "op" and before.value in ("{", ",", ";")
                if positional and after.kind == "op" and after.value in (",", ";", "}"):
                    self.lint.hit(
                        t,
                        "len-hole",
                        "nil in a table constructor makes a hole:"
                        " MoonSharp's '#' and unpack stop at the first nil",
                    )
            j += 1

    # ---- pairs order -------------------------------------------------------------------

    def check_pairs_body(self, block: _Block) -> None:
        lint, toks = self.lint, self.tokens
        appended: dict[str, Token] = {}
        for j in range(block.start, block.end):
            if _loop_owner(self.inside[j], "pairs") is not block:
                continue
            t = toks[j]
            if t.kind != "name":
                continue
            if t.value == "break" and not self._numeric_loop_between(block, j):
                lint.hit(
                    t,
                    "pairs-order",
                    "break in a pairs loop: which entry wins depends on"
                    " pairs order (insertion order in MoonSharp); iterate sorted keys",
                )
            elif t.value == "return" and not (
                lint.is_name(j + 1) and toks[j + 1].value in ("true", "false", "nil", "end")
            ):
                lint.hit(
                    t,
                    "pairs-order",
                    "return from a pairs loop: the entry returned depends"
                    " on pairs order; iterate sorted keys",
                )
            elif t.value == "table" and lint.is_op(j + 1, ".") and lint.is_name(j + 2, "insert"):
                appended.setdefault(self._chain_after(j + 4), t)
            elif lint.is_op(j + 1, "[") and lint.is_op(j + 2, "#"):
                chain = self._chain_after(j)
                if chain and self._chain_after(j + 3) == chain and not lint.is_op(j - 1, "."):
                    appended.setdefault(chain, t)
        for chain, t in appended.items():
            if not self._sorted_after(chain, block.end):
                lint.hit(
                    t,
                    "pairs-order",
                    f"{chain} is filled in pairs order (insertion order"
                    " in MoonSharp): sort it afterwards or iterate sorted keys",
                )

    def _numeric_loop_between(self, block: _Block, j: int) -> bool:
        """Whether the token at ``j`` sits in a while/for loop nested in ``block``."""
        chain = self.inside[j]
        nested = chain[chain.index(block) + 1 :] if block in chain else ()
        return any(b.kind in ("while", "for", "for-in", "repeat") for b in nested)

    def _sorted_after(self, chain: str, start: int) -> bool:
        """Whether ``chain`` is sorted after token ``start`` (table.sort or a *sort* helper)."""
        toks = self.tokens
        for j in range(start, len(toks)):
            t = toks[j]
            called = t.kind == "name" and "sort" in t.value and self.lint.is_op(j + 1, "(")
            if called and self._chain_after(j + 2) == chain:
                return True
        return False

    # ---- helpers -----------------------------------------------------------------------

    def _close(self, open_k: int) -> int:
        """Index of the bracket closing the one at ``open_k`` (see :func:`_closers`)."""
        return self.closers.get(open_k, len(self.tokens) - 1)

    def _may_be_fraction(self, start: int, end: int) -> bool:
        """Whether the expression tokens[start:end] may be a non-integer number (what
        math.floor / math.ceil wrap is an integer)."""
        j = start - 1
        while j + 1 < end:
            j += 1
            t = self.tokens[j]
            rounded = t.kind == "name" and t.value == "math" and self.lint.is_op(j + 1, ".")
            if (
                rounded
                and self.lint.is_name(j + 2)
                and self.tokens[j + 2].value in ("floor", "ceil")
                and self.lint.is_op(j + 3, "(")
            ):
                j = self._close(j + 3)
                continue
            if t.kind == "op" and t.value in ("/", "^"):
                return True
            if (
                t.kind == "number"
                and not t.value.lower().startswith("0x")
                and ("." in t.value or "e" in t.value.lower())
            ):
                return True
            if (
                t.kind == "name"
                and t.value == "math"
                and self.lint.is_op(j + 1, ".")
                and (self.lint.is_name(j + 2) and self.tokens[j + 2].value in _FLOAT_MATH)
            ):
                return True
        return False


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


#: What a clean script's cache entry holds (only clean results are cached: a script with hits
#: fails the build, and is linted again, in full, next time).
CLEAN = b"lint: clean"


def lint_key(source: str) -> str:
    """The cache key of ``source``'s lint result: its text's sha256 and the code's version
    (which covers this linter and lupa's)."""
    from ..cache import key, sha256

    return key("lint clean", sha256(source.encode("utf-8")))


def lint_cached(source: str, chunk: str, cache: MutableMapping[str, bytes] | None) -> list[LintHit]:
    """:func:`lint`, skipped for a script this linter found clean before (``cache`` remembers
    clean scripts by content, e.g. the build cache in ``dist/.cache``)."""
    if cache is None:
        return lint(source, chunk)
    name = lint_key(source)
    if cache.get(name) == CLEAN:
        return []
    hits = lint(source, chunk)
    if not hits:
        cache[name] = CLEAN
    return hits
