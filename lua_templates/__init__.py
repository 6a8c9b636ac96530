"""The Lua and XmlUI templates, shipped as the package data ``tts_builder.lua_templates``."""
