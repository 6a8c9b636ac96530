"""`push`: the External Editor API client against a fake TTS on loopback.

The fake speaks the protocol as TTS does (LUA.md §4): it listens on its own port, reads one JSON
document per connection, and answers on a new connection to the editor's port: id 1 after
Save & Play (with prints before and after it, as TTS's can arrive out of order), id 5 for the
value of Execute Lua (run in a real Lua, lupa), id 3 for errors.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lupa
import pytest
from conftest import SESSION_CACHE
from fake_tts import FakeTTSServer, free_port
from hypothesis import given, settings
from hypothesis import strategies as st

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK, run
from tts_builder.errors import BuildError
from tts_builder.lua.bundle import module_line_map
from tts_builder.lua.templates import TEMPLATES_DIR
from tts_builder.ship.editor_api import (
    MAX_SHOWN,
    Listener,
    Session,
    SourceMap,
    explain,
    format_message,
    push,
    script_states,
    send,
    template_line,
)

GAME = "arche-noah"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> GameBuild:
    return build_game(GAME, BuildOptions(out_dir=tmp_path_factory.mktemp("dist")), SESSION_CACHE)


class FakeTTS(FakeTTSServer):
    """A stand-in for TTS's side of the External Editor API."""

    def __init__(
        self,
        editor_port: int,
        table: set[str],
        after_load: list[dict[str, Any]] | None = None,
        answer: bool = True,
    ) -> None:
        super().__init__(editor_port)
        self.table = table  # GUIDs of the objects in the loaded game
        self.after_load = after_load or []
        self.answer = answer
        self.lua = lupa.LuaRuntime()
        self.lua.globals().getObjectFromGUID = lambda guid: True if guid in self.table else None
        self.start()

    def handle(self, message: dict[str, Any]) -> None:
        if not self.answer:
            return
        if message["messageID"] == 1:  # Save & Play
            self.tell({"messageID": 2, "message": "saving and reloading"})
            self.tell(
                {
                    "messageID": 1,
                    "savePath": "C:\\Saves\\TS_Save_3.json",
                    "scriptStates": message["scriptStates"],
                }
            )
            for extra in self.after_load:
                self.tell(extra)
        elif message["messageID"] == 3:  # Execute Lua
            try:
                value = self.lua.execute(message["script"])
            except lupa.LuaError as err:
                self.tell(
                    {
                        "messageID": 3,
                        "error": str(err),
                        "guid": message["guid"],
                        "errorMessagePrefix": "Error in Execute Lua: ",
                    }
                )
                return
            self.tell({"messageID": 5, "returnID": message["returnID"], "returnValue": value})


@pytest.fixture
def editor_port() -> int:
    return free_port()


def _table(build: GameBuild) -> set[str]:
    return {obj["GUID"] for obj in build.save["ObjectStates"]}


@pytest.fixture
def fake(editor_port: int, built: GameBuild) -> Iterator[FakeTTS]:
    tts = FakeTTS(editor_port, _table(built))
    yield tts
    tts.close()


def _glue_line(built: GameBuild, with_expression: bool) -> tuple[int, int, str]:
    """A bundle line of the glue module that appears once in its template: (bundle line,
    template line, text)."""
    template = (TEMPLATES_DIR / GAME / "glue.lua.j2").read_text().split("\n")
    bundle = built.global_script.split("\n")
    for bundle_line, (module, _) in sorted(module_line_map(built.global_script).items()):
        text = bundle[bundle_line - 1]
        if module != "glue" or len(text.strip()) < 12:
            continue
        if with_expression:
            hits = [
                i
                for i, t in enumerate(template, 1)
                if "{{" in t
                and t.split("{{")[0]
                and text.startswith(t.split("{{")[0])
                and t != text
            ]
        else:
            hits = [i for i, t in enumerate(template, 1) if t == text]
        if len(hits) == 1 and template.count(text) <= 1:
            return bundle_line, hits[0], text
    raise AssertionError("no suitable glue line")


# --- messages and positions (pure) -------------------------------------------------------------


