"""Intervals and effect sizes against scipy and statsmodels on the spec's vectors (spec section 8:
a, b and c), and one-sided tests whose answer does not depend on the order of the runs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from focal.evaluation.statistics.significance.effects import effect_sizes, hedges_correction
from focal.evaluation.statistics.significance.pairing import pair_by_topic
from focal.evaluation.statistics.significance.pairwise import compare

RUN_A = [0.45, 0.30, 0.62, 0.10, 0.55, 0.40, 0.25, 0.70, 0.35, 0.50]
RUN_B = [0.40, 0.30, 0.50, 0.12, 0.45, 0.38, 0.20, 0.60, 0.35, 0.41]
RUN_C = [0.30, 0.35, 0.45, 0.05, 0.50, 0.20, 0.22, 0.55, 0.30, 0.33]
VECTORS = {"a": RUN_A, "b": RUN_B, "c": RUN_C}


def paired(runs: dict[str, list[float]] = VECTORS):  # type: ignore[no-untyped-def]
    return pair_by_topic({name: dict(enumerate(values)) for name, values in runs.items()})


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_t_intervals_equal_scipy(confidence: float) -> None:
    found = effect_sizes(compare(paired()), confidence)
    for values, interval in zip(VECTORS.values(), found.runs, strict=True):
        low, high = stats.ttest_1samp(values, 0).confidence_interval(confidence)
        assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)
        assert interval.estimate == pytest.approx(np.mean(values), abs=1e-15)
    for (x, y), effect in zip([("a", "b"), ("a", "c"), ("b", "c")], found.pairs, strict=True):
        result = stats.ttest_rel(VECTORS[x], VECTORS[y])
        low, high = result.confidence_interval(confidence)
        assert (effect.diff.low, effect.diff.high) == pytest.approx((low, high), abs=1e-12)
        # d_z · √n is the paired t statistic (t(a, b) = 3.2407, spec section 8)
        assert effect.d_z * math.sqrt(len(RUN_A)) == pytest.approx(result.statistic, abs=1e-12)


def test_hedges_g_is_d_z_times_the_exact_correction() -> None:
    found = effect_sizes(compare(paired()))
    # J(9) = Γ(4.5) / (√4.5 · Γ(4)) = 11.631728 / 12.727922 = 0.913875, by hand
    assert hedges_correction(9) == pytest.approx(0.913875, abs=1e-6)
    assert hedges_correction(200) == pytest.approx(1 - 3 / (4 * 200 - 1), abs=1e-6)
    for effect in found.pairs:
        assert effect.g == pytest.approx(0.913875 * effect.d_z, rel=1e-6)
    assert found.pairs[0].d_z == pytest.approx(3.240682 / math.sqrt(10), abs=1e-6)


def test_sakai_es_e_uses_the_residual_variance_of_the_two_way_anova() -> None:
    import pandas as pd
    import statsmodels.formula.api as smf

    rows = [(t, run, v) for run, values in VECTORS.items() for t, v in enumerate(values)]
    frame = pd.DataFrame(rows, columns=["topic", "run", "score"])
    model = smf.ols("score ~ C(topic) + C(run)", data=frame).fit()  # no interaction
    found = effect_sizes(compare(paired(), "tukey"))
    means = {name: np.mean(values) for name, values in VECTORS.items()}
    for (x, y), effect in zip([("a", "b"), ("a", "c"), ("b", "c")], found.pairs, strict=True):
        expected = (means[x] - means[y]) / math.sqrt(model.mse_resid)
        assert effect.es_e == pytest.approx(expected, abs=1e-12)


def test_tukey_intervals_agree_with_the_tukey_p_values() -> None:
    """The simultaneous interval leaves 0 out exactly when Tukey's p is below 1 − confidence
    (spec section 8: p .0744, .00083, .114), and is centred on the mean difference."""
    comparison = compare(paired(), "tukey")
    for confidence in (0.9, 0.95, 0.99):
        found = effect_sizes(comparison, confidence)
        assert found.pair_method == "tukey"
        for row, effect in zip(comparison.pairs, found.pairs, strict=True):
            excludes = effect.diff.low > 0 or effect.diff.high < 0
            assert excludes == (row.p < 1 - confidence)
            middle = (effect.diff.low + effect.diff.high) / 2
            assert middle == pytest.approx(row.diff, abs=1e-12)


def test_bootstrap_intervals_equal_scipy_bootstrap_per_column() -> None:
    """All columns share scipy's resamples; a column's resampled means, summed along another
    axis, can round one ulp apart from those of the column alone, which moves BCa's bias
    correction by a resample or two: equal to the column alone within 1e-3, and exactly equal
    to scipy's own call on the whole matrix."""
    comparison = compare(paired())
    found = effect_sizes(comparison, 0.95, "bootstrap", samples=2000, seed=7)
    together = stats.bootstrap(
        (comparison.scores.matrix,), np.mean, n_resamples=2000, axis=0,
        rng=np.random.default_rng(7),
    ).confidence_interval  # fmt: skip
    assert [r.low for r in found.runs] == pytest.approx(together.low.tolist(), abs=1e-15)
    assert [r.high for r in found.runs] == pytest.approx(together.high.tolist(), abs=1e-15)
    for values, interval in zip(VECTORS.values(), found.runs, strict=True):
        expected = stats.bootstrap(
            (np.array(values),), np.mean, n_resamples=2000, rng=np.random.default_rng(7)
        ).confidence_interval
        assert (interval.low, interval.high) == pytest.approx(tuple(expected), abs=1e-3)
    differences = np.subtract(RUN_A, RUN_B)
    expected = stats.bootstrap(
        (differences,), np.mean, n_resamples=2000, rng=np.random.default_rng(7)
    ).confidence_interval
    pair = found.pairs[0].diff
    assert (pair.low, pair.high) == pytest.approx(tuple(expected), abs=1e-3)


