"""trec_eval's qrels and runs read line by line as its C readers read them (`get_qrels.c`,
`get_trec_results.c` of 10.0 and 9.0.7), for `focal trec_eval` alone.

Focal's own readers (`formats.trec`) refuse what is not a number and skip every comment and blank
line; trec_eval does neither, and `focal trec_eval` prints its bytes (docs/trec_eval.md,
"Reading, as 10.0 reads"). The columnar readers take a file only when they would read it the same
way (the C reader of plain qrels; pyarrow's for runs, as it skips blank lines as 10.0 does);
everything else comes here:
- numbers as C reads them: a score with `atof` (`1_000` is 1, `0x1p-3` is 0.125, `0.1abc` 0.1,
  `nan`, `inf`), a grade with `atol` (`1.7` is 1, `x` 0) (`formats.c_numbers`);
- qrels (both versions): exactly four fields of any white space; a blank line is malformed. In
  10.0 a line starting with `#` is a comment, but the line after a comment is data whatever it
  starts with, and an indented `#` is data (a topic `#`); in 9.0.7 every line is data;
- runs: at least six fields, the run id the last line's; blank lines skipped; in 10.0 a line
  whose first non-blank byte is `#` is a comment, in 9.0.7 it is data (malformed when short).
Duplicates are kept: trec_eval finds them only in the topics it evaluates (`control`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.arrow import binary_array
from focal.evaluation.formats.c_numbers import c_atof, c_atol
from focal.evaluation.formats.source import collector_paused
from focal.evaluation.formats.trec import (
    QRELS_SHAPE,
    RUN_SHAPE,
    QrelsLines,
    RunLines,
    TrecQrels,
    TrecRun,
    checked_grade,
    text_field,
)


def qrels_reader(version: int) -> QrelsLines:
    """The line reader of qrels as trec_eval `version` (9 or 10) reads them."""

    def read(data: bytes, name: str) -> TrecQrels:
        topics: list[bytes] = []
        docs: list[bytes] = []
        grades: list[int] = []
        comment = False  # the line before was a comment: this one is data (10.0)
        with collector_paused():
            for number, line in enumerate(_lines(data), 1):
                if version == 10 and not comment and line.startswith(b"#"):
                    comment = True
                    continue
                comment = False
                words = line.split()
                if len(words) != 4:
                    message = f"expected 4 fields {QRELS_SHAPE}, found {len(words)} (malformed)"
                    raise FormatError(name, number, message)
                topics.append(words[0])
                docs.append(words[2])
                grade = c_atol(words[3].decode(errors="replace"))
                grades.append(checked_grade(grade, words[3], name, number))
        return TrecQrels(
            name, binary_array(topics), binary_array(docs), np.array(grades, dtype=np.int64)
        )

    return read


def run_reader(version: int) -> RunLines:
    """The line reader of runs as trec_eval `version` (9 or 10) reads them."""

    def read(data: bytes, name: str) -> TrecRun:
        topics: list[bytes] = []
        docs: list[bytes] = []
        scores: list[float] = []
        run_id = ""
        with collector_paused():
            for number, line in enumerate(data.split(b"\n"), 1):
                words = line.split()
                if not words or (version == 10 and words[0].startswith(b"#")):
                    continue
                if len(words) < 6:
                    message = f"expected 6 fields {RUN_SHAPE}, found {len(words)} (malformed)"
                    raise FormatError(name, number, message)
                scores.append(c_atof(words[4].decode(errors="replace")))
                run_id = text_field(words[5], name, number, "run id")
                topics.append(words[0])
                docs.append(words[2])
        return TrecRun(
            run_id or Path(name).stem, name, binary_array(topics), binary_array(docs),
            np.array(scores, dtype=np.float64),
        )  # fmt: skip

    return read


def _lines(data: bytes) -> list[bytes]:
    """The file's lines (trec_eval adds a last newline where there is none)."""
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines
