"""The tests and corrections equal scipy's and statsmodels' on real per-topic values: the AiP
and AgP of the four shared INEX 2010 runs, to 1e-12."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from focal.evaluation.formats.fol.columns import read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.measures.evaluate import evaluate
from focal.evaluation.statistics.significance.classical import sign_tests, t_tests, wilcoxon_tests
from focal.evaluation.statistics.significance.corrections import correct
from focal.evaluation.statistics.significance.pairing import PairedScores, pair_by_topic
from focal.evaluation.statistics.significance.tukey import tukey_hsd

from ...conftest import shared_path

RUNS = ("indri-passages", "indri-passages-b", "bert-passages", "bert-passages-half")


@pytest.fixture(scope="module", params=[("focused", "fol", "AiP"), ("ric", "ric", "AgP")])
def real(request: pytest.FixtureRequest) -> PairedScores:
    task, suffix, measure = request.param
    folder = shared_path("inex2010")
    qrels = read_qrels(folder / "inex2010.qrels")
    values = {}
    for name in RUNS:
        run = read_run_columns(folder / "runs" / f"{name}.{suffix}.run")
        result = evaluate(qrels, run, task, complete=True)
        values[name] = {t.topic: float(t.values[measure]) for t in result.topics}
    return pair_by_topic(values, complete=True, topics=list(qrels))


def columns(paired: PairedScores) -> list[tuple[np.ndarray, np.ndarray]]:
    m = paired.matrix
    return [(m[:, i], m[:, j]) for i, j in combinations(range(m.shape[1]), 2)]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_t_equals_ttest_rel(real: PairedScores, alternative: str) -> None:
    ours = t_tests(real.matrix, alternative)
    for n, (a, b) in enumerate(columns(real)):
        theirs = stats.ttest_rel(a, b, alternative=alternative)
        assert ours.statistic[n] == pytest.approx(theirs.statistic, abs=1e-12)
        assert ours.p[n] == pytest.approx(theirs.pvalue, abs=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_equals_scipy(real: PairedScores, alternative: str) -> None:
    ours = wilcoxon_tests(real.matrix, alternative)
    for n, (a, b) in enumerate(columns(real)):
        theirs = stats.wilcoxon(
            a, b, zero_method="wilcox", correction=False, alternative=alternative
        )
        assert ours.p[n] == pytest.approx(theirs.pvalue, abs=1e-12)
        d = a - b
        d = d[d != 0]
        ranks = stats.rankdata(np.abs(d))
        assert ours.statistic[n] == ranks[d > 0].sum() - ranks[d < 0].sum()


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_sign_equals_binomtest(real: PairedScores, alternative: str) -> None:
    ours = sign_tests(real.matrix, alternative)
    for n, (a, b) in enumerate(columns(real)):
        plus, minus = int((a > b).sum()), int((a < b).sum())
        theirs = stats.binomtest(plus, plus + minus, 0.5, alternative=alternative)
        assert ours.p[n] == pytest.approx(theirs.pvalue, abs=1e-12)
        assert ours.statistic[n] == plus - minus


@pytest.mark.parametrize("method", ["bonferroni", "holm", "bh", "by"])
def test_corrections_equal_multipletests(real: PairedScores, method: str) -> None:
    p = t_tests(real.matrix).p
    name = {"bh": "fdr_bh", "by": "fdr_by"}.get(method, method)
    assert correct(p, method) == pytest.approx(multipletests(p, method=name)[1], abs=1e-12)


def test_blocked_tukey_equals_a_two_way_anova_fit(real: PairedScores) -> None:
    # An independent route to the same numbers: statsmodels' least-squares fit of
    # score ~ run + topic gives the residual mean square and its degrees of freedom.
    import pandas as pd
    from statsmodels.formula.api import ols

    m = real.matrix
    t, k = m.shape
    frame = pd.DataFrame(
        {
            "score": m.ravel(),
            "topic": np.repeat(np.arange(t), k).astype(str),
            "run": np.tile(np.arange(k), t).astype(str),
        }
    )
    fit = ols("score ~ C(run) + C(topic)", data=frame).fit()
    assert fit.df_resid == (t - 1) * (k - 1)
    ours = tukey_hsd(m)
    means = m.mean(axis=0)
    for n, (i, j) in enumerate(combinations(range(k), 2)):
        q = (means[i] - means[j]) / np.sqrt(fit.mse_resid / t)
        assert ours.statistic[n] == pytest.approx(q, rel=1e-10)
        p = stats.studentized_range.sf(abs(q), k, fit.df_resid)
        assert ours.p[n] == pytest.approx(p, abs=1e-12)
