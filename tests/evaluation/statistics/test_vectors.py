"""Every test and correction on the test vectors of spec section 8, and each module's doctests
(pytest does not collect doctests in this project, so they are run here)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import focal.evaluation.statistics
from focal.evaluation.statistics.significance.classical import sign_test, t_test, wilcoxon_test
from focal.evaluation.statistics.significance.corrections import correct
from focal.evaluation.statistics.significance.resampling import randomisation_test
from focal.evaluation.statistics.significance.tukey import tukey_hsd

A = [0.45, 0.30, 0.62, 0.10, 0.55, 0.40, 0.25, 0.70, 0.35, 0.50]
B = [0.40, 0.30, 0.50, 0.12, 0.45, 0.38, 0.20, 0.60, 0.35, 0.41]
C = [0.30, 0.35, 0.45, 0.05, 0.50, 0.20, 0.22, 0.55, 0.30, 0.33]
PS = [0.01, 0.04, 0.03, 0.20, 0.005]

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(
        focal.evaluation.statistics.__path__, "focal.evaluation.statistics."
    )
    if not m.ispkg
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(name))
    assert failures == 0 and tried > 0


@pytest.mark.parametrize(
    "function",
    ["t_test", "wilcoxon_test", "sign_test", "randomisation_test", "bootstrap_test", "sakai_test",
     "tukey_hsd", "correct"],
)  # fmt: skip
def test_every_test_documents_itself_with_an_example(function: str) -> None:
    for name in MODULES:
        module = importlib.import_module(name)
        if hasattr(module, function):
            doc = getattr(module, function).__doc__ or ""
            assert ">>>" in doc and len(doc.splitlines()) > 4, function
            return
    raise AssertionError(f"{function} not found")


def test_paired_t() -> None:
    result = t_test(A, B)
    assert result.statistic == pytest.approx(3.2407, abs=5e-5)
    assert result.p == pytest.approx(0.010148, abs=5e-7)


def test_wilcoxon_exact() -> None:
    # 8 non-zero differences, one negative with the smallest |d| (rank 1.5, tied with +.02):
    # W− = 1.5 ... scipy's exact null distribution gives 1/64 two-sided.
    assert wilcoxon_test(A, B).p == pytest.approx(0.015625, abs=1e-12)


def test_sign() -> None:
    # 7 positive, 1 negative, 2 zero: 2 · P(X ≥ 7 | n = 8) = 2 · 9/256 = 0.0703125
    assert sign_test(A, B).p == pytest.approx(9 / 128, abs=1e-15)


def test_exact_randomisation() -> None:
    # 2^10 = 1,024 sign vectors (≤ 10,000 samples): enumerated; 24 are at least as extreme
    assert randomisation_test(A, B).p == 24 / 1024


def test_blocked_tukey() -> None:
    p = tukey_hsd(np.column_stack([A, B, C])).p
    assert p[0] == pytest.approx(0.0744, abs=5e-5)
    assert p[1] == pytest.approx(0.00083, abs=5e-6)
    assert p[2] == pytest.approx(0.114, abs=5e-4)


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        ("holm", [0.04, 0.09, 0.09, 0.2, 0.025]),
        ("bh", [0.025, 0.05, 0.05, 0.2, 0.025]),
        ("by", [0.0571, 0.1142, 0.1142, 0.4567, 0.0571]),
        # not in the spec: Bonferroni is p · 5 capped at 1
        ("bonferroni", [0.05, 0.2, 0.15, 1.0, 0.025]),
        ("none", PS),
    ],
)
def test_corrections(method: str, expected: list[float]) -> None:
    assert correct(PS, method) == pytest.approx(expected, abs=5e-5)


def test_by_is_bh_times_the_harmonic_sum() -> None:
    # BY replaces m by m · Σ 1/i: with m = 5, c(m) = 137/60; BH of 0.025 becomes 0.025 · 137/60
    assert correct(PS, "by")[0] == pytest.approx(0.025 * 137 / 60, abs=1e-15)


def test_unknown_correction_is_refused() -> None:
    with pytest.raises(ValueError, match="correction must be one of"):
        correct(PS, "sidak")
