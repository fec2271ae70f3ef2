"""A BM25 baseline over the retrieval units of a collection: articles, elements or passages.

It exists so that Focal can make runs of its own (the demo, tests, pools to judge) without any
external search engine. Nothing here is tuned; it is a plain, documented, deterministic baseline.

**Tokens.** The text of a document (the text model's `Document.text`, so every offset is a code
point of the text that qrels and runs use) is lower-cased and split into maximal runs of letters
and digits (`[^\\W_]+`, Unicode-aware: "pāhoehoe" and "1958" are tokens, "baker's" is "baker" and
"s"). Tokens in `STOP_WORDS`, a small list of our own, are dropped everywhere: they neither match
nor count towards a unit's length. A token belongs to a unit when its first character lies in the
unit's span `[start, end)`.

**Units.** `article`: the whole text of each document (one passage `0:len(text)`). `element`:
every element whose tag is in a set (default `DEFAULT_ELEMENT_TAGS`). `passage`: windows of
`window` consecutive tokens starting every `window // 2` tokens (the last window ends at the last
token), from the start of the first token to the end of the last. Units without a single token
are left out. Collection statistics (N, df, average length) are taken over the units themselves.

**Score** (Robertson et al., Okapi at TREC-3, 1994; the IDF is the always-positive variant of
Lucene), summed over the distinct query terms t:

    idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
    score(u) = sum_t idf(t) * tf(t,u) * (k1 + 1) / (tf(t,u) + k1 * (1 - b + b * len(u) / avglen))

Scores are rounded to 6 decimals before ranking, so that files do not depend on last-bit
differences between machines. Ties are broken by article id (as a string), then start offset,
then end offset, then document order. Units scoring 0 are not returned.

**Focused runs** remove overlap greedily in rank order: a unit that shares a character with a unit
already kept from the same article is dropped (so of nested elements the higher-scoring is kept).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Result, Run, Topic
from focal.evaluation.text.document import Document

Unit = Literal["article", "element", "passage"]
UNITS: tuple[Unit, ...] = ("article", "element", "passage")
QUERY_FIELDS = ("title", "phrasetitle", "description")
DEFAULT_ELEMENT_TAGS = frozenset({"article", "bdy", "sec", "p", "list", "table"})
DEFAULT_WINDOW = 50
DEFAULT_MAX_RESULTS = 1500
SCORE_DECIMALS = 6

TOKEN = re.compile(r"[^\W_]+")
# Our own short list of English function words, which carry no topic.
_STOP_WORD_LIST = """
    a about above after all also an and any are as at be been before being between both but by
    can could did do does for from had has have he her here his how i if in into is it its more
    most my no nor not of on only or other our out over own same she should so some such than
    that the their them then there these they this those through to too under up very was we
    were what when where which while who why will with would you your
"""
STOP_WORDS = frozenset(_STOP_WORD_LIST.split())

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def tokenize(text: str) -> list[tuple[str, int, int]]:
    """The tokens of `text` as `(term, start, end)`, lower-cased, stop words dropped.

    >>> tokenize("The Fresnel lens, 1822: pāhoehoe!")
    [('fresnel', 4, 11), ('lens', 12, 16), ('1822', 18, 22), ('pāhoehoe', 24, 32)]
    """
    tokens = []
    for match in TOKEN.finditer(text):
        term = match.group().lower()
        if term not in STOP_WORDS:
            tokens.append((term, match.start(), match.end()))
    return tokens


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order of first occurrence.

    >>> query_terms("The lens of the lighthouse lens")
    ['lens', 'lighthouse']
    """
    return list(dict.fromkeys(term for term, _, _ in tokenize(text)))


@dataclass(frozen=True, slots=True)
class Bm25Params:
    """The two BM25 parameters: term-frequency saturation `k1` and length normalisation `b`."""

    k1: float = 1.2
    b: float = 0.75

    def __post_init__(self) -> None:
        if self.k1 < 0 or not 0 <= self.b <= 1:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={self.k1}, b={self.b}")


