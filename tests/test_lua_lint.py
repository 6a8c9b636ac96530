"""The MoonSharp-compatibility lint: each rule fires on code and never inside strings/comments."""

from __future__ import annotations

import pytest

from tts_builder.lua.bundle import bundle
from tts_builder.lua.lint import lint, tokenize

# (rule, offending Lua statement); each statement is valid Lua 5.2 unless the rule is syntax.
CASES = [
    ("lua53-syntax", "x = a // b"),
    ("lua53-syntax", "x = a & b"),
    ("lua53-syntax", "x = a | b"),
    ("lua53-syntax", "x = ~a"),
    ("lua53-syntax", "x = a << 2"),
    ("lua53-syntax", "x = a >> 2"),
    ("moonsharp-only", "if a != b then end"),
    ("lua53-api", "x = utf8.char(72)"),
    ("lua53-api", "table.move(a, 1, 2, 1)"),
    ("lua53-api", "x = math.type(1)"),
    ("lua53-api", "x = math.tointeger(1)"),
    ("lua53-api", "x = string.pack('i', 1)"),
    ("lua53-api", "x = coroutine.isyieldable()"),
    ("not-in-tts", "f = load('return 1')"),
    ("not-in-tts", "f = loadstring('return 1')"),
    ("not-in-tts", "dofile('x.lua')"),
    ("not-in-tts", "local m = require('m')"),
    ("not-in-tts", "setfenv(1, {})"),
    ("not-in-tts", "x = getfenv(1)"),
    ("not-in-tts", "io.write('x')"),
    ("not-in-tts", "debug.traceback()"),
    ("not-in-tts", "os.exit(1)"),
    ("not-in-tts", "x = os.getenv('HOME')"),
    ("bare-unpack", "f(unpack(t))"),
    ("bare-unpack", "t = pack(1, 2)"),
    ("math-fmod", "x = math.fmod(a, 3)"),
    ("math-huge", "x = math.huge"),
    ("modulo", "x = a % b"),
    ("modulo", "x = a % -3"),
    ("modulo", "x = a % 0"),
    ("modulo", "x = a % (b + 1)"),
    ("tonumber-base", "x = tonumber(s, 16)"),
    ("format-s", "x = string.format('%s!', name)"),
    ("format-s", 'x = string.format("%5d %-10s", a, b)'),
    ("format-s", "x = ('%s'):format(a)"),
    ("tts-deprecated", "function onObjectEnterScriptingZone(z, o) end"),
    ("tts-deprecated", "function onObjectLeaveScriptingZone(z, o) end"),
    ("tts-deprecated", "for _, o in ipairs(getAllObjects()) do end"),
    ("tts-deprecated", "if obj.tag == 'Card' then end"),
    ("tts-api", "Notes.setNotebookTab({title = 't'})"),
    ("local-event", "local function onLoad(state) end"),
    ("local-event", "local onSave = function() return '' end"),
    ("local-event", "local function onObjectDrop(c, o) end"),
    # MoonSharp traps measured in real MoonSharp (LUA.md §7-8)
    ("string-compare", "x = a < 'm'"),
    ("string-compare", "x = obj.color < b"),
    ("string-compare", "if a >= obj.seat.name then end"),
    ("string-compare", "local w = tostring(a); x = w > b"),
    ("sort-no-comparator", "table.sort(t)"),
    ("len-hole", "x = #{1, nil, 3}"),
    ("len-hole", "t[2] = nil; x = #t"),
    ("len-hole", "obj.list[a] = nil; x = #obj.list"),
    ("len-hole", "t[a] = nil; x = table.unpack(t)"),
    ("error-table", "error({code = 1})"),
    ("error-level", "error('x', 2)"),
    ("error-level", "error('x', 0)"),
    ("math-modf", "x = math.modf(a)"),
    ("format-float", "x = string.format('%.2f', a)"),
    ("format-float", "x = string.format('%e', a)"),
    ("format-float", "x = ('%5.1f'):format(a)"),
    ("format-float", "x = string.format('%g', a)"),
    ("tostring-fraction", "x = tostring(a / b)"),
    ("tostring-fraction", "x = tostring(1.5)"),
    ("tostring-fraction", "x = tostring(math.sqrt(a))"),
    ("bit32-shift", "x = bit32.arshift(a, 2)"),
    ("bit32-shift", "x = bit32.lshift(1, 32)"),
    ("bit32-shift", "x = bit32.replace(0, 1, 3)"),
    ("pairs-order", "for k, v in pairs(t) do x = k break end"),
    ("pairs-order", "for k in pairs(t) do obj[#obj + 1] = k end"),
    ("pairs-order", "for k, v in pairs(t) do return k end"),
    ("pairs-order", "for k in pairs(t) do table.insert(obj, k) end"),
    ("pairs-order", "for k in next, t do if k then return k end end"),
    ("bare-local", "for _, v in ipairs(t) do local found end"),
    ("bare-local", "for k in pairs(t) do if k then local x, y = nil end local z end"),
    ("lazy-pattern", "x = s:match('^%s*(.-)%s*$')"),
    ("lazy-pattern", "x = string.gsub(s, 'a-', '')"),
    ("lazy-pattern", "x = string.find(s, '[%w_]-:')"),
    # multiple assignment, assigned target by target in MoonSharp (LUA.md §8.1)
    ("multi-assign", "t[#t + 1], t[#t + 2] = a, b"),
    ("multi-assign", "a, t[#obj + 1] = 1, 2"),
    ("multi-assign", "a, t[a] = 1, 2"),
    ("multi-assign", "t[a], a = 1, 2"),
    ("multi-assign", "t, t.x = {}, 1"),
    ("multi-assign", "t[1], obj[t.n] = 1, 2"),
    ("multi-assign", "obj.list, obj.list.n = {}, 0"),
]


