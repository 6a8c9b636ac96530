"""The one deep copy of JSON-shaped data (``tts_builder.json_types.copied``) that saves, the
emulated table and the game modules share."""

from __future__ import annotations

from tts_builder.json_types import copied


def test_a_copy_shares_nothing_and_keeps_key_order_and_tuples() -> None:
    data = {"b": [1, {"x": 2.5}], "a": ("t", None), "c": {"z": True, "y": "s"}}
    copy = copied(data)
    assert copy == data and list(copy) == ["b", "a", "c"] and list(copy["c"]) == ["z", "y"]
    assert isinstance(copy["a"], tuple)
    copy["b"][1]["x"] = 0
    copy["c"]["w"] = 1
    assert data["b"][1]["x"] == 2.5 and "w" not in data["c"]


class Thing:
    """Something marshal cannot write."""

    def __init__(self, n: int) -> None:
        self.n = n


def test_what_marshal_cannot_write_is_deep_copied() -> None:
    data = {"things": [Thing(1)]}
    copy = copied(data)
    assert copy["things"][0] is not data["things"][0] and copy["things"][0].n == 1
