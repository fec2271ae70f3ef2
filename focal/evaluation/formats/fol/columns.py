"""FOL runs as per-topic columns (numpy arrays), without a `Result` per line.

`read_run_columns(path)` accepts exactly what `read_run` accepts and refuses it with the same
`file:line` messages, because it only takes a fast path when nothing can go wrong: a FOL run
written canonically (ASCII, single spaces, eight fields on every line, `\\n` or `\\r\\n` line
ends, contiguous topic blocks, no NUL or DEL byte) whose ranks, offsets and lengths are plain
digits and whose scores are plain decimals (`-12.5`; exponents, `nan`… are converted with
`float` on that column alone). Such a file is tokenised as a whole with numpy: separators are
found in the bytes, each column becomes a small byte matrix, checked and converted without
Python objects per line.
Any other file (an `X` offset, a tab, a split topic block, a non-UTF-8 id, an XML submission, an
error) goes through `read_run`, and its `Run` is turned into columns: its errors and warnings are
`read_run`'s by construction.

Element and article runs have no offsets to put in columns: they come back as the `Run`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.bounds import (
    ARTICLE_ID_LENGTH,
    MAX_COUNT,
    RUN_ID_LENGTH,
    TOPIC_ID_LENGTH,
    check_run,
)
from focal.evaluation.formats.fol.arrow_table import FolTable, read_fol_table
from focal.evaluation.formats.fol.runs import parse_run_data
from focal.evaluation.formats.fol.tokens import FOL_FIELDS, MAX_DIGITS, Floats, Ints, Tokens
from focal.evaluation.formats.records import Result, Run, RunKind
from focal.evaluation.formats.source import read_bytes

Bools = npt.NDArray[np.bool_]

_SPACE, _NEWLINE = 32, 10
_OTHER_SPACE = re.compile(r"[^\S \n]")


@dataclass(frozen=True)
class TopicColumns:
    """One topic's results in file order (the order is the rank; ranks as written are left out).

    A missing result (`X` or `-1` offset) has `missing` set and `start` 0.
    """

    unique: list[str]  # distinct articles in first-seen order
    codes: Ints  # each result's article, as an index into `unique`
    scores: Floats
    starts: Ints
    lengths: Ints
    missing: Bools
    lines: Ints  # 1-based line numbers in the file

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def articles(self) -> list[str]:
        """Each result's article id."""
        unique = self.unique
        return [unique[code] for code in self.codes.tolist()]


@dataclass
class RunColumns:
    """A FOL run as columns: `Run` without the records."""

    run_id: str
    file: str
    kind: RunKind = "fol"
    topics: dict[str, TopicColumns] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def read_run_columns(path: str | Path) -> RunColumns | Run:
    """Read a run: a FOL run as `RunColumns`, an element or article run as its `Run`.

    Raises FormatError naming the file, the line and what was expected, as `read_run` does.
    """
    name = str(path)
    data = read_bytes(path)
    if data.lstrip()[:1] != b"<":
        table = read_fol_table(data, passages=True)
        if table is not None:
            return columns_of_table(table, name)
        fast = _canonical_fol(data, name)
        if fast is not None:
            return fast
    run = check_run(parse_run_data(data, name))
    return columns_of_run(run) if run.kind == "fol" else run


def columns_of_run(run: Run) -> RunColumns:
    """The columns of a parsed FOL run (for runs that did not take the fast path)."""
    columns = RunColumns(run.run_id, run.file, run.kind, {}, list(run.warnings))
    for topic, results in run.topics.items():
        columns.topics[topic] = topic_columns(results)
    return columns


def topic_columns(results: list[Result]) -> TopicColumns:
    """One topic's columns from its FOL results."""
    n = len(results)
    articles = [result.article for result in results]
    position = {article: code for code, article in enumerate(dict.fromkeys(articles))}
    return TopicColumns(
        unique=list(position),
        codes=np.fromiter(map(position.__getitem__, articles), np.int64, n),
        scores=np.fromiter((result.score for result in results), np.float64, n),
        starts=np.fromiter((result.start or 0 for result in results), np.int64, n),
        lengths=np.fromiter((result.length or 0 for result in results), np.int64, n),
        missing=np.fromiter((result.missing for result in results), np.bool_, n),
        lines=np.fromiter((result.line for result in results), np.int64, n),
    )


