"""One topic's ranked article ids kept as an array: a sequence of strings made on demand.

A top-n pool reads a few dozen rounds of each run's 1500 results, so a list of 1500 string
references per run and topic (62 million at INEX 2006 scale, 333 runs x 125 topics) is mostly
never looked at. `ArticleColumn` keeps the topic's slice of the run's integer column (numeric
article ids, as in the INEX Wikipedia collections) or codes into the run's distinct ids, and makes
strings only for the results a strategy reads: iteration goes in chunks, slicing makes a list of
just the slice.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import overload

import numpy as np
import numpy.typing as npt

_CHUNK = 32  # results made into strings at a time when iterating (a top-n pool reads ~30)


class ArticleColumn(Sequence[str]):
    """Article ids `str(values[i])`, or `names[values[i]]` when `names` is given."""

    __slots__ = ("names", "values")

    def __init__(
        self,
        values: npt.NDArray[np.int64] | npt.NDArray[np.int32],
        names: Sequence[str] | None = None,
    ) -> None:
        self.values = values
        self.names = names

    def __len__(self) -> int:
        return len(self.values)

    def _strings(self, values: npt.NDArray[np.int64] | npt.NDArray[np.int32]) -> list[str]:
        if self.names is None:
            return list(map(str, values.tolist()))
        return list(map(self.names.__getitem__, values.tolist()))

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return self._strings(self.values[index])
        value = int(self.values[index])
        return str(value) if self.names is None else self.names[value]

    def __iter__(self) -> Iterator[str]:
        values, size = self.values, len(self.values)
        return chain.from_iterable(
            self._strings(values[start : start + _CHUNK]) for start in range(0, size, _CHUNK)
        )

    def __reversed__(self) -> Iterator[str]:
        return iter(self._strings(self.values[::-1]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-like sequence, as a list

    def __repr__(self) -> str:
        return f"ArticleColumn({self[:5]!r}{'...' if len(self) > 5 else ''}, {len(self)} ids)"
