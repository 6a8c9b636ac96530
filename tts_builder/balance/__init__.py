"""Balance checks before a play-test: bots play many seeded games of ``rules_ref`` and the
numbers a designer asks about are summed up (``tts-builder simulate``).

This is analysis code, like ``verify``: it imports ``rules_ref`` (the build never does). Each
game's facts live in its own folder (``games/<engine>/balance.py``, a
:class:`~tts_builder.balance.base.BalanceGame` registered as the game's ``balance`` part);
``bots`` plays any of them through the OpenSpiel-style state API; ``simulate`` plays K games
(in parallel) and returns a :class:`~tts_builder.balance.simulate.Report`; ``report`` and
``plot`` turn it into text, ``balance.json`` and ``balance.png``.
"""