def columns_of_table(table: FolTable, name: str) -> RunColumns:
    """The columns of a run read by pyarrow (`focal.evaluation.formats.fol.arrow_table`): one line
    per result, no missing passage, no warning."""
    passages = table.passages
    assert passages is not None  # read with passages=True
    run, size = RunColumns(table.run_id, name), len(table)
    numbers = np.arange(1, size + 1, dtype=np.int64)
    bounds = [*table.firsts.tolist(), size]
    for topic, begin, end in zip(table.topics, bounds[:-1], bounds[1:], strict=True):
        ids, firsts, codes = np.unique(
            table.articles[begin:end], return_index=True, return_inverse=True
        )
        seen = np.argsort(firsts)  # the distinct ids in first-seen order
        code_of = np.empty(len(seen), np.int64)
        code_of[seen] = np.arange(len(seen))
        listed = ids[seen].tolist()
        run.topics[topic] = TopicColumns(
            unique=list(
                map(str, listed) if table.names is None else map(table.names.__getitem__, listed)
            ),
            codes=code_of[codes.ravel()],
            scores=passages.scores[begin:end],
            starts=passages.starts[begin:end],
            lengths=passages.lengths[begin:end],
            missing=np.zeros(end - begin, np.bool_),
            lines=numbers[begin:end],
        )
    return run


def _canonical_fol(data: bytes, name: str) -> RunColumns | None:
    """The columns of a canonical FOL run, or None when `read_run` must decide (see above)."""
    body = data.replace(b"\r\n", b"\n") if b"\r" in data else data
    if not body.endswith(b"\n"):
        body += b"\n"
    if any(other in body for other in (b"\t", b"\r", b"\x0b", b"\x0c", b"\x00", b"\x7f")):
        return None
    if not body.isascii() and _unicode_space(body):
        return None  # `limits` refuses an id holding a Unicode space (U+00A0...)
    buffer = np.frombuffer(body, np.uint8)
    separators = np.flatnonzero((buffer == _SPACE) | (buffer == _NEWLINE))
    lines = body.count(b"\n")
    if lines == 0 or len(separators) != FOL_FIELDS * lines:
        return None
    if (buffer < _SPACE).sum() != lines:
        return None  # a control character other than the line ends: `read_run` names it
    tokens = Tokens(body, buffer, separators)
    if (buffer[tokens.end[:, -1]] != _NEWLINE).any() or (tokens.end <= tokens.begin).any():
        return None  # another field count somewhere, a blank line, a doubled or end space
    if not _within_limits(tokens):
        return None
    run_ids, _ = tokens.matrix(5, 0)
    if (run_ids != run_ids[0]).any():
        return None
    blocks = _topic_blocks(tokens)
    scores = tokens.decimals(4)
    starts, missing = _offsets(tokens)
    lengths = tokens.digits(7)
    if blocks is None or scores is None or starts is None or lengths is None:
        return None
    if np.isnan(scores).any() or max(starts.max(), lengths.max()) > MAX_COUNT:
        return None  # out of the bounds of `limits`: `read_run` names the line
    ranks = tokens.digits(3)
    if ranks is None or ranks.max() > MAX_COUNT:
        return None  # ranks: only checked, and bounded as `limits` bounds them
    articles = _articles(tokens, blocks[1])
    try:
        run_id = tokens.token(0, 5).decode()
    except UnicodeDecodeError:
        return None
    if articles is None:
        return None
    run = RunColumns(run_id, name)
    numbers = np.arange(1, lines + 1, dtype=np.int64)
    bounds = [*blocks[1].tolist(), lines]
    unique, codes = articles
    for topic, begin, end, names in zip(blocks[0], bounds[:-1], bounds[1:], unique, strict=True):
        run.topics[topic] = TopicColumns(
            unique=names,
            codes=codes[begin:end],
            scores=scores[begin:end],
            starts=starts[begin:end],
            lengths=lengths[begin:end],
            missing=missing[begin:end],
            lines=numbers[begin:end],
        )
    return run


def _unicode_space(body: bytes) -> bool:
    """Whether UTF-8 `body` has whitespace other than ASCII spaces and newlines (True when it is
    not UTF-8: `read_run` names the line)."""
    try:
        return _OTHER_SPACE.search(body.decode()) is not None
    except UnicodeDecodeError:
        return True


