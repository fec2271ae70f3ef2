"""INEX file formats, parsed into the typed records of `records` with file:line errors.

Public API: `read_qrels`, `write_qrels`, `read_run`, `write_run`, `read_run_columns` (FOL runs as
per-topic numpy columns: `RunColumns`, `TopicColumns`), `read_topics`, `parse_submission`,
`to_fol`, the records (`Judgement`, `Qrels`, `Result`, `Run`, `Topic`) and
`FormatError`/`FormatWarning`. See docs/formats.md for what is accepted and what is refused.
Every file is read once through `formats.source` (`read_bytes`, `decode_lines`,
`check_regular_file`), the public way for the rest of Focal too; its lines are split only here.
"""

import importlib
from typing import TYPE_CHECKING

from focal.evaluation.errors import FormatError, FormatWarning

if TYPE_CHECKING:
    from focal.evaluation.formats.convert import to_fol
    from focal.evaluation.formats.fol.columns import RunColumns, TopicColumns, read_run_columns
    from focal.evaluation.formats.fol.qrels import read_qrels, write_qrels
    from focal.evaluation.formats.fol.runs import read_run, write_run
    from focal.evaluation.formats.inex.submission import parse_submission
    from focal.evaluation.formats.inex.topics import read_topics
    from focal.evaluation.formats.records import (
        Judgement,
        Qrels,
        Result,
        Run,
        RunKind,
        Span,
        Topic,
    )

# Every reader is loaded on first use: `focal trec_eval` imports `formats.trec` alone and pays
# for none of the FOL and INEX readers (docs/performance.md, "Per call"). The XML readers import
# the XML parser, which itself imports `focal.evaluation.errors`: loading them on first use also
# keeps `import focal.evaluation.text.xmlsafe` free of an import cycle.
_RECORDS = "focal.evaluation.formats.records"
_LAZY = {
    "read_qrels": "focal.evaluation.formats.fol.qrels",
    "write_qrels": "focal.evaluation.formats.fol.qrels",
    "read_run": "focal.evaluation.formats.fol.runs",
    "write_run": "focal.evaluation.formats.fol.runs",
    **{
        name: _RECORDS
        for name in ("Judgement", "Qrels", "Result", "Run", "RunKind", "Span", "Topic")
    },
    "read_run_columns": "focal.evaluation.formats.fol.columns",
    "RunColumns": "focal.evaluation.formats.fol.columns",
    "TopicColumns": "focal.evaluation.formats.fol.columns",
    "read_topics": "focal.evaluation.formats.inex.topics",
    "parse_submission": "focal.evaluation.formats.inex.submission",
    "to_fol": "focal.evaluation.formats.convert",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "FormatError",
    "FormatWarning",
    "Judgement",
    "Qrels",
    "Result",
    "Run",
    "RunColumns",
    "RunKind",
    "Span",
    "Topic",
    "TopicColumns",
    "parse_submission",
    "read_qrels",
    "read_run",
    "read_run_columns",
    "read_topics",
    "to_fol",
    "write_qrels",
    "write_run",
]
