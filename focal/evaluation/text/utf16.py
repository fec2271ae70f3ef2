"""Offsets in code points (Focal's unit) versus UTF-16 code units (what browsers count).

A character outside the Basic Multilingual Plane (an "astral" character such as an emoji or a
mathematical letter) is one code point but two UTF-16 units. A UTF-16 offset that falls between
the two halves of such a character names no position in the text and is refused with ValueError.
"""

from __future__ import annotations

from bisect import bisect_left

_FIRST_ASTRAL = 0x10000


def _check_range(value: int, limit: int, unit: str) -> None:
    if not 0 <= value <= limit:
        raise ValueError(f"{unit} offset {value} is outside 0..{limit}")


def codepoint_to_utf16(text: str, offset: int) -> int:
    """The UTF-16 offset of code point offset `offset` in `text`.

    >>> codepoint_to_utf16("a\\U0001F600b", 2)
    3
    """
    _check_range(offset, len(text), "code point")
    return offset + sum(1 for char in text[:offset] if ord(char) >= _FIRST_ASTRAL)


def utf16_to_codepoint(text: str, units: int) -> int:
    """The code point offset of UTF-16 offset `units` in `text` (ValueError inside a pair).

    >>> utf16_to_codepoint("a\\U0001F600b", 3)
    2
    """
    position = 0
    for index, char in enumerate(text):
        if position == units:
            return index
        position += 2 if ord(char) >= _FIRST_ASTRAL else 1
        if position > units:
            raise ValueError(
                f"UTF-16 offset {units} falls inside the surrogate pair of code point {index}"
            )
    if position == units:
        return len(text)
    raise ValueError(f"UTF-16 offset {units} is outside 0..{position}")


class Utf16Offsets:
    """Many conversions on one text: O(log a) each, where a is the number of astral characters.

    Instead of a prefix sum over every character it keeps the (sorted) code point positions of
    the astral characters, which is the same information and tiny for ordinary text.

    >>> offsets = Utf16Offsets("x\\U0001D400y\\U0001D401")
    >>> [offsets.to_utf16(i) for i in range(5)]
    [0, 1, 3, 4, 6]
    >>> [offsets.to_codepoint(u) for u in (0, 1, 3, 4, 6)]
    [0, 1, 2, 3, 4]
    """

    def __init__(self, text: str) -> None:
        self.length = len(text)
        self.astral = [i for i, char in enumerate(text) if ord(char) >= _FIRST_ASTRAL]
        # UTF-16 position of each astral character: its code point position plus the number of
        # astral characters before it.
        self._astral_units = [position + rank for rank, position in enumerate(self.astral)]
        self.utf16_length = self.length + len(self.astral)

    def to_utf16(self, offset: int) -> int:
        """UTF-16 offset of a code point offset."""
        _check_range(offset, self.length, "code point")
        return offset + bisect_left(self.astral, offset)

    def to_codepoint(self, units: int) -> int:
        """Code point offset of a UTF-16 offset (ValueError inside a surrogate pair)."""
        _check_range(units, self.utf16_length, "UTF-16")
        # astral characters that start strictly before `units`
        before = bisect_left(self._astral_units, units)
        if before and self._astral_units[before - 1] + 1 == units:
            raise ValueError(
                f"UTF-16 offset {units} falls inside the surrogate pair of code point "
                f"{self.astral[before - 1]}"
            )
        return units - before
