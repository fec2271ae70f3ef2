"""Write a comparison of runs: the Cherukuri 2010 significance matrix, tab-separated pairs, JSON,
Sakai's ASL curve and the agreement of two comparisons. Every layout carries, beside the
p-values, each run's mean with its interval and each pair's mean difference with its interval
and effect sizes (`focal.evaluation.statistics.significance.effects`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from focal.evaluation.output.files import atomic_write
from focal.evaluation.output.tables import dump_json, table_lines
from focal.evaluation.statistics.significance.effects import Effects
from focal.evaluation.statistics.significance.measure_agreement import Agreement
from focal.evaluation.statistics.significance.pairwise import Comparison
from focal.evaluation.statistics.significance.power import asl_curve, discriminative_power

TSV_HEADER = "run_a\trun_b\tmean_a\tmean_b\tdiff\tstatistic\tp\tp_adjusted\tsignificant"
EFFECT_COLUMNS = (
    "tested", "diff_low", "diff_high", "d_z", "g", "es_e",
    "mean_a_low", "mean_a_high", "mean_b_low", "mean_b_high",
)  # fmt: skip
"""Columns after the spec's nine (spec section 8): what each row tests, the interval of the mean
difference, the effect sizes, and the intervals of both means."""
FORMATS = ("text", "tsv", "json")


def describe(comparison: Comparison, measure: str) -> str:
    """One line: what was tested, how, and on how many topics."""
    return (
        f"{measure}: {comparison.test} test ({comparison.alternative}), "
        f"correction {comparison.correction}, alpha {comparison.alpha}; "
        f"{comparison.scores.description}"
    )


def ranked(comparison: Comparison) -> list[tuple[str, float]]:
    """Runs by decreasing mean (ties in the order given)."""
    means = comparison.means()
    order = sorted(range(len(means)), key=lambda i: -list(means.values())[i])
    return [(list(means)[i], list(means.values())[i]) for i in order]


def significant_map(comparison: Comparison) -> dict[tuple[str, str], bool]:
    """(row run, column run) → significant, for both orders of every pair: a two-sided row
    stands for both cells, a one-sided row only for its own (run_a's row, run_b's column)."""
    found: dict[tuple[str, str], bool] = {}
    for r in comparison.pairs:
        found[(r.run_a, r.run_b)] = r.significant
        if comparison.alternative == "two-sided":
            found[(r.run_b, r.run_a)] = r.significant
    return found


def write_text(comparison: Comparison, effects: Effects, measure: str, stream: TextIO) -> None:
    """The significance matrix of Cherukuri 2010 (Figures 8–15): runs by mean, `*` where a pair
    differs significantly after correction, `-` where not; columns numbered as the rows. A
    one-sided test marks `>` (greater) or `<` (less) where the row run is significantly better
    (worse) than the column run. Then the runs' intervals and the pairs' sizes."""
    runs = ranked(comparison)
    significant = significant_map(comparison)
    width = max(len(name) for name, _ in runs)
    stream.write(f"# {describe(comparison, measure)}\n")
    if comparison.alternative != "two-sided":
        stream.write(f"# cell: row {comparison.tested} column tested, marked where significant\n")
    numbers = " ".join(f"{n:>3}" for n in range(1, len(runs) + 1))
    stream.write(f"{'':>3} {'run':<{width}}  {'mean':>8}  {numbers}\n")
    mark_of = "*" if comparison.alternative == "two-sided" else comparison.tested
    for row, (name, mean) in enumerate(runs, start=1):
        cells = []
        for column, (other, _) in enumerate(runs, start=1):
            mark = "." if column == row else mark_of if significant[(name, other)] else "-"
            cells.append(f"{mark:>3}")
        stream.write(f"{row:>3} {name:<{width}}  {mean:8.4f}  {' '.join(cells)}\n")
    found = sum(1 for r in comparison.pairs if r.significant)
    kind = "pairs" if comparison.alternative == "two-sided" else "ordered pairs"
    stream.write(f"# {found} of {len(comparison.pairs)} {kind} significant\n")
    if comparison.test == "sakai":
        power = discriminative_power(comparison)
        below = round(power * len(comparison.pairs))
        stream.write(
            f"# discriminative power: {below} of {len(comparison.pairs)} pairs "
            f"({100 * power:.1f}%) with ASL < {comparison.alpha}\n"
        )
    _write_effects_text(comparison, effects, stream)


def describe_effects(effects: Effects) -> str:
    """One line: the level and kind of the intervals and which effect sizes follow."""
    kinds = {"t": "t", "bootstrap": "bootstrap (BCa)", "tukey": "Tukey simultaneous"}
    return (
        f"{100 * effects.confidence:g}% intervals: means {kinds[effects.method]}, "
        f"differences {kinds[effects.pair_method]}; d_z = diff/s_d, g = Hedges' g of d_z, "
        f"es_e = diff/sqrt(V_E) (Sakai)"
    )


def _write_effects_text(comparison: Comparison, effects: Effects, stream: TextIO) -> None:
    stream.write(f"\n# {describe_effects(effects)}\n")
    intervals = dict(zip(comparison.scores.runs, effects.runs, strict=True))
    rows = [
        (name, mean, intervals[name].low, intervals[name].high) for name, mean in ranked(comparison)
    ]
    stream.writelines(table_lines(("run", "mean", "low", "high"), rows, "text", numbers_right=True))
    stream.write("\n")
    pairs = [
        (r.run_a, comparison.tested, r.run_b, e.diff.estimate, e.diff.low, e.diff.high, e.d_z,
         e.g, e.es_e, r.p, r.p_adjusted, "*" if r.significant else "-")
        for r, e in zip(comparison.pairs, effects.pairs, strict=True)
    ]  # fmt: skip
    columns = ("run_a", "tested", "run_b", "diff", "low", "high", "d_z", "g", "es_e", "p",
               "p_adjusted", "sig")  # fmt: skip
    stream.writelines(table_lines(columns, pairs, "text", numbers_right=True))


def write_tsv(comparison: Comparison, effects: Effects, measure: str, stream: TextIO) -> None:
    """One row per pair i < j in the order the runs were given (every ordered pair i ≠ j for
    a one-sided test): the spec's nine columns, then `EFFECT_COLUMNS`."""
    intervals = dict(zip(comparison.scores.runs, effects.runs, strict=True))
    rows = [
        (r.run_a, r.run_b, r.mean_a, r.mean_b, r.diff, r.statistic, r.p, r.p_adjusted,
         str(r.significant).lower(), comparison.tested, e.diff.low, e.diff.high, e.d_z, e.g,
         e.es_e, intervals[r.run_a].low, intervals[r.run_a].high, intervals[r.run_b].low,
         intervals[r.run_b].high)
        for r, e in zip(comparison.pairs, effects.pairs, strict=True)
    ]  # fmt: skip
    stream.writelines(table_lines([*TSV_HEADER.split("\t"), *EFFECT_COLUMNS], rows, "tsv"))