def test_save_and_play_sends_every_script_and_ui(built: GameBuild) -> None:
    states = script_states(built.save)
    assert states[0] == {
        "name": "Global",
        "guid": "-1",
        "script": built.global_script,
        "ui": built.global_ui,
    }
    save = {
        "LuaScript": "g",
        "XmlUI": "",
        "ObjectStates": [
            {"GUID": "a1b2c3", "Name": "Custom_Tile", "Nickname": "Board", "LuaScript": "s"},
            {
                "GUID": "d4e5f6",
                "Name": "Bag",
                "XmlUI": "<Text/>",
                "ContainedObjects": [{"GUID": "c0c0c0", "Name": "Card", "LuaScript": "inside"}],
            },
            {"GUID": "ffffff", "Name": "Card"},
        ],
    }
    assert script_states(save) == [
        {"name": "Global", "guid": "-1", "script": "g", "ui": ""},
        {"name": "Board", "guid": "a1b2c3", "script": "s", "ui": ""},
        {"name": "Bag", "guid": "d4e5f6", "script": "", "ui": "<Text/>"},
    ]


def test_template_line_matching() -> None:
    template = "local A = {{ a | lua }}\nlocal x = 1\nend\nif y then\nend\n{% if z %}\n"
    assert template_line(template, "local x = 1", 9) == (2, True)
    assert template_line(template, "local A = {1, 2}", 1) == (1, True)
    assert template_line(template, "end", 6) == (5, False)
    assert template_line(template, "end", 2) == (3, False)
    assert template_line(template, "print('new')", 2) is None


def test_lua_error_positions_map_to_the_template(built: GameBuild) -> None:
    source = SourceMap.from_build(built)
    bundle_line, template_no, text = _glue_line(built, with_expression=False)
    mapped, code = explain(
        f"chunk_0:({bundle_line},5-12): attempt to index a nil value", "-1", source
    )
    assert mapped == (
        f"lua_templates/{GAME}/glue.lua.j2:{template_no}:5-12: attempt to index a nil value"
    )
    assert code == text
    bundle_line, template_no, _ = _glue_line(built, with_expression=True)
    mapped, _ = explain(f'[string "Global"]:{bundle_line}: boom', "-1", source)
    assert mapped == f"lua_templates/{GAME}/glue.lua.j2:{template_no}: boom"
    # A position outside every module (e.g. in code run by Execute Lua) is left alone.
    assert explain("chunk_3:(1,1-5): oops", "-1", source)[0] == "chunk_3:(1,1-5): oops"


def test_message_formats(built: GameBuild) -> None:
    source = SourceMap.from_build(built)
    assert format_message({"messageID": 2, "message": "hi"}, source) == ["[print] hi"]
    assert format_message({"messageID": 5, "returnID": 4, "returnValue": {"a": 1}}, source) == [
        '[return #4] {"a": 1}'
    ]
    assert format_message({"messageID": 6, "savePath": "x.json"}, source) == ["[saved] x.json"]
    assert format_message({"messageID": 4, "customMessage": [1]}, source) == ["[message] [1]"]
    assert format_message({"messageID": 7, "guid": "abc123"}, source) == ["[object] created abc123"]


# --- against the fake TTS ---------------------------------------------------------------------


