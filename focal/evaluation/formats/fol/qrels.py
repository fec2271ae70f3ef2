"""INEX 2009/2010 FOL qrels: `topic Q0 article rel_chars article_chars [bep off:len ...]`.

Accepted as the official INEX 2010 file has them: trailing spaces and CRLF line ends, passages out
of document order (stored sorted), touching passages, a best entry point outside every passage or
at/after the article's end, passages reaching past `article_chars` (offsets come from the
assessors' text, which is not always the evaluator's), blank lines (skipped), any token in the
`Q0` column. Refused with file:line: see `docs/formats.md` and the messages below.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import check_judgements
from focal.evaluation.formats.records import Judgement, Qrels, Span
from focal.evaluation.formats.source import collector_paused, decode_lines, read_bytes

if TYPE_CHECKING:
    from focal.evaluation.formats.fol.qrels_fast import QrelsColumns

QRELS_SHAPE = "`topic Q0 article rel_chars article_chars [bep offset:length ...]`"


def read_qrels(path: str | Path) -> Qrels:
    """Parse a FOL qrels file into topic -> article -> Judgement, keeping the file's order.

    Raises FormatError naming the file, the line and what was expected (an empty file too).
    """
    qrels, columns = read_qrels_columns(path)
    if qrels is not None:
        return qrels
    from focal.evaluation.formats.fol.qrels_fast import judgements_of

    assert columns is not None
    return judgements_of(columns)


def is_fol_qrels(path: str | Path) -> bool:
    """Whether the first non-blank line looks like FOL qrels (`topic Q0 article ...`), not
    element qrels: what `focal eval --task elements` and `focal reliability` ask of a qrels
    file before choosing its reader."""
    for line in read_bytes(path).split(b"\n"):
        fields = line.split()
        if fields:
            return len(fields) >= 5 and fields[1] == b"Q0"
    return False


def read_qrels_columns(path: str | Path) -> tuple[Qrels | None, QrelsColumns | None]:
    """The judgements of `read_qrels`, as columns when the whole-file fast path read them
    (`focal.evaluation.formats.fol.qrels_fast`: their records are built by `judgements_of` when
    asked for), else as records: (None, columns) or (qrels, None)."""
    # numpy, which the fast path uses, is loaded on first use: importing the formats stays light
    from focal.evaluation.formats.fol.qrels_fast import read_plain_qrels_columns

    name = str(path)
    lines = decode_lines(read_bytes(path), name)
    with collector_paused():
        columns = read_plain_qrels_columns(lines)
        if columns is not None:
            return None, columns  # within the bounds: the fast path checked them on its columns
        qrels = _read_lines(lines, name)
    # Bounded as every reader bounds them; an empty file is refused as an empty run is.
    check_judgements((j for articles in qrels.values() for j in articles.values()), name)
    return qrels, None


def _read_lines(lines: list[str], name: str) -> Qrels:
    """Line by line: every check of `parse_qrels_line`, the first bad line named."""
    qrels: Qrels = {}
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        judgement = parse_qrels_line(fields, name, number)
        articles = qrels.setdefault(judgement.topic, {})
        earlier = articles.get(judgement.article)
        if earlier is not None:
            raise FormatError(
                name,
                number,
                f"duplicate judgement of article {judgement.article} for topic "
                f"{judgement.topic} (first on line {earlier.line})",
            )
        articles[judgement.article] = judgement
    return qrels


def parse_qrels_line(fields: list[str], name: str, line: int) -> Judgement:
    """One qrels line, already split on whitespace, as a Judgement."""
    if len(fields) < 5:
        raise FormatError(
            name, line, f"expected at least 5 fields {QRELS_SHAPE}, found {len(fields)}"
        )
    topic, _q0, article = fields[0], fields[1], fields[2]
    rel_chars = _count(fields[3], "rel_chars", name, line)
    article_chars = _count(fields[4], "article_chars", name, line)
    rest = fields[5:]
    if rel_chars == 0:
        if rest:
            raise FormatError(
                name,
                line,
                f"expected nothing after article_chars on a non-relevant line (rel_chars 0), "
                f"found {' '.join(rest)!r}",
            )
        return Judgement(topic, article, 0, article_chars, None, (), line)
    if not rest:
        raise FormatError(
            name,
            line,
            f"rel_chars is {rel_chars} but the line has no best entry point and passages "
            "(expected `bep offset:length ...` after article_chars)",
        )
    if ":" in rest[0]:
        raise FormatError(
            name,
            line,
            f"expected a best entry point (an integer) before the passages, found {rest[0]!r}",
        )
    bep = _count(rest[0], "best entry point", name, line)
    if len(rest) == 1:
        raise FormatError(
            name, line, "expected at least one passage `offset:length` after the best entry point"
        )
    passages = sorted(_passage(token, name, line) for token in rest[1:])
    _check_disjoint(passages, name, line)
    total = sum(end - start for start, end in passages)
    if total != rel_chars:
        raise FormatError(
            name, line, f"rel_chars is {rel_chars} but the passages add up to {total} characters"
        )
    return Judgement(topic, article, rel_chars, article_chars, bep, tuple(passages), line)


def _count(token: str, what: str, name: str, line: int) -> int:
    """A non-negative decimal integer field."""
    digits = token[1:] if token[:1] == "-" else token
    if not (digits.isascii() and digits.isdigit()):
        raise FormatError(name, line, f"expected an integer {what}, found {token!r}")
    value = int(token)
    if value < 0:
        raise FormatError(name, line, f"expected a non-negative {what}, found {value}")
    return value


def _passage(token: str, name: str, line: int) -> Span:
    """`offset:length` as a half-open span."""
    offset, colon, length = token.partition(":")
    if not colon:
        raise FormatError(name, line, f"expected a passage `offset:length`, found {token!r}")
    start = _count(offset, f"passage offset in {token!r}", name, line)
    size = _count(length, f"passage length in {token!r}", name, line)
    if size == 0:
        raise FormatError(name, line, f"expected a positive passage length, found {token!r}")
    return (start, start + size)


def _check_disjoint(passages: list[Span], name: str, line: int) -> None:
    """Sorted passages must not overlap; touching (end == next start) is fine."""
    for (start, end), (next_start, next_end) in pairwise(passages):
        if next_start < end:
            raise FormatError(
                name,
                line,
                f"passages {start}:{end - start} and {next_start}:{next_end - next_start} overlap",
            )


def write_qrels(qrels: Qrels, stream: TextIO) -> None:
    """Write `qrels` as canonical FOL qrels: passages sorted, single spaces, `\\n` line ends.

    Raises ValueError for a relevant judgement without a best entry point (the format needs one).
    """
    for topic, articles in qrels.items():
        for article, judgement in articles.items():
            head = f"{topic} Q0 {article} {judgement.rel_chars} {judgement.article_chars}"
            if not judgement.passages:
                stream.write(head + "\n")
                continue
            if judgement.bep is None:
                raise ValueError(
                    f"topic {topic}, article {article}: "
                    "a relevant judgement needs a best entry point"
                )
            spans = " ".join(f"{start}:{end - start}" for start, end in sorted(judgement.passages))
            stream.write(f"{head} {judgement.bep} {spans}\n")
