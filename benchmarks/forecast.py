"""The forecast validated by replay: interval coverage per judging order and budget, and the
judgements each order needs to settle the ranking of the runs (docs/forecast.md).

For INEX 2010 (../shared/data; skipped with a note when absent) and the generated campaign of
benchmarks/judging_order.py: each topic's pool is its judged articles the runs retrieve, in
pool-rank order; each order (rank, thompson, mtc) judges it from the complete qrels and stops at
each budget; the forecast from those judgements is compared with the truth: the share of topics
whose 90 % relevant-left interval holds the true count, whether the τ interval holds the τ of the
ranking now against the completed ranking, and the smallest budget at which that τ reaches 0.9;
then the budget per topic from which the ranking is settled as `focal pool simulate`'s `settled`
table defines it (every pair of runs keeps its final order at every larger budget) and the
judgements that takes over all topics (thompson: the mean over `--repeats` seeds).

    .venv/bin/python -P benchmarks/forecast.py [--runs 10 --topics 20 --depth 20]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.statistics.rank_correlation import tau_a
from focal.pooling.cli.support import load_ranked_runs
from focal.pooling.forecast.model import TopicPool
from focal.pooling.forecast.ranking import average_precision, forecast
from focal.pooling.ordering.arms import Arms
from focal.pooling.ordering.replay import judging_order
from focal.reliability.ordering import pool_in_rank_order

sys.path.insert(0, str(Path(__file__).resolve().parent))
from judging_order import write_campaign

INEX = Path(__file__).resolve().parents[2] / "shared" / "data" / "inex2010"
POLICIES = ("rank", "thompson", "mtc")
BUDGETS = (10, 20, 50)
DETERMINISTIC = ("rank", "mtc")


def load(qrels_path: Path, run_paths: Sequence[Path]):
    qrels = read_qrels(qrels_path)
    ranked = load_ranked_runs(run_paths)
    names = [run.run_id for run in ranked]
    pools, truth = [], {}
    for topic, judged in qrels.items():
        lists = [run.topics.get(topic, ()) for run in ranked]
        retrieved = {a for articles in lists for a in articles}
        kept = {a: j for a, j in judged.items() if a in retrieved}
        pool = pool_in_rank_order(kept, list(zip(names, lists, strict=True)))
        pools.append(TopicPool.of(topic, pool, lists))
        truth[topic] = {a: kept[a].relevant for a in pool}
    return pools, names, truth


def scores(pools: Sequence[TopicPool], judged: Mapping[str, Mapping[str, bool]]) -> np.ndarray:
    rows = [
        average_precision(p, np.array([[judged.get(p.topic, {}).get(a, False) for a in p.pool]]))
        for p in pools
    ]
    return np.mean([row[0] for row in rows], axis=0)


def replay(name: str, pools, runs, truth, seed: int = 0, repeats: int = 5) -> None:
    full = dict(zip(runs, scores(pools, truth), strict=True))
    deepest = max(BUDGETS[-1], max(len(p.pool) for p in pools))
    print(f"\n## {name}: {len(runs)} runs, {len(pools)} topics, "
          f"{sum(len(p.pool) for p in pools)} judged articles")  # fmt: skip
    print("policy    budget  topics_covered  tau_true  tau_interval   tau_covered  seconds")
    for policy in POLICIES:
        start = time.perf_counter()
        orders = {
            p.topic: judging_order(policy, Arms(list(zip(runs, p.runs, strict=True)), p.pool),
                                   truth[p.topic], seed, p.topic, deepest)
            for p in pools
        }  # fmt: skip
        for budget in BUDGETS:
            so_far = {t: {a: truth[t][a] for a in order[:budget]} for t, order in orders.items()}
            result = forecast(pools, runs, so_far, seed=seed)
            covered = np.mean([
                row.relevant_left_low <= sum(truth[row.topic].values()) - row.relevant_found
                <= row.relevant_left_high
                for row in result.topics
            ])  # fmt: skip
            now = {r.run: r.score_now for r in result.ranking.runs}
            true_tau = tau_a(full, now)
            low, high = result.ranking.tau_low, result.ranking.tau_high
            inside = low is not None and high is not None and low <= true_tau <= high
            seconds = time.perf_counter() - start
            print(f"{policy:9} {budget:6}  {covered:14.2f}  {true_tau:8.3f}  "
                  f"[{low:.3f}, {high:.3f}]  {inside!s:11}  {seconds:.1f}")  # fmt: skip
        settle = next(
            (k for k in range(1, deepest + 1)
             if tau_a(full, dict(zip(runs, scores(pools, {t: {a: truth[t][a] for a in o[:k]}
                                                          for t, o in orders.items()}),
                                     strict=True))) >= 0.9),
            None,
        )  # fmt: skip
        print(f"{policy:9} judgements per topic until tau >= 0.9: {settle}")
        reached = [settled_at(policy, pools, runs, truth, full, seed + r)
                   for r in range(1 if policy in DETERMINISTIC else repeats)]  # fmt: skip
        spent = [sum(min(k, len(p.pool)) for p in pools) for k in reached]
        print(f"{policy:9} settled (every pair keeps its final order from then on): "
              f"{np.mean(reached):.1f} per topic, {np.mean(spent):.0f} judgements "
              f"(repeats: {reached})")  # fmt: skip


def signs(values: Sequence[float]) -> np.ndarray:
    """Per pair of runs: 1, -1 or 0 (a tie), as `focal pool simulate`'s `settled` table."""
    array = np.asarray(values, dtype=float)
    first, second = np.triu_indices(len(array), 1)
    difference = array[first] - array[second]
    return np.where(np.abs(difference) <= 1e-12, 0, np.sign(difference))


def settled_at(policy: str, pools, runs, truth, full: Mapping[str, float], seed: int) -> int:
    """The budget per topic from which every pair of runs is ordered (or tied) by the judged
    articles as by the complete qrels at every larger budget (docs/pooling.md, `settled`)."""
    orders = {
        p.topic: judging_order(policy, Arms(list(zip(runs, p.runs, strict=True)), p.pool),
                               truth[p.topic], seed, p.topic)
        for p in pools
    }  # fmt: skip
    reference = signs([full[r] for r in runs])
    budget = max(len(p.pool) for p in pools)
    while budget > 1:
        judged = {t: {a: truth[t][a] for a in o[: budget - 1]} for t, o in orders.items()}
        if not (signs(scores(pools, judged)) == reference).all():
            break
        budget -= 1
    return budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--topics", type=int, default=20)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5, help="Thompson replays (seeds 0, 1, ...)")
    arguments = parser.parse_args()
    if INEX.exists():
        runs = sorted((INEX / "runs").glob("*.fol.run"))
        replay("INEX 2010", *load(INEX / "inex2010.qrels", runs), repeats=arguments.repeats)
        every = sorted((INEX / "runs").glob("*.run"))
        replay("INEX 2010, all 13 runs", *load(INEX / "inex2010.qrels", every),
               repeats=arguments.repeats)  # fmt: skip
    else:
        print(f"INEX 2010 skipped: {INEX} is absent")
    with tempfile.TemporaryDirectory() as folder:
        paths = write_campaign(Path(folder), arguments.runs, arguments.topics, arguments.depth, 1)
        replay("generated campaign", *load(Path(folder) / "qrels", paths),
               repeats=arguments.repeats)  # fmt: skip


if __name__ == "__main__":
    main()