def test_push_save_and_play_execute_and_messages(built: GameBuild, editor_port: int) -> None:
    bundle_line, template_no, text = _glue_line(built, with_expression=False)
    error = {
        "messageID": 3,
        "guid": "-1",
        "errorMessagePrefix": "Error in Global Script: ",
        "error": f"chunk_0:({bundle_line},3-9): attempt to call a nil value",
    }
    tts = FakeTTS(
        editor_port,
        _table(built),
        after_load=[{"messageID": 2, "message": "Arche Noah ready"}, error],
    )
    lines: list[str] = []
    try:
        outcome = push(
            built,
            code="return 6 * 7",
            listen=0.3,
            timeout=5,
            tts_port=tts.port,
            editor_port=editor_port,
            echo=lines.append,
        )
    finally:
        tts.close()
    # Is the game loaded in TTS ours? Then Save & Play, then the Lua to execute.
    assert [m["messageID"] for m in tts.received] == [3, 1, 3]
    assert "getObjectFromGUID" in tts.received[0]["script"]
    states = tts.received[1]["scriptStates"]
    assert states[0]["script"] == built.global_script and states[0]["ui"] == built.global_ui
    assert tts.received[2] == {
        "messageID": 3,
        "guid": "-1",
        "script": "return 6 * 7",
        "returnID": 2,
    }
    assert outcome.reloaded and outcome.returned == [42] and outcome.errors == 1
    assert "[print] saving and reloading" in lines and "[print] Arche Noah ready" in lines
    assert "[loaded] TTS reloaded C:\\Saves\\TS_Save_3.json (1 script)" in lines
    assert "[return #2] 42" in lines and not any("[return #1]" in line for line in lines)
    assert (
        f"[error] Error in Global Script: lua_templates/{GAME}/glue.lua.j2:{template_no}:3-9:"
        " attempt to call a nil value"
    ) in lines
    assert f"        | {text.strip()}" in lines


def test_execute_lua_error_counts(built: GameBuild, fake: FakeTTS, editor_port: int) -> None:
    lines: list[str] = []
    outcome = push(
        built,
        reload=False,
        code="error('boom')",
        listen=0,
        timeout=5,
        tts_port=fake.port,
        editor_port=editor_port,
        echo=lines.append,
    )
    assert [m["messageID"] for m in fake.received] == [3]
    assert outcome.errors == 1 and not outcome.reloaded
    assert any(
        line.startswith("[error] Error in Execute Lua: ") and "boom" in line for line in lines
    )


def test_push_refuses_to_overwrite_another_game(built: GameBuild, editor_port: int) -> None:
    other = FakeTTS(editor_port, {"0a0a0a", "0b0b0b"})
    try:
        with pytest.raises(BuildError, match="the game loaded in TTS is not arche-noah"):
            push(built, listen=0, timeout=5, tts_port=other.port, editor_port=editor_port)
        assert [m["messageID"] for m in other.received] == [3]  # asked, never Save & Play
        outcome = push(
            built,
            force=True,
            listen=0,
            timeout=5,
            tts_port=other.port,
            editor_port=editor_port,
            echo=lambda line: None,
        )
    finally:
        other.close()
    assert outcome.reloaded and [m["messageID"] for m in other.received] == [3, 1]


def test_tts_not_running(built: GameBuild, editor_port: int) -> None:
    port = free_port()
    with pytest.raises(BuildError) as err:
        push(built, listen=0, timeout=2, tts_port=port, editor_port=editor_port)
    assert str(err.value) == f"TTS is not running (nothing listens on localhost:{port})"


def test_editor_port_in_use(built: GameBuild, fake: FakeTTS) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(BuildError, match=f"port {port} is in use"):
            push(built, listen=0, timeout=2, tts_port=fake.port, editor_port=port)
    assert fake.received == []


def test_tts_that_never_reloads(built: GameBuild, editor_port: int) -> None:
    silent = FakeTTS(editor_port, _table(built), answer=False)
    started = time.monotonic()
    try:
        with pytest.raises(BuildError, match=r"did not answer Save & Play within 0.5 s"):
            push(
                built,
                force=True,
                listen=0,
                timeout=0.5,
                tts_port=silent.port,
                editor_port=editor_port,
            )
    finally:
        silent.close()
    assert time.monotonic() - started < 5


def test_listener_reads_one_document_per_connection(editor_port: int) -> None:
    with Listener(port=editor_port) as listener:
        with socket.create_connection(("127.0.0.1", editor_port)) as sock:  # sent in pieces
            sock.sendall(b'{"messageID": 2, ')
            time.sleep(0.05)
            sock.sendall(b'"message": "slow"}')
        with socket.create_connection(("127.0.0.1", editor_port)) as sock:
            sock.sendall(b"not json")
        send({"messageID": 2, "message": "fast"}, port=editor_port)
        got = [listener.get(2.0), listener.get(2.0), listener.get(2.0), listener.get(0.2)]
    assert got == [
        {"messageID": 2, "message": "slow"},
        "8 bytes that are not one JSON document",
        {"messageID": 2, "message": "fast"},
        None,
    ]