def test_constant_differences_give_infinite_sizes_and_a_point_interval() -> None:
    # binary fractions: x − y is exactly 0.125 on every topic
    runs = {"x": [0.625, 0.5, 0.375], "y": [0.5, 0.375, 0.25], "z": [0.5, 0.375, 0.25]}
    comparison = compare(paired(runs), "randomisation", samples=100, seed=1)
    found = effect_sizes(comparison, 0.95, "bootstrap", samples=100, seed=1)
    x_y, _, y_z = found.pairs
    assert x_y.d_z == math.inf and (x_y.diff.low, x_y.diff.high) == (0.125, 0.125)
    assert y_z.d_z == 0.0 and y_z.g == 0.0


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "randomisation", "bootstrap", "sakai"])
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_permuting_the_runs_permutes_a_one_sided_comparison(test: str, alternative: str) -> None:
    rng = np.random.default_rng(11)
    scores = {f"r{n}": (rng.random(16) * (1 + n / 4)).round(3).tolist() for n in range(5)}

    def rows(order: list[str]) -> dict[tuple[str, str], tuple[float, float, bool]]:
        runs = {name: scores[name] for name in order}
        result = compare(paired(runs), test, alternative, "holm", samples=500, seed=3)
        assert len(result.pairs) == 5 * 4  # every ordered pair, each in the stated direction
        return {(r.run_a, r.run_b): (r.p, r.p_adjusted, r.significant) for r in result.pairs}

    reference = rows(list(scores))
    for _ in range(4):
        order = rng.permutation(list(scores)).tolist()
        again = rows(order)
        assert again.keys() == reference.keys()
        for key, (p, adjusted, significant) in again.items():
            assert p == pytest.approx(reference[key][0], abs=1e-12)
            assert adjusted == pytest.approx(reference[key][1], abs=1e-12)
            assert significant == reference[key][2]


def test_one_sided_rows_test_their_stated_direction() -> None:
    """Row (a, b) of `greater` is scipy's one-sided t test of a > b; row (b, a) that of b > a."""
    result = compare(paired(), "t", "greater")
    found = {(r.run_a, r.run_b): r.p for r in result.pairs}
    for x in VECTORS:
        for y in VECTORS:
            if x != y:
                expected = stats.ttest_rel(VECTORS[x], VECTORS[y], alternative="greater").pvalue
                assert found[(x, y)] == pytest.approx(expected, abs=1e-12)
    assert result.tested == ">" and compare(paired(), "t", "less").tested == "<"


def test_bootstrap_p_plus_one_is_never_zero() -> None:
    """a is above b on every topic: no resample's mean difference reaches 0, so seed 000's
    p = 0/B = 0 and (b + 1)/(B + 1) = 1/101 one-sided, 2/101 two-sided, by hand."""
    from focal.evaluation.statistics.significance.resampling import bootstrap_tests

    scores = np.column_stack([np.linspace(0.5, 0.9, 12), np.linspace(0.1, 0.3, 12)])
    assert bootstrap_tests(scores, samples=100, seed=1).p.tolist() == [0.0]
    assert bootstrap_tests(scores, samples=100, seed=1, plus_one=True).p.tolist() == [2 / 101]
    greater = bootstrap_tests(scores, "greater", samples=100, seed=1, plus_one=True)
    assert greater.p.tolist() == [1 / 101]
    found = compare(paired({"a": scores[:, 0].tolist(), "b": scores[:, 1].tolist()}),
                    "bootstrap", samples=100, seed=1, plus_one=True)  # fmt: skip
    assert found.pairs[0].p == 2 / 101
