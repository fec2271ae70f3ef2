"""trec_eval's -Z: per-topic values as z-scores against a file of means and deviations.

The file holds `topic measure mean stddev` lines (trec_eval's `get_zscores.c`); a value
becomes (value − mean) / stddev, or trec_eval's -1000000 where the file has no line for the
topic and measure, or a zero deviation with a value other than the mean (`convert_zscores.c`).
The `all` rows are then taken over the z-scores as over raw values.
"""

from __future__ import annotations

from focal.evaluation.errors import FormatError
from focal.evaluation.formats._source import read_bytes
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation

MISSING_ZSCORE = -1000000.0


def read_zscores(path: str) -> dict[tuple[str, str], tuple[float, float]]:
    """`topic measure mean stddev` lines (`get_zscores.c`); a malformed line stops (exit 2)."""
    table: dict[tuple[str, str], tuple[float, float]] = {}
    for number, line in enumerate(read_bytes(path).split(b"\n"), 1):
        words = line.split()
        if not words:
            continue
        if len(words) != 4:
            raise FormatError(path, number, f"expected `topic measure mean stddev`, found "
                              f"{len(words)} fields")  # fmt: skip
        try:
            mean, deviation = float(words[2]), float(words[3])
        except ValueError:
            raise FormatError(path, number, "expected a numeric mean and stddev") from None
        table.setdefault((words[0].decode(errors="replace"), words[1].decode()), (mean, deviation))
    return table


def to_zscores(
    evaluation: TrecEvaluation, table: dict[tuple[str, str], tuple[float, float]]
) -> None:
    """Per-topic values as z-scores (`convert_zscores.c`), in place."""
    known_topics = {topic for topic, _ in table}
    for name, column in evaluation.values.items():
        if column and isinstance(column[0], str):
            continue
        for i, topic in enumerate(evaluation.topics):
            found = table.get((topic, name)) if topic in known_topics else None
            value = float(column[i])
            if found is None:
                column[i] = MISSING_ZSCORE
            elif found[1]:
                column[i] = (value - found[0]) / found[1]
            else:
                column[i] = 0.0 if value == found[0] else MISSING_ZSCORE
