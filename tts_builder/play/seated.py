"""What every adapter does with its emulated table alike: messages told, and save/load."""

from __future__ import annotations

from typing import Any

from ..emulator import EmulatedTable
from ..emulator.table import Checkpoint
from .driver import SAVE_EVERY


class ReadCachedTable(EmulatedTable):
    """An emulated table whose two reads the driver repeats most (the loose objects without
    their contents, and Global's ``onSave``) are remembered until the table can have changed:
    anything else that runs Lua (a drop, a click, a call, the clock) forgets them. The same
    results as :class:`EmulatedTable`, only fewer conversions."""

    def __init__(self, save: dict[str, Any], **options: Any) -> None:
        self._reads: dict[str, Any] = {}
        super().__init__(save, **options)

    def _run(self, name: str, *args: Any) -> Any:
        self._reads.clear()
        return super()._run(name, *args)

    def objects(self, contents: bool = True) -> list[dict[str, Any]]:
        if contents:
            return super().objects()
        if "objects" not in self._reads:
            self._reads["objects"] = super().objects(contents=False)
        return self._reads["objects"]

    def call_object(self, guid: str, fn_name: str, *json_args: Any) -> Any:
        if guid != "Global" or fn_name != "onSave" or json_args:
            return super().call_object(guid, fn_name, *json_args)
        if "onSave" not in self._reads:
            known = dict(self._reads)
            result = super().call_object(guid, fn_name)  # only reads the script's state
            self._reads.update(known, onSave=result)
        return self._reads["onSave"]


class SeatedTable:
    """The table half of an adapter: ``table`` with ``colors`` seated, loaded from ``images``
    with a seed, and what every game's adapter reads of its definition: the rule config (of
    the variant), the seats and the player range. Subclasses set ``table`` and ``colors``."""

    table: EmulatedTable
    colors: list[str]

    @staticmethod
    def rules_config(data: dict[str, Any], variant: str | None) -> dict[str, Any]:
        """The game's rule config (its ``rules_config``): set by each adapter."""
        raise NotImplementedError

    def __init__(
        self, save: dict[str, Any], images: dict[str, bytes], data: dict[str, Any], seed: int,
        variant: str | None = None,
    ) -> None:  # fmt: skip
        self.save, self.images, self.seed, self.data = save, images, seed, data
        self.config = self.rules_config(data, variant)
        self.seats = data["table"]["seats"]
        self.low, self.high = data["players"]["min"], data["players"]["max"]
        self.colors = []
        #: Options of every table the adapter makes (``save_every``: its save schedule).
        #: What the games reached: ``Rules.<name>`` of each Rules function the tables' Global
        #: called, and the adapter's :meth:`milestones`.
        self.reached: set[str] = set()
        self.table_options: dict[str, Any] = {"save_every": SAVE_EVERY, "reached": self.reached}
        self.prepare()

    def prepare(self) -> None:
        """What the adapter reads of the save and definition beyond the common part."""

    def milestones(self, view: dict[str, Any]) -> set[str]:
        """What the game reached by the table ``view`` (the driver keeps them all): the
        script's phase, and what each game adds."""
        phase = view.get("phase")
        return {f"phase {phase}"} if isinstance(phase, str) else set()

    def _call(self, color: str, handler: str, element: str | None = None) -> None:
        """A press of a button the panel hides now (a stale panel, or a quick double click)."""
        self.table.call_global(handler, {"color": color}, "-1", element or handler)

    def _as_newcomer(self, color: str, element: str) -> None:
        """``color`` sits down at a seat nobody plays, clicks ``element`` and leaves."""
        self.table.seat([*self.colors, color])
        try:
            self.table.click_ui(color, element)
        finally:
            self.table.seat(self.colors)

    def broadcasts(self) -> int:
        """How many messages the table has shown so far."""
        return len(self.table.broadcasts)

    def told(self, since: int) -> list[tuple[str | None, str]]:
        """(recipient or None for everybody, text) of every message since ``since``."""
        return [(b["to"], b["message"]) for b in self.table.broadcasts[since:]]

    def reload(self) -> None:
        """Save the table and load the save onto a fresh table (of the same kind) with the
        same players."""
        self.load_save(self.table.save_state())

    def frame(self) -> int:
        """The table's virtual frame now."""
        return self.table.frame

    def saves_since(self, frame: int) -> list[Checkpoint]:
        """The saves the table took (at the end of frames) after ``frame`` and after the last
        click or drop, oldest first: those of the last action of a step of several."""
        after = max(frame, self.table.input_frame)
        return [c for c in self.table.checkpoints if c.frame > after]

    def load_save(self, save: dict[str, Any], chance: Checkpoint | None = None) -> None:
        """Load ``save`` onto a fresh table (of the same kind) with the same players seated;
        ``chance``: the checkpoint whose chance still to come the table draws alike."""
        self.table = type(self.table)(
            save, seed=self.seed + 1, images=self.images, **self.table_options
        )
        if chance is not None:
            self.table.chance_from(chance)
        self.table.seat(self.colors)
        self.table.load()
