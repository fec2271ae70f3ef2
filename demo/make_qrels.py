"""Write the demo's FOL qrels (demo/qrels/demo.qrels) from the judgements below.

    .venv/bin/python demo/make_qrels.py demo/qrels/demo.qrels

Every article of the demo collection was read against every demo topic's narrative. A relevant
passage is given either as an element path (the element's whole span) or as a pair (first words,
last words): the passage runs from the start of the first words, which must occur exactly once in
the article's text, to the end of the first occurrence of the last words after them. Offsets are
therefore computed from the text model, never typed by hand. The best entry point is the start of
an article's first passage. Every other article of the collection is judged not relevant (a line
with 0 relevant characters), so the whole collection is assessed for every topic.
"""

from __future__ import annotations

import io
import itertools
import os
import sys
import tempfile
from pathlib import Path

DEMO = Path(__file__).resolve().parent
sys.path.insert(0, str(DEMO.parent))  # run from anywhere without installing

from focal.evaluation.formats.fol.qrels import write_qrels  # noqa: E402
from focal.evaluation.formats.inex.topics import read_topics  # noqa: E402
from focal.evaluation.formats.records import Judgement, Qrels, Span  # noqa: E402
from focal.evaluation.text.document import Document  # noqa: E402

PassageSpec = str | tuple[str, str]

JUDGEMENTS: dict[str, dict[str, list[PassageSpec]]] = {
    # lighthouse lens optics: how the optical apparatus works; not other uses of Fresnel lenses,
    # not cleaning routines, not chart characteristics.
    "9001": {
        "1001": ["/article[1]/bdy[1]/sec[3]"],
        "1002": [("A Fresnel lens is a compact lens", "by the maker's fitters.")],
        "1003": [("The lighthouse was equipped with", "standing too close to the shore.")],
        "1004": [("The light is carried on a mast", "clockwork or by electric motors.")],
    },
    # volcano eruption forecasting monitoring: methods and warning signs, alert levels.
    "9002": {
        "1010": ["/article[1]/bdy[1]/sec[5]"],
        "1011": ["/article[1]/bdy[1]"],
        "1012": [
            ("The 1958 eruption began without", "eleven kilometres into the air."),
            "/article[1]/bdy[1]/sec[3]",
        ],
        "1017": ["/article[1]/bdy[1]/sec[3]"],
    },
    # sourdough starter wild yeast: the microbes, making and feeding a starter, its acidity.
    "9003": {
        "1019": ["/article[1]/bdy[1]/sec[3]/sec[2]"],
        "1020": ["/article[1]/bdy[1]"],
        "1021": ["/article[1]/bdy[1]/sec[4]"],
        "1022": [("In sourdough, alcoholic and lactic", "by regular feeding.")],
        "1023": ["/article[1]/bdy[1]/sec[1]"],
        "1027": ["/article[1]/bdy[1]/sec[1]"],
    },
    # honey bee waggle dance: how the dance encodes a place, following it, scouts' dances.
    "9004": {
        "1028": ["/article[1]/bdy[1]/sec[3]/sec[1]"],
        "1029": [
            ("The waggle dance is a behaviour", "foragers stop dancing for it."),
            "/article[1]/bdy[1]/sec[4]",
        ],
        "1035": [("A scout that finds a promising cavity", "point to a single place.")],
        "1036": [
            ("Honey bees carry the sun compass", "the Sun in the meantime."),
            ("Bees trained to fly through", "a great deal of image motion."),
        ],
    },
    # spring tide moon sun alignment: the spring-neap cycle and why it follows the Moon.
    "9005": {
        "1037": [
            "/article[1]/bdy[1]/sec[2]",
            ("The spring–neap cycle appears", "they partly cancel."),
        ],
        "1038": [("The phase of the Moon tells a sailor", "falls close to perigee.")],
        "1039": [("A spring tide is a tide", "give the exact days.")],
        "1040": ["/article[1]/bdy[1]"],
        "1042": [("A perigean spring tide is", "in the winter months.")],
        "1043": [("Harbour users learn to read the Moon", "scarcely covers the lower steps.")],
    },
}


def passage_span(document: Document, spec: PassageSpec) -> Span:
    """The `[start, end)` of one judged passage (see the module docstring)."""
    if isinstance(spec, str):
        return document.span(spec)
    first, last = spec
    start = document.text.find(first)
    if start < 0 or document.text.find(first, start + 1) >= 0:
        raise ValueError(f"{document.id}: {first!r} must occur exactly once in the text")
    end = document.text.find(last, start)
    if end < 0:
        raise ValueError(f"{document.id}: {last!r} does not follow {first!r}")
    return start, end + len(last)


def build_qrels(collection: Path, topics_file: Path) -> Qrels:
    """Judgements for every topic of `topics_file` and every article of `collection`."""
    documents = sorted(
        (Document.from_file(path) for path in collection.glob("*.xml")), key=lambda d: d.id
    )
    known = {document.id for document in documents}
    qrels: Qrels = {}
    for topic in read_topics(topics_file):
        judged = JUDGEMENTS.get(topic.id, {})
        if unknown := sorted(set(judged) - known):
            raise ValueError(f"topic {topic.id}: no article {', '.join(unknown)} in {collection}")
        qrels[topic.id] = {}
        for document in documents:
            passages = sorted(passage_span(document, spec) for spec in judged.get(document.id, []))
            for (_, end), (start, _) in itertools.pairwise(passages):
                if start < end:
                    raise ValueError(f"topic {topic.id}, {document.id}: passages overlap")
            qrels[topic.id][document.id] = Judgement(
                topic=topic.id,
                article=document.id,
                rel_chars=sum(end - start for start, end in passages),
                article_chars=len(document.text),
                bep=passages[0][0] if passages else None,
                passages=tuple(passages),
                line=0,
            )
    return qrels


def qrels_text(collection: Path = DEMO / "collection", topics: Path = DEMO / "topics.xml") -> str:
    """The qrels file's content."""
    buffer = io.StringIO()
    write_qrels(build_qrels(collection, topics), buffer)
    return buffer.getvalue()


def main(arguments: list[str]) -> None:
    """Write the qrels to the path given (via a temporary file), or to stdout."""
    text = qrels_text()
    if not arguments:
        sys.stdout.write(text)
        return
    target = Path(arguments[0])
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".qrels-")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
        stream.write(text)
    os.replace(temporary, target)


if __name__ == "__main__":
    main(sys.argv[1:])