@pytest.mark.parametrize(("rule", "code"), CASES)
def test_rule_fires_on_code(rule: str, code: str) -> None:
    source = "local a, b, t, s, name, obj = 1, 2, {}, '1', 'n', {}\n" + code + "\n"
    hits = [h for h in lint(source, "snippet") if h.rule != "syntax"]
    assert [(h.rule, h.line, h.chunk) for h in hits] == [(rule, 2, "snippet")], hits


@pytest.mark.parametrize(("rule", "code"), CASES)
def test_rule_is_silent_inside_strings_and_comments(rule: str, code: str) -> None:
    quoted = code.replace("\\", "\\\\").replace('"', '\\"')
    source = (
        "\n".join(
            [
                f"-- {code}",
                f"--[[ {code}\n{code} ]]",
                f"--[==[ {code} ]] {code} ]==]",
                f'local s1 = "{quoted}"',
                f"local s2 = [[{code}\n{code}]]",
                f"local s3 = [=[ ]] {code} ]=]",
                "local s4 = 'it\\'s' -- " + code,
            ]
        )
        + "\n"
    )
    assert lint(source, "quiet") == []


@pytest.mark.parametrize(
    "code",
    [
        "x = a % 2",
        "x = a % 0x10",
        "x = a ~= b",
        "x = table.unpack(t)",
        "x = string.format('%d items, %x, 100%%', 3, 255)",
        "x = ('%%s literal'):format()",
        "x = tonumber(s)",
        "x = tonumber(f(a, b))",
        "x = os.time() + os.clock()",
        "x = { load = 1, tag = 2 }",
        "x = t.load",
        "x = obj.getTags()",
        "function onLoad(state) end",
        "local function mod(a, b) return a - math.floor(a / b) * b end",
        "x = a .. b",
        "Notes.addNotebookTab({title = 't', body = 'b'})",
        # the MoonSharp traps' near misses
        "x = a < b",
        "x = #t < 3",
        "x = obj.count <= a",
        "x = obj.color == b",
        "table.sort(t, function(p, q) return p < q end)",
        "t[#t] = nil; x = #t",
        "x = {1, 2, n = nil}",
        "t.field = nil; x = #t",
        "error('x')",
        "error('code: ' .. a)",
        "x = math.floor(a)",
        "x = string.format('%d of %d', a, b)",
        "x = tostring(a)",
        "x = tostring(math.floor(a / b))",
        "x = bit32.band(a, 1)",
        "for k in pairs(t) do obj[k] = true end",
        "for k in pairs(t) do obj[#obj + 1] = k end table.sort(obj, f)",
        "for k in pairs(t) do if k then return true end end",
        "for k in pairs(t) do for i = 1, 3 do if i then break end end end",
        "for k, v in ipairs(t) do if v then break end end",
        "for _, v in ipairs(t) do local found = nil end",
        "for _, v in ipairs(t) do local function g() end end",
        "for i = 1, 3 do local y end",
        "local function g() local y end",
        "x = s:match('^(%d+)-(%d+)$')",
        "x = s:find('%-')",
        "x = s:match('[a-z-]+')",
        "x = s:match('^%s*(.*%S)')",
        "x = string.gsub(s, '-', '+')",
        "t.x, t.y = 1, 2",
        "local p, q = #t, #t + 1",
        "a, b = b, a",
        "t[1], t[2] = a, b",
        "t[a], t[b] = t[b], t[a]",
        "t[#t + 1] = a; t[#t + 1] = b",
        "obj.list[a], obj.seen[a], b = 1, true, #t",
        "x = {t[a], a = 1}",
        "x = {a = 1, b = #t}",
    ],
)
def test_portable_code_is_clean(code: str) -> None:
    source = "local a, b, t, s, obj, f = 1, 2, {}, '1', {}, nil\n" + code + "\n"
    assert lint(source, "clean") == []


