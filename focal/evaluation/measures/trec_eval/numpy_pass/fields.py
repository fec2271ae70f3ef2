"""Plain TREC lines split and read with numpy, a buffer of lines at a time.

A line is plain as the C part's readers take it (kernel/_kernel_pass.h): its fields are
printable ASCII but `#`, one space apart, the last ending at a newline, none empty. The bytes a
field may not hold are found in a few array passes (`split`): the lines are plain when no two
are neighbours and they are, line after line, `fields - 1` spaces and a newline (counted, not
compared one by one). Their positions are the fields' bounds.

Ids are read as big-endian 64-bit words from any position (`words`): word k holds bytes
8k..8k+7 of the id, zero past its end, so that comparing rows word after word is comparing the
ids' bytes (trec_eval's `strcmp` order: no id holds a zero byte).

Grades are -?D{1,7} of at most GRADE_LIMIT here, read from one word (the C part takes 18 digits
up to 2^20: a file with a longer or larger grade is left to the numpy engine, as each block
counts judged documents in one table of topics by grades). Scores are -?D+(.D+)?([eE][+-]?D+)?
(docs/trec_eval.md, "Reading"), read as the correctly rounded double, as C's `atof` and
Python's `float` read them: a score of at most 8 bytes without an exponent from its one word
(at most 7 digits: one exact division by a power of ten rounds once to that double, Clinger's
fast path as kernel/_kernel_score.c takes it); others from their bytes, the same way up to 19
significant digits, a mantissa up to 2^53 and a power of ten within 10^22; any other score by
`float` itself, a few a file in practice.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]
Words = npt.NDArray[np.uint64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Columns = list[Words]  # ids as words: one array a word (`words`)
PAD = 8  # zero bytes a buffer holds past its lines: a word read at any line start stays inside
# little-endian masks of the first k bytes of a word (k = 0..8)
MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
GRADE_LIMIT = 255  # (a block's table of topics x grades stays small)
_POWERS = np.array([10.0**k for k in range(23)])  # exact doubles
_EXACT = 1 << 53
SPACE, NEWLINE, MINUS, PLUS, DOT = 32, 10, ord("-"), ord("+"), ord(".")
_ONES = 0x0101010101010101
_HIGH = np.uint64(0x80 * _ONES)
_FIRST = np.uint64(0x80)  # the high bit of a word's first byte


def split(data: Bytes, fields: int, strict: bool = True) -> Ints | None:
    """The bounds of the lines of `data` (complete lines, the last ending with a newline):
    row i holds where line i's spaces and newline are (`fields` of them); None when a line is
    not plain. `strict=False` (lines found plain once already) finds the spaces and newlines
    without checking the other bytes again."""
    if len(data) == 0:
        return np.zeros((0, fields), dtype=np.int64)
    if strict:
        special = data - np.uint8(0x21) > np.uint8(0x7E - 0x21)  # below 0x21 or above 0x7E
        special |= data == ord("#")
    else:
        special = data <= SPACE
    if special[0] or np.any(special[1:] & special[:-1]):  # an empty field
        return None
    at = np.flatnonzero(special)
    lines = len(at) // fields
    if len(at) % fields or not np.all(data[at[fields - 1 :: fields]] == NEWLINE):
        return None
    # every `fields`-th a newline, and as many spaces as the others: all of them spaces
    if np.count_nonzero(data == SPACE) != lines * (fields - 1):
        return None
    return at.reshape(-1, fields)


def field(bounds: Ints, k: int) -> tuple[Ints, Ints]:
    """Field k of every line: its starts and lengths."""
    if k == 0:
        starts = np.empty(len(bounds), dtype=np.int64)
        starts[:1] = 0
        starts[1:] = bounds[:-1, -1] + 1
    else:
        starts = bounds[:, k - 1] + 1
    return starts, bounds[:, k] - starts


def raw_words(data: Bytes) -> Words:
    """`data` as aligned little-endian words (word k its bytes 8k..8k+7) that `at` reads at any
    byte position below len(data) - 8: a view of `data` when it is aligned and of whole words,
    else a copy with a zero word past its end. (numpy gathers from an unaligned view of every
    position at half the speed of two aligned gathers.)"""
    if data.ctypes.data % 8 == 0 and len(data) % 8 == 0:
        return data.view("<u8")
    raw = np.zeros(len(data) // 8 + 2, dtype="<u8")
    raw.view(np.uint8)[: len(data)] = data
    return raw


def at(raw: Words, positions: Ints) -> Words:
    """The little-endian word starting at each byte position (`raw_words`)."""
    index = positions >> 3
    shift = ((positions & 7) << 3).astype(np.uint64)
    word: Words = raw[index] >> shift
    word |= (raw[index + 1] << (np.uint64(63) - shift)) << np.uint64(1)
    return word


def _last(raw: Words) -> int:
    """The last byte position `at` reads in `raw`."""
    return 8 * len(raw) - 9


def words(raw: Words, starts: Ints, lengths: Ints, count: int = 0, order: bool = True) -> Columns:
    """The ids at `starts` (`lengths` bytes) as big-endian words: a column a word of the
    longest (at least `count` columns, and one). `order=False`: little-endian words, which
    compare equal as the big-endian ones do but do not sort as the ids. (`at`, the columns
    sharing the ids' alignment.)"""
    count = max(count, 1, -(-int(lengths.max(initial=0)) // 8))
    index = starts >> 3
    shift = ((starts & 7) << 3).astype(np.uint64)
    back = np.uint64(63) - shift
    columns: Columns = []
    for k in range(count):
        rows = np.minimum(index + k, len(raw) - 2) if k else index
        word: Words = raw[rows] >> shift
        word |= (raw[rows + 1] << back) << np.uint64(1)
        word &= MASKS[np.clip(lengths - 8 * k, 0, 8)] if count > 1 else MASKS[lengths]
        columns.append(word.byteswap(inplace=True) if order else word)
    return columns


def take(columns: Columns, rows: Ints) -> Columns:
    """The rows `rows` of each column."""
    return [column[rows] for column in columns]


def same_rows(a: Columns, b: Columns) -> npt.NDArray[np.bool_]:
    """Whether row i of `a` and of `b` hold the same words (as many columns each)."""
    same: npt.NDArray[np.bool_] = a[0] == b[0]
    for left, right in zip(a[1:], b[1:], strict=True):
        same &= left == right
    return same


def text(data: Bytes, start: int, length: int) -> bytes:
    """The bytes of a field."""
    return data[start : start + length].tobytes()


def _ge(word: Words, byte: int) -> Words:
    """The high bit of each byte of `word` that is at least `byte` (bytes below 0x80)."""
    return ((word | _HIGH) - np.uint64(byte * _ONES)) & _HIGH


def _digits_value(word: Words, count: Ints) -> Words:
    """The value of the `count` (1 to 8) decimal digits in the low bytes of `word`, the first
    lowest (eight digits in three multiplies: each step joins neighbouring groups)."""
    word = word << (np.uint64(64) - np.uint64(8) * count.astype(np.uint64))
    word = ((word & np.uint64(0x0F0F0F0F0F0F0F0F)) * np.uint64(2561)) >> np.uint64(8)
    word = ((word & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(6553601)) >> np.uint64(16)
    return ((word & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(42949672960001)) >> np.uint64(32)


def _classes(word: Words) -> tuple[Words, Words, Words]:
    """The high bits of the digits, dots and minus signs of `word`'s bytes."""
    digit = _ge(word, 0x30) & ~_ge(word, 0x3A)
    dot = _ge(word, DOT) & ~_ge(word, DOT + 1)
    minus = _ge(word, MINUS) & ~_ge(word, MINUS + 1)
    return digit, dot, minus


def grades(raw: Words, starts: Ints, lengths: Ints) -> Ints | None:
    """The grades -?D{1,7} at `starts`, or None when one is not of that form or above
    GRADE_LIMIT."""
    if len(starts) == 0:
        return np.zeros(0, dtype=np.int64)
    longest = int(lengths.max())
    if longest > 8:
        return None
    data = raw.view(np.uint8)  # (the bytes `raw_words` read)
    if longest == 1:  # D: every grade one digit, the commonest file
        digits = data[starts] - np.uint8(ord("0"))
        return None if int(digits.max()) > 9 else digits.astype(np.int64)
    if longest <= 2:  # d, dd or -d: the common case, from the first two bytes
        first = data[starts].astype(np.int64) - ord("0")
        second = data[starts + 1].astype(np.int64) - ord("0")
        single = lengths == 1
        negative = ~single & (first == MINUS - ord("0"))
        second_ok = single | ((second >= 0) & (second <= 9))
        first_ok = negative | ((first >= 0) & (first <= 9))
        if not (np.all(first_ok) and np.all(second_ok)):
            return None
        value = np.where(single, first, np.where(negative, -second, first * 10 + second))
        return None if int(value.max()) > GRADE_LIMIT else value
    word = at(raw, starts) & MASKS[lengths]
    digit, _, minus = _classes(word)
    negative = (minus & _FIRST) != 0
    used = _HIGH & MASKS[lengths]
    count = lengths - negative
    if np.any((digit | (minus & _FIRST)) != used) or np.any(count < 1) or np.any(count > 7):
        return None
    word[negative] >>= np.uint64(8)
    value = _digits_value(word, count).astype(np.int64)
    if int(np.where(negative, 0, value).max()) > GRADE_LIMIT:
        return None
    return np.where(negative, -value, value)


def scores(data: Bytes, raw: Words, starts: Ints, lengths: Ints) -> Floats | None:
    """The scores at `starts` (see the module's docstring), or None when one is not of the
    plain form. A score of at most 8 bytes, -?D+(.D+)?, is read from its one word; the others
    from their bytes (`_scores`)."""
    read = np.zeros(len(starts), dtype=np.float64)
    short = lengths <= 8
    mask = MASKS[np.minimum(lengths, 8)]
    word = at(raw, starts) & mask
    digit, dot, minus = _classes(word)
    first_minus = minus & _FIRST
    used = _HIGH & mask
    fast = short & ((digit | dot | first_minus) == used) & ((dot & (dot - np.uint64(1))) == 0)
    fast &= (dot & ~((digit << np.uint64(8)) & (digit >> np.uint64(8)))) == 0
    fast &= ((first_minus << np.uint64(8)) & ~digit) == 0
    rows = np.flatnonzero(fast)
    word, dot, negative = word[rows], dot[rows], first_minus[rows] != 0
    low = (dot >> np.uint64(7)) - np.uint64(1)  # the bytes before the dot (all: no dot)
    packed = ((word & low) | ((word >> np.uint64(8)) & ~low)).astype(np.uint64, copy=False)
    packed[negative] >>= np.uint64(8)
    has_dot = dot != 0
    count = lengths[rows] - has_dot - negative
    # digits after the dot: the bytes past it
    place = np.bitwise_count(low).astype(np.int64) // 8  # the dot's byte
    fraction = np.where(has_dot, lengths[rows] - 1 - place, 0)
    value = _digits_value(packed, count).astype(np.float64) / _POWERS[fraction]
    read[rows] = np.where(negative, -value, value)
    others = np.flatnonzero(~fast)
    if len(others):
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
    width = 8 * max(1, -(-int(lengths.max()) // 8))
    chars = np.zeros((n, width), dtype=np.uint8)
    for k in range(width // 8):
        word = at(raw, np.minimum(starts + 8 * k, _last(raw)))
        word &= MASKS[np.clip(lengths - 8 * k, 0, 8)]
        chars[:, 8 * k : 8 * k + 8] = word.view(np.uint8).reshape(-1, 8)
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
