"""TREC qrels and runs, as trec_eval reads them, for article evaluation.

    topic iter doc grade                     TREC qrels (4 fields; `#` starts a comment line)
    topic Q0 doc rank score run              TREC run (6 fields)

A qrels grade is an integer; a negative grade means "in the pool but not judged" (trec_eval's
convention, used by infAP), 0 and the grades below the relevance level (`-l`) are judged
non-relevant. A document may be judged once per topic. A run's `Q0` and `rank` columns are read
but never used: trec_eval ranks a topic's documents by score descending, then by document id
descending, whatever the rank column says (see docs/trec_eval.md). A document may appear once per
topic: trec_eval stops with "duplicate docs" otherwise, and so does Focal, naming both lines.

`read_trec_run` splits the whole file at C speed and checks the layout with numpy (every line
exactly six fields separated by single spaces); any other layout (tabs, runs of spaces) goes
through a line-by-line reader that names the first bad line. Both return the same `TrecRun`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from evaluation.errors import FormatError
from evaluation.formats._source import collector_paused, read_bytes

RUN_SHAPE = "`topic Q0 doc rank score run` (a TREC run)"
QRELS_SHAPE = "`topic iter doc grade` (TREC qrels)"


@dataclass(frozen=True)
class TrecTopic:
    """One topic of a run: its documents, their scores and the lines they came from."""

    docs: list[bytes]
    scores: npt.NDArray[np.float64]
    lines: npt.NDArray[np.int64]


@dataclass(frozen=True)
class TrecRun:
    """A run as trec_eval sees it: per topic, documents and scores (file order)."""

    run_id: str
    file: str
    topics: dict[str, TrecTopic]
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TrecQrels:
    """Judgements per topic: document id -> integer grade (negative: pooled, not judged)."""

    file: str
    topics: dict[str, dict[bytes, int]]


def first_fields(path: str | Path) -> int:
    """The number of fields of the first line that is neither blank nor a `#` comment (0 if
    none): 4 means TREC qrels, 6 a TREC run; FOL qrels have 5 or more, FOL runs 8."""
    data = read_bytes(path)
    for line in data.split(b"\n", 200):
        words = line.split()
        if words and not words[0].startswith(b"#"):
            return len(words)
    return 0


def read_trec_qrels(path: str | Path) -> TrecQrels:
    """Parse TREC qrels. Raises FormatError (file:line) for a line that is not four fields, a
    grade that is not an integer, or a document judged twice in a topic."""
    name = str(path)
    topics: dict[str, dict[bytes, int]] = {}
    seen_at: dict[tuple[str, bytes], int] = {}
    with collector_paused():
        for number, line in enumerate(read_bytes(path).split(b"\n"), 1):
            words = line.split()
            if not words or words[0].startswith(b"#"):
                continue
            if len(words) != 4:
                raise FormatError(
                    name, number, f"expected 4 fields {QRELS_SHAPE}, found {len(words)}"
                )
            try:
                grade = int(words[3])
            except ValueError:
                raise FormatError(
                    name, number, f"expected an integer grade, found {_show(words[3])}"
                ) from None
            topic = _text(words[0], name, number, "topic")
            judged = topics.setdefault(topic, {})
            doc = words[2]
            if doc in judged:
                first = seen_at[(topic, doc)]
                raise FormatError(
                    name, number, f"document {_show(doc)} of topic {topic} is judged twice "
                    f"(also line {first}); trec_eval refuses duplicate judgements",
                )  # fmt: skip
            judged[doc] = grade
            seen_at[(topic, doc)] = number
    return TrecQrels(name, topics)


def read_trec_run(path: str | Path) -> TrecRun:
    """Parse a TREC run. Raises FormatError (file:line) for a line that is not six fields, a
    score that is not a number, or a document twice in one topic (trec_eval refuses it)."""
    name = str(path)
    data = read_bytes(path)
    with collector_paused():
        columns = _canonical_columns(data) or _general_columns(data, name)
        topics, docs, scores, run_ids, numbers = columns
        try:
            values = np.array(scores).astype(np.float64) if scores else np.zeros(0)
        except ValueError:
            bad = next(i for i, s in enumerate(scores) if not _is_number(s))
            raise FormatError(
                name, int(numbers[bad]), f"expected a numeric score, found {_show(scores[bad])}"
            ) from None
        run_id = _text(run_ids[0], name, int(numbers[0]), "run id") if run_ids else Path(name).stem
        return TrecRun(run_id, name, _group(topics, docs, values, numbers, name))


def run_from_pairs(
    run_id: str, file: str, topics: dict[str, dict[bytes, float]], warnings: Sequence[str] = ()
) -> TrecRun:
    """A TrecRun from per-topic best scores (a passage or element run reduced to articles)."""
    grouped = {
        topic: TrecTopic(
            list(scored),
            np.fromiter(scored.values(), np.float64, len(scored)),
            np.zeros(len(scored), np.int64),
        )
        for topic, scored in topics.items()
    }
    return TrecRun(run_id, file, grouped, list(warnings))


_Columns = tuple[list[bytes], list[bytes], list[bytes], list[bytes], npt.NDArray[np.int64]]


def _canonical_columns(data: bytes) -> _Columns | None:
    """Columns of a file whose every line is six fields separated by single spaces, else None."""
    if not data or b"\t" in data or b"\r" in data or b"  " in data or b"\n\n" in data:
        return None
    text = data if data.endswith(b"\n") else data + b"\n"
    if text.startswith((b" ", b"\n")) or b" \n" in text or b"\n " in text:
        return None
    buffer = np.frombuffer(text, np.uint8)
    newlines = np.flatnonzero(buffer == 10)
    spaces = np.flatnonzero(buffer == 32)
    per_line = np.diff(np.searchsorted(spaces, newlines), prepend=0)
    if per_line.size == 0 or bool((per_line != 5).any()):
        return None
    tokens = text.split()
    numbers = np.arange(1, len(newlines) + 1, dtype=np.int64)
    return tokens[0::6], tokens[2::6], tokens[4::6], tokens[5::6], numbers


def _general_columns(data: bytes, name: str) -> _Columns:
    rows: list[list[bytes]] = []
    numbers: list[int] = []
    for number, line in enumerate(data.split(b"\n"), 1):
        words = line.split()
        if not words:
            continue
        if len(words) != 6:
            raise FormatError(name, number, f"expected 6 fields {RUN_SHAPE}, found {len(words)}")
        rows.append(words)
        numbers.append(number)
    columns = list(zip(*rows, strict=True)) if rows else [()] * 6
    return (
        list(columns[0]), list(columns[2]), list(columns[4]), list(columns[5]),
        np.array(numbers, dtype=np.int64),
    )  # fmt: skip


def _group(
    topics: list[bytes],
    docs: list[bytes],
    scores: npt.NDArray[np.float64],
    numbers: npt.NDArray[np.int64],
    name: str,
) -> dict[str, TrecTopic]:
    """Per-topic blocks (topics in first-seen order), refusing a document twice in a topic."""
    if not topics:
        return {}
    column = np.array(topics)
    starts = np.flatnonzero(np.concatenate(([True], column[1:] != column[:-1])))
    blocks = [topics[i] for i in starts.tolist()]
    if len(set(blocks)) != len(blocks):  # a topic in several blocks: gather its lines
        order = np.argsort(np.unique(column, return_inverse=True)[1], kind="stable")
        first_seen = {t: i for i, t in reversed(list(enumerate(topics)))}
        order = order[np.argsort(np.array([first_seen[topics[i]] for i in order]), kind="stable")]
        topics = [topics[i] for i in order.tolist()]
        docs = [docs[i] for i in order.tolist()]
        scores, numbers = scores[order], numbers[order]
        column = column[order]
        starts = np.flatnonzero(np.concatenate(([True], column[1:] != column[:-1])))
    ends = [*starts[1:].tolist(), len(topics)]
    grouped: dict[str, TrecTopic] = {}
    for start, end in zip(starts.tolist(), ends, strict=True):
        topic = _text(topics[start], name, int(numbers[start]), "topic")
        block = docs[start:end]
        if len(set(block)) != len(block):
            _refuse_duplicate(topic, block, numbers[start:end], name)
        grouped[topic] = TrecTopic(block, scores[start:end], numbers[start:end])
    return grouped


def _refuse_duplicate(
    topic: str, docs: list[bytes], numbers: npt.NDArray[np.int64], name: str
) -> None:
    first: dict[bytes, int] = {}
    for doc, number in zip(docs, numbers.tolist(), strict=True):
        if doc in first:
            raise FormatError(
                name, number, f"document {_show(doc)} appears twice in topic {topic} (also line "
                f"{first[doc]}); trec_eval refuses duplicate documents in a topic",
            )  # fmt: skip
        first[doc] = number


def _is_number(token: bytes) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _text(token: bytes, name: str, line: int, what: str) -> str:
    try:
        return token.decode()
    except UnicodeDecodeError:
        raise FormatError(name, line, f"expected a UTF-8 {what}, found {token!r}") from None


def _show(token: bytes) -> str:
    return repr(token.decode(errors="replace"))
