"""Focused and Thorough tasks: character precision/recall and interpolated precision (iP, AiP).

Every line of a topic is a rank. After rank r: `relret[r] = Σ rel(p)`, `ret[r] = Σ size(p)`,
`P[r] = relret/ret`, `R[r] = relret/T` (T: the topic's relevant characters). Official recall bins
are `floor(100·R)` in IEEE double (recall 0.29 lands in bin 28); `strict` uses exact integers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Span
from focal.evaluation.measures.passages.text import Ints, RelevantText, TopicLines, overlap_length

Floats = npt.NDArray[np.float64]
Value = int | float

RECALL_POINTS = 101
_IP_ROWS = tuple((hundredths, f"iP[{hundredths / 100:.2f}]") for hundredths in (0, 1, 5, 10))


def ratio(part: int, whole: int) -> float:
    """`part / whole`, 0 when `whole` is 0 (art_prec, art_rec). Reference: Kamps et al. 2007.

    >>> ratio(57, 100), ratio(3, 0)
    (0.57, 0.0)
    """
    return part / whole if whole else 0.0


def f1(precision: float, recall: float) -> float:
    """Harmonic mean `2·P·R / (P + R)`, 0 when both are 0. Reference: Kamps et al. 2007.

    >>> f1(0.5, 1.0)
    0.6666666666666666
    >>> f1(0.0, 0.0)
    0.0
    """
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def character_precision(rel_ret_size: int, ret_size: int) -> float:
    """char_prec = rel_ret_size / ret_size: the share of retrieved text that is relevant.

    Reference: Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862).

    >>> character_precision(25, 100)
    0.25
    """
    return ratio(rel_ret_size, ret_size)


def character_recall(rel_ret_size: int, rel_size: int) -> float:
    """char_rec = rel_ret_size / rel_size: the share of the relevant text retrieved.

    Reference: Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862).

    >>> character_recall(25, 50)
    0.5
    """
    return ratio(rel_ret_size, rel_size)


def article_counts(articles: Sequence[str], text: RelevantText) -> tuple[int, int, int]:
    """(num_ret, num_rel, num_rel_ret): distinct articles retrieved, relevant, both.

    Reference: Kamps et al. 2007 (article-level precision and recall of passage runs).

    >>> from focal.evaluation.formats.records import Judgement
    >>> text = RelevantText({"a": Judgement("1", "a", 4, 9, None, ((0, 4),), 0)})
    >>> article_counts(["a", "a", "b"], text)
    (2, 1, 1)
    """
    retrieved = set(articles)
    return len(retrieved), text.num_rel, sum(1 for a in retrieved if text.is_relevant(a))


def recall_bins(relret: Ints, rel_size: int, levels: int, strict: bool = False) -> Ints:
    """The recall bin of each rank: `floor(levels·R)` in double, or exactly when `strict`.

    Reference: Kamps et al. 2007; the double rounding is the official program's.

    >>> relret = np.array([29])  # recall 0.29: 100 * 0.29 is 28.999999999999996 in double
    >>> recall_bins(relret, 100, 100).tolist(), recall_bins(relret, 100, 100, strict=True).tolist()
    ([28], [29])
    """
    if rel_size <= 0:
        return np.zeros(len(relret), np.int64)
    if strict:
        return (levels * relret) // rel_size
    return np.floor(levels * (relret / rel_size)).astype(np.int64)


def interpolated_precision(precision: Floats, bins: Ints, levels: int) -> list[float]:
    """iP[i] = max precision at any rank whose recall bin is ≥ i; 0 above the final recall.

    Reference: Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862), section 3.

    >>> interpolated_precision(np.array([1.0, 0.5, 0.6]), np.array([0, 1, 2]), 3)
    [1.0, 0.6, 0.6, 0.0]
    """
    curve = np.zeros(levels + 1)
    np.maximum.at(curve, bins, precision)
    return [float(x) for x in np.maximum.accumulate(curve[::-1])[::-1]]


def average_interpolated_precision(curve: Sequence[float]) -> float:
    """AiP = Σ_{i=0..100} iP[i/100] / 101 (summed in order, as the official program).

    Reference: Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862); MAiP is its mean.

    >>> average_interpolated_precision([1.0] * 51 + [0.0] * 50)
    0.504950495049505
    """
    return sum(curve) / len(curve)


def _subtract(span: Span, seen: list[Span]) -> list[Span]:
    """The parts of `span` outside the (disjoint) `seen` spans."""
    pieces, (start, end) = [], span
    for s, e in sorted(seen):
        if e <= start or s >= end:
            continue
        if s > start:
            pieces.append((start, s))
        start = max(start, e)
    if start < end:
        pieces.append((start, end))
    return pieces


def unseen_parts(lines: TopicLines, text: RelevantText) -> tuple[Ints, Ints]:
    """Thorough: (rel, size) of each line where, in a relevant article, only the part of a
    result not covered by earlier results of that article counts. Reference: Kamps et al. 2007.
    """
    keys = text.line_keys(lines)
    rel = text.key_overlap(keys, lines.starts, lines.ends)
    size = lines.sizes.copy()
    seen: dict[str, list[Span]] = {}
    for i in np.flatnonzero(keys >= 0).tolist():
        article = lines.article(i)
        spans = seen.setdefault(article, [])
        span = (int(lines.starts[i]), int(lines.ends[i]))
        if spans:
            passages = text.judgements[article].passages
            pieces = _subtract(span, spans)
            rel[i] = sum(overlap_length(piece, passages) for piece in pieces)
            size[i] = sum(e - s for s, e in pieces)
        spans.append(span)
    return rel, size


def check_no_overlap(lines: TopicLines, file: str) -> None:
    """Focused, RiC: a result may not overlap an earlier result of its article (X excepted)."""
    article_codes = lines.codes
    real = np.flatnonzero(~lines.missing)
    order = real[np.lexsort((lines.starts[real], article_codes[real]))]
    same = article_codes[order[1:]] == article_codes[order[:-1]]
    clash = np.flatnonzero(same & (lines.starts[order[1:]] < lines.ends[order[:-1]]))
    if len(clash):
        a, b = sorted((int(order[clash[0]]), int(order[clash[0] + 1])))
        raise FormatError(
            file,
            int(lines.lines[b]),
            f"result overlaps the result of line {int(lines.lines[a])} in article "
            f"{lines.article(b)} (overlap is only allowed in thorough runs)",
        )


def evaluate_topic(
    lines: TopicLines, text: RelevantText, *, thorough: bool, strict: bool
) -> tuple[dict[str, Value], list[float], list[str]]:
    """Per-topic focused/thorough values, the 101-point iP curve and warnings."""
    if thorough:
        rel, size = unseen_parts(lines, text)
    else:
        rel, size = text.line_overlap(lines), lines.sizes
    relret, ret = np.cumsum(rel), np.cumsum(size)
    precision = np.divide(relret, ret, out=np.zeros(len(ret)), where=ret > 0)
    bins = recall_bins(relret, text.rel_size, RECALL_POINTS - 1, strict)
    warnings = []
    if len(bins) and bins.max() >= RECALL_POINTS:
        warnings.append(f"recall above 1 at {int((bins >= RECALL_POINTS).sum())} ranks: dropped")
        precision, bins = precision[bins < RECALL_POINTS], bins[bins < RECALL_POINTS]
    curve = interpolated_precision(precision, bins, RECALL_POINTS - 1)
    num_rel_ret = int((text.unique_keys(lines) >= 0).sum())
    ret_size, rel_ret_size = int(ret[-1]) if len(ret) else 0, int(relret[-1]) if len(ret) else 0
    counts = (len(lines.unique), text.num_rel, num_rel_ret, ret_size, text.rel_size, rel_ret_size)
    return topic_values(*counts, curve), curve, warnings


def topic_values(
    num_ret: int,
    num_rel: int,
    num_rel_ret: int,
    ret_size: int,
    rel_size: int,
    rel_ret_size: int,
    curve: list[float],
) -> dict[str, Value]:
    """A focused/thorough topic's printed values, in the official order, from its article and
    character counts and its 101-point iP curve. Reference: Kamps et al. 2007."""
    art_prec, art_rec = ratio(num_rel_ret, num_ret), ratio(num_rel_ret, num_rel)
    char_prec = character_precision(rel_ret_size, ret_size)
    char_rec = character_recall(rel_ret_size, rel_size)
    values: dict[str, Value] = {
        "num_ret": num_ret,
        "num_rel": num_rel,
        "num_rel_ret": num_rel_ret,
        "ret_size": ret_size,
        "rel_size": rel_size,
        "rel_ret_size": rel_ret_size,
        "art_prec": art_prec,
        "art_rec": art_rec,
        "art_f1": f1(art_prec, art_rec),
        "char_prec": char_prec,
        "char_rec": char_rec,
        "char_f1": f1(char_prec, char_rec),
    }
    for hundredths, row in _IP_ROWS:  # iP[0.00], iP[0.01], iP[0.05], iP[0.10]
        values[row] = curve[hundredths]
    values["AiP"] = average_interpolated_precision(curve)
    return values
