"""luabundle-format bundles: several Lua modules in one TTS script, and back.

The output is wire-compatible with luabundle 1.6 (what the TTS editor plugins and
TTSModManager read): a ``-- Bundled by luabundle`` header, the ``__bundle_require`` prelude, one
``__bundle_register("name", function(require, _LOADED, __bundle_register, __bundle_modules)``
... ``end)`` block per module (root first, then the others by name) and
``return __bundle_require("__root")``. Module sources are newline-terminated in the bundle, so
``unbundle(bundle(m, r))`` gives back each source with a final newline added if it lacked one.
"""

from __future__ import annotations

import re

ROOT = "__root"
HEADER = '-- Bundled by luabundle {"version":"1.6.0"}'
PRELUDE = """\
local __bundle_require, __bundle_loaded, __bundle_register, __bundle_modules = (function(superRequire)
	local loadingPlaceholder = {[{}] = true}

	local register
	local modules = {}

	local require
	local loaded = {}

	register = function(name, body)
		if not modules[name] then
			modules[name] = body
		end
	end

	require = function(name)
		local loadedModule = loaded[name]

		if loadedModule then
			if loadedModule == loadingPlaceholder then
				return nil
			end
		else
			if not modules[name] then
				if not superRequire then
					local identifier = type(name) == 'string' and '\\"' .. name .. '\\"' or tostring(name)
					error('Tried to require ' .. identifier .. ', but no such module has been registered')
				else
					return superRequire(name)
				end
			end

			loaded[name] = loadingPlaceholder
			loadedModule = modules[name](require, loaded, register, modules)
			loaded[name] = loadedModule
		end

		return loadedModule
	end

	return require, loaded, register, modules
end)(nil)"""  # noqa: E501  (luabundle 1.6 prelude, verbatim)
FOOTER = f'return __bundle_require("{ROOT}")'
_WRAPPER_ARGS = "function(require, _LOADED, __bundle_register, __bundle_modules)"
_MODULE_RE = re.compile(
    r'^__bundle_register\("([-A-Za-z0-9/._@]+)", ' + re.escape(_WRAPPER_ARGS) + r"$"
)
_NAME_RE = re.compile(r"[-A-Za-z0-9/._@]+")


def _lines(source: str) -> list[str]:
    """Lines of a source (a final newline does not make an empty last line)."""
    if not source:
        return []
    return source.split("\n")[:-1] if source.endswith("\n") else source.split("\n")


def bundle(modules: dict[str, str], root_source: str) -> str:
    """One luabundle script: ``root_source`` is ``__root``; it may ``require`` the modules."""
    if ROOT in modules:
        raise ValueError(f"{ROOT!r} is the root module's name")
    named = [(ROOT, root_source)] + sorted(modules.items())
    out = [HEADER, *PRELUDE.split("\n")]
    for name, source in named:
        if not _NAME_RE.fullmatch(name):
            raise ValueError(f"bad module name {name!r}")
        body = _lines(source)
        if any(_MODULE_RE.match(line) for line in body):
            raise ValueError(f"module {name!r} contains a luabundle register line")
        out.append(f'__bundle_register("{name}", {_WRAPPER_ARGS}')
        out.extend(body)
        out.append("end)")
    out.append(FOOTER)
    return "\n".join(out) + "\n"


def _spans(text: str) -> list[tuple[str, int, int]]:
    """(module, first body line index, end line index exclusive), 0-based, per module."""
    lines = text.split("\n")
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _MODULE_RE.match(line))]
    spans = []
    for k, (start, name) in enumerate(starts):
        stop = starts[k + 1][0] if k + 1 < len(starts) else _footer_index(lines, start)
        if lines[stop - 1] != "end)":
            raise ValueError(f"module {name!r} does not end with 'end)'")
        spans.append((name, start + 1, stop - 1))
    return spans


def _footer_index(lines: list[str], after: int) -> int:
    for i in range(len(lines) - 1, after, -1):
        if lines[i].startswith("return __bundle_require("):
            return i
    raise ValueError("no 'return __bundle_require(...)' footer")


def is_bundle(text: str) -> bool:
    """Whether ``text`` looks like a luabundle bundle."""
    return text.startswith("-- Bundled by luabundle") and "__bundle_register(" in text


def unbundle(text: str) -> dict[str, str]:
    """The module sources of a bundle by name (the root as ``__root``)."""
    if not is_bundle(text):
        raise ValueError("not a luabundle bundle")
    lines = text.split("\n")
    result: dict[str, str] = {}
    for name, first, stop in _spans(text):
        body = lines[first:stop]
        result[name] = "".join(line + "\n" for line in body)
    return result


def module_line_map(text: str) -> dict[int, tuple[str, int]]:
    """Bundle line (1-based) -> (module name, line in that module, 1-based), for module bodies."""
    mapping: dict[int, tuple[str, int]] = {}
    for name, first, stop in _spans(text):
        for i in range(first, stop):
            mapping[i + 1] = (name, i - first + 1)
    return mapping


_ERROR_RE = re.compile(r'(\[string "[^"]*"\]|[\w./-]+):(\d+):')


def explain_error(text: str, message: str, names: dict[str, str] | None = None) -> str:
    """Rewrite ``chunk:LINE:`` positions in a Lua error message to ``module:line``.

    ``names`` maps module names to what to print instead (e.g. the template file).
    """
    mapping = module_line_map(text)

    def sub(match: re.Match[str]) -> str:
        where = mapping.get(int(match.group(2)))
        if where is None:
            return match.group(0)
        module, line = where
        return f"{(names or {}).get(module, module)}:{line}:"

    return _ERROR_RE.sub(sub, message)
