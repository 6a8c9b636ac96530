"""Mechanisms more than one game uses, in one place (no game module holds a copy).

:mod:`.specs` (schema pieces: component layouts, sizes, tables, by-player-count rows,
mappings), :mod:`.checks` (cross-field checks: seats, art files, names listed twice, player-count
coverage), :mod:`.table` (table points, seats' hand zones), :mod:`.output` (the save header from the
definition, a build's files) and :mod:`.pictures` (the thumbnail and the preview sheet).
"""
