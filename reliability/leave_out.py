"""Leave one group out: would a new system be judged fairly by this pool? (spec §9)

Zobel (1998), by group as Büttcher et al. (2007) suggest, as seed 004 ("Leave-One-Out") and seed
003 §5.2.1 (Table V) run it. The baseline is the qrels restricted to the pool of all runs (seed
004's "100 % pool"); for each group, the qrels are restricted to the pool without the group
(`reliability.judgements.leave_out_pools`) and the group's runs are scored again. Reported per
run: both scores, both ranks, a two-sided paired t test over the topics; and the distribution of
relative changes over runs and over (topic, run) pairs (seed 004 Tables 8-10).

`rank_left_out` is the run's rank when its left-out score joins the other runs' baseline scores:
what a newcomer scored with these qrels would see. Ranks follow `ranking` (ties by run id).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from evaluation.statistics.rank_correlation import ranking
from evaluation.statistics.significance.classical import t_test
from pooling.records import RankedRun
from reliability import judgements
from reliability.studies import Progress, Setup, _no_progress

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
    """Two-sided paired t test (`evaluation.statistics.significance.classical.t_test`, scipy's);
    (0, 1) when
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
    for group in progress(iter(order), len(order)):
        members = {run for run, name in group_of.items() if name == group}
        pooled, reduced_pool = judgements.leave_out_pools(ranked, members, depth, size, method)
        if full is None:
            baseline_pool = pooled
            full = setup.score(judgements.restrict_to(setup.qrels, pooled))
            everyone = frozenset(full.runs)
        reduced = judgements.restrict_to(setup.qrels, reduced_pool)
        chosen = [run for run in setup.runs if run.run_id in members]
        scored = replace(setup, qrels=reduced, runs=chosen)
        left = scored.score(reduced) if chosen else None
        means = full.means()
        for index, run_id in enumerate(full.runs):
            if run_id not in members or left is None:
                continue
            row = left.runs.index(run_id)
            before, after = full.values[index], left.values[row]
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
    return LeaveOut(tuple(rows), judged_full, judged)
