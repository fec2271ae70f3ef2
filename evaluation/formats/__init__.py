"""INEX file formats, parsed into the typed records of `records` with file:line errors.

Public API: `read_qrels`, `write_qrels`, `read_run`, `write_run`, `read_topics`,
`parse_submission`, `to_fol`, the records (`Judgement`, `Qrels`, `Result`, `Run`, `Topic`) and
`FormatError`/`FormatWarning`. See docs/formats.md for what is accepted and what is refused.
"""

from evaluation.formats.errors import FormatError, FormatWarning
from evaluation.formats.qrels import read_qrels, write_qrels
from evaluation.formats.records import Judgement, Qrels, Result, Run, RunKind, Span, Topic
from evaluation.formats.runs import read_run, write_run

__all__ = [
    "FormatError",
    "FormatWarning",
    "Judgement",
    "Qrels",
    "Result",
    "Run",
    "RunKind",
    "Span",
    "Topic",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
]
