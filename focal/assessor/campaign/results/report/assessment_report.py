"""The assessment report: seed 003 §5's analyses of a campaign (spec section 10; no Flask).

`build_report` returns `ReportTable`s, each with its columns, rows, the chart that goes with
it, and, when it has no rows, why. `focal report` prints or plots them; the organiser's Report
page shows them and offers each as CSV. Seed 003's figure or table is named in each title.
Times are seconds (`campaign.timing`); `all` rows sum the counts and average the times over
the articles (or topics) they describe. The last table lists the adjudication events: each
decision and hand edit of a gold judgement where two assessors disagreed, who made it and
when, and the gold before and after it.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.results import timing
from focal.assessor.campaign.results.report.behaviour import (
    behaviour_table,
    relevant_elements_table,
)
from focal.assessor.campaign.results.report.data import (
    ElementFacts,
    Judged,
    element_facts,
    judged_articles,
)
from focal.assessor.campaign.results.report.rounds import rounds_table
from focal.assessor.campaign.results.report.table import Chart, ReportTable
from focal.assessor.store.gold import GoldEvent, GoldJudgement
from focal.evaluation.relevance.analytics import bep_distances, category_of

TOO_SMALL_LIMIT = 55  # characters (seed 003 §5.2.3)
NO_TEXT = "needs the text of the relevant articles: import their collection"

__all__ = ["Chart", "Report", "ReportTable", "build_report"]


@dataclass(frozen=True, slots=True)
class Report:
    """Every table of the report, in the order they are shown."""

    tables: list[ReportTable] = field(default_factory=list)

    def table(self, name: str) -> ReportTable:
        """The table called `name` (KeyError otherwise)."""
        for table in self.tables:
            if table.name == name:
                return table
        raise KeyError(name)


def _why_empty(judged: Sequence[Judged], what: str) -> str:
    return "no article has been judged here yet" if not judged else what


def times_table(
    times: list[timing.TopicTime], judged: Sequence[Judged], idle: float
) -> ReportTable:
    """Table III: mean seconds per relevant and non-relevant article, and per topic."""
    columns = (
        "topic", "assessor", "relevant", "relevant_mean_s", "nonrelevant", "nonrelevant_mean_s",
        "topic_s", "idle_gaps", "idle_s",
    )  # fmt: skip
    rows: list[tuple[object, ...]] = []
    for row in sorted(times, key=lambda t: (_key(t.topic), t.assessor)):
        rows.append(
            (
                row.topic, row.assessor, len(row.relevant), timing.mean(row.relevant),
                len(row.nonrelevant), timing.mean(row.nonrelevant), row.seconds,
                row.idle_gaps, row.idle_seconds,
            )
        )  # fmt: skip
    if rows:
        relevant = [s for t in times for s in t.relevant]
        nonrelevant = [s for t in times for s in t.nonrelevant]
        rows.append(
            (
                "all", "", len(relevant), timing.mean(relevant), len(nonrelevant),
                timing.mean(nonrelevant), timing.mean([t.seconds for t in times]),
                sum(t.idle_gaps for t in times), sum(t.idle_seconds for t in times),
            )
        )  # fmt: skip
    return ReportTable(
        "times",
        "Time to assess an article and a topic, in seconds; "
        f"idle gaps over {idle:g} s left out and counted",
        columns,
        rows,
        None
        if rows
        else _why_empty(
            judged,
            "no judged article was shown or operated on "
            "through the assessment page (imported judgements carry "
            "no times)",
        ),
        [Chart("topic_s", "Seconds per topic and assessor", ("topic", "assessor"), None)],
    )


def _key(identifier: str) -> tuple[int, int, str]:
    return (0, int(identifier), "") if identifier.isdigit() else (1, 0, identifier)


def passages_table(judged: Sequence[Judged]) -> ReportTable:
    """Fig 6: how many relevant articles have 1, 2, 3... passages."""
    counts = Counter(len(item.line.passages) for item in judged if item.line.relevant)
    total = sum(counts.values())
    rows = [(n, counts[n], counts[n] / total) for n in sorted(counts)]
    return ReportTable(
        "passages",
        "Passages per relevant article",
        ("passages", "articles", "share"),
        rows,
        None if rows else _why_empty(judged, "no article was judged relevant"),
        [Chart("articles", "Relevant articles by number of passages", "passages", None)],
    )


def elemental_table(judged: Sequence[Judged], facts: ElementFacts) -> ReportTable:
    """Table VIII: elemental and non-elemental passages per topic."""
    rows: list[tuple[object, ...]] = []
    for topic in sorted(facts.passages, key=_key):
        total, elemental = facts.passages[topic], facts.elemental.get(topic, 0)
        rows.append((topic, elemental, total - elemental, total, elemental / total))
    if rows:
        total = sum(facts.passages.values())
        elemental = sum(facts.elemental.values())
        rows.append(("all", elemental, total - elemental, total, elemental / total))
    reason = NO_TEXT if facts.without_text else "no article was judged relevant"
    return ReportTable(
        "elemental",
        "Elemental and non-elemental passages",
        ("topic", "elemental", "nonelemental", "total", "share_elemental"),
        rows,
        None if rows else _why_empty(judged, reason),
        [Chart("share_elemental", "Share of elemental passages", "topic", 1.0)],
    )


BEP_BUCKET = 100  # characters (seed 003 Fig 7)


def bep_table(judged: Sequence[Judged]) -> ReportTable:
    """Fig 7: distance from the BEP to the first, largest and nearest passage, per 100."""
    distances = [
        d for item in judged if item.line.rel_chars and (d := bep_distances(item.line)) is not None
    ]
    buckets: dict[int, list[int]] = {}
    for d in distances:
        for i, value in enumerate((d.first, d.largest, d.nearest)):
            buckets.setdefault(value // BEP_BUCKET, [0, 0, 0])[i] += 1
    rows = [(f"{b * BEP_BUCKET}-{(b + 1) * BEP_BUCKET - 1}", *buckets[b]) for b in sorted(buckets)]
    return ReportTable(
        "bep_distance",
        "Distance in characters from the best entry point to the start of the first, the "
        "largest and the nearest passage",
        ("distance", "first", "largest", "nearest"),
        rows,
        None if rows else _why_empty(judged, "no relevant article has a best entry point"),
        [Chart(column, f"BEP to the {column} passage", "distance", None) for column in
         ("first", "largest", "nearest")],
    )  # fmt: skip


def specificity_table(judged: Sequence[Judged], facts: ElementFacts) -> ReportTable:
    """Fig 4: specificity of relevant elements in ten ranges [0, 0.1)..., specificity 1 apart."""
    values = [r.specificity for r in facts.records if r.rsize > 0]
    counts = Counter(min(int(s * 10), 9) for s in values if s < 1)
    ones = sum(1 for s in values if s >= 1)
    rows: list[tuple[object, ...]] = [
        (f"[{i / 10:.1f}, {(i + 1) / 10:.1f})", counts[i], counts[i] / len(values))
        for i in range(10)
    ] if values else []  # fmt: skip
    if values:
        rows.append(("1", ones, ones / len(values)))
    return ReportTable(
        "specificity",
        "Specificity of the relevant elements (specificity 1 on its own row)",
        ("specificity", "elements", "share"),
        rows,
        None
        if rows
        else _why_empty(judged, NO_TEXT if facts.without_text else "no relevant element"),
        [Chart("elements", "Relevant elements by specificity", "specificity", None)],
    )


def category_table(judged: Sequence[Judged], facts: ElementFacts) -> ReportTable:
    """Table VII: mean specificity of relevant elements per category, and relative to p."""
    by_category: dict[str, list[float]] = {}
    for record in facts.records:
        category = category_of(record.path)
        if category is not None and record.rsize > 0:
            by_category.setdefault(category, []).append(record.specificity)
    paragraph = statistics.fmean(by_category["paragraph"]) if "paragraph" in by_category else None
    rows = []
    for category in ("article", "body", "section", "paragraph"):
        values = by_category.get(category, [])
        average = statistics.fmean(values) if values else None
        relative = average / paragraph if average is not None and paragraph else None
        rows.append((category, len(values), average, relative))
    rows = rows if by_category else []
    return ReportTable(
        "specificity_by_category",
        "Mean specificity of relevant elements per category, and relative to paragraphs",
        ("category", "elements", "mean_specificity", "relative_to_paragraph"),
        rows,
        None
        if rows
        else _why_empty(judged, NO_TEXT if facts.without_text else "no relevant element"),
        [Chart("mean_specificity", "Mean specificity per category", "category", 1.0)],
    )


def too_small_table(judged: Sequence[Judged], facts: ElementFacts) -> ReportTable:
    """Fig 5: element sizes per exhaustivity value, and the share under 55 characters."""
    sizes: dict[str, list[int]] = {}
    for record in facts.records:
        if record.rsize > 0:
            sizes.setdefault(record.exhaustivity, []).append(record.size)
    names = {"?": "too small", "1": "partly", "2": "highly"}
    rows = [
        (names.get(value, value), len(found), statistics.fmean(found), statistics.median(found),
         sum(1 for s in found if s < TOO_SMALL_LIMIT) / len(found))
        for value in ("?", "1", "2") if (found := sizes.get(value))
    ]  # fmt: skip
    too_small = "?" in sizes
    return ReportTable(
        "too_small",
        "Element sizes in characters per exhaustivity value",
        ("exhaustivity", "elements", "mean_size", "median_size", f"share_under_{TOO_SMALL_LIMIT}"),
        rows if too_small else [],
        None if too_small else _why_empty(
            judged, NO_TEXT if facts.without_text else
            "no element was assessed too small (only the 2005 two-phase mode has that value)"),
        [Chart("mean_size", "Mean size per exhaustivity value", "exhaustivity", None)],
    )  # fmt: skip


def adjudication_table(
    session: Session, judged: Sequence[Judged], topic: str | None = None
) -> ReportTable:
    """The report's table of adjudication events: every decision and hand edit of a gold
    judgement (`store.gold.GoldEvent`), who made it and when, the gold after and before."""
    query = (
        select(GoldEvent, GoldJudgement.assessor_a, GoldJudgement.assessor_b)
        .outerjoin(GoldJudgement, and_(GoldJudgement.topic_id == GoldEvent.topic_id,
                                       GoldJudgement.article == GoldEvent.article))
        .order_by(GoldEvent.id)
    )  # fmt: skip
    if topic is not None:
        query = query.where(GoldEvent.topic_id == topic)

    def chars(gold: dict[str, Any] | None) -> int | str:
        return "-" if gold is None else sum(end - start for start, end in gold["passages"])

    def span(edit: dict[str, Any]) -> str:
        return f"{edit['start']}-{edit['end']}" if "start" in edit else "-"

    rows = [
        (event.topic_id, event.article, f"{name_a} / {name_b}", event.action,
         event.gold["status"], chars(event.gold), event.user_name or "-",
         event.at.strftime("%Y-%m-%d %H:%M:%S"),
         span(event.payload),
         "-" if event.previous is None else event.previous["status"], chars(event.previous))
        for event, name_a, name_b in session.execute(query)
    ]  # fmt: skip
    columns = ("topic", "article", "assessors", "decision", "gold", "gold_chars", "by", "at",
               "characters", "gold_before", "gold_before_chars")  # fmt: skip
    return ReportTable(
        "adjudication",
        "Adjudication: every decision and hand edit of the gold where two assessors disagreed",
        columns,
        rows,
        None if rows else _why_empty(judged, "no disagreement has been adjudicated"),
    )


def build_report(
    session: Session,
    topic: str | None = None,
    assessor: str | None = None,
    idle: float = timing.IDLE_SECONDS,
) -> Report:
    """Every table of the report for the chosen judgements."""
    judged = judged_articles(session, topic, assessor)
    facts = element_facts(session, judged)
    verdicts = {(item.assignment, item.line.article): item.line.relevant for item in judged}
    times = timing.topic_times(session, topic, assessor, idle, verdicts)
    return Report(
        [
            times_table(times, judged, idle),
            passages_table(judged),
            elemental_table(judged, facts),
            bep_table(judged),
            specificity_table(judged, facts),
            category_table(judged, facts),
            too_small_table(judged, facts),
            rounds_table(session, judged),
            relevant_elements_table(judged, facts),
            behaviour_table(session, judged, topic, assessor),
            adjudication_table(session, judged, topic),
        ]
    )