def test_parse_check_reports_line_of_syntax_error() -> None:
    hits = lint("local x = 1\nlocal y = = 2\n", "broken")
    assert [(h.chunk, h.line, h.rule) for h in hits] == [("broken", 2, "syntax")]
    assert str(hits[0]).startswith("broken:2: [syntax]")


def test_moonsharp_lambda_fails_the_parse_check() -> None:
    hits = lint("local f = |x| x + 1\n", "lambda")
    assert {h.rule for h in hits} == {"lua53-syntax", "syntax"}


def test_require_is_fine_inside_a_bundle_for_registered_modules_only() -> None:
    text = bundle({"m": "return {}\n"}, "local m = require('m')\nlocal n = require('nope')\n")
    hits = lint(text, "Global")
    assert [(h.rule, "nope" in h.message) for h in hits] == [("bundle-require", True)]


def test_tokenizer_tracks_lines_through_long_strings_and_escapes() -> None:
    source = 'a = [[x\ny]]\nb = "p\\\nq"\n--[[ c\nd ]] e = 1\n'
    names = [(t.value, t.line) for t in tokenize(source) if t.kind == "name"]
    assert names == [("a", 1), ("b", 3), ("e", 6)]


def test_constructor_nil_is_found_past_nested_brackets_only_at_its_own_depth() -> None:
    source = "local t = { f(nil, 2), g[h(nil)], {nil, 1}, nil, 3 }\n"
    holes = [h for h in lint(source, "c") if h.rule == "len-hole"]
    # the inner {nil, 1} and the outer constructor's own nil; those inside calls are arguments
    assert len(holes) == 2


def test_a_letter_outside_ascii_is_a_syntax_hit_not_a_crash() -> None:
    hits = lint("local x = 1\nlocal é = 2\n", "c")
    assert [(h.line, h.rule) for h in hits] == [(2, "syntax")]


@pytest.mark.parametrize(
    ("code", "rules"),
    [
        ("table.sort(f(t, 1))", ["sort-no-comparator"]),  # a comma inside a nested call
        ("table.sort({t, 1})", ["sort-no-comparator"]),
        ("table.sort(t, cmp)", []),
        ("error(f('x', 2))", []),
        ("error(('x'):rep(2), 2)", ["error-level"]),
        ("x = string.gsub(f(s, 1), 'a-', '')", ["lazy-pattern"]),  # the second argument's
        ("x = string.gsub(s, f('a-', 1))", []),  # a lazy text inside the second argument
    ],
)
def test_a_calls_arguments_are_counted_outside_nested_brackets(code: str, rules: list[str]) -> None:
    source = "local t, s, f, cmp = {}, 's', nil, nil\n" + code + "\n"
    assert [h.rule for h in lint(source, "snippet") if h.rule != "syntax"] == rules


def test_multi_assign_names_the_target_and_runs_in_moonsharps_order() -> None:
    # the shipped Ark & Noah grid once built its neighbour lists this way (issue 22)
    source = "local g, a, b = {}, {}, 1\nfor i = 1, 2 do\n  a[#a + 1], a[#a + 2] = b, i\nend\n"
    (hit,) = lint(source, "grid")
    assert (hit.line, hit.rule) == (3, "multi-assign")
    assert "a[#a+1]" in hit.message and "LUA.md §8.1" in hit.message
    # each target on its own: no finding, whatever the targets read
    fixed = "local a, b = {}, 1\nfor i = 1, 2 do\n  a[#a + 1] = b\n  a[#a + 1] = i\nend\n"
    assert lint(fixed, "grid") == []
