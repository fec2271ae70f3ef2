"""Leave one group out: would a new system be judged fairly by this pool? (spec §9)

Zobel (1998), by group as Büttcher et al. (2007) suggest, as seed 004 ("Leave-One-Out") and seed
003 §5.2.1 (Table V) run it. The baseline is the qrels restricted to the pool of all runs (seed
004's "100 % pool"); for each group, the qrels are restricted to the pool without the group
(`focal.reliability.judgements.leave_out_pools`) and the group's runs are scored again. Reported per
run: both scores, both ranks, a two-sided paired t test over the topics; and the distribution of
relative changes over runs and over (topic, run) pairs (seed 004 Tables 8-10).

Seed 003 Table V's two rows: *Same*, the runs whose own score differs significantly between the
baseline qrels (set A) and the qrels without their group (set B); *Other*, the pairs of runs
whose significant order changes: each pair is better, worse or not significantly different by
`focal compare`'s test (default the two-sided paired t test) once with both runs scored on A and
once with both scored on B. For each group, every pair with at least one run of the group
counts (a pair of runs of two groups counts once for each group).

`rank_left_out` is the run's rank when its left-out score joins the other runs' baseline scores:
what a newcomer scored with these qrels would see. Ranks follow `ranking` (ties by run id).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.measures.evaluate import Qrels
from focal.evaluation.statistics.rank_correlation import ranking
from focal.evaluation.statistics.significance.classical import t_test
from focal.pooling.records import RankedRun
from focal.reliability import judgements
from focal.reliability.rescoring import Rescoring, rescorer
from focal.reliability.scores import ScoreMatrix
from focal.reliability.studies import Progress, Setup, _no_progress, significance_signs

CHANGE_BINS: tuple[tuple[str, float, float, bool], ...] = (
    # label, low, high, high included; the change is (full − left out) / full in percent
    ("(-inf,-50]", -math.inf, -50, True),
    ("(-50,-10]", -50, -10, True),
    ("(-10,0)", -10, 0, False),
    ("0", 0, 0, True),
    ("(0,10]", 0, 10, True),
    ("(10,20]", 10, 20, True),
    ("(20,50]", 20, 50, True),
    ("(50,100]", 50, 100, True),
)
"""Seed 004 Tables 8-9: a negative change means the run scores higher without its group."""


def relative_change(full: float, left_out: float) -> float:
    """(full − left_out) / full × 100; 0 when both are 0, −inf when only `full` is 0.

    >>> relative_change(0.5, 0.4), relative_change(0.0, 0.0), relative_change(0.0, 0.1)
    (19.999999999999996, 0.0, -inf)
    """
    if full == 0:
        return 0.0 if left_out == 0 else -math.inf
    return (full - left_out) / full * 100


def change_bin(change: float) -> str:
    """The label of the bin of a relative change (seed 004 Tables 8-9).

    >>> change_bin(-60), change_bin(-10), change_bin(-0.5), change_bin(0), change_bin(10)
    ('(-inf,-50]', '(-50,-10]', '(-10,0)', '0', '(0,10]')
    """
    if change == 0:
        return "0"
    for label, low, high, closed in CHANGE_BINS:
        if label != "0" and low < change and (change <= high if closed else change < high):
            return label
    return "(50,100]"  # a change above 100 % cannot happen for scores >= 0


@dataclass(frozen=True)
class LeftOutRun:
    group: str
    run: str
    score_full: float
    score_left_out: float
    rank_full: int
    rank_left_out: int
    t: float
    p: float
    significant: bool
    per_topic: tuple[tuple[str, float, float], ...]  # topic, full, left out


@dataclass(frozen=True)
class LeaveOut:
    runs: tuple[LeftOutRun, ...]
    judged_full: int  # judgements in the baseline qrels
    judged_in_qrels: int
    order_changed: int = 0  # Table V "Other": pairs whose significant order changed
    order_pairs: int = 0  # ... of the pairs compared

    def table_v(self) -> list[tuple[str, int, int]]:
        """Seed 003 Table V: ("Same", runs significantly changed, runs) and ("Other", pairs
        whose significant order changed, pairs compared)."""
        same = sum(1 for run in self.runs if run.significant)
        return [("Same", same, len(self.runs)), ("Other", self.order_changed, self.order_pairs)]

    def change_counts(self, per_topic: bool) -> dict[str, int]:
        counts = {label: 0 for label, *_ in CHANGE_BINS}
        for run in self.runs:
            pairs = (
                [(f, left) for _, f, left in run.per_topic]
                if per_topic
                else [(run.score_full, run.score_left_out)]
            )
            for full, left in pairs:
                counts[change_bin(relative_change(full, left))] += 1
        return counts


def paired_t(full: Sequence[float], left_out: Sequence[float]) -> tuple[float, float]:
    """Two-sided paired t test (`focal.evaluation.statistics.significance.classical.t_test`,
    scipy's); (0, 1) when
    every difference is the same (t undefined)."""
    differences = np.subtract(full, left_out)
    if len(differences) < 2 or np.all(differences == differences[0]):
        return 0.0, 1.0
    result = t_test(full, left_out)
    return result.statistic, result.p


def leave_one_group_out(
    setup: Setup,
    ranked: Sequence[RankedRun],
    groups: Mapping[str, str],
    depth: int | None,
    size: int | None,
    method: judgements.LeaveOutMethod = "unique",
    progress: Progress = _no_progress,
) -> LeaveOut:
    """Every group in turn (groups in order of first appearance; unlisted runs alone)."""
    group_of = {run.run_id: groups.get(run.run_id, run.run_id) for run in ranked}
    order = list(dict.fromkeys(group_of.values()))
    everyone: frozenset[str] = frozenset()
    baseline_pool: dict[str, frozenset[str]] = {}
    rows: list[LeftOutRun] = []
    full = None
    fast = rescorer(setup.qrels, setup.runs, setup.task, setup.measure, tuple(setup.qrels))
    changed = compared = 0
    for group in progress(iter(order), len(order)):
        members = {run for run, name in group_of.items() if name == group}
        pooled, reduced_pool = judgements.leave_out_pools(ranked, members, depth, size, method)
        if full is None:
            baseline_pool = pooled
            full = _score(setup, judgements.restrict_to(setup.qrels, pooled), fast)
            everyone = frozenset(full.runs)
            signs_a = significance_signs(full.values, setup)
        reduced = judgements.restrict_to(setup.qrels, reduced_pool)
        left = _score(setup, reduced, fast)
        involved = _pairs_with(full.runs, members)
        changed += int(np.count_nonzero(significance_signs(left.values, setup)[involved]
                                        != signs_a[involved]))  # fmt: skip
        compared += int(np.count_nonzero(involved))
        means = full.means()
        for index, run_id in enumerate(full.runs):
            if run_id not in members:
                continue
            before, after = full.values[index], left.values[index]
            newcomer = {r: means[r] for r in everyone if r != run_id}
            newcomer[run_id] = float(sum(after.tolist()) / len(after))
            t, p = paired_t(before.tolist(), after.tolist())
            rows.append(
                LeftOutRun(
                    group,
                    run_id,
                    means[run_id],
                    float(sum(after.tolist()) / len(after)),
                    ranking(means).index(run_id) + 1,
                    ranking(newcomer).index(run_id) + 1,
                    t,
                    p,
                    p < setup.alpha,
                    tuple(zip(full.topics, before.tolist(), after.tolist(), strict=True)),
                )
            )
    judged_full = sum(len(t) for t in judgements.restrict_to(setup.qrels, baseline_pool).values())
    judged = sum(len(t) for t in setup.qrels.values())
    return LeaveOut(tuple(rows), judged_full, judged, changed, compared)


def _score(setup: Setup, qrels: Qrels, fast: Rescoring | None) -> ScoreMatrix:
    """Every run on `qrels`: from the full scoring's arrays when they cover it, else topic by
    topic (the same numbers; tests/reliability/test_rescoring.py)."""
    scores = fast.score(qrels) if fast is not None else None
    return scores if scores is not None else replace(setup, qrels=qrels).score(qrels)


def _pairs_with(runs: Sequence[str], members: Collection[str]) -> NDArray[np.bool_]:
    """For every pair i < j of `runs` (`significance_signs`' order): whether it has a member."""
    first, second = np.triu_indices(len(runs), 1)
    inside = np.array([run in members for run in runs], dtype=bool)
    involved: NDArray[np.bool_] = inside[first] | inside[second]
    return involved
