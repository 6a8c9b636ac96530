"""The one error kind a rule function refuses bad input with.

A rule raises :class:`RuleError` with a short code (``not_a_face``, ``unknown_edge``...); its
Lua twin raises the same code as the string ``"rule_error:<code>: <detail>"``. ``verify``
compares the codes; any other exception on either side is a failure, never an agreement.
"""

from __future__ import annotations

PREFIX = "rule_error"


class RuleError(ValueError):
    """A rule refusing its input: ``code`` names the reason (the same code in both engines)."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{PREFIX}:{code}: {detail}" if detail else f"{PREFIX}:{code}")
