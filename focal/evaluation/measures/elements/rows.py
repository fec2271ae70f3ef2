"""The printed rows of an element selection as the registry reads them (`ElementRow`: name,
declared measure, cut-off or recall level; `registry.names.element_selection`), and how the
element computations (`topic`, `run_columns`) read them: by their parameters, never by
splitting their names again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from focal.evaluation.measures.elements import precall


@dataclass(frozen=True)
class ElementRow:
    """One printed row as the registry reads it: its name (`P@10`, `inex_eval[0.05]`), the
    declared measure (`P@k`, `inex_eval`) and the cut-off or recall level it is at (None: the
    measure's one value, `inex_eval`, `MAep`)."""

    name: str
    measure: str
    parameter: float | None = None


def asks(rows: Sequence[ElementRow], measure: str) -> bool:
    """Whether some row is of the declared `measure`."""
    return any(row.measure == measure for row in rows)


def cut_offs(rows: Sequence[ElementRow], measure: str) -> list[int]:
    """The cut-offs of the rows of `measure` (`P@k`), in their order."""
    return [int(r.parameter) for r in rows if r.measure == measure and r.parameter is not None]


def put_cut_offs(out: dict[str, float], rows: Sequence[ElementRow], measure: str,
                 values: Mapping[int, float]) -> None:  # fmt: skip
    """Each row of `measure` gets the value at its cut-off."""
    for row in rows:
        if row.measure == measure and row.parameter is not None:
            out[row.name] = values[int(row.parameter)]


def put_curve(out: dict[str, float], rows: Sequence[ElementRow], measure: str,
              curve: Sequence[float]) -> None:  # fmt: skip
    """Each row of `measure` (`inex_eval`, `inex_eval_ng`) gets the curve at its recall level
    (`precall.LEVELS`), or the curve's mean."""
    at = dict(zip(precall.LEVELS, curve, strict=True))
    for row in rows:
        if row.measure == measure:
            out[row.name] = sum(curve) / len(curve) if row.parameter is None else at[row.parameter]
