"""What the runs retrieved in one article of a topic, as spans of its text (no Flask).

The article screen outlines these spans on request and names the runs beside the toggle
(`web.views.assess.pages`): FOL results give their span, element results the element's span,
article results the whole text. A result that is not in the article is left out: an `X`/-1
offset of a FOL run (stored without a span), or a path the document does not have. Spans are
clipped to the text, and each (run, span) is listed once.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.store.models import Run, RunResult
from focal.evaluation.text.document import Document


class RetrievedSpan(NamedTuple):
    """`[start, end)` of the document text (code points) that the run `run` retrieved."""

    run: str
    start: int
    end: int


def retrieved_spans(session: Session, topic_id: str, document: Document) -> list[RetrievedSpan]:
    """The spans the runs retrieved in `document` for `topic_id`, by (start, end, run)."""
    rows = session.execute(
        select(Run.name, Run.kind, RunResult.start, RunResult.length, RunResult.path)
        .join(Run, RunResult.run_id == Run.id)
        .where(RunResult.topic_id == topic_id, RunResult.article == document.id)
    )
    length = len(document.text)
    spans: set[RetrievedSpan] = set()
    for run, kind, start, size, path in rows:
        if path is not None:
            try:
                start, end = document.span(path)
            except KeyError:
                continue
        elif start is not None and size is not None:
            end = start + size
        elif kind == "article":
            start, end = 0, length
        else:
            continue  # an X/-1 result: not in the article
        start, end = max(0, start), min(length, end)
        if start < end:
            spans.add(RetrievedSpan(run, start, end))
    return sorted(spans, key=lambda span: (span.start, span.end, span.run))
