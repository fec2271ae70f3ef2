"""What the runs retrieved in an article, as spans for the page's outline toggle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from focal.assessor.campaign.pools.retrieved import RetrievedSpan, retrieved_spans
from focal.assessor.campaign.setup.importing import import_runs
from focal.assessor.store import db, texts
from focal.assessor.store.models import Document


def test_fol_element_and_article_results_become_spans(seeded: Any, tmp_path: Path) -> None:
    runs = {
        "fol.run": "1 Q0 1001 1 1.0 fol 5 4\n1 Q0 1001 2 0.5 fol X 3\n1 Q0 1001 3 0.1 fol 40 99\n"
        "1 Q0 1001 4 0.1 fol 5 4\n",  # the same span twice: listed once
        "el.run": "1 Q0 1001 1 1.0 el /article[1]/bdy[1]/p[2]\n"
        "1 Q0 1001 2 1.0 el /article[1]/x[9]\n",
        "art.run": "1 Q0 1001 1 1.0 art\n2 Q0 1001 1 1.0 art\n",
        "xonly.run": "1 Q0 1001 1 1.0 xonly X 3\n",  # retrieved the article, no span of it
    }
    for name, content in runs.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    text = seeded.text("1001")
    second_paragraph = text.index("Jumps"), len(text)
    with db.session_scope(seeded.app) as session:
        import_runs(session, [tmp_path / name for name in runs])
        row = session.get(Document, "1001")
        assert row is not None
        spans = retrieved_spans(session, "1", texts.load(row))
    # In order of (start, end, run); the FOL result that runs past the end is clipped.
    assert spans == [
        RetrievedSpan("art", 0, len(text)),
        RetrievedSpan("fol", 5, 9),
        RetrievedSpan("el", *second_paragraph),
        RetrievedSpan("fol", 40, len(text)),
    ]
    assert second_paragraph[0] < 40 < len(text) < 40 + 99
