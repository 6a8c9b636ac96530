"""tts-builder: board-game definitions to Tabletop Simulator mods, with verified Lua."""

__version__ = "0.1.0"
