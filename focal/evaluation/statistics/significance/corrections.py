"""Corrections of p-values for comparing many pairs at once (statsmodels' multipletests).

- bonferroni: p·m, capped at 1 (controls the family-wise error rate).
- holm: step-down Bonferroni (Holm 1979), family-wise error rate, uniformly more powerful.
- bh: Benjamini & Hochberg (1995) step-up, false discovery rate for independent tests:
  p_(i) · m / i, made monotone from the largest down.
- by: Benjamini & Yekutieli (2001), false discovery rate under any dependence, seed 000's choice
  (§3.2): as bh with m replaced by m · Σ_{i≤m} 1/i.

A NaN p (a test with no defined statistic) is treated as 1 before correcting.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from focal.evaluation.statistics.significance.results import FloatArray

CORRECTIONS = ("none", "bonferroni", "holm", "bh", "by")
_STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh", "by": "fdr_by"}


def correct(p: npt.ArrayLike, method: str = "none") -> FloatArray:
    """Adjusted p-values of `p` under `method`, one of CORRECTIONS.

    >>> ps = [.01, .04, .03, .20, .005]  # spec section 8
    >>> correct(ps, "holm").round(4).tolist()
    [0.04, 0.09, 0.09, 0.2, 0.025]
    >>> correct(ps, "bh").round(4).tolist()
    [0.025, 0.05, 0.05, 0.2, 0.025]
    >>> correct(ps, "by").round(4).tolist()
    [0.0571, 0.1142, 0.1142, 0.4567, 0.0571]
    >>> correct(ps, "bonferroni").round(4).tolist()
    [0.05, 0.2, 0.15, 1.0, 0.025]
    """
    if method not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}: {method!r}")
    values = np.nan_to_num(np.asarray(p, dtype=np.float64), nan=1.0)
    if method == "none" or len(values) == 0:
        return values
    from statsmodels.stats.multitest import multipletests  # heavy import: only when correcting

    adjusted = multipletests(values, alpha=0.05, method=_STATSMODELS[method])[1]
    return np.asarray(adjusted, dtype=np.float64)
