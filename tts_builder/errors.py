"""Expected failures, each rendered as one line naming the file, line, column and field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class BuildError(Exception):
    """An error caused by the user's input: the CLI prints it on one line and exits 2."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class FieldError(BuildError):
    """A bad value at a field path such as ``components.card.face[3].box``.

    Raised by pure code that knows the field but not the file; the loader catches it and
    re-raises it as a :class:`DefinitionError` with the file, line and column of that field.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


@dataclass(frozen=True)
class Location:
    """A place in a source file; line and column are 1-based."""

    path: Path
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class DefinitionError(BuildError):
    """A bad game definition: ``file:line:column: field: message``."""

    def __init__(self, location: Location, field: str, message: str) -> None:
        prefix = f"{location}: {field}: " if field else f"{location}: "
        super().__init__(prefix + message)
        self.location = location
        self.field = field
        self.detail = message


class VerificationError(Exception):
    """Lua and rules_ref disagree (CLI exit 1)."""
