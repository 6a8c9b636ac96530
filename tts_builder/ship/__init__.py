"""Shipping a build: install it into TTS, publish it with hosted assets, push it to a running TTS.

- :mod:`.tts_paths` finds the TTS data and Saves folders and picks a ``TS_Save_<N>`` slot;
- :mod:`.install` writes a build into the Saves folder with local ``file:///`` asset URLs;
- :mod:`.publish` names assets by content hash, uploads them, checks every link and writes the
  Workshop package;
- :mod:`.editor_api` talks to a running TTS through its External Editor API;
- :mod:`.watch` rebuilds on every change to a game's sources.
"""
