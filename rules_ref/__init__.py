"""Reference rules models: pure Python, no TTS, no I/O; one module per game.

Each module exposes the pure rule functions the generated Lua mirrors (JSON-shaped input and
output, the game's rule numbers passed in as ``config``) and an OpenSpiel-style game with
explicit chance. ``errors`` holds the one error kind and ``common`` the input checks and
seating the games share (the twins of ``lua_templates/common/rules_helpers.j2``).
"""
