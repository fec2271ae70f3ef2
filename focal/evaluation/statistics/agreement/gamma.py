"""Mathet et al.'s γ of assessors' passages, from the optional `pygamma-agreement` package.

γ (Mathet, Widlöcher & Métivier 2015, "The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment", Computational Linguistics 41(3)) aligns the
units of the annotators (each unit of one with at most one of the other, or with nothing), sums
the dissimilarities of the best alignment, and compares that with the same for continua sampled
at random from the annotations: γ = 1 − observed/expected. Unlike α_U (`unitizing`) it tolerates
passages that only roughly match. `pygamma-agreement` computes it (cvxpy and numba: the optional
extra `focal[gamma]`); this module imports it only when γ is asked for and says in one line how
to install it when it is missing.

Passages are one category ("relevant"); the dissimilarity is the package's positional one
(`PositionalSporadicDissimilarity`: squared begin and end differences over the units' summed
lengths; an unaligned unit costs 1). A topic's articles both judged are laid side by side as
one continuum, as for α_U. Articles one assessor found relevant and the other not contribute
units that stay unaligned. The expected disagreement comes from random samples: numpy's global
generator is seeded for the call (and restored after), so a table is reproducible.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from focal.evaluation.formats.records import merge_passages
from focal.evaluation.statistics.agreement.unitizing import UnitizedArticle

if TYPE_CHECKING:
    from collections.abc import Iterator

MISSING = "γ needs the optional extra: pip install 'focal[gamma]' (pygamma-agreement, cvxpy, numba)"
"""The one line said when `pygamma-agreement` is not installed."""

SEED = 20150901
"""numpy's seed for the random continua of the expected disagreement."""


GAMMA_MODULES = ("pygamma_agreement", "cvxpy", "numba")
"""The top-level modules γ imports when it is computed."""


class GammaUnavailableError(RuntimeError):
    """`pygamma-agreement` is not installed (the message says how to install it)."""


def available() -> bool:
    """Whether γ can be computed here: the optional package and its solvers are installed.

    Found without importing them (`importlib.util.find_spec` reads no module): importing
    cvxpy and numba takes tens of seconds cold, and a page that only offers γ must not wait.

    >>> available() in (True, False)
    True
    """
    return all(importlib.util.find_spec(name) is not None for name in GAMMA_MODULES)


@contextmanager
def _quiet_and_seeded() -> Iterator[None]:
    """The package warns on the root logger about its solver, and samples with numpy's global
    generator: silence the one and seed the other, restoring both afterwards."""
    import numpy

    root = logging.getLogger()
    level, state = root.level, numpy.random.get_state()
    root.setLevel(logging.ERROR)
    numpy.random.seed(SEED)
    try:
        yield
    finally:
        root.setLevel(level)
        numpy.random.set_state(state)


def gamma(articles: Sequence[UnitizedArticle], samples: int = 30) -> float | None:
    """γ of two or more assessors' passages over the articles as one continuum.

    None when fewer than two assessors highlighted anything (no alignment to judge).
    GammaUnavailableError (with `MISSING`) when the optional package is not installed.

    >>> gamma([]) if available() else None  # no article: nothing to align
    """
    try:
        from pyannote.core import Segment
        from pygamma_agreement import Continuum, PositionalSporadicDissimilarity
    except ImportError as error:
        raise GammaUnavailableError(MISSING) from error
    if not articles:
        return None
    observers = len(articles[0].passages)
    continuum: Any = Continuum()
    names = [f"assessor{index}" for index in range(observers)]
    for name in names:
        continuum.add_annotator(name)
    offset, highlighted = 0, set()
    for article in articles:
        for name, spans in zip(names, article.passages, strict=True):
            for start, end in merge_passages(spans):
                continuum.add(name, Segment(offset + start, offset + end), "relevant")
                highlighted.add(name)
        offset += article.length
    if len(highlighted) < 2:
        return None
    with _quiet_and_seeded():
        result = continuum.compute_gamma(
            PositionalSporadicDissimilarity(delta_empty=1.0), n_samples=samples
        )
    return float(result.gamma)