def write_json(comparison: Comparison, effects: Effects, measure: str, stream: TextIO) -> None:
    """Settings, runs with their means and intervals, topics used and dropped, and every pair
    with its interval and effect sizes."""
    intervals = dict(zip(comparison.scores.runs, effects.runs, strict=True))
    # fmt: off
    document: dict[str, Any] = {
        "measure": measure,
        "test": comparison.test,
        "alternative": comparison.alternative,
        "correction": comparison.correction,
        "alpha": comparison.alpha,
        "tested": comparison.tested,
        "confidence": effects.confidence,
        "interval_method": effects.method,
        "difference_interval_method": effects.pair_method,
        "complete": comparison.scores.complete,
        "topics": list(comparison.scores.topics),
        "dropped_topics": list(comparison.scores.dropped),
        "runs": [
            {"run_id": name, "mean": mean, "low": _finite(intervals[name].low),
             "high": _finite(intervals[name].high)}
            for name, mean in comparison.means().items()
        ],
        "pairs": [
            {
                "run_a": r.run_a, "run_b": r.run_b, "mean_a": r.mean_a, "mean_b": r.mean_b,
                "diff": r.diff, "statistic": _finite(r.statistic), "p": _finite(r.p),
                "p_adjusted": _finite(r.p_adjusted), "significant": r.significant,
                "diff_low": _finite(e.diff.low), "diff_high": _finite(e.diff.high),
                "d_z": _finite(e.d_z), "g": _finite(e.g), "es_e": _finite(e.es_e),
            }
            for r, e in zip(comparison.pairs, effects.pairs, strict=True)
        ],
    }
    # fmt: on
    if comparison.test == "sakai":
        document["discriminative_power"] = discriminative_power(comparison)
    dump_json(document, stream)


WRITERS: dict[str, Callable[[Comparison, Effects, str, TextIO], None]] = {
    "text": write_text,
    "tsv": write_tsv,
    "json": write_json,
}


def write_curve(comparison: Comparison, path: str | Path) -> None:
    """Sakai's ASL curve as `rank run_a run_b asl`, pairs by increasing ASL (atomic write)."""
    rows = [(p.rank, p.run_a, p.run_b, p.asl) for p in asl_curve(comparison)]
    atomic_write(path, table_lines(("rank", "run_a", "run_b", "asl"), rows, "tsv"))


def write_agreement(agreement: Agreement, names: tuple[str, str], fmt: str, out: TextIO) -> None:
    """Ogilvie & Lalmas 2006, Tables 3–4: significant pairs under X and Y, both, precision,
    recall, F1."""
    row = {
        "x": names[0], "y": names[1], "significant_x": len(agreement.x),
        "significant_y": len(agreement.y), "both": len(agreement.both),
        "reversed": agreement.reversed, "precision": agreement.precision,
        "recall": agreement.recall, "f1": agreement.f1,
    }  # fmt: skip
    if fmt == "json":
        document = {k: _finite(v) if isinstance(v, float) else v for k, v in row.items()}
        dump_json(document, out, indent=None)
    elif fmt == "tsv":
        out.writelines(table_lines(list(row), [list(row.values())], "tsv"))
    else:
        out.write(f"X = {names[0]}: {len(agreement.x)} significant pairs\n")
        out.write(f"Y = {names[1]}: {len(agreement.y)} significant pairs (the reference)\n")
        out.write(f"both: {len(agreement.both)} ({agreement.reversed} with the winner reversed)\n")
        for name in ("precision", "recall", "f1"):
            out.write(f"{name}: {row[name]:.4f}\n")


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
