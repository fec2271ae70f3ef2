"""How assessors worked, and how much they found: seed 003 §5.1.2 and Table IV (spec section 10).

Table IV (`relevant_elements`): per topic, the relevant elements of the judged articles whose
text is known (derived from the highlights, spec section 4; elements assessed too small in the
2005 mode left out, as the seed counts them) and, in the seed's brackets, the highlighted
passages; the `all` row averages over the topics.

§5.1.2 (`behaviour`), read from the event log in the order the events were stored, article by
article of each assignment:
- a highlight counts as *after the previous one* when it starts further into the article than
  the previous highlight of that article (the seed: 85 % of highlights were, "highlighting
  while reading");
- a *highlight-then-assess cycle* is a run of highlights followed by 2005 exhaustivity values;
  their number per article given values (the seed: 1.13);
- consecutive exhaustivity values go *further down the document* when the second element comes
  later in document order (preorder) than the first, and among those, the second is often a
  *contained element*, a descendant of the first (the seed: 95 %, and 35 % of them). Only the
  articles whose text is known can be placed.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.results.report.data import ElementFacts, Judged
from focal.assessor.campaign.results.report.table import Chart, ReportTable
from focal.assessor.store import texts
from focal.assessor.store.event_log import EventKind
from focal.assessor.store.models import Assignment, Document, Event, User
from focal.evaluation.text.paths import PathError, normalise_path

NO_JUDGEMENT = "no article has been judged here yet"
Step = tuple[str, Mapping[str, object]]  # (kind, payload) of one logged event


def relevant_elements_table(judged: Sequence[Judged], facts: ElementFacts) -> ReportTable:
    """Table IV: relevant elements and highlighted passages per topic, and their means."""
    elements: dict[str, int] = defaultdict(int)
    for record in facts.records:
        if record.rsize > 0 and record.exhaustivity != "?":
            elements[record.topic] += 1
    passages: dict[str, int] = defaultdict(int)
    for item in judged:
        if item.line.relevant:
            passages[item.line.topic] += len(item.line.passages)
    topics = sorted(set(elements) | set(passages), key=_topic_key)
    rows: list[tuple[object, ...]] = [(t, elements.get(t, 0), passages.get(t, 0)) for t in topics]
    if rows:
        rows.append(("all", statistics.fmean(elements.get(t, 0) for t in topics),
                     statistics.fmean(passages.get(t, 0) for t in topics)))  # fmt: skip
    note = "no relevant article" if not facts.without_text else "no relevant article with text"
    return ReportTable(
        "relevant_elements",
        "Relevant elements and highlighted passages per topic; all: the means (too small "
        "elements left out, articles without text not counted)",
        ("topic", "relevant_elements", "passages"),
        rows,
        None if rows else (NO_JUDGEMENT if not judged else note),
        [Chart("relevant_elements", "Relevant elements per topic", "topic", None)],
    )


def behaviour_table(
    session: Session, judged: Sequence[Judged], topic: str | None, assessor: str | None
) -> ReportTable:
    """§5.1.2: highlight order, highlight-then-assess cycles, order of exhaustivity values."""
    logs = _logs(session, topic, assessor)
    orders = _document_orders(session, {article for article, _ in logs})
    counts = behaviour_counts(logs.items(), orders)
    rows = [(name, count, of, count / of if of else None) for name, count, of in counts]
    rows = [row for row in rows if row[2]]
    why = NO_JUDGEMENT if not judged else "no highlight or exhaustivity value in the event log"
    return ReportTable(
        "behaviour",
        "How assessors highlighted and assessed: highlights after the "
        "previous one, highlight-then-assess cycles per article given 2005 values, values "
        "further down the document and, of those, on a contained element",
        ("what", "count", "of", "share"),
        rows,
        None if rows else why,
        [],
    )


def behaviour_counts(
    logs: Iterable[tuple[tuple[str, int], Sequence[Step]]],
    orders: Mapping[str, Mapping[str, int]],
) -> list[tuple[str, int, int]]:
    """(what, count, of) for each finding, from each (article, assignment)'s steps in order and
    each article's preorder index of every element path (`orders`).

    >>> steps = [("highlight", {"start": 20}), ("highlight", {"start": 5}),
    ...          ("highlight", {"start": 30}), ("element-value", {"path": "/a[1]"}),
    ...          ("element-value", {"path": "/a[1]/p[2]"}), ("highlight", {"start": 40}),
    ...          ("element-value", {"path": "/a[1]/p[1]"})]
    >>> order = {"d": {"/a[1]": 0, "/a[1]/p[1]": 1, "/a[1]/p[2]": 2}}
    >>> behaviour_counts([(("d", 1), steps)], order)  # doctest: +NORMALIZE_WHITESPACE
    ... # highlights 20 5 30 40: 2 of 3 forward; h h h v v h v: 2 cycles; /a, /a/p2, /a/p1:
    ... # down then up (1 of 2), the down one into /a's own p (1 of 1)
    [('highlights after the previous one', 2, 3), ('highlight-then-assess cycles', 2, 1),
     ('values further down the document', 1, 2), ('of those, a contained element', 1, 1)]
    """
    forward = pairs = cycles = assessed = down = placed = contained = 0
    for (article, _), steps in logs:
        starts = [p.get("start") for kind, p in steps if kind == EventKind.HIGHLIGHT]
        known = [s for s in starts if isinstance(s, int)]
        pairs += max(0, len(known) - 1)
        forward += sum(1 for a, b in pairwise(known) if b > a)
        kinds = [kind for kind, _ in steps]
        if EventKind.ELEMENT_VALUE in kinds:
            assessed += 1
            starts_of_values = [
                i for i, kind in enumerate(kinds)
                if kind == EventKind.ELEMENT_VALUE and (i == 0 or kinds[i - 1] != kind)
            ]  # fmt: skip
            cycles += len(starts_of_values)
        order = orders.get(article, {})
        given = [
            _normalised(p.get("path")) for kind, p in steps
            if kind == EventKind.ELEMENT_VALUE and p.get("value") != "clear"
        ]  # fmt: skip
        paths = [path for path in given if path is not None]
        for first, second in pairwise(paths):
            if first in order and second in order and first != second:
                placed += 1
                if order[second] > order[first]:
                    down += 1
                    contained += second.startswith(first + "/")
    return [
        ("highlights after the previous one", forward, pairs),
        ("highlight-then-assess cycles", cycles, assessed),
        ("values further down the document", down, placed),
        ("of those, a contained element", contained, down),
    ]


def _logs(
    session: Session, topic: str | None, assessor: str | None
) -> dict[tuple[str, int], list[Step]]:
    """(article, assignment) -> its highlight and exhaustivity events, in stored order."""
    query = (
        select(Event.article, Event.assignment_id, Event.kind, Event.payload)
        .join(Assignment, Event.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .where(Event.kind.in_([EventKind.HIGHLIGHT.value, EventKind.ELEMENT_VALUE.value]))
        .order_by(Event.id)
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    if assessor is not None:
        query = query.where(User.name == assessor)
    logs: dict[tuple[str, int], list[Step]] = defaultdict(list)
    for article, assignment, kind, payload in session.execute(query):
        if article is not None and assignment is not None:
            logs[(article, assignment)].append((kind, payload or {}))
    return logs


def _document_orders(session: Session, articles: set[str]) -> dict[str, dict[str, int]]:
    """Article -> element path -> preorder index, for the articles whose text is known."""
    if not articles:
        return {}
    orders = {}
    for row in session.scalars(select(Document).where(Document.id.in_(sorted(articles)))):
        if row.has_text:
            document = texts.load(row)
            orders[row.id] = {e.path: i for i, e in enumerate(document.elements)}
    return orders


def _normalised(path: object) -> str | None:
    try:
        return normalise_path(path) if isinstance(path, str) else None
    except PathError:
        return None


def _topic_key(topic: str) -> tuple[int, int, str]:
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)
