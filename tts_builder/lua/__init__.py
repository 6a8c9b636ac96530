"""Lua generation for TTS scripts: literals, Jinja2 templates, luabundle bundles and a lint.

- :mod:`.literal`: Python data -> Lua expressions that read back identically in Lua 5.2 and
  MoonSharp; XML escaping for XmlUI.
- :mod:`.templates`: the Jinja2 environment over ``lua_templates/``.
- :mod:`.bundle`: luabundle-format bundles (and the reverse, and a line map for errors).
- :mod:`.lint`: a MoonSharp-compatibility lint plus a Lua 5.2 parse check.
- :mod:`.scripts`: a game's Global script and XmlUI from its templates.
"""

from .literal import lua_literal, lua_string, xml_escape

__all__ = ["lua_literal", "lua_string", "xml_escape"]
