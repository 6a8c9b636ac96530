"""Expected failures, each rendered as one line naming the file, line, column and field."""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: What the machine, not the project, got wrong: a full disk or quota, a read-only or refused
#: folder, a file where a folder should be (or the reverse). Exit 2 with the path, not exit 3.
ENVIRONMENT_ERRORS = frozenset(
    {
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.EEXIST,
        errno.ENAMETOOLONG,
    }
)


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


class FieldErrors(FieldError):
    """Several bad values found in one pass (``errors``, in the order found; at least two).

    Its ``field`` and ``detail`` are the first one's, so code that expects one error still
    reads one; :func:`field_errors` flattens any FieldError into its list.
    """

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__(errors[0].field, errors[0].detail)
        self.errors = tuple(errors)
        self.message = "\n".join(str(err) for err in self.errors)


def field_errors(err: FieldError) -> list[FieldError]:
    """The errors ``err`` stands for: its ``errors`` (a :class:`FieldErrors`) or itself."""
    return list(err.errors) if isinstance(err, FieldErrors) else [err]


def raise_all(errors: list[FieldError]) -> None:
    """Raise nothing, the one error, or a :class:`FieldErrors` of them all (each once)."""
    seen: dict[tuple[str, str], FieldError] = {}
    for err in (one for many in errors for one in field_errors(many)):
        seen.setdefault((err.field, err.detail), err)
    unique = list(seen.values())
    if len(unique) == 1:
        raise unique[0]
    if unique:
        raise FieldErrors(unique)


def prefixed(err: FieldError, prefix: str) -> FieldError:
    """``err`` (each of its errors) at ``prefix.<field>``: a check of a part, placed in the
    whole (a variant's merged data checked on its own, reported under ``variants.<id>``)."""
    moved = [FieldError(f"{prefix}.{e.field}" if e.field else prefix, e.detail)
             for e in field_errors(err)]  # fmt: skip
    return moved[0] if len(moved) == 1 else FieldErrors(moved)


class Problems:
    """FieldErrors gathered from several checks, raised together by :meth:`raise_any`: how a
    check reports every problem it finds instead of its first."""

    def __init__(self) -> None:
        self.found: list[FieldError] = []

    def run(self, check: Callable[..., None], *args: Any) -> bool:
        """Call ``check(*args)`` and keep what it raises; whether it passed."""
        try:
            check(*args)
        except FieldError as err:
            self.found += field_errors(err)
            return False
        return True

    def add(self, path: str, message: str) -> None:
        self.found.append(FieldError(path, message))

    def add_first(self, path: str, message: str) -> None:
        """:meth:`add`, unless a problem at ``path`` is known: one value, one problem (the
        first of several a check finds there, such as one per player count)."""
        if all(err.field != path for err in self.found):
            self.add(path, message)

    def raise_any(self) -> None:
        """Raise what was found (each once): nothing, one FieldError or a FieldErrors."""
        raise_all(self.found)


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


#: The most problems a definition error lists (then "... and N more").
MAX_SHOWN = 20


class DefinitionErrors(DefinitionError):
    """Several problems in one definition, sorted by line and column: one line each under a
    count (at most :data:`MAX_SHOWN`, then "... and N more"). ``location``, ``field`` and
    ``detail`` are the first one's; ``errors`` holds them all."""

    def __init__(self, errors: list[DefinitionError]) -> None:
        ordered = sorted(errors, key=lambda e: (e.location.line, e.location.column, e.field))
        first = ordered[0]
        super().__init__(first.location, first.field, first.detail)
        self.errors = tuple(ordered)
        shown = [str(err) for err in ordered[:MAX_SHOWN]]
        if len(ordered) > MAX_SHOWN:
            shown.append(f"... and {len(ordered) - MAX_SHOWN} more")
        self.message = "\n".join([f"{first.location.path}: {len(ordered)} problems", *shown])


class VerificationError(Exception):
    """Lua and rules_ref disagree (CLI exit 1)."""
