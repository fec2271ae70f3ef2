"""In Context tasks (Relevant in Context, Best in Context, T2I): generalised precision.

Ranks are articles (consecutive lines of one article form one rank). Each article gets a score in
[0, 1]; `gP[r] = Σ_{i≤r} score_i / r`, `gR[r]` = relevant articles in ranks 1..r / N, and
`AgP = Σ_{r: article r relevant} gP[r] / N`. The official program reports gP[n] for gP[k] when a
run has only n < k ranks; `strict` divides by k instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Span
from focal.evaluation.measures.passages.focused import Value, interpolated_precision, recall_bins
from focal.evaluation.measures.passages.text import Ints, RelevantText, TopicLines

CUTOFFS = (1, 2, 3, 5, 10, 25, 50)
RECALL_POINTS = 11


def ric_score(rel: int, ret: int, rel_chars: int, beta: float = 0.25) -> float:
    """Relevant in Context article score: F_β of the article's retrieved text.

    `Pd = rel/ret`, `Rd = rel/rel_chars`, `F = (1+β²)·Pd·Rd / (β²·Pd + Rd)`, 0 when nothing
    relevant was retrieved. Reference: Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862).

    >>> ric_score(50, 100, 50)  # Pd = 0.5, Rd = 1: 1.0625·0.5 / 1.03125
    0.5151515151515151
    >>> ric_score(0, 100, 50)
    0.0
    """
    if rel <= 0 or ret <= 0 or rel_chars <= 0:
        return 0.0
    precision, recall, b2 = rel / ret, rel / rel_chars, beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def bic_score(bep: int | None, offset: int, n: int = 500) -> float:
    """Best in Context article score: `(n − d)/n` with `d = |bep − offset|` when `d ≤ n`, else 0.

    0 for an article without a best entry point. Reference: Geva et al., Overview of the INEX
    2009 Ad Hoc Track (LNCS 6203); Kamps et al. 2007.

    >>> bic_score(100, 350), bic_score(100, 700), bic_score(None, 0)
    (0.5, 0.0, 0.0)
    """
    if bep is None:
        return 0.0
    distance = abs(bep - offset)
    return (n - distance) / n if distance <= n else 0.0


def _pieces(span: Span, passages: Sequence[Span]) -> list[tuple[int, bool]]:
    """`span` cut into (length, relevant?) pieces in reading order."""
    pieces, (position, end) = [], span
    for p_start, p_end in passages:
        if p_end <= position:
            continue
        if p_start >= end:
            break
        if p_start > position:
            pieces.append((p_start - position, False))
            position = p_start
        stop = min(p_end, end)
        pieces.append((stop - position, True))
        position = stop
        if position >= end:
            break
    if position < end:
        pieces.append((end - position, False))
    return pieces


def t2i_score(
    retrieved: Sequence[Span], passages: Sequence[Span], article_chars: int, irr: int = 300
) -> float:
    """T2I article score: precision of what a reader reads before tolerating `irr` irrelevant
    characters. The reader reads the retrieved passages in reading (offset) order, then the
    unread rest of the article from its start; reading stops as soon as `irr` irrelevant
    characters have been read. Score = relevant read / read (0 when nothing was read).

    Reference: Arvola, Kekäläinen, Junkkari, Expected reading effort in focused retrieval
    evaluation (Information Retrieval 13(5), 2010); Overview of the INEX 2010 Ad Hoc Track.
    Fitted to the official program's output (golden t2i file).

    >>> t2i_score([(0, 1664)], [(275, 316), (370, 944)], 2061)  # 41 relevant of 341 read
    0.12023460410557185
    >>> t2i_score([(300, 400)], [(300, 400)], 1000, irr=50)  # then reads 0..50 of the rest
    0.6666666666666666
    """
    reading = sorted(retrieved)
    position = 0
    for start, end in sorted(retrieved):
        if min(start, article_chars) > position:
            reading.append((position, min(start, article_chars)))
        position = max(position, end)
    if position < article_chars:
        reading.append((position, article_chars))
    relevant = read = irrelevant = 0
    for span in reading:
        for length, is_relevant in _pieces(span, passages):
            if is_relevant:
                relevant += length
                read += length
                continue
            taken = min(length, irr - irrelevant)
            irrelevant += taken
            read += taken
            if irrelevant >= irr:
                return relevant / read if read else 0.0
    return relevant / read if read else 0.0


def article_blocks(lines: TopicLines, file: str, one_line: bool) -> Ints:
    """The index of the first line of each rank; returning to an article is an error."""
    codes = lines.codes
    firsts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    if len(firsts) != len(lines.unique):
        # codes number articles in first-seen order: block j holds article j until one returns
        back = int(firsts[np.flatnonzero(codes[firsts] != np.arange(len(firsts)))[0]])
        raise FormatError(
            file, int(lines.lines[back]), f"article {lines.article(back)} comes back after "
            "other articles (in context runs give each article's results together)"
        )  # fmt: skip
    if one_line and len(firsts) != len(lines):
        second = int(np.flatnonzero(codes[1:] == codes[:-1])[0]) + 1
        raise FormatError(
            file, int(lines.lines[second]), f"a second result for article "
            f"{lines.article(second)} (Best in Context allows one result per article)"
        )  # fmt: skip
    return firsts


def generalised_precision(
    scores: Sequence[float], relevant: Sequence[bool], num_rel: int, strict: bool = False
) -> tuple[dict[str, Value], list[float]]:
    """gP[k], gR[k] at the official cut-offs, AgP, and the 11-point interpolated gP curve.

    `gP[r] = Σ_{i≤r} score_i / r`; `gR[r] = |{i ≤ r: relevant}| / N`;
    `AgP = Σ_{r relevant} gP[r] / N`. Official quirk: gP[k] = gP[n] when n < k ranks.
    Reference: Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862), section 4.

    >>> values, curve = generalised_precision([1.0, 0.0, 0.5], [True, False, True], 4)
    >>> values["gP[2]"], values["gR[3]"], values["AgP"], values["gP[5]"]
    (0.5, 0.5, 0.375, 0.5)
    >>> generalised_precision([1.0, 0.0, 0.5], [True, False, True], 4, strict=True)[0]["gP[5]"]
    0.3
    """
    n = len(scores)
    cumulative = np.cumsum(np.asarray(scores, dtype=np.float64))
    found = np.cumsum(np.asarray(relevant, dtype=np.int64))
    gp = cumulative / np.arange(1, n + 1)
    gr = found / num_rel if num_rel else np.zeros(n)
    values: dict[str, Value] = {}
    for k in CUTOFFS:
        at = min(k, n) - 1
        if n == 0:
            values[f"gP[{k}]"], values[f"gR[{k}]"] = 0.0, 0.0
            continue
        values[f"gP[{k}]"] = float(cumulative[at] / k) if strict else float(gp[at])
        values[f"gR[{k}]"] = float(gr[at])
    at_relevant = gp[np.asarray(relevant, dtype=bool)] if n else gp
    values["AgP"] = sum(at_relevant.tolist()) / num_rel if num_rel else 0.0
    bins = recall_bins(found, num_rel, RECALL_POINTS - 1, strict)
    return values, interpolated_precision(gp, bins, RECALL_POINTS - 1)


def article_scores(
    task: str,
    lines: TopicLines,
    firsts: Ints,
    text: RelevantText,
    rel: Ints,
    *,
    beta: float,
    n: int,
    irr: int,
) -> list[float]:
    """The score of each ranked article for `task` (ric, bic or t2i); 0 unless relevant."""
    scores = [0.0] * len(firsts)
    if len(firsts) == 0:
        return scores
    block_ends = np.r_[firsts[1:], len(lines)].tolist()
    rel_sums = np.add.reduceat(rel, firsts).tolist()
    ret_sums = np.add.reduceat(lines.sizes, firsts).tolist()
    starts, ends = lines.starts.tolist(), lines.ends.tolist()
    for block in np.flatnonzero(text.line_keys(lines)[firsts] >= 0).tolist():
        first, end = int(firsts[block]), block_ends[block]
        judgement = text.judgements[lines.article(first)]
        if task == "ric":
            scores[block] = ric_score(rel_sums[block], ret_sums[block], judgement.rel_chars, beta)
        elif task == "bic":
            scores[block] = bic_score(judgement.bep, starts[first], n)
        else:
            spans = list(zip(starts[first:end], ends[first:end], strict=True))
            scores[block] = t2i_score(spans, judgement.passages, judgement.article_chars, irr)
    return scores


def evaluate_topic(
    task: str,
    lines: TopicLines,
    text: RelevantText,
    *,
    file: str,
    beta: float = 0.25,
    n: int = 500,
    irr: int = 300,
    strict: bool = False,
) -> tuple[dict[str, Value], list[float]]:
    """Per-topic values of an In Context task and its 11-point interpolated gP curve."""
    firsts = article_blocks(lines, file, one_line=task == "bic")
    rel = text.line_overlap(lines)
    scores = article_scores(task, lines, firsts, text, rel, beta=beta, n=n, irr=irr)
    relevant = (text.line_keys(lines)[firsts] >= 0).tolist()
    num_ret, num_rel = len(lines.unique), text.num_rel
    num_rel_ret = int((text.unique_keys(lines) >= 0).sum())
    sized = task != "bic"  # the official program does not count text for Best in Context
    values: dict[str, Value] = {
        "num_ret": num_ret,
        "num_rel": num_rel,
        "num_rel_ret": num_rel_ret,
        "ret_size": int(lines.sizes.sum()) if sized else 0,
        "rel_size": text.rel_size,
        "rel_ret_size": int(rel.sum()) if sized else 0,
    }
    gp_values, curve = generalised_precision(scores, relevant, num_rel, strict)
    values.update(gp_values)
    return values, curve
