"""Bounds every reader checks at parse time, the same whatever stores the records afterwards.

Ids must fit the assessor's database columns (topic ids 50 characters, article and run ids
200) and be representable in the whitespace-separated formats (no whitespace, no control
character); counts (ranks, offsets, lengths, article lengths, best entry points) fit a signed
32-bit column; a score is a number (NaN orders nothing; infinities do and are kept).
Checking here, at the edge, means SQLite (which would store a 300-character id) and
PostgreSQL (which would refuse it mid-import) see the same files refused, with the file and
line named, and that an absurd field (a 1 MB id) is refused before any per-field matrix is
built from it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from operator import attrgetter

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Judgement, Result, Run

TOPIC_ID_LENGTH = 50
ARTICLE_ID_LENGTH = 200
RUN_ID_LENGTH = 200
MAX_FIELD_BYTES = 4 * ARTICLE_ID_LENGTH  # no field of a text run or qrels may be longer
MAX_COUNT = 2**31 - 1
_UNREPRESENTABLE = re.compile(r"[\s\x00-\x1f\x7f]")


def _a(what: str) -> str:
    return ("an " if what[0] in "aeiou" else "a ") + what


def id_problem(value: str, what: str, limit: int) -> str | None:
    """Why `value` cannot be an id (None when it can)."""
    if not value:
        return f"expected {_a(what)}, found an empty one"
    if len(value) > limit:
        return f"expected {_a(what)} of at most {limit} characters, found {len(value)}"
    if _UNREPRESENTABLE.search(value):
        return f"expected {_a(what)} without spaces or control characters, found {value[:60]!r}"
    return None


def check_id(value: str, what: str, limit: int, name: str, line: int | None) -> str:
    """`value` if it can be an id, else a FormatError naming file and line."""
    problem = id_problem(value, what, limit)
    if problem is not None:
        raise FormatError(name, line, problem)
    return value


def check_count(value: int | None, what: str, name: str, line: int | None) -> None:
    """A count that fits a 32-bit column (None passes: absent)."""
    if value is not None and not 0 <= value <= MAX_COUNT:
        raise FormatError(
            name, line, f"expected {_a(what)} between 0 and {MAX_COUNT}, found {value}"
        )


def check_run(run: Run) -> Run:
    """Every result of `run` within the bounds (the first one out of them named): checked on
    whole columns, and result by result only when a column fails, to name the result."""
    check_id(run.run_id, "run id", RUN_ID_LENGTH, run.file, _first_line(run))
    if _run_within(run):
        return run
    for topic, results in run.topics.items():
        for result in results:
            _check_result(topic, result, run.file)
    return run


def _run_within(run: Run) -> bool:
    """Whether every result passes `_check_result`, checked on whole columns."""
    results = [result for results in run.topics.values() for result in results]
    if not results:
        return True
    if not ids_within(list(run.topics), TOPIC_ID_LENGTH):
        return False
    if not ids_within(list(map(attrgetter("article"), results)), ARTICLE_ID_LENGTH):
        return False
    ranks: list[int] = list(map(attrgetter("rank"), results))
    if max(ranks) > MAX_COUNT or min(ranks) < -MAX_COUNT:
        return False
    scores: list[float] = list(map(attrgetter("score"), results))
    if any(map(math.isnan, scores)):
        return False
    for field in ("start", "length"):
        counts = [c for c in map(attrgetter(field), results) if c is not None]
        if counts and not (min(counts) >= 0 and max(counts) <= MAX_COUNT):
            return False
    return True


def _first_line(run: Run) -> int | None:
    for results in run.topics.values():
        return results[0].line if results else None
    return None


def _check_result(topic: str, result: Result, name: str) -> None:
    line = result.line
    check_id(topic, "topic id", TOPIC_ID_LENGTH, name, line)
    check_id(result.article, "article id", ARTICLE_ID_LENGTH, name, line)
    if abs(result.rank) > MAX_COUNT:
        raise FormatError(
            name, line, f"expected a rank of at most {MAX_COUNT}, found {result.rank}"
        )
    if math.isnan(result.score):
        raise FormatError(name, line, "expected a number as score, found NaN (not a number)")
    check_count(result.start, "offset", name, line)
    check_count(result.length, "length", name, line)


def check_judgements(judgements: Iterable[Judgement], name: str) -> int:
    """Every judgement within the bounds; the number of judgements (0 is refused)."""
    judgements = list(judgements)
    if judgements and _all_within(judgements):
        return len(judgements)
    count = 0  # one by one, to name the first judgement out of bounds
    for judgement in judgements:
        line = judgement.line
        check_id(judgement.topic, "topic id", TOPIC_ID_LENGTH, name, line)
        check_id(judgement.article, "article id", ARTICLE_ID_LENGTH, name, line)
        check_count(judgement.article_chars, "article length", name, line)
        check_count(judgement.bep, "best entry point", name, line)
        for _start, end in judgement.passages:
            check_count(end, "passage end", name, line)
        count += 1
    if count == 0:
        raise FormatError(name, None, "expected at least one judgement, found none")
    return count


def ids_within(ids: list[str], limit: int) -> bool:
    """Whether each of `ids` (at least one) passes `id_problem`, checked on the whole list."""
    lengths = list(map(len, ids))
    if not (min(lengths) > 0 and max(lengths) <= limit):
        return False
    joined = "".join(ids)
    # Printable ASCII without a space holds no whitespace and no control character.
    if joined.isascii() and joined.isprintable() and " " not in joined:
        return True
    return not _UNREPRESENTABLE.search(joined)


def _all_within(judgements: list[Judgement]) -> bool:
    """Whether every judgement is within the bounds `check_judgements` checks one by one (the
    same checks on whole columns: lengths, characters of the ids joined, extreme counts)."""
    if not ids_within(list(map(attrgetter("topic"), judgements)), TOPIC_ID_LENGTH):
        return False
    if not ids_within(list(map(attrgetter("article"), judgements)), ARTICLE_ID_LENGTH):
        return False
    counts: list[int] = list(map(attrgetter("article_chars"), judgements))
    counts += [bep for bep in map(attrgetter("bep"), judgements) if bep is not None]
    counts += [end for passages in map(attrgetter("passages"), judgements) for _, end in passages]
    return min(counts) >= 0 and max(counts) <= MAX_COUNT
