"""Agreement beyond chance of two assessors' binary labels (relevant or not) on the same
articles: Cohen's kappa and Krippendorff's nominal alpha (spec section 7; Piwowarski, Trotman
and Lalmas 2008, Table IX)."""

from __future__ import annotations

from collections.abc import Sequence


def cohen_kappa(labels_a: Sequence[bool], labels_b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two binary labellings of the same items; None when undefined.

    kappa = (p_o − p_e) / (1 − p_e), with p_o the share of items labelled alike and p_e the
    agreement expected from each rater's own rate of positives. Undefined without items, or
    when p_e = 1 (both raters gave every item the same label).

    >>> cohen_kappa([True, True, False, False], [True, False, False, False])
    0.5
    """
    n = len(labels_a)
    if n == 0:
        return None
    both = sum(1 for a, b in zip(labels_a, labels_b, strict=True) if a and b)
    neither = sum(1 for a, b in zip(labels_a, labels_b, strict=True) if not a and not b)
    positive_a, positive_b = sum(labels_a), sum(labels_b)
    observed = (both + neither) / n
    expected = (positive_a * positive_b + (n - positive_a) * (n - positive_b)) / (n * n)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def nominal_alpha(labels_a: Sequence[bool], labels_b: Sequence[bool]) -> float | None:
    """Krippendorff's alpha (nominal) of two raters' binary labels; None when undefined.

    Computed by the `krippendorff` package; undefined without items or when every label given
    is the same (the package refuses a single value).
    """
    values = {*labels_a, *labels_b}
    if len(values) < 2:
        return None
    import krippendorff  # numpy-based; loaded only when agreement is computed

    data = [[int(a) for a in labels_a], [int(b) for b in labels_b]]
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
