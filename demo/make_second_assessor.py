"""Write the second assessor's judgements of topic 9001 (demo/qrels/assessor2-9001.qrels).

    .venv/bin/python demo/make_second_assessor.py demo/qrels/assessor2-9001.qrels

`focal demo` gives topic 9001 to `assessor` and `assessor2` and loads these judgements as
`assessor2`'s, so that the double-judging, agreement and adjudication pages have a second
opinion to compare with. They were written as a second reader would plausibly differ from the
demo's reference qrels (`make_qrels.py`): a shorter passage in 1002 (only the opening
definition), 1004 judged not relevant (a mast's clockwork is not the lens), a paragraph of 1005
judged relevant (the foghorn's place at lighthouses), the rest as the reference. Article 1001,
first in the pool, is left for the assessor to judge in the browser. Passages are given as in
`make_qrels.py` (first words, last words), so offsets come from the text model.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parent
sys.path.insert(0, str(DEMO))
sys.path.insert(0, str(DEMO.parent))

from make_qrels import PassageSpec, passage_span  # noqa: E402

from focal.evaluation.formats.fol.qrels import write_qrels  # noqa: E402
from focal.evaluation.formats.records import Judgement, Qrels  # noqa: E402
from focal.evaluation.text.document import Document  # noqa: E402

TOPIC = "9001"
POOLED = [
    "1002",
    "1003",
    "1004",
    "1005",
    "1006",
    "1008",
    "1010",
    "1016",
    "1017",
    "1020",
    "1023",
    "1028",
    "1029",
    "1032",
    "1033",
    "1034",
    "1036",
    "1038",
    "1043",
]
"""The demo pool of topic 9001 (20 articles, top-n over the four runs) without 1001."""

RELEVANT: dict[str, list[PassageSpec]] = {
    "1002": [("A Fresnel lens is a compact lens", "plastic lenses.")],
    "1003": [("The lighthouse was equipped with", "standing too close to the shore.")],
    "1005": [("A foghorn is a device that makes", "pattern of flashes.")],
}


def build(
    collection: Path = DEMO / "collection",
    judged: list[str] = POOLED,
    relevant: dict[str, list[PassageSpec]] = RELEVANT,
) -> Qrels:
    """An assessor's qrels of topic 9001 (by default the second assessor's): the `relevant`
    articles' passages, every other `judged` article at 0."""
    lines: dict[str, Judgement] = {}
    for article in judged:
        document = Document.from_file(collection / f"{article}.xml")
        spans = tuple(sorted(passage_span(document, spec) for spec in relevant.get(article, [])))
        rel = sum(end - start for start, end in spans)
        bep = spans[0][0] if spans else None
        lines[article] = Judgement(TOPIC, article, rel, len(document.text), bep, spans, 0)
    return {TOPIC: lines}


def qrels_text() -> str:
    buffer = io.StringIO()
    write_qrels(build(), buffer)
    return buffer.getvalue()


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(qrels_text(), encoding="utf-8")
