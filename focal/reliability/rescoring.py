"""Scoring the runs again on reduced judgements, from what the full scoring already knows.

The studies of spec §9 (seed 004's pool sampling and pool depths) score every run again on each
trial's judgements, which differ from the full qrels only in which relevant articles are left:
an article taken out becomes unjudged, that is not relevant (`focal.reliability.judgements`). For
the focused and thorough tasks (Kamps et al. 2007) a result's relevant characters depend on its own
article's passages only, so they are computed once, with the full qrels, for every result of
every run; a trial then only masks the results whose article it dropped, and recomputes the
cumulated counts, recall bins and iP curves of every (run, topic) at once, with the operations
of `focal.evaluation.measures.passages.focused` in the same order (integer sums, the same divisions,
the same double rounding of recall bins, AiP summed left to right), so that every score is the
one `focal.reliability.scores.score_matrix` gives — whatever the article ids look like.

Focal's article measures MAP and P@k (task `articles`) are re-scored the same way from each
run's article ranking (`ArticleRescorer`). The rest (the in-context tasks, other article
measures, a trial that adds or alters a judgement) is not covered: `rescorer` gives None, or
`score` None for such a trial, and the caller scores topic by topic as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.formats.fol.columns import RunColumns, TopicColumns
from focal.evaluation.formats.records import Judgement, Run
from focal.evaluation.measures.evaluate import PreparedQrels, Qrels
from focal.evaluation.measures.passages.focused import RECALL_POINTS, unseen_parts
from focal.evaluation.measures.passages.text import TopicLines
from focal.reliability.scores import ScoreMatrix

Ints = NDArray[np.int64]
TASKS = ("focused", "thorough")
_LEVELS = RECALL_POINTS - 1


def _row_reader(measure: str) -> int | None:
    """The column of the iP curve a measure reads (`iP[0.01]` → 1), -1 for AiP, None when the
    measure is not read from the curve."""
    if measure == "AiP":
        return -1
    if measure.startswith("iP[") and measure.endswith("]"):
        try:
            return round(float(measure[3:-1]) * _LEVELS)
        except ValueError:
            return None
    return None


@dataclass
class _Lines:
    """Every result line of every (run, topic) answered, concatenated segment by segment."""

    segment: Ints  # segment of each line
    rel: Ints  # relevant characters of each line under the full qrels
    size: Ints  # characters of each line counted when its article stays relevant
    size_dropped: Ints  # ... and when it is dropped (thorough counts overlaps differently)
    article: Ints  # global id of the line's relevant article, -1 for others
    segment_run: Ints
    segment_topic: Ints


class _Reductions:
    """The relevant judgements of the full qrels, numbered, and which of them a reduction keeps."""

    def __init__(self, runs: Sequence[Run | RunColumns], topics: Sequence[str]) -> None:
        self.runs = tuple(run.run_id for run in runs)
        self.topics = tuple(topics)
        self.judgements: list[Judgement] = []
        self.ids: dict[tuple[str, str], int] = {}

    def _article(self, topic: str, article: str, judgement: Judgement) -> int:
        key = (topic, article)
        if key not in self.ids:
            self.ids[key] = len(self.judgements)
            self.judgements.append(judgement)
        return self.ids[key]

    def _kept(
        self, qrels: Mapping[str, Mapping[str, Judgement]]
    ) -> tuple[NDArray[np.bool_], Ints, Ints] | None:
        """(kept: whether each numbered judgement is in `qrels`, with one more entry, always
        False, for -1; relevant characters and relevant articles per topic), or None when
        `qrels` is not a reduction of the full qrels."""
        kept = np.zeros(len(self.judgements) + 1, bool)
        rel_size = np.zeros(len(self.topics), np.int64)
        relevant = np.zeros(len(self.topics), np.int64)
        position = {topic: index for index, topic in enumerate(self.topics)}
        for topic, judgements in qrels.items():
            if topic not in position:
                continue
            total = count = 0
            for article, judgement in judgements.items():
                if judgement.rel_chars <= 0:
                    continue
                index = self.ids.get((topic, article))
                if index is None:
                    return None
                full = self.judgements[index]
                if judgement is not full and judgement != full:
                    return None
                kept[index] = True
                total += judgement.rel_chars
                count += 1
            rel_size[position[topic]] = total
            relevant[position[topic]] = count
        return kept, rel_size, relevant


class Rescorer(_Reductions):
    """The full scoring of `runs` on `qrels`, kept as arrays for scoring reduced qrels."""

    def __init__(
        self, qrels: Qrels, runs: Sequence[Run | RunColumns], task: str, measure: str,
        topics: Sequence[str],
    ) -> None:  # fmt: skip
        super().__init__(runs, topics)
        self.column = _row_reader(measure)
        position = {topic: index for index, topic in enumerate(self.topics)}
        prepared = PreparedQrels(qrels)
        parts: dict[str, list[Ints]] = {key: [] for key in ("rel", "size", "dropped", "article")}
        segment_run, segment_topic, lengths = [], [], []
        for run_index, run in enumerate(runs):
            for topic, results in run.topics.items():
                if topic not in position or topic not in qrels:
                    continue
                text = prepared.text(topic)
                lines = _lines_of(results, run.file)
                if task == "thorough":
                    rel, size = unseen_parts(lines, text)
                else:
                    rel, size = text.line_overlap(lines), lines.sizes
                keys = text.line_keys(lines)
                relevant = [self._article(topic, a, text.judgements[a]) for a in text.key]
                ids = np.array(relevant, np.int64)
                parts["rel"].append(rel)
                parts["size"].append(size)
                parts["dropped"].append(lines.sizes)
                known = ids[np.maximum(keys, 0)] if len(ids) else np.full(len(keys), -1)
                parts["article"].append(np.where(keys >= 0, known, -1))
                segment_run.append(run_index)
                segment_topic.append(position[topic])
                lengths.append(len(lines))
        joined = {key: _concatenate(arrays) for key, arrays in parts.items()}
        counts = np.array(lengths, np.int64)
        self.lines = _Lines(
            np.repeat(np.arange(len(counts)), counts), joined["rel"], joined["size"],
            joined["dropped"], joined["article"], np.array(segment_run, np.int64),
            np.array(segment_topic, np.int64),
        )  # fmt: skip
        self.sizes_fixed = task != "thorough"  # thorough counts overlaps by relevance
        self.ret = _segment_cumsum(self.lines.size, self.lines.segment)

    def score(self, qrels: Mapping[str, Mapping[str, Judgement]]) -> ScoreMatrix | None:
        """The runs scored on `qrels`, a reduction of the full qrels; None when `qrels` is not
        one (a relevant judgement the full qrels do not have, or have otherwise)."""
        found = self._kept(qrels)
        if found is None:
            return None
        kept, rel_size, _ = found
        return ScoreMatrix(self.runs, self.topics, self._values(kept, rel_size))

    def _values(self, kept: NDArray[np.bool_], rel_size: Ints) -> NDArray[np.float64]:
        lines = self.lines
        values = np.zeros((len(self.runs), len(self.topics)))
        if not len(lines.segment):
            return values
        stays = kept[lines.article]  # article −1 reads the last entry, always False
        rel = np.where(stays, lines.rel, 0)
        if self.sizes_fixed:
            # A line without relevant characters has its predecessor's relret and no smaller
            # ret, hence the same recall bin and no higher precision (the first line of a
            # segment: precision 0): only the lines with relevant characters shape the curve.
            chosen = np.flatnonzero(rel > 0)
            ret = self.ret[chosen]
            relret = _segment_cumsum(rel[chosen], lines.segment[chosen])
        else:
            chosen = np.arange(len(rel))
            size = np.where(stays, lines.size, lines.size_dropped)
            ret = _segment_cumsum(size, lines.segment)
            relret = _segment_cumsum(rel, lines.segment)
        segment = lines.segment[chosen]
        precision = np.divide(relret, ret, out=np.zeros(len(ret)), where=ret > 0)
        total = rel_size[lines.segment_topic][segment]
        share = np.divide(relret, total, out=np.zeros(len(ret)), where=total > 0)
        bins = np.where(total > 0, np.floor(_LEVELS * share), 0).astype(np.int64)
        inside = bins < RECALL_POINTS  # recall above 1 is dropped, as topic by topic
        segment, bins, precision = segment[inside], bins[inside], precision[inside]
        curves = np.zeros((RECALL_POINTS, len(lines.segment_run)))  # bins × segments
        if len(segment):
            # bins never fall along a segment's lines: each (segment, bin) is one run of lines
            change = np.flatnonzero((np.diff(segment) != 0) | (np.diff(bins) != 0)) + 1
            first = np.concatenate([[0], change])
            curves[bins[first], segment[first]] = np.maximum.reduceat(precision, first)
        curves = np.maximum.accumulate(curves[::-1], axis=0)[::-1]
        if self.column == -1:
            scores = curves[0].copy()
            for level in range(1, RECALL_POINTS):
                scores += curves[level]  # iP[0] + iP[0.01] + ..., left to right, as sum()
            scores /= RECALL_POINTS
        else:
            scores = curves[self.column]
        values[lines.segment_run, lines.segment_topic] = scores
        return values


class ArticleRescorer(_Reductions):
    """Article measures MAP and P@k (`focal.evaluation.measures.articles.topic`) the same way: each
    run's articles ranked once, the ranks of its relevant ones kept; a trial keeps some of them.
    AP sums found/rank over the kept ones in rank order, left to right as the topic-by-topic
    loop does (a dropped one adds 0.0, which changes no sum), and divides by the kept count."""

    def __init__(
        self, qrels: Qrels, runs: Sequence[Run | RunColumns], measure: str,
        topics: Sequence[str],
    ) -> None:  # fmt: skip
        from focal.evaluation.measures.articles.topic import article_ranking

        super().__init__(runs, topics)
        self.cutoff = int(measure[2:]) if measure.startswith("P@") else 0
        position = {topic: index for index, topic in enumerate(self.topics)}
        prepared = PreparedQrels(qrels)
        ranks: list[list[int]] = []
        articles: list[list[int]] = []
        segment_run, segment_topic = [], []
        for run_index, run in enumerate(runs):
            for topic, results in run.topics.items():
                if topic not in position or topic not in qrels:
                    continue
                gains = prepared.article_judgements(topic).gains
                ranking = article_ranking(results)
                hits = [(rank, a) for rank, a in enumerate(ranking, 1) if a in gains]
                ranks.append([rank for rank, _ in hits])
                articles.append([self._article(topic, a, qrels[topic][a]) for _, a in hits])
                segment_run.append(run_index)
                segment_topic.append(position[topic])
        width = max((len(r) for r in ranks), default=0)
        self.ranks = np.ones((len(ranks), width), np.int64)
        self.articles = np.full((len(ranks), width), -1, np.int64)
        for row, (found, ids) in enumerate(zip(ranks, articles, strict=True)):
            self.ranks[row, : len(found)] = found
            self.articles[row, : len(ids)] = ids
        self.segment_run = np.array(segment_run, np.int64)
        self.segment_topic = np.array(segment_topic, np.int64)

    def score(self, qrels: Mapping[str, Mapping[str, Judgement]]) -> ScoreMatrix | None:
        """As `Rescorer.score`."""
        found = self._kept(qrels)
        if found is None:
            return None
        kept, _, relevant = found
        values = np.zeros((len(self.runs), len(self.topics)))
        if not len(self.segment_run):
            return ScoreMatrix(self.runs, self.topics, values)
        stays = kept[self.articles]  # −1 (padding) reads the last entry, always False
        if self.cutoff:
            scores = (stays & (self.ranks <= self.cutoff)).sum(axis=1) / self.cutoff
        else:
            counts = np.cumsum(stays, axis=1)
            terms = np.where(stays, counts / self.ranks, 0.0)
            totals = np.cumsum(terms, axis=1)[:, -1] if terms.shape[1] else np.zeros(len(terms))
            wanted = relevant[self.segment_topic]
            scores = np.divide(totals, wanted, out=np.zeros(len(totals)), where=wanted > 0)
        values[self.segment_run, self.segment_topic] = scores
        return ScoreMatrix(self.runs, self.topics, values)


Rescoring = Rescorer | ArticleRescorer
"""Either re-scorer: `score(qrels)` gives the runs' scores on a reduction, or None."""