def _within_limits(tokens: Tokens) -> bool:
    """Every field short enough for its kind (in bytes, which bound the characters).

    Checked before any byte matrix is built: a matrix is as wide as its longest field, so one
    absurd field (a 1 MB id) would cost a megabyte per line.
    """
    widths = (tokens.end - tokens.begin).max(axis=0)
    bounds = (TOPIC_ID_LENGTH, 20, ARTICLE_ID_LENGTH, 20, 40, RUN_ID_LENGTH, 20, 20)
    return bool((widths <= np.array(bounds)).all())


def _topic_blocks(tokens: Tokens) -> tuple[list[str], Ints] | None:
    """The topic of each block of lines and its first line; None if a topic comes back."""
    matrix, _ = tokens.matrix(0, 0)
    firsts = np.flatnonzero(np.r_[True, (matrix[1:] != matrix[:-1]).any(axis=1)])
    try:
        topics = [tokens.token(line, 0).decode() for line in firsts.tolist()]
    except UnicodeDecodeError:
        return None
    if len(set(topics)) != len(topics):
        return None  # read_run groups them and warns
    return topics, firsts


def _offsets(tokens: Tokens) -> tuple[Ints | None, Bools]:
    """FOL offsets, with `X`, `x` and `-1` marking missing results (start 0)."""
    starts = tokens.digits(6)
    if starts is not None:
        return starts, np.zeros(len(starts), np.bool_)
    values, missing = [], []
    for token in tokens.tokens(6):
        absent = token in (b"X", b"x", b"-1")
        if len(token) > MAX_DIGITS or not (absent or token.isdigit()):
            return None, np.zeros(0, np.bool_)
        values.append(0 if absent else int(token))
        missing.append(absent)
    return np.array(values, np.int64), np.array(missing, np.bool_)


def _articles(tokens: Tokens, firsts: Ints) -> tuple[list[list[str]], Ints] | None:
    """Per topic block, its distinct articles in first-seen order; each line's code in it."""
    matrix, _ = tokens.matrix(2, 0)  # no NUL in the file: zero padding keeps ids distinct
    lines = len(matrix)
    if matrix.shape[1] <= 8:
        padded = np.zeros((lines, 8), np.uint8)
        padded[:, 8 - matrix.shape[1] :] = matrix
        keys = padded.view(np.uint64).ravel()
    else:
        keys = np.ascontiguousarray(matrix).view(f"S{matrix.shape[1]}").ravel()
    block = np.zeros(lines, np.int64)
    block[firsts[1:]] = 1
    block = np.cumsum(block)
    # by block, then key, then line; a stable sort of 16-bit block numbers is a radix sort
    small = block.astype(np.uint16) if len(firsts) <= 1 << 16 else block
    order = np.argsort(keys, kind="stable")
    order = order[np.argsort(small[order], kind="stable")]
    ordered_keys, ordered_blocks = keys[order], block[order]
    new = np.r_[True, (ordered_keys[1:] != ordered_keys[:-1]) | (np.diff(ordered_blocks) != 0)]
    group = np.cumsum(new) - 1
    first_line = order[new]  # the first line of each (block, article)
    by_first = np.argsort(first_line, kind="stable")  # groups in file order: block, first seen
    groups_per_block = np.bincount(block[first_line], minlength=len(firsts))
    before = np.r_[0, np.cumsum(groups_per_block)[:-1]]
    code_of_group = np.empty(len(first_line), np.int64)
    code_of_group[by_first] = np.arange(len(first_line)) - np.repeat(before, groups_per_block)
    codes = np.empty(lines, np.int64)
    codes[order] = code_of_group[group]
    names = _decode_rows(matrix[first_line[by_first]])
    if names is None:
        return None
    bounds = np.r_[0, np.cumsum(groups_per_block)].tolist()
    return [names[a:b] for a, b in pairwise(bounds)], codes


def _decode_rows(matrix: npt.NDArray[np.uint8]) -> list[str] | None:
    """The zero-padded byte rows of `matrix` as strings (None if one is not UTF-8)."""
    rows = np.empty((len(matrix), matrix.shape[1] + 1), np.uint8)
    rows[:, :-1] = matrix
    rows[:, -1] = _NEWLINE
    try:
        return rows.tobytes().replace(b"\0", b"").decode().split("\n")[:-1]
    except UnicodeDecodeError:
        return None
