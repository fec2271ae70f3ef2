"""A plain line's grade or score read with numpy, from the words of its bytes (`fields`).

Grades are -?D{1,7} of at most GRADE_LIMIT here (the C part takes 18 digits up to 2^20: a file
with a longer or larger grade is left to the numpy engine, as each block counts judged
documents in one table of topics by grades): grades of one or two bytes through a table of
their bytes, longer ones from their one word. Scores are -?D+(.D+)?([eE][+-]?D+)?
(docs/trec_eval.md, "Reading"), read as the correctly rounded double, as C's `atof` and
Python's `float` read them: a score of at most 8 bytes without an exponent from its one word
(at most 7 digits: one exact division by a power of ten rounds once to that double, Clinger's
fast path as kernel/_kernel_score.c takes it); others from their bytes, the same way up to 19
significant digits, a mantissa up to 2^53 and a power of ten within 10^22; any other score by
`float` itself, a few a file in practice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from focal.evaluation.measures.trec_eval.numpy_pass.fields import MASKS, SPACE, at, text, words

if TYPE_CHECKING:
    import numpy.typing as npt

    from focal.evaluation.measures.trec_eval.numpy_pass.fields import (
        Bools,
        Bytes,
        Floats,
        Grades,
        Ints,
        Words,
    )

    # `_short`'s arrays (a plain tuple: a NamedTuple class costs 0.2 ms at each start-up)
    _Short = tuple[Words, Words, Words, Words, Ints, Bools, Bools]

GRADE_LIMIT = 255  # (a block's table of topics x grades stays small)
MINUS, PLUS, DOT = ord("-"), ord("+"), ord(".")
_POWERS = np.array([10.0**k for k in range(23)])  # exact doubles
_SHIFTS = np.array([64 - 8 * k for k in range(9)], dtype=np.uint64)  # k low bytes to the top
_STEPS = [(np.uint64(mask), np.uint64(factor), np.uint64(shift)) for mask, factor, shift in [
    (0x0F0F0F0F0F0F0F0F, 2561, 8), (0x00FF00FF00FF00FF, 6553601, 16),
    (0x0000FFFF0000FFFF, 42949672960001, 32)]]  # fmt: skip
_EXACT = 1 << 53
_ONES = 0x0101010101010101
_HIGH = np.uint64(0x80 * _ONES)


def _digits_value(word: Words, count: npt.NDArray[np.integer[Any]]) -> Words:
    """The value of the `count` (1 to 8) decimal digits in the low bytes of `word`, the first
    lowest (eight digits in three multiplies: each step joins neighbouring groups)."""
    word = word << _SHIFTS[count]  # (then in place: one array, not nine)
    for mask, factor, shift in _STEPS:
        word &= mask
        word *= factor
        word >>= shift
    return word


def _short(raw: Words, starts: Ints, lengths: Ints) -> _Short:
    """The numbers at `starts` (lengths of at most 8 read whole, longer cut), their sign
    dropped: the word of their bytes (`word`) and of those bytes xor 0x30 (`digits`: a digit's
    value), the high bit of each byte of theirs (`used`) and of each that is not a digit
    (`other`), their lengths and whether each was negative; `plain` false where a byte is above
    0x7F or nothing follows the sign."""
    word = at(raw, starts)
    mask = MASKS[lengths if int(lengths.max(initial=0)) <= 8 else np.minimum(lengths, 8)]
    word &= mask
    negative = (word & np.uint64(0xFF)) == MINUS
    signed = bool(negative.any())
    if signed:  # (the sign's byte dropped)
        word = np.where(negative, word >> np.uint64(8), word)
        mask = np.where(negative, mask >> np.uint64(8), mask)
    mask &= _HIGH
    used = mask
    plain = (word & _HIGH) == 0  # (below 0x80: no borrow between bytes)
    if signed:
        plain &= used != 0
    digits = word ^ np.uint64(0x30 * _ONES)  # a digit's byte below 10: no high bit left after
    other = digits | _HIGH
    other -= np.uint64(0x0A * _ONES)  # taking 10 from it with 0x80 added
    other &= used
    return word, digits, used, other, lengths - negative if signed else lengths, negative, plain


def grades(data: Bytes, raw: Words, starts: Ints, lengths: Ints) -> Grades | None:
    """The grades -?D{1,7} at `starts` (`data` and its `raw_words`; fields as `split` finds
    them, none holding a byte at or below 0x20), or None when one is not of that form or above
    GRADE_LIMIT. Grades of one or two bytes, the commonest, through a table of their bytes."""
    if len(starts) == 0:
        return np.zeros(0, dtype=np.int32)
    longest = int(lengths.max())
    if longest > 8:
        return None
    if longest == 1:  # D: every grade one digit, the commonest file
        digits = data[starts] - np.uint8(ord("0"))
        return None if int(digits.max()) > 9 else digits.astype(np.int32)
    if longest == 2:  # d, dd or -d: their two bytes (two gathers of bytes: faster than one of
        # unaligned pairs), the second a space or newline past a one-byte grade
        pair = data[1:][starts].astype(np.uint16)
        pair <<= np.uint16(8)
        pair |= data[starts]
        value = _pairs()[pair]
        if int(value.min()) < -9 or int(value.max()) > GRADE_LIMIT:  # (-10: not a grade)
            return None
        return value.astype(np.int32)
    word, _, _, other, length, negative, plain = _short(raw, starts, lengths)
    if not np.all(plain & (other == 0) & (length <= 7)):
        return None
    digits = _digits_value(word, length).astype(np.int32)
    if int(np.where(negative, 0, digits).max()) > GRADE_LIMIT:
        return None
    read: Grades = np.where(negative, -digits, digits)
    return read


_PAIR_TABLE: list[npt.NDArray[np.int16]] = []


def _pairs() -> npt.NDArray[np.int16]:
    """Each grade of one or two bytes by their little-endian 16 bits (a one-byte grade's
    second byte the one past it, at or below 0x20): its value, -10 for any other pair. Made at
    its first use."""
    if not _PAIR_TABLE:
        table = np.full((256, 256), -10, dtype=np.int16)  # [second byte, first byte]
        digits = np.arange(10, dtype=np.int16)
        zero = ord("0")
        table[: SPACE + 1, zero : zero + 10] = digits
        table[zero : zero + 10, zero : zero + 10] = digits[:, None] + 10 * digits
        table[zero : zero + 10, MINUS] = -digits
        _PAIR_TABLE.append(table.reshape(-1))
    return _PAIR_TABLE[0]


def scores(data: Bytes, raw: Words, starts: Ints, lengths: Ints) -> Floats | None:
    """The scores at `starts` (see the module's docstring), or None when one is not of the
    plain form. A score of at most 8 bytes, -?D+(.D+)?, is read from its one word; the others
    from their bytes (`_scores`)."""
    word, digits, used, other, _, negative, plain = _short(raw, starts, lengths)
    # at most one byte not a digit, neither the first nor the last: a dot
    dot = other >> np.uint64(7)  # (0x01 at that byte)
    fast = plain & (lengths <= 8)
    fast &= (other & (other - np.uint64(0x100))) == 0  # (one bit left: not in the first byte)
    fast &= other <= (used >> np.uint64(8))
    fast &= (digits & (dot * np.uint64(0xFF))) == dot * np.uint64(DOT ^ 0x30)
    rows = np.flatnonzero(fast) if not np.all(fast) else None
    if rows is not None:  # (the others from their bytes, below)
        word, used, negative, other, dot = word[rows], used[rows], negative[rows], other[rows], \
            dot[rows]  # fmt: skip
    low = dot - np.uint64(1)  # the bytes before the dot (all: no dot)
    packed = ((word & low) | ((word >> np.uint64(8)) & ~low)).astype(np.uint64, copy=False)
    count = np.bitwise_count(used ^ other)  # the digits, and those past the dot:
    fraction = count - np.bitwise_count(used & low)
    value = _digits_value(packed, count).astype(np.float64) / _POWERS[fraction]
    signed: Floats = np.where(negative, -value, value) if negative.any() else value
    if rows is None:
        return signed
    read = np.zeros(len(starts), dtype=np.float64)
    read[rows] = signed
    others = np.flatnonzero(~fast)
    rest = _scores(data, raw, starts[others], lengths[others])
    if rest is None:
        return None
    read[others] = rest
    return read


def _scores(data: Bytes, raw: Words, starts: Ints, lengths: Ints) -> Floats | None:
    """Scores of any plain form, read from their bytes: None when one is not plain."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    columns = words(raw, starts, lengths, order=False)  # (their bytes, zero past their end)
    width = 8 * len(columns)
    chars = np.stack(columns, axis=1).view(np.uint8).reshape(n, width)
    digit = chars - np.uint8(ord("0")) <= 9
    dot, minus, plus = chars == DOT, chars == MINUS, chars == PLUS
    exp = (chars | np.uint8(0x20)) == ord("e")
    used = np.arange(width) < lengths[:, None]
    before = np.zeros_like(digit)  # the byte before is a digit
    before[:, 1:] = digit[:, :-1]
    after = np.zeros_like(digit)  # the byte after is a digit
    after[:, :-1] = digit[:, 1:]
    after_exp = np.zeros_like(digit)
    after_exp[:, 1:] = exp[:, :-1]
    sign_next = np.zeros_like(digit)
    sign_next[:, :-1] = minus[:, 1:] | plus[:, 1:]
    seen_exp = np.cumsum(exp, axis=1) > 0
    bad = used & ~(digit | dot | minus | plus | exp)
    bad |= (minus | plus) & ~(after & (after_exp | (minus & (np.arange(width) == 0))))
    bad |= dot & ~(before & after & ~seen_exp)
    bad |= exp & ~(before & (after | sign_next))
    if np.any(bad) or np.any(dot.sum(axis=1) > 1) or np.any(exp.sum(axis=1) > 1):
        return None
    mantissa = digit & ~seen_exp
    significant = np.cumsum(mantissa & (np.cumsum(mantissa & (chars != ord("0")), axis=1) > 0),
                            axis=1)  # fmt: skip
    value = np.zeros(n, dtype=np.uint64)
    take = mantissa & (significant <= 19)
    for k in range(width):
        value = np.where(take[:, k], value * np.uint64(10) + (chars[:, k] - 48), value)
    fraction = np.sum(mantissa & (np.cumsum(dot, axis=1) > 0), axis=1)
    power_digits = digit & seen_exp
    exponent = np.zeros(n, dtype=np.int64)
    for k in range(width):
        grown = exponent * 10 + (chars[:, k].astype(np.int64) - 48)
        exponent = np.where(power_digits[:, k] & (exponent < 100000), grown, exponent)
    exponent = np.where(np.any(minus & seen_exp, axis=1), -exponent, exponent)
    power = exponent - fraction
    fast = (significant[:, -1] <= 19) & (value <= _EXACT) & (np.abs(power) <= 22)
    fast |= value == 0
    magnitude = value.astype(np.float64)
    scale = _POWERS[np.minimum(np.abs(power), 22)]
    read = np.where(power < 0, magnitude / scale, magnitude * scale)
    read = np.where(value == 0, 0.0, read)
    read = np.where(minus[:, 0], -read, read)
    for row in np.flatnonzero(~fast).tolist():
        read[row] = float(text(data, int(starts[row]), int(lengths[row])))
    return read