def test_the_listener_survives_a_message_nested_too_deep_and_keeps_listening(
    editor_port: int,
) -> None:
    """A peer's document nested past Python's parser (100,000 levels) is an unreadable message
    shown as such; the listener thread lives on and takes the next one."""
    deep = b"[" * 100_000 + b"]" * 100_000
    with Listener(port=editor_port) as listener:
        with socket.create_connection(("127.0.0.1", editor_port)) as sock:
            sock.sendall(deep)
        send({"messageID": 2, "message": "after"}, port=editor_port)
        got = [listener.get(5.0), listener.get(5.0)]
    assert got == [
        f"{len(deep)} bytes that are not one JSON document",
        {"messageID": 2, "message": "after"},
    ]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
_FIELDS = (
    "messageID",
    "message",
    "error",
    "guid",
    "errorMessagePrefix",
    "returnID",
    "returnValue",
    "scriptStates",
    "savePath",
    "customMessage",
)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from([*range(-1, 9), "2", None, 2.5]),
    fields=st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=6),
)
def test_any_message_a_peer_sends_is_shown_never_an_error(
    built: GameBuild, kind: Any, fields: dict[str, Any]
) -> None:
    """Whatever TTS (or anything on its port) sends, each field of any JSON type
    (``scriptStates: 5``, a guid that is a list, ...), is shown as lines of text."""
    lines = format_message({**fields, "messageID": kind}, SourceMap.from_build(built))
    assert lines and all(isinstance(line, str) for line in lines)


def test_tts_output_is_shown_with_its_control_characters_escaped(built: GameBuild) -> None:
    """A print with terminal escape codes, a carriage return or a bidi override cannot drive
    the designer's terminal: each is shown as an escape, newlines and tabs stay."""
    shown: list[str] = []
    session = Session(None, SourceMap.from_build(built), shown.append)  # type: ignore[arg-type]
    session._show({"messageID": 2, "message": "\x1b[2Jred\rover\u202etxt\tend\nnext"})
    assert shown == ["[print] \\x1b[2Jred\\rover\\u202etxt\tend\nnext"]


def test_a_lua_error_of_60_kb_is_shown_cut_to_a_few_thousand_characters(built: GameBuild) -> None:
    """TTS can send a huge error (a long traceback, a big value in the message); it is mapped
    and shown up to MAX_SHOWN characters and says how much it left out."""
    error = "chunk_1:(3,1-4): " + "x" * 60_000
    lines = format_message(
        {"messageID": 3, "guid": "-1", "error": error}, SourceMap.from_build(built)
    )
    assert len(lines[0]) < MAX_SHOWN + 200
    assert lines[0].endswith(f"... ({len(error) - MAX_SHOWN} more characters)")


# --- the command ------------------------------------------------------------------------------


def test_push_command(capsys, cli_out: Path, fake: FakeTTS, editor_port: int) -> None:
    args = [
        "push",
        GAME,
        "--out",
        str(cli_out),
        "--tts-port",
        str(fake.port),
        "--editor-port",
        str(editor_port),
        "--listen",
        "0.1",
        "--timeout",
        "5",
        "--exec",
        "return 'hello'",
    ]
    code = run(args)
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert '[return #2] "hello"' in out and "pushed arche-noah" in err
    fake.after_load = [{"messageID": 3, "guid": "-1", "error": "chunk_0:(1,1-2): bad"}]
    assert run(args) == EXIT_MISMATCH
    assert "TTS reported 1 Lua error(s)" in capsys.readouterr().err


def test_push_command_without_tts(capsys, cli_out: Path, editor_port: int) -> None:
    port = free_port()
    code = run(
        [
            "-q",
            "push",
            GAME,
            "--out",
            str(cli_out),
            "--tts-port",
            str(port),
            "--editor-port",
            str(editor_port),
            "--listen",
            "0",
        ]
    )
    _, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT
    assert err == f"error: TTS is not running (nothing listens on localhost:{port})\n"
