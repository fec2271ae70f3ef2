"""The agreement overview: every double-judged topic's row and the `all` row (spec section 7;
no Flask).

Each topic is compared between its first two assessors by name, as the topic pages do, with
`assessors.topic_agreement`: the numbers `focal agreement --assessors` prints. A topic's row
and its continuum (what the `all` row's α_U pools) are kept until the topic's judgements change
(`topic_cache`, in the process and in the database: `CODEC`): at INEX 2010 size (52 topics,
78,062 judgements) computing every row takes a second, reading the stamps and pooling the kept
continua milliseconds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy.orm import Session

from focal.assessor.campaign.results.report.data import judged_articles
from focal.assessor.campaign.results.topic_cache import Codec, Pair, compared_pairs, per_topic
from focal.evaluation.formats import records
from focal.evaluation.statistics.agreement.assessors import (
    TopicAgreement,
    summary,
    topic_agreement,
    topic_continuum,
)
from focal.evaluation.statistics.agreement.unitizing import Continuum, continuum_alpha, joined
from focal.pooling.records import natural_key


@dataclass(frozen=True, slots=True)
class Overview:
    """Every double-judged topic's row, compared between its first two assessors (by name)."""

    rows: list[TopicAgreement]
    total: TopicAgreement
    pairs: dict[str, tuple[str, str]]  # topic -> the two assessors compared
    waiting: list[str]  # double-assigned topics that the two have not both judged yet


def overview(session: Session) -> Overview:
    """The agreement of every double-judged topic and the `all` row over them (each topic's
    row kept until its judgements change: `topic_cache`)."""
    pairs = compared_pairs(session)
    kept = per_topic(session, CODEC, pairs, lambda stale: _topic_rows(session, stale))
    rows = sorted(
        (found.row for found in kept.values() if found.row is not None),
        key=lambda row: natural_key(row.topic),
    )
    shown = {row.topic for row in rows}
    waiting = [topic for topic in sorted(pairs, key=natural_key) if topic not in shown]
    pooled = continuum_alpha(joined(found.passages for found in kept.values()))
    total = summary(rows, None if pooled is None else pooled.alpha)
    names = {topic: pairs[topic].names for topic in sorted(pairs, key=natural_key)}
    return Overview(rows, total, names, waiting)


@dataclass(frozen=True, slots=True)
class _TopicRow:
    """One topic's overview row and continuum (None until both assessors judged in it)."""

    row: TopicAgreement | None
    passages: Continuum


_NOTHING = Continuum(None, 0, 0, (), ())


def _encoded(found: _TopicRow) -> dict[str, Any]:
    return {
        "row": None if found.row is None else asdict(found.row),
        "passages": {
            "observers": found.passages.observers,
            "length": found.passages.length,
            "observed": found.passages.observed,
            "units": found.passages.units,
            "gaps": found.passages.gaps,
        },
    }


def _decoded(data: Any) -> _TopicRow:
    """What `_encoded` wrote, as it was: JSON keeps ints exact and floats' every bit."""
    passages = data["passages"]
    continuum = Continuum(
        passages["observers"],
        passages["length"],
        passages["observed"],
        tuple(passages["units"]),
        tuple(passages["gaps"]),
    )
    row = data["row"]
    return _TopicRow(None if row is None else TopicAgreement(**row), continuum)


CODEC = Codec("agreement", 1, _encoded, _decoded)
"""A topic's row and continuum as the database keeps them (`store.topic_results`)."""


def _topic_rows(session: Session, pairs: Mapping[str, Pair]) -> dict[str, _TopicRow]:
    """The overview's row of each topic of `pairs`, its judgements read in one statement."""
    wanted = {assignment for pair in pairs.values() for assignment in pair.assignments}
    lines: dict[int, dict[str, records.Judgement]] = defaultdict(dict)
    for item in judged_articles(session, assignments=wanted):
        lines[item.assignment][item.line.article] = item.line
    out = {}
    for topic, pair in pairs.items():
        judged_a, judged_b = (lines.get(assignment) for assignment in pair.assignments)
        if not judged_a or not judged_b:
            out[topic] = _TopicRow(None, _NOTHING)
            continue
        passages = topic_continuum(judged_a, judged_b)
        out[topic] = _TopicRow(topic_agreement(topic, judged_a, judged_b, passages), passages)
    return out
