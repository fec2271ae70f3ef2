"""One table of runs × measures, the first table of every evaluation in a paper: a run per row,
a measure per column, the best value of each column marked.

The mark goes to the largest value (counts are left out by the callers), or to the smallest in
the columns said to be better lower (overlap@k of element runs); ties all carry it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence

from focal.evaluation.output.tables import aligned_lines

BEST = "*"


def leaderboard_lines(
    values: Mapping[str, Mapping[str, float]],
    measures: Sequence[str],
    digits: int = 4,
    lower_better: Collection[str] = (),
) -> Iterator[str]:
    """Lines of the table (run -> measure -> value), runs in the given order, the best value
    of each column followed by `*`; a value a run lacks is `-`.

    >>> print("\\n".join(leaderboard_lines({"bm25": {"AP": 0.25, "P@5": 0.5},
    ...                                      "dense": {"AP": 0.3, "P@5": 0.5}}, ["AP", "P@5"])))
    run    AP       P@5
    bm25   0.2500   0.5000*
    dense  0.3000*  0.5000*
    """
    best = {
        measure: (min if measure in lower_better else max)(
            (run[measure] for run in values.values() if measure in run), default=None
        )
        for measure in measures
    }
    rows = [["run", *measures]]
    for run_id, run in values.items():
        cells = [run_id]
        for measure in measures:
            if measure not in run:
                cells.append("-")
                continue
            mark = BEST if len(values) > 1 and run[measure] == best[measure] else " "
            cells.append(f"{run[measure]:.{digits}f}{mark}")
        rows.append(cells)
    return aligned_lines(rows)
