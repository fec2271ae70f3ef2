"""How many relevant articles a topic's pool still holds among the unjudged ones.

The estimator stratifies the pool by pool rank (strata of `stratum` articles, 25 by default) and
assumes that, within a stratum, the judged articles are as likely to be relevant as the unjudged
ones: each stratum's unjudged articles count at its judged articles' rate of relevant articles,
and a stratum without judgements takes the rate of the nearest judged stratum above it (the
overall rate when there is none). The assumption holds for the `rank` and `random` orders; the
adaptive orders judge likely-relevant articles first, so under them the estimate is an upper
bound, which is what an organiser deciding whether to stop needs. docs/pooling.md has an example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def unjudged_relevant(pool: Sequence[str], judged: Mapping[str, bool], stratum: int = 25) -> float:
    """Estimated relevant articles among the articles of `pool` (in pool-rank order) that
    `judged` (article -> relevant) does not hold.

    >>> pool = [f"a{i}" for i in range(6)]
    >>> # strata a0-a2 (1 unjudged at rate 1/2) and a3-a5 (2 unjudged at rate 1/1)
    >>> unjudged_relevant(pool, {"a0": True, "a1": False, "a3": True}, stratum=3)
    2.5
    """
    if stratum < 1:
        raise ValueError(f"a stratum holds at least one article, got {stratum}")
    total_judged = sum(1 for article in pool if article in judged)
    overall = (
        sum(1 for article in pool if judged.get(article, False)) / total_judged
        if total_judged
        else 0.0
    )
    estimate, rate = 0.0, None
    for start in range(0, len(pool), stratum):
        block = pool[start : start + stratum]
        seen = [judged[article] for article in block if article in judged]
        if seen:
            rate = sum(seen) / len(seen)
        estimate += (len(block) - len(seen)) * (overall if rate is None else rate)
    return estimate
