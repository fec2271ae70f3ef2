"""The fields of a canonical FOL run file as numpy byte matrices, converted column by column.

`focal.evaluation.formats.fol.columns` finds the separators; `Tokens` turns one column into a byte
matrix (a gather from a sliding-window view, no Python object per line) and reads it as integers or
decimals exactly as `int` and `float` would, or says it cannot (the caller then falls back to
the careful line reader).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

FOL_FIELDS = 8
MAX_DIGITS = 18  # a longer integer might not fit in int64: left to `read_run`
EXACT_DIGITS = 15  # m / 10**k is the correctly rounded float of a decimal with so many digits
_ZERO, _DOT, _MINUS = 48, 46, 45
_POWERS_OF_TEN = np.array([float(10**k) for k in range(EXACT_DIGITS + 1)])  # exact


class Tokens:
    """The tokens of a canonical FOL file: `begin[i, c]`/`end[i, c]` of field c of line i."""

    def __init__(self, body: bytes, buffer: npt.NDArray[np.uint8], separators: Ints) -> None:
        self.body = body
        grid = separators.reshape(-1, FOL_FIELDS)
        self.end = grid
        self.begin = np.empty_like(grid)
        self.begin[0, 0] = 0
        self.begin[1:, 0] = grid[:-1, -1] + 1
        self.begin[:, 1:] = grid[:, :-1] + 1
        # Every window of `pad` bytes ending at a token's end, as a view: a column's byte
        # matrix is then one row gather. The padding in front serves the first tokens.
        self.pad = int((grid - self.begin).max())
        padded = np.concatenate([np.zeros(self.pad, np.uint8), buffer])
        self.windows = np.lib.stride_tricks.sliding_window_view(padded, self.pad)

    def matrix(self, column: int, fill: int) -> tuple[npt.NDArray[np.uint8], Ints]:
        """Field `column` of every line as a byte matrix, right-aligned and padded with `fill`,
        and the field's lengths."""
        end = self.end[:, column]
        lengths = end - self.begin[:, column]
        width = int(lengths.max())
        matrix = self.windows[end, self.pad - width :]
        np.putmask(matrix, np.arange(width) < (width - lengths)[:, None], fill)
        return matrix, lengths

    def token(self, line: int, column: int) -> bytes:
        return self.body[int(self.begin[line, column]) : int(self.end[line, column])]

    def tokens(self, column: int) -> list[bytes]:
        body, ends = self.body, self.end[:, column].tolist()
        return [body[b:e] for b, e in zip(self.begin[:, column].tolist(), ends, strict=True)]

    def digits(self, column: int) -> Ints | None:
        """The values of an all-digit column (what `int` reads), or None."""
        matrix, _ = self.matrix(column, _ZERO)
        if matrix.shape[1] > MAX_DIGITS:
            return None
        digit = matrix - np.uint8(_ZERO)  # below `0` wraps around to above 9
        if (digit > 9).any():
            return None
        values = np.zeros(len(matrix), np.int64)
        for place in range(matrix.shape[1]):
            values = values * 10 + digit[:, place]
        return values

    def decimals(self, column: int) -> Floats | None:
        """The values of a column of plain decimals (`-?digits.digits`), as `float` reads them.

        Any other number (an exponent, `inf`, a `+`) is read with `float`; None if one is not a
        number. Exact: with at most 15 digits, `m / 10**k` is the correctly rounded value.
        """
        matrix, lengths = self.matrix(column, _ZERO)
        width = matrix.shape[1]
        digit = matrix - np.uint8(_ZERO)
        is_digit, is_dot, is_minus = digit <= 9, matrix == _DOT, matrix == _MINUS
        dots = is_dot.sum(axis=1)
        minus_lines, minus_places = np.nonzero(is_minus)
        signs = len(minus_lines)
        digits = lengths - dots  # of each field, once the sign is taken off
        digits[minus_lines] -= 1
        if (
            not (is_digit | is_dot | is_minus).all()
            or (minus_places != width - lengths[minus_lines]).any()  # a sign leads its field
            or dots.max() > 1
            or digits.min() < 1
            or digits.max() > EXACT_DIGITS
        ):
            try:
                return np.array(list(map(float, self.tokens(column))), np.float64)
            except ValueError:
                return None
        mantissa = np.zeros(len(matrix), np.int64)
        for place in range(width):
            step = digit[:, place]
            mantissa = np.where(step <= 9, mantissa * 10 + step, mantissa)
        fraction = np.where(dots > 0, width - 1 - np.argmax(is_dot, axis=1), 0)
        values: Floats = mantissa / _POWERS_OF_TEN[fraction]
        if signs:
            values[minus_lines] = -values[minus_lines]
        return values
