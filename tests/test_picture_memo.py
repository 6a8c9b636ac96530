"""The one bounded in-process store of pictures (render.memo.PictureMemo): every cache a build
keeps in memory follows its rules."""

from __future__ import annotations

from PIL import Image

from tts_builder.render.memo import PictureMemo, forget_all, picture_bytes


def _picture(side: int) -> Image.Image:
    return Image.new("RGBA", (side, side))  # side * side * 4 bytes


def test_a_memo_keeps_its_budget_dropping_the_least_recently_used_first() -> None:
    memo = PictureMemo(3 * 400)  # three 10 x 10 RGBA pictures
    for key in "abc":
        memo.add(key, _picture(10))
    assert memo.get("a") is not None  # now the most recently used: b is the oldest
    memo.add("d", _picture(10))
    assert list(memo) == ["c", "a", "d"] and memo.bytes == 1200
    memo.add("e", _picture(14))  # 784 bytes: two must go
    assert list(memo) == ["d", "e"] and memo.bytes == 400 + 784 <= memo.budget


def test_a_picture_bigger_than_the_budget_is_not_kept_and_a_key_is_replaced() -> None:
    memo = PictureMemo(1000)
    big = _picture(16)  # 1024 bytes
    assert memo.add("big", big) is big and "big" not in memo and memo.bytes == 0
    memo.add("x", _picture(10))
    memo.add("x", _picture(5))
    assert len(memo) == 1 and memo.bytes == 100
    assert memo.pop("x") is not None and memo.bytes == 0 and memo.get("x") is None


def test_encoded_bytes_count_their_length_and_forgetting_empties_every_memo() -> None:
    first, second = PictureMemo(10), PictureMemo(100)
    first.add("bytes", b"12345")
    second.add("picture", Image.new("RGB", (3, 3)))
    assert picture_bytes(b"12345") == first.bytes == 5 and second.bytes == 27
    forget_all()
    assert (len(first), first.bytes, len(second), second.bytes) == (0, 0, 0, 0)
