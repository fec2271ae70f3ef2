"""ir_measures' measures that neither trec_eval nor gdeval.pl computes, as two other providers
of ir_measures compute them (MacAvaney et al., ECIR 2022; docs/measures.md, "ir_measures'
measures"):

- `RBP(p=…, rel=…)@k`, rank-biased precision (Moffat & Zobel, TOIS 2008) as trectools'
  `get_rbp` (Palotti et al., SIGIR 2019) computes it for ir_measures' trectools provider: the
  run's rows sorted by topic id (string order), then score descending, ties in file order; the
  first k of each topic kept (every row without @k); rank r weighs (1 − p)·p^(r−1), and each
  stretch of equal scores shares the mean of its weights. trectools finds that stretch on the
  whole sorted table, so a topic's last kept score equal to the next topic's first joins them
  in one stretch (run-only topics included): the averaging crosses topics, and Focal does the
  same to equal it. RBP sums
  weight × grade over the documents graded above 0 (graded gains, not rescaled: it may exceed
  1); with `rel=g`, weight × 1 over those graded g or more (the binary relevance ir_measures'
  `rel` names: its trectools provider itself refuses `rel`). p defaults to 0.8; no residual.
- `Compat(p=…, normalize=…)`, compatibility (Clarke, Vtyurina & Smucker, TOIS 2021), as
  ir_measures' compat provider computes it: rank-biased overlap, to the depth of the longer
  list, between the ranking (score descending, document id ascending) and the ideal one
  (documents graded above 0, grade descending, then the run's score, 0 for those it lacks,
  then qrels order); with `normalize=True` (the default) divided by the ideal's overlap with
  itself. p defaults to 0.95.

Both take plain arrays (`engine.vocabulary` reads the files) and answer every topic the qrels
know; a topic without a value scores 0, as ir_measures' evaluators answer it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

RBP_PERSISTENCE = 0.8  # ir_measures' RBP default p (trectools' too)
COMPAT_PERSISTENCE = 0.95  # ir_measures' Compat default p


@dataclass(frozen=True)
class Rows:
    """A run's rows in file order: each row's topic code (an index into `names`, the qrels'
    topics first, then those only the run has), document id, score and grade (below 0: absent
    from the qrels or judged with a negative grade)."""

    codes: Ints
    names: Sequence[str]
    docs: Sequence[bytes]
    scores: Floats
    grades: Ints


@dataclass(frozen=True)
class Judged:
    """The qrels' rows in file order: topic code (as `Rows.codes`), document id, grade."""

    codes: Ints
    docs: Sequence[bytes]
    grades: Ints


def rank_biased_precision(
    rows: Rows, p: float | None = None, depth: int | None = None, level: int | None = None
) -> Floats:
    """trectools' RBP per topic code (`rows.names`' order), as the module docstring says
    (p None: `RBP_PERSISTENCE`; depth None: every row; level None: graded gains).

    >>> rows = Rows(np.array([0, 0, 1]), ["a", "b"], [b"x", b"y", b"z"],
    ...             np.array([2.0, 2.0, 1.0]), np.array([2, -1, 1]))
    >>> [round(v, 6) for v in rank_biased_precision(rows).tolist()]
    [0.36, 0.2]
    """
    count = len(rows.codes)
    if not count:
        return np.zeros(len(rows.names))
    by_name = sorted(range(len(rows.names)), key=lambda code: rows.names[code])
    place = np.empty(len(rows.names), dtype=np.int64)
    place[by_name] = np.arange(len(rows.names))
    order = np.lexsort((-rows.scores, place[rows.codes]))  # stable: ties keep file order
    topics = place[rows.codes][order]
    starts = np.flatnonzero(np.concatenate(([True], topics[1:] != topics[:-1])))
    sizes = np.diff(np.append(starts, count))
    position = np.arange(count) - np.repeat(starts, sizes)
    within = position < depth if depth is not None else np.ones(count, dtype=bool)
    kept, ranks = order[within], position[within] + 1
    scores = rows.scores[kept]
    p = RBP_PERSISTENCE if p is None else p
    weights = (1.0 - p) * np.power(p, ranks - 1)
    stretch = np.cumsum(np.concatenate(([True], scores[1:] != scores[:-1]))) - 1
    shared = (np.bincount(stretch, weights) / np.bincount(stretch))[stretch]
    grades = rows.grades[kept]
    if level is None:
        relevant, gains = grades > 0, grades.astype(np.float64)
    else:
        relevant, gains = grades >= level, np.ones(len(grades))
    codes = rows.codes[kept][relevant]
    sums = np.bincount(codes, shared[relevant] * gains[relevant], minlength=len(rows.names))
    return sums.astype(np.float64)


def compatibility(
    rows: Rows, judged: Judged, p: float | None = None, normalize: bool = True
) -> dict[int, float]:
    """The compat provider's Compat per topic code the run answers and the qrels know (p None:
    `COMPAT_PERSISTENCE`).

    >>> rows = Rows(np.array([0, 0]), ["a"], [b"x", b"y"], np.array([1.0, 2.0]),
    ...             np.array([0, 1]))
    >>> judged = Judged(np.array([0, 0]), [b"x", b"y"], np.array([0, 1]))
    >>> compatibility(rows, judged)
    {0: 1.0}
    """
    scores: dict[int, dict[bytes, float]] = {}
    for code, doc, score in zip(rows.codes.tolist(), rows.docs, rows.scores.tolist(), strict=True):
        scores.setdefault(code, {})[doc] = score
    ideal: dict[int, list[tuple[bytes, int]]] = {}
    for code, doc, grade in zip(judged.codes.tolist(), judged.docs, judged.grades.tolist(),
                                strict=True):  # fmt: skip
        ideal.setdefault(code, [])
        if grade > 0:
            ideal[code].append((doc, grade))
    values = {}
    for code, run in scores.items():
        if code not in ideal:
            continue
        ranking = sorted(run, key=lambda doc: (-run[doc], doc))
        best = sorted(ideal[code], key=lambda pair: (-pair[1], -run.get(pair[0], 0.0)))
        persistence = COMPAT_PERSISTENCE if p is None else p
        values[code] = _compat(ranking, [doc for doc, _ in best], persistence, normalize)
    return values


def _compat(ranking: list[bytes], ideal: list[bytes], p: float, normalize: bool) -> float:
    depth = max(len(ranking), len(ideal))
    at = {doc: rank for rank, doc in enumerate(ranking)}
    both = [max(rank, at[doc]) for rank, doc in enumerate(ideal) if doc in at]
    overlap = np.cumsum(np.bincount(np.array(both, dtype=np.int64), minlength=depth)[:depth])
    score = _overlap(overlap, p)
    if normalize:
        itself = _overlap(np.minimum(np.arange(1, depth + 1), len(ideal)), p)
        if itself > 0.0:
            score /= itself
    return score


def _overlap(overlap: Ints, p: float) -> float:
    """Rank-biased overlap to the depth of `overlap` (the common documents of the two lists'
    first i): Σ p^i·overlap(i)/i ÷ Σ p^i, summed in rank order as the compat provider sums it."""
    depth = len(overlap)
    steps = np.full(depth, p)
    steps[0] = 1.0
    weights = np.cumprod(steps)
    terms = weights * overlap / np.arange(1, depth + 1)
    return float(np.cumsum(terms)[-1] / np.cumsum(weights)[-1])
