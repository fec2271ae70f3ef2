"""A text run's columns converted to values, naming the first bad line when one will not convert.

`runs.parse_run_bytes` splits a run into columns (topic, article, rank, score, run id, then the
FOL offset and length or the element path); this module turns each column into values with one
C-level `map`, and only when that fails walks the column token by token to raise a
`FormatError` naming the file, the line and what was expected (a number, an offset or `X`, an
element path, the one run id of the file).

Kept apart from the reader because it is one concern, the conversion and its error messages,
which every shape of text run shares, whereas `runs` decides the shape and builds the results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import methodcaller
from typing import TypeVar, cast

from focal.evaluation.errors import FormatError

MISSING_OFFSETS = frozenset({b"X", b"x", b"-1"})

T = TypeVar("T")


def single_run_id(run_ids: Sequence[bytes], numbers: list[int], name: str) -> str:
    """The run id of every line, decoded: the file holds one run, its id in UTF-8."""
    first = run_ids[0]
    if run_ids.count(first) != len(run_ids):
        index = next(i for i, run_id in enumerate(run_ids) if run_id != first)
        raise FormatError(
            name,
            numbers[index],
            f"expected run id {_show(first)} as on line {numbers[0]}, "
            f"found {_show(run_ids[index])}",
        )
    try:
        return first.decode()
    except UnicodeDecodeError:
        raise FormatError(name, numbers[0], f"expected a UTF-8 run id, found {first!r}") from None


class ColumnReader:
    """Converts whole columns at C speed; on failure, finds and names the first bad line."""

    def __init__(self, numbers: list[int], name: str) -> None:
        self.numbers = numbers
        self.name = name

    def convert(
        self, tokens: Sequence[bytes], convert: Callable[[bytes], T], expected: str
    ) -> list[T]:
        try:
            return list(map(convert, tokens))
        except ValueError:
            for index, token in enumerate(tokens):
                try:
                    convert(token)
                except ValueError:
                    raise FormatError(
                        self.name, self.numbers[index], f"expected {expected}, found {_show(token)}"
                    ) from None
            raise  # pragma: no cover - the loop above always finds the token

    def counts(self, tokens: Sequence[bytes], expected: str) -> list[int]:
        values = self.convert(tokens, int, expected)
        if min(values) < 0:
            index = next(i for i, value in enumerate(values) if value < 0)
            raise FormatError(
                self.name, self.numbers[index], f"expected {expected}, found {values[index]}"
            )
        return values

    def text(self, tokens: Sequence[bytes], expected: str) -> list[str]:
        return self.convert(tokens, bytes.decode, expected)


def offsets(
    tokens: Sequence[bytes], numbers: list[int], name: str
) -> tuple[list[int | None], list[bool]]:
    """FOL offsets; `X` or `-1` marks a result that does not exist in the article."""
    try:
        values = list(map(int, tokens))
        if min(values) >= 0:
            return cast(list[int | None], values), [False] * len(tokens)
    except ValueError:
        pass
    starts: list[int | None] = []
    missing: list[bool] = []
    for index, token in enumerate(tokens):
        if token in MISSING_OFFSETS:
            starts.append(None)
            missing.append(True)
            continue
        try:
            starts.append(_count(token))
        except ValueError:
            raise FormatError(
                name,
                numbers[index],
                "expected a non-negative integer offset (or X or -1 for a missing result), "
                f"found {_show(token)}",
            ) from None
        missing.append(False)
    return starts, missing


def _count(token: bytes) -> int:
    value = int(token)
    if value < 0:
        raise ValueError(token)
    return value


def element_paths(column: ColumnReader, tokens: Sequence[bytes]) -> list[str]:
    """Element paths: decoded and checked on the whole column (C-level maps), then token by
    token only to name the first bad one."""
    expected = "an element path like /article[1]/sec[2]"
    try:
        paths = list(map(bytes.decode, tokens))
    except UnicodeDecodeError:
        paths = []
    if paths and all(map(methodcaller("startswith", "/"), paths)) and min(map(len, paths)) > 1:
        return paths
    return column.convert(tokens, _element_path, expected)


def _element_path(token: bytes) -> str:
    path = token.decode()
    if not path.startswith("/") or len(path) < 2:
        raise ValueError(path)
    return path


def _show(token: bytes) -> str:
    return repr(token.decode("utf-8", "replace"))