def rescorer(
    qrels: Qrels, runs: Sequence[Run | RunColumns], task: str, measure: str,
    topics: Sequence[str],
) -> Rescoring | None:  # fmt: skip
    """A re-scorer when the task and measure are covered (see the module doc), else None."""
    if task == "articles":
        covered = measure == "MAP" or (measure.startswith("P@") and measure[2:].isdigit())
        return ArticleRescorer(qrels, runs, measure, topics) if covered else None
    if task not in TASKS or _row_reader(measure) is None:
        return None
    return Rescorer(qrels, runs, task, measure, topics)


def _lines_of(results: object, file: str) -> TopicLines:
    if isinstance(results, TopicColumns):
        return TopicLines.from_columns(results)
    return TopicLines.from_results(results, file)  # type: ignore[arg-type]


def _concatenate(arrays: list[Ints]) -> Ints:
    return np.concatenate(arrays).astype(np.int64) if arrays else np.zeros(0, np.int64)


def _segment_cumsum(values: Ints, segment: Ints) -> Ints:
    """Cumulated sums restarting where `segment` (non-decreasing) changes (integers: exact)."""
    running = np.cumsum(values)
    if not len(running):
        return running
    first = np.flatnonzero(np.concatenate([[True], segment[1:] != segment[:-1]]))
    before = np.concatenate([[0], running[first[1:] - 1]])
    result: Ints = running - np.repeat(before, np.diff(np.concatenate([first, [len(running)]])))
    return result