@dataclass(frozen=True, slots=True)
class ScoredUnit:
    """A unit of an article with its score; `order` is its position in the unit table."""

    article: str
    start: int
    end: int
    score: float
    order: int


def unit_spans(
    document: Document,
    unit: Unit,
    element_tags: Iterable[str] = DEFAULT_ELEMENT_TAGS,
    window: int = DEFAULT_WINDOW,
) -> list[tuple[int, int]]:
    """The spans `[start, end)` of a document's retrieval units, in document order."""
    if unit == "article":
        return [(0, len(document.text))]
    if unit == "element":
        tags = frozenset(element_tags)
        return [(e.start, e.end) for e in document.elements if e.tag in tags and e.size > 0]
    if window < 1:
        raise ValueError(f"a passage window needs at least one token, got {window}")
    tokens = tokenize(document.text)
    if not tokens:
        return []
    firsts = list(range(0, max(len(tokens) - window, 0) + 1, max(1, window // 2)))
    if firsts[-1] + window < len(tokens):  # one more window, ending at the last token
        firsts.append(len(tokens) - window)
    return [(tokens[i][1], tokens[min(i + window, len(tokens)) - 1][2]) for i in firsts]


class Bm25Index:
    """Unit spans and term positions of a whole collection, laid end to end on one offset axis.

    Each document's offsets are shifted by the total length of the documents before it, so that
    the term frequencies of every unit for a term are two `searchsorted` calls on one array.
    """

    def __init__(self, documents: Sequence[Document], spans: Sequence[list[tuple[int, int]]]):
        self.articles: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        positions: dict[str, list[int]] = {}
        all_positions: list[int] = []
        self._bases: dict[str, int] = {}
        base = 0
        for document, document_spans in zip(documents, spans, strict=True):
            self._bases[document.id] = base
            for term, start, _ in tokenize(document.text):
                positions.setdefault(term, []).append(base + start)
                all_positions.append(base + start)
            for start, end in document_spans:
                self.articles.append(document.id)
                starts.append(base + start)
                ends.append(base + end)
            base += len(document.text) + 1
        self.starts: IntArray = np.array(starts, dtype=np.int64)
        self.ends: IntArray = np.array(ends, dtype=np.int64)
        self.positions = {t: np.array(p, dtype=np.int64) for t, p in positions.items()}
        self.lengths = self._counts(np.array(all_positions, dtype=np.int64))
        self.kept = np.flatnonzero(self.lengths > 0)  # units with at least one token
        self.average_length = float(self.lengths[self.kept].mean()) if self.kept.size else 0.0

    def _counts(self, positions: IntArray) -> IntArray:
        """How many of the (sorted) positions fall in each unit."""
        left = np.searchsorted(positions, self.starts, side="left")
        right = np.searchsorted(positions, self.ends, side="left")
        return (right - left).astype(np.int64)

    def scores(self, terms: Sequence[str], params: Bm25Params) -> FloatArray:
        """The BM25 score of every unit for the query `terms` (0 for units without a token)."""
        total = np.zeros(len(self.starts), dtype=np.float64)
        if not self.kept.size:
            return total
        units = float(self.kept.size)
        lengths = self.lengths.astype(np.float64)
        norm = params.k1 * (1.0 - params.b + params.b * lengths / self.average_length)
        for term in dict.fromkeys(terms):
            positions = self.positions.get(term)
            if positions is None:
                continue
            tf = self._counts(positions).astype(np.float64)
            df = float(np.count_nonzero(tf))
            idf = math.log(1.0 + (units - df + 0.5) / (df + 0.5))
            total += idf * tf * (params.k1 + 1.0) / (tf + norm)
        return total

    def ranked(self, terms: Sequence[str], params: Bm25Params) -> list[ScoredUnit]:
        """Units with a positive score, best first, ties broken deterministically."""
        scores = self.scores(terms, params)
        hits = []
        for i in np.flatnonzero(scores > 0).tolist():
            article = self.articles[i]
            base = self._bases[article]
            score = round(float(scores[i]), SCORE_DECIMALS)
            start, end = int(self.starts[i]) - base, int(self.ends[i]) - base
            hits.append(ScoredUnit(article, start, end, score, i))
        hits.sort(key=lambda u: (-u.score, u.article, u.start, u.end, u.order))
        return hits


def remove_overlap(ranked: Iterable[ScoredUnit]) -> list[ScoredUnit]:
    """Keep, in rank order, every unit that shares no character with a kept unit of its article.

    >>> units = [ScoredUnit("a", 0, 10, 3.0, 0), ScoredUnit("a", 2, 5, 2.0, 1),
    ...          ScoredUnit("b", 2, 5, 1.5, 2), ScoredUnit("a", 10, 12, 1.0, 3)]
    >>> [(u.article, u.start) for u in remove_overlap(units)]
    [('a', 0), ('b', 2), ('a', 10)]
    """
    kept_spans: dict[str, list[tuple[int, int]]] = {}
    kept: list[ScoredUnit] = []
    for unit in ranked:
        spans = kept_spans.setdefault(unit.article, [])
        if any(start < unit.end and unit.start < end for start, end in spans):
            continue
        spans.append((unit.start, unit.end))
        kept.append(unit)
    return kept


def first_per_article(ranked: Iterable[ScoredUnit]) -> list[ScoredUnit]:
    """The best unit of each article, in rank order (turns any ranking into an article ranking)."""
    best: dict[str, ScoredUnit] = {}
    for unit in ranked:
        best.setdefault(unit.article, unit)
    return list(best.values())


def load_collection(directory: str | Path) -> list[Document]:
    """Every `*.xml` document of a directory, sorted by id (raises DocumentError/FormatError)."""
    paths = sorted(Path(directory).glob("*.xml"))
    if not paths:
        raise FormatError(directory, None, "expected a directory holding *.xml documents")
    return sorted((Document.from_file(path) for path in paths), key=lambda d: d.id)


def bm25_run(
    documents: Sequence[Document],
    topics: Sequence[Topic],
    unit: Unit = "article",
    params: Bm25Params | None = None,
    *,
    run_id: str = "bm25",
    output: Literal["fol", "article", "element"] = "fol",
    field: str = "title",
    max_results: int = DEFAULT_MAX_RESULTS,
    focused: bool = True,
    element_tags: Iterable[str] = DEFAULT_ELEMENT_TAGS,
    window: int = DEFAULT_WINDOW,
) -> Run:
    """A BM25 run for `topics` (query = the topic's `field`), at most `max_results` per topic.

    `output="fol"` gives one FOL result per unit (overlap removed when `focused`);
    `output="article"` gives each article once, scored by its best unit; `output="element"`
    (with `unit="element"`) gives each element unit by its path (a 7-field element run).
    """
    if field not in QUERY_FIELDS:
        raise ValueError(f"query field must be one of {', '.join(QUERY_FIELDS)}, got {field!r}")
    if max_results < 1:
        raise ValueError(f"max_results must be at least 1, got {max_results}")
    params = params or Bm25Params()
    tags = frozenset(element_tags)
    spans = [unit_spans(d, unit, tags, window) for d in documents]
    index = Bm25Index(documents, spans)
    if output == "element" and unit != "element":
        raise ValueError("element output needs element units")
    # the paths of the units in the index's order (unit_spans of unit "element")
    paths = [e.path for d in documents for e in d.elements if e.tag in tags and e.size > 0]
    run = Run(run_id=run_id, file="<bm25>", kind=output)
    for topic in topics:
        ranked = index.ranked(query_terms(getattr(topic, field)), params)
        if output == "article":
            ranked = first_per_article(ranked)
        elif focused:
            ranked = remove_overlap(ranked)
        run.topics[topic.id] = [
            Result(
                topic=topic.id,
                article=hit.article,
                rank=rank,
                score=hit.score,
                line=0,
                start=hit.start if output == "fol" else None,
                length=hit.end - hit.start if output == "fol" else None,
                path=paths[hit.order] if output == "element" else None,
            )
            for rank, hit in enumerate(ranked[:max_results], start=1)
        ]
    return run
