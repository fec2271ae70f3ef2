"""Which whole-file pass answers: the C part's, else the numpy one.

The C part's pass (`engine/plain_pass.py`) when the install built it, else (none built, or
`FOCAL_KERNEL=numpy`) the numpy pass (`passes.open_numpy_pass`), which gives the same answers
and declines the same calls (and a few more). numpy is imported only when the numpy pass is
taken, so that the C path starts without it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainTopic,
    RowTuple,
    open_plain_pass,
)
from focal.evaluation.measures.trec_eval.kernel import compiled


class Pass(Protocol):
    """A whole-file pass: the qrels topics in trec_eval's order (`PlainStop` where it stops),
    the run's id and the run's topics the qrels lack."""

    run_id: str
    unknown: list[str]

    def __iter__(self) -> Iterator[PlainTopic]: ...


def open_pass(qrels: str, run: str, rows: Sequence[RowTuple],
              options: PlainOptions) -> Pass | None:  # fmt: skip
    """The evaluation of `run` against `qrels` by the C pass, or by the numpy pass when the C
    part is not used; None when the pass declines (`open_plain_pass`, `open_numpy_pass`)."""
    opened: Pass | None = open_plain_pass(qrels, run, rows, options)
    if opened is None and compiled() is None:
        from focal.evaluation.measures.trec_eval.numpy_pass.passes import open_numpy_pass

        opened = open_numpy_pass(qrels, run, rows, options)
    return opened
